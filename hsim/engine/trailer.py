"""The HFile trailer (FixedFileTrailer) and file info (HFileInfo), in HBase 2's protobuf form.

The trailer is the last 4096 bytes of a v3 file: the magic `TRABLK"$`, a length-delimited
FileTrailerProto, zero padding, and the version int `(minor << 24) | major` as the last four
bytes. File info is a FILEINF2 block holding `PBUF` + a length-delimited FileInfoProto (a list
of name/value byte pairs, sorted by name as HBase's TreeMap keeps them).

The protobuf wire format itself is in hsim/protobuf.py.
"""

from __future__ import annotations

import dataclasses
import struct
from dataclasses import dataclass

from hsim.engine.block import TRAILER
from hsim.protobuf import delimited, field_bytes, field_varint, read_delimited, read_fields

TRAILER_SIZE = 4096  # FixedFileTrailer size for v3
MAJOR_VERSION = 3
MINOR_VERSION = 3  # HFileReaderImpl.MAX_MINOR_VERSION (PB trailer + checksums)
# FixedFileTrailer.getHBase1CompatibleName: HBase 2 writes CellComparatorImpl under its HBase 1
# name, so HBase 1 readers can open the file (and reads either name).
COMPARATOR = "org.apache.hadoop.hbase.KeyValue$KVComparator"
PB_MAGIC = b"PBUF"
_I = struct.Struct(">i")


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
                parts.append(field_bytes(11, value.encode()))
            else:
                parts.append(field_varint(number, value))
        parts.append(field_varint(12, self.compression_codec))
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
        field_bytes(1, field_bytes(1, k) + field_bytes(2, v)) for k, v in sorted(info.items())
    )
    return PB_MAGIC + delimited(entries)


def parse_file_info(body: bytes) -> dict[bytes, bytes]:
    if body[:4] != PB_MAGIC:
        raise ValueError("file info without the PBUF magic")
    fields, _ = read_delimited(body, 4)
    info = {}
    for _, pair in fields:
        kv = dict(read_fields(pair, 0, len(pair)))
        info[kv[1]] = kv.get(2, b"")
    return info


def time_range_bytes(min_ts: int, max_ts: int) -> bytes:
    """TimeRangeTracker.toByteArray: PBUF + TimeRangeTracker { from = 1; to = 2; }."""
    return PB_MAGIC + field_varint(1, min_ts) + field_varint(2, max_ts)


def parse_time_range(value: bytes) -> tuple[int, int]:
    d = dict(read_fields(value, 4, len(value)))
    lo, hi = d.get(1, 0), d.get(2, 0)
    return (lo - (1 << 64) if lo >= 1 << 63 else lo), (hi - (1 << 64) if hi >= 1 << 63 else hi)
