"""The cost model's arithmetic: busy time, makespan, throughput, hotspot ratio, latency."""

import dataclasses
import json
import math

import pytest

from hsim.metrics import ServerMetrics
from hsim.workloads.costmodel import CostModel, ServerLoad


def idle(name):
    return ServerLoad(name)


def test_busy_time_adds_up_each_unit_cost():
    m = CostModel(request_ms=0.5, scan_row_ms=0.02, cache_block_ms=1.0, chunk_ms=0.1,
                  disk_block_ms=10.0, wal_sync_ms=0.2, disk_mb_per_s=50.0)
    load = ServerLoad("rs1", read_requests=100, write_requests=50, scan_rows=1000,
                      cache_hits=80, chunk_hits=30, blocks_read_from_disk=20,
                      wal_bytes=5_000_000, bytes_flushed=10_000_000,
                      bytes_compacted_read=20_000_000, bytes_compacted_written=15_000_000)
    # 150 x 0.5 + 1000 x 0.02 + 80 x 1 + 30 x 0.1 + 20 x 10 + 50 x 0.2 + 5 MB at 50 MB/s
    assert m.foreground_ms(load) == pytest.approx(75 + 20 + 80 + 3 + 200 + 10 + 100)
    # 45 MB of flush and compaction at 50 MB/s
    assert m.background_ms(load) == pytest.approx(900)
    assert m.busy_ms(load) == pytest.approx(1388)


def test_a_server_with_all_the_load_has_the_makespan():
    m = CostModel()
    hot = ServerLoad("rs1", write_requests=10_000, wal_bytes=10_000_000)
    r = m.evaluate([hot, idle("rs2"), idle("rs3"), idle("rs4")])
    assert r.makespan_ms == pytest.approx(m.busy_ms(hot))
    assert r.throughput_ops_per_s == pytest.approx(10_000 / (m.busy_ms(hot) / 1000))
    assert r.hotspot_ratio == pytest.approx(4.0)
    assert [s.share for s in r.servers] == [1.0, 0.0, 0.0, 0.0]


def test_spreading_the_same_load_cuts_makespan_and_evens_the_ratio():
    m = CostModel()
    one = m.evaluate([ServerLoad("a", read_requests=4000, cache_hits=4000)] +
                     [idle(x) for x in "bcd"])
    four = m.evaluate([ServerLoad(x, read_requests=1000, cache_hits=1000) for x in "abcd"])
    assert four.makespan_ms == pytest.approx(one.makespan_ms / 4)
    assert four.throughput_ops_per_s == pytest.approx(4 * one.throughput_ops_per_s)
    assert four.hotspot_ratio == pytest.approx(1.0)


def test_doubling_disk_reads_raises_time():
    m = CostModel()
    base = ServerLoad("a", read_requests=1000, cache_hits=500, blocks_read_from_disk=500)
    more = ServerLoad("a", read_requests=1000, cache_hits=500, blocks_read_from_disk=1000)
    r1, r2 = m.evaluate([base]), m.evaluate([more])
    assert r2.makespan_ms == pytest.approx(r1.makespan_ms + 500 * m.disk_block_ms)
    assert r2.throughput_ops_per_s < r1.throughput_ops_per_s
    assert r2.servers[0].service_ms > r1.servers[0].service_ms


def test_the_units_add_up_to_about_1_ms_a_hit_and_10_ms_a_miss():
    """A Get: one RPC, one row, a bloom and an index chunk, one data block; the seed's
    "~1 ms for a cache hit and 10 ms for a cache miss" come out of the units."""
    m = CostModel()
    hit = m.busy_ms(ServerLoad(read_requests=1, scan_rows=1, chunk_hits=2, cache_hits=1))
    miss = m.busy_ms(ServerLoad(read_requests=1, scan_rows=1, chunk_hits=2,
                                blocks_read_from_disk=1))
    assert 0.5 <= hit <= 2 and 5 <= miss <= 20
    assert hit == pytest.approx(0.7 + 0.01 + 0.01 + 0.05)


def test_parameters_are_overridable():
    load = ServerLoad("a", read_requests=10, blocks_read_from_disk=10)
    assert CostModel(disk_block_ms=20).busy_ms(load) == pytest.approx(10 * 0.7 + 10 * 20)
    assert CostModel().scaled("disk_block_ms", 2).disk_block_ms == 16
    with pytest.raises(ValueError):
        CostModel().scaled("reference_utilization", 2)
    assert CostModel(request_ms=0, wal_sync_ms=0).busy_ms(ServerLoad(write_requests=5)) == 0
    with pytest.raises(ValueError):
        CostModel(disk_mb_per_s=0)
    with pytest.raises(ValueError):
        CostModel(reference_utilization=1.0)
    with pytest.raises(ValueError):
        CostModel(disk_block_ms=-1)


def test_latency_is_mm1_at_the_paced_rate():
    m = CostModel(reference_utilization=0.5)
    r = m.evaluate([ServerLoad("a", read_requests=1000, cache_hits=1000),
                    ServerLoad("b", read_requests=500, cache_hits=500)])
    a, b = r.servers
    assert a.service_ms == pytest.approx(0.75) and b.service_ms == pytest.approx(0.75)
    # by default the busiest server runs at the reference utilisation
    assert a.utilization == pytest.approx(0.5) and b.utilization == pytest.approx(0.25)
    assert a.latency_ms == pytest.approx(0.75 / 0.5)
    assert b.latency_ms == pytest.approx(0.75 / 0.75)
    assert r.offered_ops_per_s == pytest.approx(0.5 * r.throughput_ops_per_s)
    assert r.mean_latency_ms == pytest.approx((1000 * a.latency_ms + 500 * b.latency_ms) / 1500)


def test_an_offered_rate_beyond_capacity_saturates_the_hot_server():
    m = CostModel()
    loads = [ServerLoad("a", write_requests=9000), ServerLoad("b", write_requests=1000)]
    capacity = m.evaluate(loads).throughput_ops_per_s
    r = m.evaluate(loads, offered_ops_per_s=2 * capacity)
    hot, cold = r.servers
    assert hot.saturated and math.isinf(hot.latency_ms) and math.isinf(r.mean_latency_ms)
    assert not cold.saturated and math.isfinite(cold.latency_ms)
    d = r.to_dict()
    assert d["mean_latency_ms"] is None and d["servers"][0]["latency_ms"] is None
    json.dumps(d, allow_nan=False)
    # 90% of the requests queue without bound, so only the fastest 10% have a finite time
    assert math.isinf(r.latency_percentile(50))
    assert math.isfinite(r.latency_percentile(5))


def test_background_work_loads_the_queue_but_not_the_service_time():
    m = CostModel()
    quiet = ServerLoad("a", read_requests=1000, cache_hits=1000)
    busy = ServerLoad("a", read_requests=1000, cache_hits=1000, bytes_compacted_read=10**8)
    rq = m.evaluate([quiet], offered_ops_per_s=500)
    rb = m.evaluate([busy], offered_ops_per_s=500)
    assert rb.servers[0].service_ms == rq.servers[0].service_ms
    assert rb.servers[0].utilization > rq.servers[0].utilization
    assert rb.servers[0].latency_ms > rq.servers[0].latency_ms


def test_latency_percentiles_of_one_server_are_exponential():
    r = CostModel().evaluate([ServerLoad("a", read_requests=100, cache_hits=100)])
    mean = r.servers[0].latency_ms
    assert r.latency_percentile(50) == pytest.approx(mean * math.log(2))
    assert r.latency_percentile(99) == pytest.approx(mean * math.log(100))
    with pytest.raises(ValueError):
        r.latency_percentile(100)


def test_ops_default_to_requests_and_can_be_given():
    m = CostModel()
    loads = [ServerLoad("a", read_requests=300, write_requests=100)]
    assert m.evaluate(loads).ops == 400
    r = m.evaluate(loads, ops=200)  # e.g. 200 read-modify-writes, two requests each
    assert r.throughput_ops_per_s == pytest.approx(200 / (r.makespan_ms / 1000))


def test_no_load_has_no_hotspot_ratio():
    r = CostModel().evaluate([idle("a"), idle("b")])
    assert r.makespan_ms == 0 and r.throughput_ops_per_s == 0 and r.hotspot_ratio == 0.0
    assert r.latency_percentile(99) == 0.0


def test_server_load_from_server_metrics():
    names = [f.name for f in dataclasses.fields(ServerMetrics)]
    m = ServerMetrics(**{n: (i + 1) * 10 for i, n in enumerate(names)} | {"name": "rs7"})
    m.chunk_cache_hits = 5
    load = ServerLoad.from_metrics(m)
    # read RPCs are requests, the rows they read are scan rows; chunk hits are priced apart;
    # rows examined add the rows filters dropped where the metrics count them (0 otherwise);
    # the time updates were blocked is updatesBlockedTime
    examined = m.read_requests + getattr(m, "filtered_read_requests", 0)
    assert load == ServerLoad("rs7", m.read_rpcs, m.write_requests, m.read_requests,
                              m.block_cache_hits - 5, m.blocks_read, m.bytes_flushed,
                              m.compaction_bytes_read, m.compaction_bytes_written,
                              m.wal_bytes_written, 5, examined,
                              blocked_ms=m.updates_blocked_ms)


# --- each unit's effect, on what a real cluster counts -------------------------------------------
def _cost_of(cluster, work):
    import hsim.scenario.context as ctx

    before = [ServerLoad.from_metrics(s) for s in cluster.metrics().servers]
    work()
    after = [ServerLoad.from_metrics(s) for s in cluster.metrics().servers]
    return CostModel().evaluate(ctx._delta(after, before)).makespan_ms


@pytest.fixture
def loaded():
    import hsim

    c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(1_700_000_000_000))
    c.admin.create_table("t", {"f": {"BLOOMFILTER": "ROW"}})
    t = c.table("t")
    for i in range(500):
        t.put(b"r%05d" % i, {b"f:q": b"v" * 100})
    c.admin.flush("t")
    for i in range(500):
        t.get(b"r%05d" % i)  # warm the block cache
    return c, t


def test_one_scan_of_n_rows_costs_far_less_than_n_gets(loaded):
    c, t = loaded
    rows = [b"r%05d" % i for i in range(200)]
    gets = _cost_of(c, lambda: [t.get(r) for r in rows])
    scan = _cost_of(c, lambda: list(t.scan(start_row=rows[0], stop_row=b"r00200",
                                           caching=100)))
    assert scan < gets / 10


def test_a_bloom_rejected_get_costs_no_more_than_a_cached_get(loaded):
    c, t = loaded
    cached = _cost_of(c, lambda: t.get(b"r00007"))
    rejected = _cost_of(c, lambda: t.get(b"zz-not-there"))
    assert rejected <= cached


def test_wal_bytes_cost_time():
    import hsim

    def writes(size):
        c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(1_700_000_000_000))
        c.admin.create_table("t", ["f"])
        t = c.table("t")
        cost = _cost_of(c, lambda: [t.put(b"r%d" % i, {b"f:q": b"v" * size}) for i in range(50)])
        wal = c.metrics().servers[0].wal_bytes
        return cost, wal

    small, big = writes(10), writes(10_000)
    assert big[1] > 50 * 10_000 > small[1] > 0
    assert big[0] - small[0] == pytest.approx((big[1] - small[1]) / 100_000, rel=1e-6)
