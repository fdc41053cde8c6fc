"""KeyValue sizes and layout in data blocks, block headers, checksums, Hadoop vlongs."""

from __future__ import annotations

import struct
import zlib

import google_crc32c
import pytest
from hfile_helpers import roundtrip, write
from hypothesis import given
from hypothesis import strategies as st

from hsim.cell import Cell, CellType
from hsim.engine import block as blk
from hsim.engine.block import (
    HEADER_SIZE,
    decode_cells,
    read_block,
    read_header,
    read_vlong,
    vint_size,
    write_block,
    write_vlong,
)
from hsim.engine.codecs import compressor, decompressor


def _data_block_body(data: bytes) -> bytes:
    _, body = read_block(data, 0, decompressor("NONE"))
    return body


def test_smallest_keyvalue_is_24_bytes_on_disk():
    cell = Cell(b"r", b"f", b"q", 1, CellType.PUT, b"v")
    assert cell.serialized_size == 24
    data = write([cell], include_mvcc=False)
    body = _data_block_body(data)
    # keylen:4 vallen:4 rowlen:2 r famlen:1 f q ts:8 type:1 v
    assert body == cell.to_keyvalue()
    assert len(body) == 24
    assert struct.unpack_from(">ii", body) == (15, 1)  # keyLen = 12 + r + f + q


def test_mvcc_is_written_as_a_vlong_after_the_value():
    cells = [Cell.make(b"r", b"f", b"q", 1, 4, b"v", 5),
             Cell.make(b"s", b"f", b"q", 1, 4, b"v", 300)]
    body = _data_block_body(write(cells))
    # 24 + 1 byte vlong for 5, 24 + 3 bytes (length byte + 2) for 300
    assert len(body) == 25 + 27
    assert body[24] == 5
    assert read_vlong(body, 25 + 24) == (300, 52)
    assert decode_cells(body, False, True) == cells


def test_ttl_tags_round_trip_and_count_in_the_size():
    cells = [Cell(b"a", b"f", b"q", 7, CellType.PUT, b"x", seq_id=3, ttl_ms=60_000),
             Cell(b"b", b"f", b"q", 7, CellType.PUT, b"y", seq_id=2)]
    assert cells[0].serialized_size == 24 + 13
    body = _data_block_body(write(cells, include_tags=True))
    # tagged cell: 24 + 13 tags + 1 vlong; untagged cell in a tags file: 24 + 2 (tagsLen 0) + 1
    assert len(body) == 38 + 27
    got = decode_cells(body, True, True)
    assert got == cells
    assert got[0].ttl_ms == 60_000 and got[1].ttl_ms is None


def test_a_ttl_cell_needs_a_tags_writer():
    with pytest.raises(ValueError, match="include_tags"):
        write([Cell(b"a", b"f", b"q", 7, CellType.PUT, b"x", ttl_ms=5)])


def test_cells_without_mvcc_read_back_with_seq_zero():
    cells = [Cell.make(b"r%d" % i, b"f", b"q", 1, 4, b"v", 100 + i) for i in range(5)]
    r = roundtrip(cells, include_mvcc=False)
    assert list(r.cells()) == [c.with_seq_id(0) for c in cells]
    assert r.include_mvcc is False


def test_block_header_is_33_bytes_with_checksum_chunks():
    body = bytes(range(256)) * 160  # 40960 bytes
    data, size = write_block(blk.DATA, body, compressor("NONE"), 123, 16384)
    assert size == len(body)
    magic, on_disk, uncompressed, prev, ctype, bpc, dwh = struct.unpack_from(">8siiqBii", data)
    assert (magic, uncompressed, prev, ctype, bpc) == (blk.DATA, 40960, 123, 2, 16384)
    n_sums = -(-(HEADER_SIZE + 40960) // 16384)  # 3 chunks of header + data
    assert n_sums == 3
    assert on_disk == 40960 + 4 * n_sums
    assert dwh == HEADER_SIZE + 40960
    assert len(data) == HEADER_SIZE + on_disk
    assert read_header(data, 0) == (blk.DATA, len(data), 40960, 123)
    assert read_block(data, 0, decompressor("NONE")) == (blk.DATA, body)


def test_checksums_are_crc32c_per_chunk_and_crc32_blocks_still_verify():
    body = bytes(range(256)) * 100
    data, _ = write_block(blk.DATA, body, compressor("NONE"), -1, 16384)
    dwh = HEADER_SIZE + len(body)
    # CRC32C (Castagnoli) known answer: "123456789" -> 0xE3069283
    assert google_crc32c.value(b"123456789") == 0xE3069283
    assert struct.unpack_from(">I", data, dwh)[0] == google_crc32c.value(data[:16384])
    # a block as earlier hsim versions wrote it: ChecksumType.CRC32 (code 1), zlib's CRC32
    head = bytearray(data[:dwh])
    head[24] = 1
    old = bytes(head) + b"".join(struct.pack(">I", zlib.crc32(head[i:i + 16384]))
                                 for i in range(0, dwh, 16384))
    assert read_block(old, 0, decompressor("NONE")) == (blk.DATA, body)
    with pytest.raises(ValueError, match="checksum"):
        read_block(old[:40] + b"\x00" + old[41:], 0, decompressor("NONE"))


def test_checksums_catch_a_flipped_byte():
    data, _ = write_block(blk.DATA, b"hello" * 100, compressor("SNAPPY"), -1, 16384)
    bad = bytearray(data)
    bad[40] ^= 0xFF
    with pytest.raises(ValueError, match="checksum"):
        read_block(bytes(bad), 0, decompressor("SNAPPY"))


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_vlong_round_trip(i):
    b = write_vlong(i)
    assert read_vlong(b, 0) == (i, len(b))
    assert vint_size(i) == len(b)


def test_vlong_sizes_follow_hadoop():
    assert [len(write_vlong(i)) for i in (-112, 0, 127, 128, 255, 256, 65535, 65536, -113)] == \
        [1, 1, 1, 2, 2, 3, 3, 4, 2]
    assert write_vlong(-1) == b"\xff"
    assert write_vlong(128) == bytes([0x8F, 0x80])  # -113: one more byte follows


@given(st.lists(st.tuples(st.binary(min_size=1, max_size=8), st.binary(max_size=4),
                          st.integers(0, 1 << 45), st.sampled_from([4, 8, 12, 14]),
                          st.binary(max_size=30), st.integers(0, 1 << 40),
                          st.sampled_from([-1, -1, 0, 7, 1 << 40])), min_size=1, max_size=40),
       st.booleans(), st.booleans())
def test_plain_decoding_gives_the_cells_fields(specs, tags, mvcc):
    """decode_cells(plain=True), which compactions read with, gives each Cell's fields."""
    cells = sorted(Cell.make(r, b"f", q, ts, code, v, seq if mvcc else 0, ttl if tags else -1)
                   for r, q, ts, code, v, seq, ttl in specs)
    body = _data_block_body(write(cells, include_tags=tags, include_mvcc=mvcc))
    as_cells = decode_cells(body, tags, mvcc)
    plain = decode_cells(body, tags, mvcc, plain=True)
    assert plain == [tuple(c) for c in as_cells] == [tuple(c) for c in cells]
    assert all(type(c) is tuple for c in plain) and all(type(c) is Cell for c in as_cells)
