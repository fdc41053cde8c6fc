"""What a read examined, as HBase reports it: `Table.scan(scan_metrics=True)` gives HBase's
ScanMetrics map (ScanMetrics and ServerSideScanMetrics key strings), and every region and
server counts the rows it read and did not return as filtered read requests
(RegionScannerImpl.incrementCountOfRowsFilteredMetric: filteredReadRequestsCount), beside the
read requests (one per row returned, RegionScannerImpl.nextRaw)."""

import pytest

import hsim
from hsim.filters import BinaryComparator, SingleColumnValueFilter

HBASE_KEYS = {"RPC_CALLS", "REMOTE_RPC_CALLS", "MILLIS_BETWEEN_NEXTS",
              "NOT_SERVING_REGION_EXCEPTION", "BYTES_IN_RESULTS", "BYTES_IN_REMOTE_RESULTS",
              "REGIONS_SCANNED", "RPC_RETRIES", "REMOTE_RPC_RETRIES", "ROWS_SCANNED",
              "ROWS_FILTERED", "BLOCK_BYTES_SCANNED"}


def _servers(cluster, *names):
    s = cluster.metrics().servers
    return {n: sum(getattr(x, n) for x in s) for n in names}


@pytest.fixture(scope="module")
def five_thousand():
    """5,000 rows over two regions on two servers; every 50th row has k=keep."""
    c = hsim.Cluster(region_servers=2)
    c.admin.create_table("t", ["f"], split_keys=[b"r2500"])
    t = c.table("t")
    for i in range(5000):
        t.put(b"r%04d" % i, {b"f:k": b"keep" if i % 50 == 0 else b"drop", b"f:v": b"x" * 10})
    c.admin.flush("t")
    return c, t


def test_a_filtered_scan_of_5000_rows_keeping_100(five_thousand):
    c, t = five_thousand
    names = ("read_requests", "filtered_read_requests", "read_rpcs")
    before = _servers(c, *names)
    before_regions = [(r.read_requests, r.filtered_read_requests) for r in c.metrics().regions]
    scanner = t.scan(filter=SingleColumnValueFilter(b"f", b"k", "=", BinaryComparator(b"keep")),
                     scan_metrics=True)
    rows = list(scanner)
    assert len(rows) == 100 and all(cells[0].row.endswith((b"00", b"50")) for cells in rows)
    m = scanner.scan_metrics
    assert set(m) == HBASE_KEYS
    assert m["ROWS_SCANNED"] == 5000 and m["ROWS_FILTERED"] == 4900
    assert m["REGIONS_SCANNED"] == 2 and m["RPC_CALLS"] == 2  # one open per region
    after = _servers(c, *names)
    assert after["filtered_read_requests"] - before["filtered_read_requests"] == 4900
    assert after["read_requests"] - before["read_requests"] == 100  # rows returned
    regions = [(r.read_requests - a, r.filtered_read_requests - b) for r, (a, b)
               in zip(c.metrics().regions, before_regions)]
    assert regions == [(50, 2450), (50, 2450)]


def test_an_unfiltered_scan_filters_nothing(five_thousand):
    _c, t = five_thousand
    scanner = t.scan(start_row=b"r1000", stop_row=b"r1200", scan_metrics=True)
    assert sum(1 for _ in scanner) == 200
    m = scanner.scan_metrics
    assert (m["ROWS_SCANNED"], m["ROWS_FILTERED"]) == (200, 0)


def test_without_scan_metrics_the_scan_is_the_plain_iterator(five_thousand):
    _c, t = five_thousand
    rows = t.scan(start_row=b"r0001", stop_row=b"r0003")
    assert not hasattr(rows, "scan_metrics") and len(list(rows)) == 2
    with pytest.raises(TypeError, match="scan_metrics must be a bool"):
        t.scan(scan_metrics="yes")


def _rows(cluster, n):
    """Table t with rows r00 .. r<n-1>, one cell each, in the MemStore."""
    cluster.admin.create_table("t", ["f"])
    t = cluster.table("t")
    for i in range(n):
        t.put(b"r%02d" % i, {b"f:q": b"v"})
    return t


def test_rpc_calls_regions_and_closes(cluster):
    t = _rows(cluster, 10)
    s = t.scan(caching=3, scan_metrics=True)
    assert len(list(s)) == 10
    # ScannerCallable: the open returns 3 rows, then 3, 3 and the last 1 (fewer than asked:
    # the region is done and the server closed its scanner, so no close RPC)
    assert s.scan_metrics["RPC_CALLS"] == 4 == s.scan_metrics["REMOTE_RPC_CALLS"]
    assert s.scan_metrics["REGIONS_SCANNED"] == 1
    assert s.scan_metrics["RPC_RETRIES"] == 0 == s.scan_metrics["NOT_SERVING_REGION_EXCEPTION"]
    # closed by the client with the region scanner still open: one close RPC more
    s = t.scan(caching=3, scan_metrics=True)
    next(s)
    s.close()
    assert s.scan_metrics["RPC_CALLS"] == 2
    # a limit the server reaches (Scan.setLimit) closes the scanner there: no close RPC
    s = t.scan(caching=3, limit=4, scan_metrics=True)
    assert len(list(s)) == 4 and s.scan_metrics["RPC_CALLS"] == 2


def test_bytes_in_results_is_each_cell_serialized_size_plus_its_length(cluster):
    cluster.admin.create_table("t", ["f"])
    t = cluster.table("t")
    t.put(b"row1", {b"f:a": b"x" * 7, b"f:bb": b""})
    t.put(b"row2", {b"f:a": b"yz"}, ttl_ms=60_000)  # a TTL tag the client does not receive
    s = t.scan(scan_metrics=True)
    cells = [c for row in s for c in row]
    want = sum(4 + 8 + c.key_length + len(c.value) for c in cells)
    assert s.scan_metrics["BYTES_IN_RESULTS"] == want == s.scan_metrics["BYTES_IN_REMOTE_RESULTS"]


def test_block_bytes_scanned_are_the_data_blocks_read(cluster):
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily(block_size=1024, block_cache=False)})
    t = cluster.table("t")
    for i in range(200):
        t.put(b"r%03d" % i, {b"f:q": b"v" * 40})
    s = t.scan(scan_metrics=True)
    list(s)
    assert s.scan_metrics["BLOCK_BYTES_SCANNED"] == 0  # all in the MemStore
    cluster.admin.flush("t")
    s = t.scan(scan_metrics=True)
    list(s)
    (region,) = cluster.master.tables["t"].locator.regions
    (sf,) = region.stores[b"f"].files
    blocks = sf.reader.blocks()
    assert len(blocks) > 5
    assert s.scan_metrics["BLOCK_BYTES_SCANNED"] == sum(b.uncompressed_size for b in blocks)


def test_a_split_under_the_scan_is_a_not_serving_region_exception(cluster):
    t = _rows(cluster, 20)
    s = t.scan(caching=5, scan_metrics=True)
    got = [next(s) for _ in range(5)]
    cluster.admin.split("t", b"r10")
    got += list(s)
    assert [c[0].row for c in got] == [b"r%02d" % i for i in range(20)]
    m = s.scan_metrics
    assert m["NOT_SERVING_REGION_EXCEPTION"] == 1
    assert m["REGIONS_SCANNED"] == 3  # the parent, its first daughter again, the second
    assert m["ROWS_SCANNED"] == 20


def test_a_get_the_filter_drops_is_a_filtered_read(five_thousand):
    c, t = five_thousand
    names = ("read_requests", "filtered_read_requests", "read_rpcs")
    before = _servers(c, *names)
    keep = SingleColumnValueFilter(b"f", b"k", "=", BinaryComparator(b"keep"))
    assert t.get(b"r0001", filter=keep) == []
    assert t.get(b"r0050", filter=keep) != []
    assert t.get(b"absent", filter=keep) == []  # no row: nothing was filtered
    after = _servers(c, *names)
    assert {n: after[n] - before[n] for n in names} == \
        {"read_requests": 3, "filtered_read_requests": 1, "read_rpcs": 3}



@pytest.fixture()
def rows_with_nothing_to_give():
    """Four rows: a and d plain, b deleted, c holding only column f:b."""
    c = hsim.Cluster(clock=hsim.ManualClock(1000))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for row in (b"a", b"b", b"d"):
        t.put(row, {b"f:a": row})
    t.put(b"c", {b"f:b": b"c"})
    t.delete_row(b"b")
    return c, t


@pytest.mark.parametrize("flushed", [False, True])
@pytest.mark.parametrize("reversed", [False, True])
def test_a_row_that_gives_the_scan_no_cell_is_examined_and_filtered(rows_with_nothing_to_give,
                                                                    flushed, reversed):
    """RegionScannerImpl.nextInternal: the store heap presents every row with a raw cell in
    the scan's families; a row the matchers leave empty (deleted, or none of the columns asked
    for) counts in ROWS_SCANNED, ROWS_FILTERED and filteredReadRequestsCount (isEmptyRow)."""
    c, t = rows_with_nothing_to_give
    if flushed:
        c.admin.flush("t")
    before = _servers(c, "read_requests", "filtered_read_requests")
    scanner = t.scan(columns=[b"f:a"], reversed=reversed, scan_metrics=True)
    rows = [cells[0].row for cells in scanner]
    assert rows == ([b"d", b"a"] if reversed else [b"a", b"d"])
    m = scanner.scan_metrics
    assert (m["ROWS_SCANNED"], m["ROWS_FILTERED"]) == (4, 2)  # b (deleted) and c (no f:a)
    after = _servers(c, "read_requests", "filtered_read_requests")
    assert after["read_requests"] - before["read_requests"] == 2
    assert after["filtered_read_requests"] - before["filtered_read_requests"] == 2


def test_an_empty_row_does_not_use_up_a_page(rows_with_nothing_to_give):
    """An empty row is filtered before the filter's filterRow runs (isEmptyRow comes first in
    RegionScannerImpl), so PageFilter does not count it as one of its page's rows."""
    from hsim.filters import PageFilter

    _c, t = rows_with_nothing_to_give
    scanner = t.scan(columns=[b"f:a"], filter=PageFilter(2), scan_metrics=True)
    assert [cells[0].row for cells in scanner] == [b"a", b"d"]
    assert scanner.scan_metrics["ROWS_FILTERED"] == 2


@pytest.mark.parametrize("flushed", [False, True])
def test_a_get_of_a_row_that_gives_it_no_cell_is_a_filtered_read(rows_with_nothing_to_give,
                                                                 flushed):
    """A Get is a one-row scan: a row it examines and gets nothing from is filtered
    (isEmptyRow); a row that is not there is not examined (the scanner stops)."""
    c, t = rows_with_nothing_to_give
    if flushed:
        c.admin.flush("t")
    for row, column, filtered in ((b"a", b"f:a", 0),    # found
                                  (b"b", None, 1),      # deleted
                                  (b"c", b"f:a", 1),    # only f:b, after f:a in the row
                                  (b"zz", None, 0)):    # no such row
        before = _servers(c, "read_requests", "filtered_read_requests")
        t.get(row, columns=None if column is None else [column])
        after = _servers(c, "read_requests", "filtered_read_requests")
        assert (after["read_requests"] - before["read_requests"],
                after["filtered_read_requests"] - before["filtered_read_requests"]) == \
            (1, filtered), (row, column)
