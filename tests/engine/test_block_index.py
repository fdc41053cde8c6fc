"""getMidpoint, the multi-level block index and midkey(), checked against HBase's rules."""

from __future__ import annotations

from hfile_helpers import make_cells, open_reader, roundtrip, write
from hypothesis import given, settings
from hypothesis import strategies as st

from hsim.cell import LATEST_TIMESTAMP, Cell
from hsim.config import Config
from hsim.engine.block_index import (
    BlockIndexWriter,
    first_on_row,
    get_midpoint,
    key_bytes,
    parse_key,
    parse_non_root,
    parse_root,
)
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily

MAX = -255  # Type.Maximum, negated as in the key tuples
LATEST = -LATEST_TIMESTAMP


def put(row, fam=b"f", qual=b"q", ts=10, seq=1):
    return Cell.make(row, fam, qual, ts, 4, b"v", seq)


# --- getMidpoint (HFileWriterImpl.getMidpoint / getMinimumMidpointArray) ----------------------


def test_first_block_is_indexed_by_its_first_key():
    right = put(b"abc")
    assert get_midpoint(None, right) == right[:5]


def test_rows_differ_left_is_a_prefix_of_right():
    assert get_midpoint(put(b"ab"), put(b"abcd")) == first_on_row(b"abc")


def test_rows_differ_with_room_to_increment_the_first_differing_byte():
    assert get_midpoint(put(b"abc"), put(b"abe")) == first_on_row(b"abd")
    # the short row does not exist in the file: the classic synthetic index/mid key
    assert get_midpoint(put(b"row-00001-long-suffix"), put(b"row-00009-other")) == \
        first_on_row(b"row-00002")


def test_rows_differ_by_one_in_the_differing_byte_take_right_prefix():
    assert get_midpoint(put(b"abc"), put(b"abd")) == first_on_row(b"abd")
    assert get_midpoint(put(b"abc-zzz"), put(b"abd")) == first_on_row(b"abd")


def test_high_bytes_compare_unsigned():
    assert get_midpoint(put(b"\x80\x01"), put(b"\x90")) == first_on_row(b"\x81")
    assert get_midpoint(put(b"a\xfe"), put(b"a\xff")) == first_on_row(b"a\xff")


def test_same_row_families_differ():
    assert get_midpoint(put(b"r", b"a"), put(b"r", b"c")) == (b"r", b"b", b"", LATEST, MAX)


def test_same_row_and_family_qualifiers_differ():
    assert get_midpoint(put(b"r", qual=b"col1"), put(b"r", qual=b"col5")) == \
        (b"r", b"f", b"col2", LATEST, MAX)
    assert get_midpoint(put(b"r", qual=b""), put(b"r", qual=b"x")) == \
        (b"r", b"f", b"x", LATEST, MAX)


def test_only_timestamp_differs_uses_right():
    right = put(b"r", ts=5)
    assert get_midpoint(put(b"r", ts=9), right) == right[:5]


_keys = st.tuples(st.binary(min_size=1, max_size=6), st.sampled_from([b"a", b"b", b"fam"]),
                  st.binary(max_size=4), st.integers(0, 50))


@settings(max_examples=300)
@given(_keys, _keys)
def test_midpoint_sorts_between_and_is_never_longer(a, b):
    left, right = sorted([put(a[0], a[1], a[2], a[3]), put(b[0], b[1], b[2], b[3])])
    if left[:5] == right[:5]:
        return
    mid = get_midpoint(left, right)
    assert left[:5] < mid <= right[:5]
    assert len(key_bytes(mid)) <= len(key_bytes(right))


def test_key_serialization_round_trip():
    k = (b"row", b"fam", b"qual", -123, -4)
    b = key_bytes(k)
    assert len(b) == 12 + 3 + 3 + 4
    assert parse_key(b) == k


# --- the index writer ------------------------------------------------------------------------


def _writer_blocks():
    blocks = []

    def write_block(magic, body):
        offset = sum(len(b) for _, b in blocks)
        blocks.append((magic, body))
        return offset, len(body) + 33

    return blocks, write_block


def test_single_level_when_no_leaf_chunk_fills():
    w = BlockIndexWriter(max_chunk_size=1 << 20, min_entries=16)
    blocks, write_block = _writer_blocks()
    for i in range(10):
        w.add_entry(key_bytes(first_on_row(b"r%02d" % i)), i * 100, 100)
        assert not w.should_write_leaf(False)
    assert not w.should_write_leaf(True)  # closing: the leaf chunk becomes the root
    w.write_index_blocks(write_block)
    assert w.levels == 1
    assert [m for m, _ in blocks] == [b"IDXROOT2"]
    keys, offsets, sizes, end = parse_root(blocks[0][1], 10)
    assert offsets == [i * 100 for i in range(10)] and end == len(blocks[0][1])
    assert keys[3] == first_on_row(b"r03")


def test_leaf_chunk_written_when_its_non_root_size_reaches_the_max():
    key = key_bytes(first_on_row(b"row-0000"))  # 20 bytes
    per_entry = 12 + len(key) + 4  # entry + its secondary-index slot
    w = BlockIndexWriter(max_chunk_size=8 + 5 * per_entry, min_entries=2)
    blocks, write_block = _writer_blocks()
    for i in range(4):
        w.add_entry(key, i, 1)
        assert not w.should_write_leaf(False)
    w.add_entry(key, 4, 1)
    assert w.leaf.non_root_size == 8 + 5 * per_entry
    assert w.should_write_leaf(False)
    w.write_leaf(write_block)
    assert w.levels == 2 and len(w.root) == 1 and blocks[0][0] == b"IDXLEAF2"
    keys, offsets, _ = parse_non_root(blocks[0][1])
    assert offsets == [0, 1, 2, 3, 4] and len(blocks[0][1]) == 8 + 5 * per_entry


# --- lookups and midkey on real files ----------------------------------------------------------

SMALL_INDEX = Config(index_chunk_size=512)


def test_seek_row_for_every_row_matches_a_linear_filter_multi_level():
    cells = make_cells(400, cols=3, value=b"x" * 30)
    fam = ColumnFamily(block_size=1024)
    r = roundtrip(cells, fam, SMALL_INDEX)
    assert r.index_levels >= 2 and r.data_block_count > 50
    io = IOCounters()
    for row in sorted({c[0] for c in cells}) + [b"row000010x", b"a", b"zzz"]:
        assert list(r.seek_row(row, io)) == [c for c in cells if c[0] == row]


def test_every_index_entry_lands_on_its_block():
    cells = make_cells(300, cols=2, value=b"y" * 50)
    fam = ColumnFamily(block_size=1024)
    r = roundtrip(cells, fam, SMALL_INDEX)
    blocks = r.blocks()
    leaf_level = r.index_levels
    entries = [e for e in r.index_entries() if e[0] == leaf_level]
    assert [e[1] for e in entries] == [b.offset for b in blocks]
    assert [e[2] for e in entries] == [b.on_disk_size for b in blocks]
    for i, (_, _, _, key) in enumerate(entries):
        first = blocks[i].first_cell
        assert key <= first[:5]
        if i:
            prev_last = [c for c in cells if c < first][-1]
            assert key > prev_last[:5]
            assert key == get_midpoint(prev_last, first)
        assert r.locate(key, IOCounters()) == i


def test_three_level_index():
    cells = make_cells(1500, value=b"z" * 40)
    fam = ColumnFamily(block_size=1024)
    config = Config(index_chunk_size=300, index_min_entries=4)
    r = roundtrip(cells, fam, config)
    assert r.index_levels == 3
    io = IOCounters()
    for row in (b"row000000", b"row000777", b"row001499"):
        assert [c[0] for c in r.seek_row(row, io)] == [row]
    assert io.blocks_read == 3 * 3  # intermediate + leaf + data block, no cache


def test_midkey_single_level_is_the_middle_root_entry():
    cells = make_cells(200, value=b"w" * 40)
    fam = ColumnFamily(block_size=1024)
    r = roundtrip(cells, fam)
    assert r.index_levels == 1
    root = [e for e in r.index_entries()]
    mid = r.mid_key()
    assert mid[:5] == root[len(root) // 2][3]
    assert mid.timestamp == LATEST_TIMESTAMP  # a getMidpoint key: firstOnRow of a short row
    assert mid[1] == b"" and mid[0] < cells[-1][0]


def test_midkey_multi_level_is_leaf_entry_n_minus_1_over_2():
    cells = make_cells(400, cols=3, value=b"x" * 30)
    fam = ColumnFamily(block_size=1024)
    r = roundtrip(cells, fam, SMALL_INDEX)
    assert r.index_levels >= 2
    leaves = [e for e in r.index_entries() if e[0] == r.index_levels]
    assert len(leaves) == r.data_block_count
    assert r.mid_key()[:5] == leaves[(len(leaves) - 1) // 2][3]


def test_full_first_keys_index_the_real_first_cell():
    cells = make_cells(200, value=b"w" * 40)
    fam = ColumnFamily(block_size=1024)
    data = write(cells, fam, full_first_keys=True)
    r = open_reader(data, fam)
    firsts = [b.first_cell[:5] for b in r.blocks()]
    assert [e[3] for e in r.index_entries()] == firsts
    assert r.mid_key()[:5] in firsts
