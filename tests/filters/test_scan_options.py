"""Scan batch and per-family limits, from HBase's TestScannersFromClientSide
(testScanBatch, testGetMaxResults, testGetRowOffset, testScanMaxResults/testScanRowOffset)
and TestFilter's refusal of batch with whole-row filters."""

import pytest

import hsim
from hsim.errors import IncompatibleFilterError, InvalidArgumentError
from hsim.filters import PageFilter, SingleColumnValueFilter


@pytest.fixture
def t():
    c = hsim.Cluster(clock=hsim.ManualClock(1))
    c.admin.create_table("t", {"a": {}, "b": {}}, split_keys=[b"r2"])
    t = c.table("t")
    for r in (b"r1", b"r3"):
        t.put(r, {b"a:%d" % i: b"v" for i in range(5)} | {b"b:x": b"1", b"b:y": b"2"})
    return t


def quals(cells):
    return [c.family + b":" + c.qualifier for c in cells]


def test_scan_batch(t):
    """TestScannersFromClientSide.testScanBatch: a wide row in consecutive parts."""
    parts = [quals(p) for p in t.scan(batch=3)]
    assert parts == [[b"a:0", b"a:1", b"a:2"], [b"a:3", b"a:4", b"b:x"], [b"b:y"]] * 2
    assert [len(p) for p in t.scan(batch=3, limit=1)] == [3, 3, 1]  # limit counts rows


def test_batch_refused_with_filter_row():
    """TestFilter / Scan.setBatch: IncompatibleFilterException with hasFilterRow filters."""
    c = hsim.Cluster(clock=hsim.ManualClock(1))
    c.admin.create_table("t", {"a": {}})
    t = c.table("t")
    with pytest.raises(IncompatibleFilterError, match="hasFilterRow"):
        t.scan(batch=2, filter=PageFilter(1))
    with pytest.raises(IncompatibleFilterError):
        t.scan(batch=2, filter=SingleColumnValueFilter(b"a", b"q", "=", b"v"))
    assert list(t.scan(batch=2, filter="KeyOnlyFilter()")) == []
    with pytest.raises(InvalidArgumentError):
        t.scan(batch=0)


def test_get_max_results_and_row_offset_per_family(t):
    """TestScannersFromClientSide.testGetMaxResults / testGetRowOffset."""
    assert quals(t.get(b"r1", max_results_per_family=2)) == [b"a:0", b"a:1", b"b:x", b"b:y"]
    assert quals(t.get(b"r1", row_offset_per_family=4)) == [b"a:4"]
    assert quals(t.get(b"r1", row_offset_per_family=1, max_results_per_family=1)) == \
        [b"a:1", b"b:y"]
    with pytest.raises(InvalidArgumentError):
        t.get(b"r1", row_offset_per_family=-1)


def test_scan_max_results_and_row_offset_per_family(t):
    """TestScannersFromClientSide.testScanMaxResults / testScanRowOffset; a row left
    without cells is not returned."""
    rows = [quals(r) for r in t.scan(max_results_per_family=1)]
    assert rows == [[b"a:0", b"b:x"]] * 2
    rows = [quals(r) for r in t.scan(row_offset_per_family=2, batch=2)]
    assert rows == [[b"a:2", b"a:3"], [b"a:4"]] * 2
    assert list(t.scan(row_offset_per_family=9)) == []


def test_thrift_scan_batch_size_and_refusal():
    """TScan.batchSize reaches Scan.setBatch: partial rows, and IOError (HBase's
    IncompatibleFilterException) with a whole-row filter."""
    from hsim.thrift.handler import HbaseHandler as Handler
    from hsim.thrift.idl import ttypes

    c = hsim.Cluster(clock=hsim.ManualClock(1))
    c.admin.create_table("t", {"a": {}})
    c.table("t").put(b"r", {b"a:%d" % i: b"v" for i in range(5)})
    h = Handler(c)
    sid = h.scannerOpenWithScan(b"t", ttypes.TScan(batchSize=2), {})
    assert [len(r.columns) for r in h.scannerGetList(sid, 10)] == [2, 2, 1]
    with pytest.raises(ttypes.IOError, match="hasFilterRow"):
        h.scannerOpenWithScan(b"t", ttypes.TScan(batchSize=2, filterString=b"PageFilter(1)"), {})


class _Recorder(hsim.filters.Filter):
    """A filter that keeps everything and records what filter_row_cells was handed."""

    def __init__(self):
        self.seen = []

    def has_filter_row(self) -> bool:
        return True

    def filter_row_cells(self, cells):
        self.seen.append(quals(cells))
        return cells


def test_store_limits_apply_before_filter_row_cells(t):
    """StoreScanner counts storeOffset/storeLimit; RegionScannerImpl then calls
    filterRowCells on what the stores returned (TestHRegion's per-family limit cases)."""
    rec = _Recorder()
    got = t.get(b"r1", filter=rec, max_results_per_family=2, row_offset_per_family=1)
    assert quals(got) == [b"a:1", b"a:2", b"b:y"]
    assert rec.seen == [[b"a:1", b"a:2", b"b:y"]]


def test_rows_emptied_by_the_offset_are_not_counted_by_page_filter(t):
    """RegionScannerImpl.nextInternal: an empty row is dropped before filterRow, so PageFilter
    counts only rows with cells."""
    t.put(b"r0", {b"a:0": b"v", b"b:x": b"1"})  # emptied by an offset of 1 in family a
    t.put(b"r0", {b"b:x": b"1"})
    rows = list(t.scan(filter=PageFilter(1), row_offset_per_family=2))
    # r0 (no cells left) is not counted: the page is r1, and the done filter ends the scan
    assert [r[0].row for r in rows] == [b"r1"]
    assert [quals(r) for r in rows] == [[b"a:2", b"a:3", b"a:4"]]


def test_store_limits_are_applied_in_the_region_without_a_filter(t):
    region = t.cluster.master.tables["t"].locator.regions[0]
    assert quals(region.get(b"r1", {b"a": _query(), b"b": _query()}, 2, limits=(1, 4))) \
        == [b"a:4"]


def _query():
    from hsim.engine.query_matcher import ScanQuery

    return ScanQuery()
