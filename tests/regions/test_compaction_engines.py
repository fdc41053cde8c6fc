"""The compaction policies end to end on a cluster: Config.compaction_policy chooses the store's
policy; a date-tiered major compaction writes one file per window, FIFO drops expired files
without writing a cell, off-peak hours switch the ratio; every read stays the same."""

import pytest

import hsim
from hsim.config import Config
from hsim.errors import DoNotRetryError

HOUR = 3600 * 1000


def _cluster(**config):
    return hsim.Cluster(config=Config(**config), clock=hsim.ManualClock(10 * HOUR))


def _rows(t):
    return [tuple(c) for row in t.scan(max_versions=10) for c in row]


def _store(c, table="t"):
    region = c.master.table_state(table).locator.regions[0]
    return region.stores[b"f"]


def test_date_tiered_major_compaction_leaves_one_file_per_window():
    # hour-wide windows that never grow into tiers (a max tier age of 1 ms): at 10 h, hours
    # 0, 1 and 2 are three windows (with the default age they share the tier [0 h, 4 h))
    c = _cluster(compaction_policy="date_tiered", date_tiered_base_window_ms=HOUR,
                 date_tiered_windows_per_tier=4, date_tiered_max_tier_age_ms=1,
                 major_compaction_period_ms=0,
                 compaction_min_files=100)  # no minor compaction gets in the way
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for hour in range(3):  # cells written at three hours, one flush each
        for i in range(20):
            t.put(b"h%d-r%03d" % (hour, i), {b"f:q": b"v"}, timestamp=hour * HOUR + i)
        c.admin.flush("t")
    store = _store(c)
    assert len(store.files) == 3
    before = _rows(t)
    c.admin.major_compact("t")
    windows = sorted((f.min_timestamp // HOUR, f.max_timestamp // HOUR) for f in store.files)
    assert windows == [(0, 0), (1, 1), (2, 2)]  # three windows, one file each, none spanning
    assert _rows(t) == before


def test_date_tiered_windows_grow_into_tiers_with_age():
    """With the default max tier age, hours 0-3 at 10 h are one 4-hour window."""
    c = _cluster(compaction_policy="date_tiered", date_tiered_base_window_ms=HOUR,
                 major_compaction_period_ms=0, compaction_min_files=100)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for hour in (0, 2, 5):
        t.put(b"h%d" % hour, {b"f:q": b"v"}, timestamp=hour * HOUR)
        c.admin.flush("t")
    c.admin.major_compact("t")
    spans = sorted((f.min_timestamp // HOUR, f.max_timestamp // HOUR) for f in _store(c).files)
    assert spans == [(0, 2), (5, 5)]  # [0 h, 4 h) and [4 h, 8 h)


def test_date_tiered_files_cut_at_window_starts_when_one_file_spans_them():
    c = _cluster(compaction_policy="date_tiered", date_tiered_base_window_ms=HOUR,
                 date_tiered_max_tier_age_ms=1, major_compaction_period_ms=0,
                 compaction_min_files=100)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for i in range(30):  # one flush holding three hours of cells
        t.put(b"r%03d" % i, {b"f:q": b"v"}, timestamp=(i % 3) * HOUR + i)
    c.admin.flush("t")
    assert len(_store(c).files) == 1
    before = _rows(t)
    c.admin.major_compact("t")
    assert len(_store(c).files) == 3 and _rows(t) == before


def test_fifo_drops_expired_files_without_writing_a_cell():
    c = _cluster(compaction_policy="fifo", blocking_store_files=1000)
    c.admin.create_table("t", {"f": {"ttl": 60}})
    t = c.table("t")
    for batch in range(4):
        for i in range(10):
            t.put(b"r%d-%d" % (batch, i), {b"f:q": b"v"})
        c.admin.flush("t")
    store = _store(c)
    assert len(store.files) == 4
    written = store.counters.compaction_bytes_written
    c.clock.advance(61 * 1000)  # every cell past its 60 s TTL
    c.admin.compact("t")
    # HBase leaves one empty file (its compactor commits what it wrote: nothing)
    assert len(store.files) == 1 and store.files[0].entry_count == 0
    assert store.counters.compaction_bytes_written - written == store.files[0].size
    assert _rows(t) == []


def test_a_flush_or_compaction_whose_cells_all_expired_writes_an_empty_file():
    c = _cluster()
    c.admin.create_table("t", {"f": {"ttl": 60}})
    t = c.table("t")
    t.put(b"r1", {b"f:q": b"v"})
    c.clock.advance(61 * 1000)  # expired in the MemStore
    c.admin.flush("t")
    store = _store(c)
    assert [f.entry_count for f in store.files] == [0]
    assert store.counters.cells_flushed == 0 and store.counters.cells_dropped_expired == 1
    t.put(b"r2", {b"f:q": b"v"})
    c.admin.flush("t")
    t.delete_row(b"r2")
    c.admin.flush("t")
    c.admin.major_compact("t")  # the put and its marker go: nothing is kept
    assert [f.entry_count for f in store.files] == [0] and _rows(t) == []


@pytest.mark.parametrize("family, message", [
    ({"f": {}}, "Default TTL is not supported for FIFO compaction"),
    ({"f": {"ttl": 60, "min_versions": 1}}, "MIN_VERSION > 0 is not supported"),
])
def test_fifo_refuses_families_hbase_refuses(family, message):
    c = _cluster(compaction_policy="fifo", blocking_store_files=1000)
    with pytest.raises(DoNotRetryError, match=message):
        c.admin.create_table("t", family)
    assert "t" not in c.admin.list_tables()


def test_fifo_refuses_too_few_blocking_store_files():
    c = _cluster(compaction_policy="fifo")  # 16 blocking store files, the default
    with pytest.raises(DoNotRetryError, match="below recommended minimum of 1000"):
        c.admin.create_table("t", {"f": {"ttl": 60}})


def test_off_peak_hours_use_the_off_peak_ratio():
    """Three flushes of 1,000, 200 and 200 cells (min size 1, three files at least): the
    compaction the third flush asks for leaves them at peak time (the big file is more than 1.2x
    the other two) and takes all three in the off-peak hours, at the off-peak ratio 5.0."""
    def files_after_flushes(hour):
        c = hsim.Cluster(config=Config(compaction_min_size=1, off_peak_start_hour=0,
                                       off_peak_end_hour=6, major_compaction_period_ms=0),
                         clock=hsim.ManualClock(hour * HOUR))
        c.admin.create_table("t", ["f"])
        t = c.table("t")
        for n in (1000, 200, 200):
            for i in range(n):
                t.put(b"n%d-r%04d" % (n, i), {b"f:q": b"x" * 50})
            c.admin.flush("t")
        return [f.entry_count for f in _store(c).files]

    assert files_after_flushes(12) == [1000, 200, 200]  # peak: the ratio 1.2 leaves them
    assert files_after_flushes(3) == [1200]  # off-peak: one compaction of all three


def test_a_fifo_stores_empty_file_goes_only_through_a_compaction():
    """HBase reads an empty file's max timestamp as Long.MAX_VALUE, so HStore.removeUnneededFiles
    never drops it; FIFOCompactionPolicy.getExpiredStores takes it (isEmptyStoreFile,
    HBASE-21504), alone beside live files, and the compactor commits an empty output: each
    compaction check after a flush rewrites the empty file into a new empty one (no cell
    read or written), and the store keeps exactly one empty file beside its live ones until a
    compaction takes it with expired files."""
    c = _cluster(compaction_policy="fifo", blocking_store_files=1000)
    c.admin.create_table("t", {"f": {"ttl": 60}})
    t = c.table("t")
    for i in range(3):
        t.put(b"r%d" % i, {b"f:q": b"v"})
        c.admin.flush("t")
    store = _store(c)
    c.clock.advance(61 * 1000)
    c.admin.compact("t")
    assert [f.entry_count for f in store.files] == [0]
    counters = store.counters
    for i in range(3):
        before = (counters.minor_compactions, counters.expired_files_dropped,
                  counters.compaction_kv_bytes_read, counters.cells_dropped_expired)
        empty = store.files[0]
        t.put(b"s%d" % i, {b"f:q": b"v"})
        c.admin.flush("t")  # its compaction check takes the empty file, and only it
        assert (counters.minor_compactions, counters.expired_files_dropped,
                counters.compaction_kv_bytes_read, counters.cells_dropped_expired) == \
            (before[0] + 1, before[1], before[2], before[3])
        assert [f.entry_count for f in store.files] == [0] + [1] * (i + 1)
        assert store.files[0] is not empty  # a new empty file
    assert sorted(cell[0] for cell in _rows(t)) == [b"s0", b"s1", b"s2"]
    c.clock.advance(61 * 1000)  # now every live file expires as well: one empty file again
    c.admin.compact("t")
    assert [f.entry_count for f in store.files] == [0]
