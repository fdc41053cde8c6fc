"""Store (HStore) alone: what it promises its Region. Cells in with sequence ids; a Get and a
Scan return what the matcher keeps across MemStore and files; a flush writes one file and
empties the MemStore; a compaction replaces its inputs; a split hands out half-references;
a file the disk refuses leaves the store as it was."""

import pytest

from hsim.cell import DELETE_COLUMN, DELETE_FAMILY, NO_TTL, PUT, fields
from hsim.config import Config
from hsim.engine.query_matcher import ScanQuery
from hsim.engine.store import Store
from hsim.errors import DiskIOError, DroppedSnapshotError
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily

NOW = 10_000
ALL = ScanQuery()


def new_store(**family) -> Store:
    return Store(b"f", ColumnFamily(**family), Config(), owner="enc")


def put(store, row, q, ts, value, seq, code=PUT):
    return store.add(fields(row, b"f", q, ts, code, value, seq, NO_TTL))


def values(cells) -> list:
    return [(c.row, c.qualifier, c.timestamp, c.value) for c in cells]


def test_add_returns_the_heap_bytes_the_memstore_grew_by():
    s = new_store()
    before = s.memstore.heap_size
    added = put(s, b"r", b"a", 1, b"v", 1)
    assert added > 0 and s.memstore.heap_size - before == added


def test_get_merges_memstore_and_files_newest_first():
    s = new_store(max_versions=3)
    put(s, b"r", b"a", 1, b"old", 1)
    s.flush(NOW, max_seq_id=1)
    put(s, b"r", b"a", 2, b"new", 2)
    got = s.get(b"r", ScanQuery(max_versions=3), NOW, IOCounters())
    assert values(got) == [(b"r", b"a", 2, b"new"), (b"r", b"a", 1, b"old")]
    assert values(s.get(b"r", ALL, NOW, IOCounters())) == [(b"r", b"a", 2, b"new")]


def test_get_of_an_absent_row_is_empty_and_skips_files_by_key_range():
    s = new_store()
    put(s, b"m", b"a", 1, b"v", 1)
    s.flush(NOW, max_seq_id=1)
    io = IOCounters()
    assert s.get(b"z", ALL, NOW, io) == []
    assert io.files_skipped_key_range == 1


def test_a_time_range_skips_files_and_memstore_outside_it():
    s = new_store()
    put(s, b"r", b"a", 100, b"file", 1)
    s.flush(NOW, max_seq_id=1)
    put(s, b"r", b"b", 200, b"mem", 2)
    io = IOCounters()
    got = s.get(b"r", ScanQuery(time_range=(150, 300)), NOW, io)
    assert values(got) == [(b"r", b"b", 200, b"mem")]
    assert io.files_skipped_time_range == 1
    assert values(s.get(b"r", ScanQuery(time_range=(0, 150)), NOW, IOCounters())) == [
        (b"r", b"a", 100, b"file")]


def test_a_delete_column_marker_in_the_memstore_masks_the_file_below_it():
    s = new_store()
    put(s, b"r", b"a", 5, b"v", 1)
    s.flush(NOW, max_seq_id=1)
    put(s, b"r", b"a", 9, b"", 2, code=DELETE_COLUMN)
    assert s.get(b"r", ALL, NOW, IOCounters()) == []
    # its time range reaches back to 0, so a range below the marker still reads the memstore
    assert s.get(b"r", ScanQuery(time_range=(0, 6)), NOW, IOCounters()) == []


def test_flush_writes_one_file_and_empties_the_memstore():
    s = new_store()
    for i in range(3):
        put(s, b"r%d" % i, b"a", 1, b"v", i + 1)
    sf = s.flush(NOW, max_seq_id=3)
    assert s.files == [sf] and sf.max_seq_id == 3 and sf.entry_count == 3
    assert s.memstore.is_empty() and not s.memstore.snapshot
    c = s.counters
    assert (c.flushes, c.cells_flushed, c.bytes_flushed) == (1, 3, sf.size)
    assert s.size == sf.size


def test_flush_of_an_empty_memstore_writes_nothing():
    s = new_store()
    assert s.flush(NOW, max_seq_id=0) is None
    assert s.files == [] and s.counters.flushes == 0


def test_flush_drops_versions_beyond_VERSIONS_and_counts_them():
    s = new_store(max_versions=1)
    for ts in (1, 2, 3):
        put(s, b"r", b"a", ts, b"v%d" % ts, ts)
    sf = s.flush(NOW, max_seq_id=3)
    assert sf.entry_count == 1
    assert s.counters.cells_dropped_versions == 2


def test_a_flush_the_disk_refuses_keeps_the_memstore():
    s = new_store()
    put(s, b"r", b"a", 1, b"v", 1)

    def refuse(sf):
        raise OSError("disk full")

    s.persist = refuse
    with pytest.raises(DroppedSnapshotError, match="MemStore is kept"):
        s.flush(NOW, max_seq_id=1)
    assert s.files == [] and s.counters.flush_failures == 1 and s.counters.flushes == 0
    assert values(s.get(b"r", ALL, NOW, IOCounters())) == [(b"r", b"a", 1, b"v")]
    s.persist = None
    assert s.flush(NOW, max_seq_id=1).entry_count == 1


def test_files_are_kept_oldest_first_by_max_sequence_id():
    s = new_store()
    for seq in (1, 2, 3):
        put(s, b"r%d" % seq, b"a", 1, b"v", seq)
        s.flush(NOW, max_seq_id=seq)
    assert [sf.max_seq_id for sf in s.files] == [1, 2, 3]


def test_a_major_compaction_of_every_file_drops_deletes_and_what_they_mask():
    s = new_store()
    put(s, b"r", b"a", 1, b"v", 1)
    put(s, b"s", b"a", 1, b"kept", 2)
    s.flush(NOW, max_seq_id=2)
    put(s, b"r", b"", 5, b"", 3, code=DELETE_FAMILY)
    s.flush(NOW, max_seq_id=3)
    olds = list(s.files)
    sel = s.compact(NOW, major=True, user_requested=True)
    assert sel is not None and len(s.files) == 1 and s.files[0] not in olds
    assert s.files[0].entry_count == 1 and s.files[0].max_seq_id == 3
    c = s.counters
    assert (c.major_compactions, c.compaction_files_read) == (1, 2)
    assert c.markers_dropped == 1 and c.cells_dropped_deleted == 1
    assert values(s.get(b"s", ALL, NOW, IOCounters())) == [(b"s", b"a", 1, b"kept")]


def test_a_compaction_of_some_files_keeps_the_markers():
    s = new_store()
    put(s, b"r", b"a", 1, b"v", 1)
    s.flush(NOW, max_seq_id=1)
    put(s, b"r", b"a", 2, b"", 2, code=DELETE_COLUMN)
    s.flush(NOW, max_seq_id=2)
    put(s, b"z", b"a", 1, b"v", 3)
    s.flush(NOW, max_seq_id=3)
    s.run_compaction(s.files[1:], NOW)  # not every file: a minor one
    assert len(s.files) == 2 and s.counters.minor_compactions == 1
    assert s.counters.markers_dropped == 0
    assert s.get(b"r", ALL, NOW, IOCounters()) == []


def test_a_compaction_the_disk_refuses_leaves_the_inputs():
    s = new_store()
    for seq in (1, 2):
        put(s, b"r%d" % seq, b"a", 1, b"v", seq)
        s.flush(NOW, max_seq_id=seq)
    olds = list(s.files)

    def refuse(sf):
        raise OSError("disk full")

    s.persist = refuse
    with pytest.raises(DiskIOError, match="store is unchanged"):
        s.run_compaction(list(s.files), NOW)
    assert s.files == olds and s.counters.compaction_failures == 1


def test_scan_returns_rows_in_range_forward_and_reversed():
    s = new_store()
    for i, row in enumerate([b"a", b"b", b"c", b"d"]):
        put(s, row, b"q", 1, row, i + 1)
        if i == 1:
            s.flush(NOW, max_seq_id=2)
    fwd = [row for row, _ in s.scan(b"b", b"d", ALL, NOW, IOCounters())]
    assert fwd == [b"b", b"c"]
    back = [row for row, _ in s.scan(b"c", b"a", ALL, NOW, IOCounters(), reversed=True)]
    assert back == [b"c", b"b"]
    assert [row for row, _ in s.scan(None, None, ALL, NOW, IOCounters())] == [
        b"a", b"b", b"c", b"d"]


def test_scan_at_a_read_point_hides_later_writes():
    s = new_store()
    put(s, b"a", b"q", 1, b"seen", 1)
    put(s, b"b", b"q", 1, b"later", 2)
    rows = list(s.scan(None, None, ALL, NOW, IOCounters(), read_point=1))
    assert [(row, values(cells)) for row, cells in rows] == [(b"a", [(b"a", b"q", 1, b"seen")])]


def test_split_row_is_the_largest_files_middle_row():
    s = new_store(block_size=1024)
    for i in range(40):
        put(s, b"row%03d" % i, b"q", 1, b"v" * 100, i + 1)
    s.flush(NOW, max_seq_id=40)
    row = s.split_row()
    assert row is not None and s.files[0].first_row < row < s.files[0].last_row


def test_split_row_is_none_for_one_row_or_with_references():
    s = new_store(block_size=1024)
    for i in range(40):
        put(s, b"one", b"q%03d" % i, 1, b"v" * 100, i + 1)
    s.flush(NOW, max_seq_id=40)
    assert s.split_row() is None  # one huge row cannot be split
    d = new_store()
    d.adopt_files(s.reference_files(b"one", top=True))
    assert d.has_references() and d.split_row() is None


def test_reference_files_cover_each_half_and_skip_an_empty_one():
    s = new_store()
    for i, row in enumerate([b"a", b"b", b"c", b"d"]):
        put(s, row, b"q", 1, row, i + 1)
    s.flush(NOW, max_seq_id=4)
    bottom, top = s.reference_files(b"c", top=False), s.reference_files(b"c", top=True)
    assert [(r.lo, r.hi, r.is_reference) for r in bottom] == [(None, b"c", True)]
    assert [(r.lo, r.hi) for r in top] == [(b"c", None)]
    low = new_store()
    low.adopt_files(bottom)
    assert [row for row, _ in low.scan(None, None, ALL, NOW, IOCounters())] == [b"a", b"b"]
    assert s.reference_files(b"z", top=True) == []  # no row at or above z: no reference


def test_a_family_configuration_entry_overrides_the_cluster_config():
    s = Store(b"f", ColumnFamily(configuration={"hbase.hstore.compaction.min": "7"}),
              Config(), owner="enc")
    assert s.config.compaction_min_files == 7
    plain = new_store()
    assert plain.config is plain.cluster_config


def test_needs_compaction_at_the_policys_minimum_file_count():
    s = new_store()
    for seq in range(1, s.config.compaction_min_files):
        put(s, b"r%d" % seq, b"a", 1, b"v", seq)
        s.flush(NOW, max_seq_id=seq)
        assert not s.needs_compaction(NOW)
    seq = s.config.compaction_min_files
    put(s, b"r%d" % seq, b"a", 1, b"v", seq)
    s.flush(NOW, max_seq_id=seq)
    assert s.needs_compaction(NOW)

