"""The RegionServer is the only way into a region (RSRpcServices): a request sent to a server
that does not hold the region is refused with NotServingRegionException and changes nothing."""

import pytest

import hsim


@pytest.fixture
def cluster():
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(1000))
    c.admin.create_table("t", {"f": hsim.ColumnFamily()}, split_keys=[b"m"])
    c.table("t").put(b"a", {b"f:q": b"1"})
    return c


def _regions(cluster):
    return cluster.master.tables["t"].locator.regions


def test_requests_are_counted_by_the_server_that_holds_the_region(cluster):
    t = cluster.table("t")
    t.get(b"a")
    list(t.scan())
    first = _regions(cluster)[0]
    m = {s.name: s for s in cluster.metrics().servers}[first.server.name]
    assert m.write_requests == 1
    assert m.read_requests == 2  # the Get's row and the scanned row
    assert m.read_rpcs == 2


def test_a_server_refuses_a_region_it_does_not_hold(cluster):
    region = _regions(cluster)[0]
    other = next(s for s in cluster.master.servers if s is not region.server)
    before = cluster.metrics().to_dict()
    entry = (b"f", b"q", None, 4, b"2", None)
    with pytest.raises(hsim.NotServingRegionError, match="is not online on"):
        other.mutate(region, b"a", [entry], 2000)
    with pytest.raises(hsim.NotServingRegionError):
        other.get(region, b"a", None, 2000)
    with pytest.raises(hsim.NotServingRegionError):
        other.open_scanner(region, b"", None, None, 2000)
    assert cluster.metrics().to_dict() == before
    assert [c.value for c in cluster.table("t").get(b"a")] == [b"1"]
    assert hsim.NotServingRegionError.hbase_exception.endswith("NotServingRegionException")
