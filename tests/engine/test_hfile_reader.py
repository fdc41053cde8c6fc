"""HFileReader alone: what it promises the store files and scanners above it. The file's
metadata as written; a row's cells however many blocks it spans; `row_part`'s "runs to the
block's end" flag the row cursors rely on; a reseek inside the held block fetches nothing;
the mid key a split reads; a bulk-loaded file's cells take its sequence id; a read that does
not cache blocks adds none. (Round trips, codecs and layout: test_hfile.py.)"""

from hsim.cell import DELETE_COLUMN, Cell, from_fields
from hsim.config import Config
from hsim.engine.block_cache import BlockCache
from hsim.engine.store_file_scanner import reversed_rows
from hsim.metrics import IOCounters, UncachedReads
from hsim.schema import ColumnFamily

from hfile_helpers import make_cells, open_reader, roundtrip, write

SMALL_BLOCKS = ColumnFamily(block_size=1024)


def rows_of(cells) -> list:
    return [c[0] for c in cells]


def test_metadata_is_what_the_writer_was_given():
    cells = make_cells(50, ts=1000)
    data = write(cells, max_seq_id=77, major=True, create_time=1234)
    r = open_reader(data, name="abc")
    assert (r.name, r.size, r.entry_count) == ("abc", len(data), 50)
    assert (r.max_seq_id, r.is_major, r.create_time) == (77, True, 1234)
    assert (r.first_row, r.last_row) == (b"row000000", b"row000049")
    assert (r.min_timestamp, r.max_timestamp, r.earliest_put_ts) == (1001, 1001, 1001)
    assert not r.bulk_loaded and not r.include_tags


def test_seek_row_reads_a_row_that_spans_blocks():
    cells = make_cells(3, cols=60, value=b"x" * 40)  # each row over several 1 KiB blocks
    r = roundtrip(cells, SMALL_BLOCKS)
    assert r.data_block_count > 3
    io = IOCounters()
    got = list(r.seek_row(b"row000001", io))
    assert got == [c for c in cells if c[0] == b"row000001"]
    assert io.blocks_read >= 3  # the row ran on into the following blocks
    assert list(r.seek_row(b"row000001x", IOCounters())) == []


def test_row_part_says_whether_the_row_runs_to_the_blocks_end():
    cells = make_cells(3, cols=60, value=b"x" * 40)
    r = roundtrip(cells, SMALL_BLOCKS)
    first = r.locate((b"row000001",), IOCounters())
    part, to_end = r.row_part(b"row000001", first, None, IOCounters())
    assert part and rows_of(part) == [b"row000001"] * len(part) and to_end
    last = r.locate((b"row000002",), IOCounters())  # row 1 ends in row 2's first block
    part, to_end = r.row_part(b"row000001", last, None, IOCounters())
    assert part and not to_end
    key = part[-1]  # from a key inside the block: only the cells at or after it
    assert r.row_part(b"row000001", last, key, IOCounters())[0] == [key]


def test_scan_from_a_key_and_a_reseek_inside_the_held_block():
    cells = make_cells(200, value=b"c" * 40)
    r = roundtrip(cells, SMALL_BLOCKS, cache=BlockCache(10 << 20))
    cursor = [None, None]
    io = IOCounters()
    it = r.scan((b"row000010",), io, cursor)
    assert next(it)[0] == b"row000010"
    fetched = io.blocks_read + io.cache_hits
    ahead = cursor[1][-1][0]  # the held block's last row
    io2 = IOCounters()
    again = r.scan((ahead,), io2, cursor)
    assert next(again)[0] == ahead
    assert io2.blocks_read + io2.cache_hits == 0 < fetched  # a reseek: no fetch, no lookup


def test_reversed_rows_stop_above_the_stop_row():
    cells = make_cells(30, cols=2)
    r = roundtrip(cells, SMALL_BLOCKS)
    got = list(reversed_rows(r, b"row000020", b"row000017", IOCounters()))
    assert [row for row, _ in got] == [b"row000020", b"row000019", b"row000018"]
    assert got[0][1] == [c for c in cells if c[0] == b"row000020"]  # ascending within a row


def test_mid_key_is_a_row_inside_the_file_for_one_and_two_index_levels():
    cells = make_cells(400, value=b"c" * 40)
    for config in (Config(), Config(index_chunk_size=256)):
        r = roundtrip(cells, SMALL_BLOCKS, config)
        mid = r.mid_key()
        assert r.first_row < mid[0] < r.last_row
        assert b"row000100" < mid[0] < b"row000300"
    assert roundtrip(cells, SMALL_BLOCKS, Config(index_chunk_size=256)).index_levels == 2
    assert roundtrip([], SMALL_BLOCKS).mid_key() is None


def test_a_bulk_loaded_files_cells_take_the_sequence_id_of_its_name():
    cells = make_cells(5)
    r = open_reader(write(cells, max_seq_id=3), name="f_SeqId_42_")
    assert r.bulk_loaded and r.max_seq_id == 42
    assert {from_fields(c).seq_id for c in r.scan(None, IOCounters())} == {42}


def test_a_read_that_does_not_cache_blocks_adds_none():
    cells = make_cells(100, value=b"c" * 40)
    cache = BlockCache(10 << 20)
    r = roundtrip(cells, SMALL_BLOCKS, cache=cache)
    list(r.scan(None, UncachedReads(IOCounters())))
    assert cache.block_count == 0
    list(r.seek_row(b"row000050", IOCounters()))
    assert cache.block_count == 1


def test_delete_column_marker_file_range_reaches_zero():
    c = Cell.make(b"r", b"f", b"a", 500, DELETE_COLUMN, b"", 1)
    r = roundtrip([c])
    assert (r.min_timestamp, r.max_timestamp) == (0, 500)
