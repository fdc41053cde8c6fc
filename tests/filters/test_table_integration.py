"""Filters through the native API: strings or objects, evaluated inside each region."""

import pytest

import hsim
from hsim.filters import PageFilter, SingleColumnValueFilter, BinaryComparator


@pytest.fixture
def table():
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(100))
    c.admin.create_table("t", {"f": {"VERSIONS": 3}}, split_keys=[b"r5"])
    t = c.table("t")
    for i in range(10):
        t.put(b"r%d" % i, {b"f:a": b"%d" % i, b"f:b": b"x"})
    t.put(b"r3", {b"f:status": b"active"})
    t.put(b"r7", {b"f:status": b"gone"})
    return c, t


def test_page_filter_is_per_region(table):
    """A full page ends the whole scan (the region's filter is done); a region that runs
    out first leaves the next region a fresh count, so the page can be exceeded."""
    _c, t = table
    rows = [cells[0].row for cells in t.scan(filter="PageFilter(2)")]
    assert rows == [b"r0", b"r1"]
    rows = [cells[0].row for cells in t.scan(filter="PageFilter(7)")]
    assert rows == [b"r%d" % i for i in range(10)]  # 5 from the first region, then a fresh 7
    rows = [cells[0].row for cells in t.scan(filter=PageFilter(7), limit=6)]
    assert rows == [b"r0", b"r1", b"r2", b"r3", b"r4", b"r5"]


def test_single_column_value_filter_if_missing(table):
    _c, t = table
    f = "SingleColumnValueFilter('f', 'status', =, 'binary:active')"
    assert [c[0].row for c in t.scan(filter=f)] == \
        [b"r0", b"r1", b"r2", b"r3", b"r4", b"r5", b"r6", b"r8", b"r9"]  # missing -> emitted
    f2 = "SingleColumnValueFilter('f', 'status', =, 'binary:active', true, true)"
    assert [c[0].row for c in t.scan(filter=f2)] == [b"r3"]
    obj = SingleColumnValueFilter(b"f", b"status", "=", BinaryComparator(b"gone"))
    assert [c.qualifier for c in t.get(b"r7", filter=obj)] == [b"a", b"b", b"status"]


def test_filtered_cells_still_count_as_read(table):
    c, t = table
    c.admin.flush("t")
    before = sum(s.blocks_read + s.block_cache_hits for s in c.metrics().servers)
    assert list(t.scan(filter="ValueFilter(=, 'binary:nomatch')")) == []
    after = sum(s.blocks_read + s.block_cache_hits for s in c.metrics().servers)
    assert after > before
    m = c.metrics()
    assert sum(r.read_requests for r in m.regions) == 0  # no row returned
    # every row examined counts, as filtered (HBase's filteredReadRequestsCount)
    assert sum(r.filtered_read_requests for r in m.regions) >= 10


def test_while_vs_skip(table):
    _c, t = table
    skip = [c[0].row for c in t.scan(filter="SKIP ValueFilter(!=, 'binary:3')")]
    assert b"r3" not in skip and len(skip) == 9
    whil = [c[0].row for c in t.scan(filter="WHILE RowFilter(<, 'binary:r3')")]
    assert whil == [b"r0", b"r1", b"r2"]  # r5 fails: WHILE ends the second region at once
    whil = [c[0].row for c in t.scan(filter="WHILE RowFilter(!=, 'binary:r2')")]
    # TestFilter.testWhileMatchFilterWithFilterRowKey: WHILE fails at r2 and the whole scan
    # ends there, across regions (the region's filter is done: no further region is opened)
    assert whil == [b"r0", b"r1"]
    whil = [c[0].row for c in t.scan(filter="WHILE RowFilter(!=, 'binary:r2')",
                                      reversed=True)]
    assert whil == [b"r9", b"r8", b"r7", b"r6", b"r5", b"r4", b"r3"]


def test_bad_filter_string_fails_before_any_region(table):
    c, t = table
    before = sum(r.read_requests for r in c.metrics().regions)
    with pytest.raises(hsim.FilterParseError):
        t.scan(filter="NoSuchFilter(1)")
    with pytest.raises(hsim.FilterParseError):
        t.get(b"r1", filter="PageFilter(1))")
    assert sum(r.read_requests for r in c.metrics().regions) == before
