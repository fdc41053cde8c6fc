"""The HFile trailer (FixedFileTrailer) and file info (HFileInfo), in HBase 2's protobuf form.

The trailer is the last 4096 bytes of a v3 file: the magic `TRABLK"$`, a length-delimited
FileTrailerProto, zero padding, and the version int `(minor << 24) | major` as the last four
bytes. File info is a FILEINF2 block holding `PBUF` + a length-delimited FileInfoProto (a list
of name/value byte pairs, sorted by name as HBase's TreeMap keeps them).

Only the protobuf wire format's varint and length-delimited fields are needed, so they are
written here directly instead of pulling in a protobuf library.
"""

from __future__ import annotations

import dataclasses
import struct
from dataclasses import dataclass

from hsim.engine.block import TRAILER

TRAILER_SIZE = 4096  # FixedFileTrailer size for v3
MAJOR_VERSION = 3
MINOR_VERSION = 3  # HFileReaderImpl.MAX_MINOR_VERSION (PB trailer + checksums)
COMPARATOR = "org.apache.hadoop.hbase.CellComparatorImpl"
PB_MAGIC = b"PBUF"
_I = struct.Struct(">i")


# --- protobuf wire format -----------------------------------------------------------------------


def _varint(n: int) -> bytes:
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _read_varint(buf, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _field_varint(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _field_bytes(number: int, value: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def _read_fields(buf, pos: int, end: int) -> list[tuple[int, int | bytes]]:
    out = []
    while pos < end:
        tag, pos = _read_varint(buf, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = _read_varint(buf, pos)
        elif wire == 2:
            n, pos = _read_varint(buf, pos)
            value = bytes(buf[pos : pos + n])
            pos += n
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.append((number, value))
    return out


def delimited(message: bytes) -> bytes:
    return _varint(len(message)) + message


def read_delimited(buf, pos: int) -> tuple[list, int]:
    n, pos = _read_varint(buf, pos)
    return _read_fields(buf, pos, pos + n), pos + n


# --- trailer -----------------------------------------------------------------------------------


@dataclass
class FixedFileTrailer:
    """FileTrailerProto's fields (HFile.proto), in field-number order."""

    file_info_offset: int = 0
    load_on_open_data_offset: int = 0
    uncompressed_data_index_size: int = 0
    total_uncompressed_bytes: int = 0
    data_index_count: int = 0
    meta_index_count: int = 0
    entry_count: int = 0
    num_data_index_levels: int = 1
    first_data_block_offset: int = -1
    last_data_block_offset: int = -1
    comparator_class_name: str = COMPARATOR
    compression_codec: int = 2  # Compression.Algorithm ordinal; NONE
    major_version: int = MAJOR_VERSION
    minor_version: int = MINOR_VERSION

    def to_bytes(self) -> bytes:
        fields = dataclasses.astuple(self)
        parts = []
        for number, value in enumerate(fields[:11], start=1):
            if number == 11:
                parts.append(_field_bytes(11, value.encode()))
            else:
                parts.append(_field_varint(number, value))
        parts.append(_field_varint(12, self.compression_codec))
        body = TRAILER + delimited(b"".join(parts))
        version = _I.pack(self.minor_version << 24 | self.major_version)
        return body + bytes(TRAILER_SIZE - len(body) - 4) + version

    @classmethod
    def from_file(cls, data: bytes) -> "FixedFileTrailer":
        start = len(data) - TRAILER_SIZE
        if start < 0 or data[start : start + 8] != TRAILER:
            raise ValueError("not an HFile: no trailer magic")
        version = _I.unpack_from(data, len(data) - 4)[0]
        fields, _ = read_delimited(data, start + 8)
        names = [f.name for f in dataclasses.fields(cls)]
        kwargs = {}
        for number, value in fields:
            name = names[number - 1]
            if number == 11:
                value = value.decode()
            elif number in (9, 10) and value >= 1 << 63:
                value -= 1 << 64
            kwargs[name] = value
        return cls(major_version=version & 0xFFFFFF, minor_version=version >> 24, **kwargs)


# --- file info ---------------------------------------------------------------------------------


def file_info_bytes(info: dict[bytes, bytes]) -> bytes:
    """PBUF + delimited FileInfoProto { repeated BytesBytesPair map_entry = 1; }."""
    entries = b"".join(
        _field_bytes(1, _field_bytes(1, k) + _field_bytes(2, v)) for k, v in sorted(info.items())
    )
    return PB_MAGIC + delimited(entries)


def parse_file_info(body: bytes) -> dict[bytes, bytes]:
    if body[:4] != PB_MAGIC:
        raise ValueError("file info without the PBUF magic")
    fields, _ = read_delimited(body, 4)
    info = {}
    for _, pair in fields:
        kv = dict(_read_fields(pair, 0, len(pair)))
        info[kv[1]] = kv.get(2, b"")
    return info


def time_range_bytes(min_ts: int, max_ts: int) -> bytes:
    """TimeRangeTracker.toByteArray: PBUF + TimeRangeTracker { from = 1; to = 2; }."""
    return PB_MAGIC + _field_varint(1, min_ts) + _field_varint(2, max_ts)


def parse_time_range(value: bytes) -> tuple[int, int]:
    d = dict(_read_fields(value, 4, len(value)))
    lo, hi = d.get(1, 0), d.get(2, 0)
    return (lo - (1 << 64) if lo >= 1 << 63 else lo), (hi - (1 << 64) if hi >= 1 << 63 else hi)
