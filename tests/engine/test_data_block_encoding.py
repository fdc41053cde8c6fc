"""Data block encodings: round trips and seeks over every encoding x codec x bloom type, and
known-answer bytes for each encoder worked out by hand from HBase's encoder sources."""

from __future__ import annotations

import struct

import pytest
from hfile_helpers import make_cells, open_reader, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine import block as blk
from hsim.engine import file_info as fi
from hsim.engine.block import read_block, read_header
from hsim.engine.block_cache import BlockCache
from hsim.engine.codecs import decompressor
from hsim.engine.encoding import ENCODERS
from hsim.errors import InvalidArgumentError
from hsim.metrics import IOCounters
from hsim.schema import DATA_BLOCK_ENCODINGS, ColumnFamily

CODECS = ["NONE", "SNAPPY", "LZ4", "GZ"]
BLOOMS = ["NONE", "ROW", "ROWCOL"]
TYPES = [4, 8, 10, 12, 14]  # Put, Delete, DeleteFamilyVersion, DeleteColumn, DeleteFamily


def _first_data_block(data: bytes, codec: str = "NONE") -> tuple[bytes, bytes]:
    return read_block(data, 0, decompressor(codec))


@st.composite
def cell_lists(draw):
    """Sorted cells with distinct keys: rows and qualifiers from a small alphabet (so keys
    share prefixes), versions, delete markers, TTL tags, empty and large values."""
    keys = draw(st.sets(st.tuples(
        st.binary(min_size=1, max_size=6).map(lambda b: bytes(x % 4 + 97 for x in b)),
        st.binary(max_size=4).map(lambda b: bytes(x % 3 + 48 for x in b)),
        st.integers(0, 2**42), st.sampled_from(TYPES)), min_size=1, max_size=60))
    out = []
    for seq, (row, qual, ts, code) in enumerate(sorted(keys)):
        value = draw(st.one_of(st.just(b""), st.binary(max_size=40),
                               st.just(b"L" * 70000), st.just(b"same")))
        ttl = draw(st.sampled_from([-1, -1, 5000, 7000]))
        out.append(Cell.make(row, b"fam", qual, ts, code, value, draw(st.integers(0, 300)) + seq,
                             ttl))
    return sorted(out)


@pytest.mark.parametrize("encoding", DATA_BLOCK_ENCODINGS)
@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("bloom", BLOOMS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=cell_lists(), mvcc=st.booleans())
def test_round_trip_and_seeks_equal_full_decode(encoding, codec, bloom, cells, mvcc):
    fam = ColumnFamily(data_block_encoding=encoding, compression=codec, bloom_filter=bloom,
                       block_size=1024)
    data = write(cells, fam, include_tags=True, include_mvcc=mvcc)
    expected = cells if mvcc else [c.with_seq_id(0) for c in cells]
    cache = BlockCache(1 << 30)
    reader = open_reader(data, fam, cache=cache)
    assert reader.data_block_encoding == encoding
    assert list(reader.cells()) == expected
    assert list(reader.scan(None, IOCounters())) == expected
    rows = sorted({c[0] for c in cells} | {b"", b"zzzz", cells[0][0] + b"\x00"})
    for _ in range(2):  # the second pass reads the cached (still encoded) blocks
        for row in rows:
            want = [c for c in expected if c[0] == row]
            assert list(reader.seek_row(row, IOCounters())) == want


@pytest.mark.parametrize("encoding", ["NONE", "PREFIX", "DIFF", "FAST_DIFF"])
def test_blocks_cut_on_unencoded_size_as_none_cuts_them(encoding):
    cells = make_cells(400, cols=3, value=b"value-" * 5)
    none = open_reader(write(cells, ColumnFamily(block_size=4096)))
    fam = ColumnFamily(block_size=4096, data_block_encoding=encoding)
    enc = open_reader(write(cells, fam), fam)
    assert [b.first_cell for b in enc.blocks()] == [b.first_cell for b in none.blocks()]
    assert [k for *_, k in enc.index_entries()] == [k for *_, k in none.index_entries()]
    magic = blk.DATA if encoding == "NONE" else blk.ENCODED_DATA
    assert {b.block_type for b in enc.blocks()} == {magic.decode()}
    if encoding in ("PREFIX", "DIFF", "FAST_DIFF"):
        assert enc.data_size < none.data_size * 0.8


def test_row_index_v1_counts_each_rows_offset_toward_the_block_size():
    """RowIndexEncoderV1.write: postCellEncode(size, size + 4) for a cell that opens a row, so
    HFileWriterImpl.checkBlockBoundary's encoded size reaches BLOCKSIZE first. Cells of 100
    KeyValue bytes, one per row, BLOCKSIZE 1024: NONE closes a block after 11 cells (1,100
    bytes), ROW_INDEX_V1 after 10 (1,040 encoded bytes)."""
    cells = make_cells(60, value=b"v" * (100 - 8 - 26))  # 26-byte keys: row000000/f:q000
    assert {c.serialized_size for c in cells} == {100}
    counts = {}
    for encoding in ("NONE", "ROW_INDEX_V1"):
        fam = ColumnFamily(block_size=1024, data_block_encoding=encoding)
        counts[encoding] = [b.cell_count for b in open_reader(write(cells, fam), fam).blocks()]
    assert counts["NONE"][:5] == [11] * 5
    assert counts["ROW_INDEX_V1"][:6] == [10] * 6


@pytest.mark.parametrize("encoding", ["PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1"])
def test_file_info_names_the_encoding_and_none_files_carry_no_key(encoding):
    cells = make_cells(10)
    fam = ColumnFamily(data_block_encoding=encoding)
    assert open_reader(write(cells, fam), fam).file_info[fi.DATA_BLOCK_ENCODING] == \
        encoding.encode()
    assert fi.DATA_BLOCK_ENCODING not in open_reader(write(cells)).file_info
    tagged = open_reader(write(cells, fam, include_tags=True), fam).file_info
    assert tagged[fi.TAGS_COMPRESSED] == b"\xff"  # encoded + COMPRESS_TAGS (default true)
    assert open_reader(write(cells, include_tags=True)).file_info[fi.TAGS_COMPRESSED] == b"\x00"


def test_block_cache_holds_encoded_blocks_at_their_encoded_size():
    cells = make_cells(2000, value=b"v" * 10)
    sizes = {}
    for encoding in ("NONE", "FAST_DIFF"):
        fam = ColumnFamily(data_block_encoding=encoding)
        cache = BlockCache(1 << 30)
        reader = open_reader(write(cells, fam), fam, cache=cache)
        list(reader.scan(None, IOCounters()))
        assert cache.size == sum(HEADER + read_header(reader.data, o)[2]
                                 for o, m, *_ in reader._headers if m.startswith(b"DATABLK"))
        sizes[encoding] = cache.size
    assert sizes["FAST_DIFF"] < sizes["NONE"] / 2


HEADER = blk.HEADER_SIZE


def test_unknown_encoding_is_refused_naming_the_valid_ones():
    with pytest.raises(InvalidArgumentError, match="FAST_DIFF"):
        ColumnFamily(data_block_encoding="PREFIX_TREE")
    assert ColumnFamily(data_block_encoding="fast_diff").data_block_encoding == "FAST_DIFF"
    assert ColumnFamily.from_options({"DATA_BLOCK_ENCODING": "DIFF"}).data_block_encoding == \
        "DIFF"


def test_a_file_in_an_encoding_hsim_does_not_read_is_refused_in_one_line():
    from hsim.engine.encoding.diff import DiffKeyDeltaEncoder
    from hsim.engine.hfile import HFileWriter
    w = HFileWriter(ColumnFamily(data_block_encoding="DIFF"), Config())
    w.append_all(make_cells(5))
    w.encoder = type("Dify", (DiffKeyDeltaEncoder,), {"name": "DIFY"})()  # an unknown name
    with pytest.raises(ValueError, match="DATA_BLOCK_ENCODING DIFY is not one hsim reads"):
        open_reader(w.finish(5, False, 0))


def test_a_block_whose_id_differs_from_the_file_info_is_refused():
    data = write(make_cells(5), ColumnFamily(data_block_encoding="DIFF"))
    reader = open_reader(data)
    reader._encoder = ENCODERS["PREFIX"]  # as if the file info said PREFIX
    with pytest.raises(ValueError, match="encoded with id 3 .* DATA_BLOCK_ENCODING is PREFIX"):
        list(reader.cells())


# --- known answers --------------------------------------------------------------------------
# Three cells of family "f", no tags, memstore timestamps 5, 6, 7:
#   r1/f:a/1000/Put = "x", r1/f:b/1000/Put = "x", r2/f:a/999/DeleteColumn = ""
# Each key is 16 bytes: rowLen:2 "r1" famLen:1 "f" qualifier:1 ts:8 type:1.
KAT_CELLS = [Cell.make(b"r1", b"f", b"a", 1000, 4, b"x", 5),
             Cell.make(b"r1", b"f", b"b", 1000, 4, b"x", 6),
             Cell.make(b"r2", b"f", b"a", 999, 12, b"", 7)]
TS1000 = bytes.fromhex("00000000000003e8")
TS999 = bytes.fromhex("00000000000003e7")
KEY1 = b"\x00\x02r1\x01fa" + TS1000 + b"\x04"
KEY2 = b"\x00\x02r1\x01fb" + TS1000 + b"\x04"
KEY3 = b"\x00\x02r2\x01fa" + TS999 + b"\x0c"
UNENCODED = struct.pack(">i", 26 + 26 + 25)  # 8 + key 16 + value + mvcc 1, per cell

KNOWN = {
    # PrefixKeyDeltaEncoder.internalEncode: cInt(keyLength - common) cInt(valueLength)
    # cInt(common) key[common:] value, then the vlong memstore ts. Common prefixes with the
    # timestamp and type (findCommonPrefixInFlatKey(.., true, true)): cell 2 shares rowLen, row,
    # famLen, family = 6; cell 3 shares rowLen and "r" = 3.
    "PREFIX": b"\x00\x02" + UNENCODED
    + b"\x10\x01\x00" + KEY1 + b"x\x05"
    + b"\x0a\x01\x06" + KEY2[6:] + b"x\x06"
    + b"\x0d\x00\x03" + KEY3[3:] + b"\x07",
    # DiffKeyDeltaEncoder.compressSingleKeyValue: the first cell opens with famLen family;
    # flag bits: 1 same key length, 2 same value length, 4 same type, 8 timestamp is a diff,
    # (bytes - 1) << 4, 0x80 sign. Cell 1: ts 1000 in 2 bytes (flag 0x10), little-endian e8 03.
    # Cell 2: diff 0 fits 1 byte < 2: flag 1|2|4|8, qualifier past common 6, diff 00.
    # Cell 3: same key length, diff 1000 - 999 = 1: flag 1|8, value length 0, common 3, rest
    # of row "2", qualifier "a", diff 01, type 0x0c.
    "DIFF": b"\x00\x03" + UNENCODED
    + b"\x01f" + b"\x10\x10\x01\x00" + b"\x00\x02r1" + b"a" + b"\xe8\x03" + b"\x04" + b"x\x05"
    + b"\x0f\x06" + b"b" + b"\x00" + b"x\x06"
    + b"\x09\x00\x03" + b"2" + b"a" + b"\x01" + b"\x0c" + b"\x07",
    # FastDiffDeltaEncoder.compressSingleKeyValue: first cell flag 0, lengths, common 0, the
    # whole key, the value. Cell 2: 7 shared ts bytes | 8 same key length | 16 same value
    # length | 32 same type | 64 same value = 0x7f, common 6, qualifier "b", ts byte e8.
    # Cell 3: 7 shared ts bytes | same key length = 0x0f, value length 0, common 3, "2", "a",
    # ts byte e7, type 0x0c.
    "FAST_DIFF": b"\x00\x04" + UNENCODED
    + b"\x00\x10\x01\x00" + KEY1 + b"x\x05"
    + b"\x7f\x06" + b"b" + b"\xe8" + b"\x06"
    + b"\x0f\x00\x03" + b"2" + b"a" + b"\xe7" + b"\x0c" + b"\x07",
    # RowIndexEncoderV1.write / flush: the KeyValues as NONE writes them, rowCount:4, each
    # row's offset from the first cell:4, the cells' size:4 (no unencoded-size int).
    "ROW_INDEX_V1": b"\x00\x07"
    + b"\x00\x00\x00\x10\x00\x00\x00\x01" + KEY1 + b"x\x05"
    + b"\x00\x00\x00\x10\x00\x00\x00\x01" + KEY2 + b"x\x06"
    + b"\x00\x00\x00\x10\x00\x00\x00\x00" + KEY3 + b"\x07"
    + struct.pack(">iiii", 2, 0, 52, 77),
}


@pytest.mark.parametrize("encoding", sorted(KNOWN))
def test_known_answer_block_bytes(encoding):
    fam = ColumnFamily(data_block_encoding=encoding)
    data = write(KAT_CELLS, fam)
    magic, body = _first_data_block(data)
    assert magic == b"DATABLKE"
    assert body == KNOWN[encoding]
    assert list(open_reader(data, fam).cells()) == KAT_CELLS


def test_known_answer_tags_through_the_tag_dictionary():
    """afterEncodingKeyValue with tags: cInt(tagsLength), then TagCompressionContext: a tag new
    to the block's LRUDictionary as 0xff cInt(length) type+value, a repeated one as its 2-byte
    index. Two cells with TTL 5000 (TTL tag type 8), then one without tags."""
    cells = [Cell.make(b"r1", b"f", b"a", 1000, 4, b"x", 5, 5000),
             Cell.make(b"r1", b"f", b"b", 1000, 4, b"x", 6, 5000),
             Cell.make(b"r2", b"f", b"a", 999, 12, b"", 7)]
    fam = ColumnFamily(data_block_encoding="FAST_DIFF")
    data = write(cells, fam, include_tags=True)
    _, body = _first_data_block(data)
    ttl_tag = b"\x08" + struct.pack(">q", 5000)
    unencoded = struct.pack(">i", 77 + 2 * 13 + 2)
    assert body == (b"\x00\x04" + unencoded
                    + b"\x00\x10\x01\x00" + KEY1 + b"x" + b"\x0b\xff\x09" + ttl_tag + b"\x05"
                    + b"\x7f\x06" + b"b" + b"\xe8" + b"\x0b\x00\x00" + b"\x06"
                    + b"\x0f\x00\x03" + b"2" + b"a" + b"\xe7" + b"\x0c" + b"\x00" + b"\x07")
    assert list(open_reader(data, fam).cells()) == cells


def test_tag_dictionary_evicts_the_least_recently_used_entry_past_127():
    cells = [Cell.make(b"r%04d" % i, b"f", b"q", 1, 4, b"", 0, 1000 + i % 130)
             for i in range(400)]
    fam = ColumnFamily(data_block_encoding="DIFF", block_size=1 << 20)
    data = write(cells, fam, include_tags=True, include_mvcc=False)
    reader = open_reader(data, fam)
    assert reader.data_block_count == 1
    assert [c[7] for c in reader.cells()] == [c[7] for c in cells]


def test_gets_through_a_cluster_read_encoded_files():
    import hsim
    for encoding in DATA_BLOCK_ENCODINGS:
        cluster = hsim.Cluster()
        cluster.admin.create_table("t", {"f": ColumnFamily(data_block_encoding=encoding)})
        table = cluster.table("t")
        for i in range(500):
            table.put(b"r%04d" % i, {b"f:q": b"v%d" % i})
        cluster.admin.flush("t")
        assert [c.value for c in table.get(b"r0123")] == [b"v123"]
        assert len(list(table.scan())) == 500
        (sf,) = cluster.master.tables["t"].locator.regions[0].stores[b"f"].files
        assert sf.reader.data_block_encoding == encoding


def test_encoders_are_registered_by_name_and_id():
    assert {e.name: e.id for e in ENCODERS.values()} == {
        "NONE": 0, "PREFIX": 2, "DIFF": 3, "FAST_DIFF": 4, "ROW_INDEX_V1": 7}
    assert set(ENCODERS) == set(DATA_BLOCK_ENCODINGS)
