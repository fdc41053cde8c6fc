"""ClientScanner alone (hsim/client/client_scanner.py), driven batch by batch as Table.scan
drives it: what it promises. Batches of at most `want` rows, regions walked in order (or in
reverse) and no region past the stop row opened; an empty batch only at the end; each region
read at the point its scanner opened; a split under the scan goes on after the last row
returned; a table dropped under it ends it with TableNotFoundException; and HBase's client
counts (RPCs, regions, result bytes, the close RPC)."""

import pytest

import hsim
from hsim.client.client_scanner import ClientScanner
from hsim.engine.query_matcher import ScanQuery
from hsim.errors import TableNotFoundError
from hsim.regions.scan_metrics import ScanMetrics

ROWS = [b"a", b"b", b"c", b"d", b"e", b"f"]


@pytest.fixture
def table():
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(1_000))
    c.admin.create_table("t", ["f"], split_keys=[b"c", b"e"])  # [,c) [c,e) [e,)
    t = c.table("t")
    for row in ROWS:
        t.put(row, {b"f:q": b"v" + row})
    return t


def scanner(table, start=None, stop=None, reversed=False, metrics=None):
    return ClientScanner(table, start, stop, reversed, {b"f": ScanQuery()}, None, 1, 100,
                         lambda f: f, metrics=metrics)


def drain(cs, want) -> list:
    """Every batch's rows until the empty one, each batch a list of row keys."""
    out = []
    with cs.table.cluster.lock:
        while True:
            batch = cs.next_batch(want)
            if not batch:
                return out
            assert len(batch) <= want
            out.append([cells[0][0] for cells in batch])


def test_batches_never_exceed_want_and_cross_regions(table):
    assert drain(scanner(table), 3) == [[b"a", b"b"], [b"c", b"d"], [b"e", b"f"]]
    assert drain(scanner(table), 1) == [[r] for r in ROWS]


def test_a_stop_row_ends_the_scan_without_opening_later_regions(table):
    m = ScanMetrics()
    assert drain(scanner(table, b"b", b"d", metrics=m), 10) == [[b"b"], [b"c"]]
    assert m.regions_scanned == 2


def test_reversed_walks_the_regions_backwards(table):
    got = drain(scanner(table, b"e", b"a", reversed=True), 10)
    assert got == [[b"e"], [b"d", b"c"], [b"b"]]


def test_a_region_is_read_as_of_its_scanners_opening(table):
    cs = scanner(table)
    with table.cluster.lock:
        assert [c[0][0] for c in cs.next_batch(1)] == [b"a"]
    table.put(b"ab", {b"f:q": b"late"})  # same region, after its scanner opened
    table.put(b"cc", {b"f:q": b"later"})  # a region not yet opened
    rest = [row for batch in drain(cs, 10) for row in batch]
    assert b"ab" not in rest and b"cc" in rest


def test_a_split_under_the_scan_goes_on_after_the_last_row(table):
    m = ScanMetrics()
    cs = scanner(table, metrics=m)
    with table.cluster.lock:
        assert [c[0][0] for c in cs.next_batch(1)] == [b"a"]
    table.cluster.admin.split("t", b"b")
    rest = drain(cs, 10)
    assert [row for batch in rest for row in batch] == [b"b", b"c", b"d", b"e", b"f"]
    assert m.not_serving_region_exception == 1


def test_a_table_dropped_under_the_scan_ends_it(table):
    cs = scanner(table)
    with table.cluster.lock:
        cs.next_batch(1)
    admin = table.cluster.admin
    admin.disable_table("t")
    admin.delete_table("t")
    with table.cluster.lock, pytest.raises(TableNotFoundError):
        cs.next_batch(1)
    assert cs.done


def test_metrics_count_rpcs_regions_and_result_bytes(table):
    m = ScanMetrics()
    drain(scanner(table, metrics=m), 10)
    # three regions, each one open-with-rows RPC; each cell: 4 + KeyValue length
    # (8 + 2 + row 1 + 1 + family 1 + qualifier 1 + 8 + 1 + value 2 = 25)
    assert (m.regions_scanned, m.rpc_calls, m.remote_rpc_calls) == (3, 3, 3)
    assert m.bytes_in_results == m.bytes_in_remote_results == 6 * 29


def test_closing_an_open_region_scanner_is_one_more_rpc(table):
    m = ScanMetrics()
    cs = scanner(table, metrics=m)
    with table.cluster.lock:
        cs.next_batch(1)
        calls = m.rpc_calls
        cs.close()
        assert m.rpc_calls == calls + 1 and cs.done
        assert cs.next_batch(1) == []
