"""HFile blocks (HFileBlock): the 33-byte header, checksums, and the cells of a data block.

Every block is `header(33) + body (compressed with the family codec) + checksums`:

    magic:8  onDiskSizeWithoutHeader:4  uncompressedSizeWithoutHeader:4  prevBlockOffset:8
    checksumType:1  bytesPerChecksum:4  onDiskDataSizeWithHeader:4

Checksums cover header + on-disk body, 4 bytes per `bytes_per_checksum` (16 KiB) chunk, as
ChecksumUtil lays them out, of HBase's default type CRC32C (ChecksumType code 2), computed by
the hardware-backed google-crc32c library as Hadoop's native CRC32C is. Blocks written by
earlier hsim versions carry CRC32 (code 1, zlib) and still verify: the header says which.

A data block (NONE data-block encoding, NoOpDataBlockEncoder) is a run of cells:
`keylen:4 vallen:4 key value [tagslen:2 tags] [mvcc as Hadoop vlong]`; the other encodings
(ENCODED_DATA blocks) are in hsim/engine/encoding/.
"""

from __future__ import annotations

import struct
import zlib

from google_crc32c import value as _crc32c

from hsim.cell import KV_HEAD, NO_TTL, TAG_LONG, TIMESTAMP_TYPE, TTL_TAG_TYPE, Cell

HEADER_SIZE = 33
CHECKSUM_CRC32 = 1  # ChecksumType codes (NULL = 0)
CHECKSUM_CRC32C = 2
_HEADER = struct.Struct(">8siiqBii")

# BlockType magics (BlockType.java).
DATA = b"DATABLK*"
ENCODED_DATA = b"DATABLKE"  # a data block in a data block encoding other than NONE
LEAF_INDEX = b"IDXLEAF2"
BLOOM_CHUNK = b"BLMFBLK2"
META = b"METABLKc"
INTERMEDIATE_INDEX = b"IDXINTE2"
ROOT_INDEX = b"IDXROOT2"
FILE_INFO = b"FILEINF2"
GENERAL_BLOOM_META = b"BLMFMET2"
DELETE_FAMILY_BLOOM_META = b"DFBLMET2"
TRAILER = b'TRABLK"$'

# ChecksumType code -> its function of a bytes chunk
_CHECKSUMS = {CHECKSUM_CRC32: zlib.crc32, CHECKSUM_CRC32C: _crc32c}
_CHECKSUM = struct.Struct(">I")
_new = tuple.__new__


def checksum_bytes(on_disk_data_with_header: int, bytes_per_checksum: int) -> int:
    """ChecksumUtil.numBytes: 4 bytes per started chunk of header + on-disk body."""
    return 4 * (-(-on_disk_data_with_header // bytes_per_checksum))


def write_block(magic: bytes, body: bytes, compress, prev_offset: int,
                bytes_per_checksum: int) -> tuple[bytes, int]:
    """One block as it lands on disk; returns (block bytes, uncompressed body size)."""
    disk = compress(body)
    data_with_header = HEADER_SIZE + len(disk)
    header = _HEADER.pack(magic, len(disk) + checksum_bytes(data_with_header, bytes_per_checksum),
                          len(body), prev_offset,
                          CHECKSUM_CRC32C, bytes_per_checksum, data_with_header)
    head_and_data = header + disk
    sums = b"".join(
        _CHECKSUM.pack(_crc32c(head_and_data[i : i + bytes_per_checksum]))
        for i in range(0, data_with_header, bytes_per_checksum)
    )
    return head_and_data + sums, len(body)


def read_header(data: bytes, offset: int) -> tuple[bytes, int, int, int]:
    """(magic, on-disk size with header, uncompressed body size, prev block offset)."""
    magic, on_disk, uncompressed, prev, _t, _bpc, _dwh = _HEADER.unpack_from(data, offset)
    return magic, on_disk + HEADER_SIZE, uncompressed, prev


def read_block(data: bytes, offset: int, decompress, verify: bool = True) -> tuple[bytes, bytes]:
    """(magic, uncompressed body) of the block at `offset`, checksums verified."""
    magic, on_disk, uncompressed, _prev, ctype, bpc, dwh = _HEADER.unpack_from(data, offset)
    if verify and ctype:
        crc = _CHECKSUMS.get(ctype)
        if crc is None:
            raise ValueError(f"unknown checksum type {ctype} in block at offset {offset}")
        end = offset + dwh
        sums = struct.unpack_from(">%dI" % -(-dwh // bpc), data, end)
        for k, i in enumerate(range(offset, end, bpc)):
            if crc(data[i : min(i + bpc, end)]) != sums[k]:
                raise ValueError(f"checksum mismatch in block at offset {offset}")
    body = data[offset + HEADER_SIZE : offset + dwh]
    return magic, decompress(body, uncompressed)


# --- Hadoop WritableUtils variable-length longs ------------------------------------------------


def write_vlong(i: int) -> bytes:
    """WritableUtils.writeVLong: one byte for -112..127, else a length byte and big-endian bytes."""
    if -112 <= i <= 127:
        return bytes((i & 0xFF,))
    length = -112
    if i < 0:
        i ^= -1
        length = -120
    n = (i.bit_length() + 7) >> 3
    return bytes(((length - n) & 0xFF,)) + i.to_bytes(n, "big")


def read_vlong(buf, pos: int) -> tuple[int, int]:
    """WritableUtils.readVLong; returns (value, position after it)."""
    first = buf[pos]
    if first < 128 or first >= 144:  # -112..127 as a signed byte
        return (first if first < 128 else first - 256), pos + 1
    signed = first - 256
    negative = signed < -120
    n = (-119 - signed) if negative else (-111 - signed)  # total size including this byte
    v = int.from_bytes(buf[pos + 1 : pos + n], "big")
    return (~v if negative else v), pos + n


def vint_size(i: int) -> int:
    """WritableUtils.getVIntSize."""
    if -112 <= i <= 127:
        return 1
    if i < 0:
        i ^= -1
    return 1 + ((i.bit_length() + 7) >> 3)


# --- data block cells ---------------------------------------------------------------------------


def decode_cells(buf: bytes, include_tags: bool, include_mvcc: bool,
                 plain: bool = False) -> list:
    """All cells of an uncompressed data block body, in order (NoneEncoder layout).

    This is the read hot path: one struct unpack for the lengths and one for ts/type, slices
    for the fields, cells built with tuple.__new__ (Cell's field order: row, family,
    qualifier, -ts, -type, -seq, value, ttl). An HFile holds one family, so the family bytes
    are sliced once and shared by every cell. `plain` gives the field tuples themselves, as
    the MemStore holds cells: a compaction, which never hands its cells out, saves a copy
    per cell (a fifth of the decoding)."""
    out = []
    append = out.append
    unpack_lens = KV_HEAD.unpack_from
    unpack_tstype = TIMESTAMP_TYPE.unpack_from
    from_bytes = int.from_bytes
    end = len(buf)
    pos = 0
    fam = b""
    flen = -1
    seq = 0
    ttl = NO_TTL
    while pos < end:
        klen, vlen, rlen = unpack_lens(buf, pos)
        p = pos + 10 + rlen
        if buf[p] != flen:
            flen = buf[p]
            fam = buf[p + 1 : p + 1 + flen]
        kend = pos + 8 + klen
        ts, code = unpack_tstype(buf, kend - 9)
        vend = kend + vlen
        nxt = vend
        if include_tags:
            tags_end = vend + 2 + (buf[vend] << 8 | buf[vend + 1])
            ttl = NO_TTL
            tp = vend + 2
            while tp < tags_end:  # [tagLen:2][type:1][value]
                if buf[tp + 2] == TTL_TAG_TYPE:
                    ttl = TAG_LONG.unpack_from(buf, tp + 3)[0]
                tp += 2 + (buf[tp] << 8 | buf[tp + 1])
            nxt = tags_end
        if include_mvcc:
            first = buf[nxt]
            if first < 128:
                seq = first
                nxt += 1
            elif 136 <= first < 144:  # a positive multi-byte vlong: 145 - first bytes in all
                n = 145 - first
                seq = from_bytes(buf[nxt + 1 : nxt + n], "big")
                nxt += n
            else:
                seq, nxt = read_vlong(buf, nxt)
        t = (buf[pos + 10 : p], fam, buf[p + 1 + flen : kend - 9], -ts, -code, -seq,
             buf[kend:vend], ttl)
        append(t if plain else _new(Cell, t))
        pos = nxt
    return out
