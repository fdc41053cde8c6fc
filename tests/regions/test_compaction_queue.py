"""The compaction queue on cluster time (hsim.regions.compact_split): compactions take
`bytes / throughput` of cluster time as PressureAwareCompactionThroughputController allows,
a flush of a region past its blocking file count waits for them (up to blockingWaitTime), and
updates past the blocking MemStore size wait for that flush: updatesBlockedTime,
blockedRequestCount. By default (no limit) nothing of this happens and every read is as before."""

import hsim
from hsim.config import Config
from hsim.metrics import describe
from hsim.workloads.costmodel import CostModel, ServerLoad

KiB = 1 << 10


def _config(**changes):
    base = dict(memstore_flush_size=64 * KiB, flush_lower_bound_min=1, blocking_store_files=6,
                compaction_throughput_lower_bound=256 * KiB,
                compaction_throughput_higher_bound=512 * KiB, blocking_wait_ms=5000)
    return Config(**{**base, **changes})


def _import(config, rows=3000, record=False):
    """A monotonic import into one region (splits off); (cluster, cluster ms it took, log)."""
    c = hsim.Cluster(config=config)
    c.admin.create_table("t", ["f"], split_policy="DisabledRegionSplitPolicy")
    log = c.record_requests() if record else None
    t = c.table("t")
    start = c.clock.now()
    for i in range(rows):
        t.put(b"r%08d" % i, {b"f:q": b"v" * 1000})
    return c, c.clock.now() - start, log


def _server(c):
    return next(s for s in c.metrics().servers if s.write_requests)


def _cells(c):
    return [(cell.row, cell.value) for row in c.table("t").scan() for cell in row]


def test_an_import_into_one_region_with_compactions_throttled_blocks_updates_and_takes_longer():
    free, free_ms, _ = _import(_config())
    throttled, throttled_ms, _ = _import(_config(
        compaction_throughput_controller="pressure_aware"))
    s, f = _server(throttled), _server(free)
    assert f.updates_blocked_ms == f.blocked_requests == 0
    assert s.blocked_requests > 0 and s.updates_blocked_ms > 0
    # the import took its own time plus the time its updates waited
    assert throttled_ms == free_ms + s.updates_blocked_ms
    assert throttled_ms > free_ms
    assert _cells(throttled) == _cells(free)  # what was written reads back the same


def test_without_a_limit_compactions_run_inside_the_write_as_before():
    c, ms, _ = _import(_config())
    queue = c.master.servers[0].compactions
    assert not queue.throttled and not queue.pending
    assert _server(c).compactions > 0 and ms == 2999  # one ms per put, never blocked


def test_a_compaction_lands_when_its_cluster_time_is_done():
    # one compaction of three ~64 KiB files at 64 KiB/s takes about three seconds
    c = hsim.Cluster(config=_config(compaction_throughput_controller="pressure_aware",
                                    compaction_throughput_lower_bound=64 * KiB,
                                    compaction_throughput_higher_bound=64 * KiB,
                                    blocking_store_files=100))
    c.admin.create_table("t", ["f"], split_policy="DisabledRegionSplitPolicy")
    t = c.table("t")
    i = 0
    store = c.master.table_state("t").locator.regions[0].stores[b"f"]
    queue = c.master.servers[0].compactions
    while not queue.pending:
        t.put(b"r%08d" % i, {b"f:q": b"v" * 1000})
        i += 1
    running, = queue.pending[store]
    assert running.start == c.clock.now() and running.done - running.start >= 2500
    inputs = list(running.selection.files)
    assert all(f in store.files for f in inputs)  # still read from its inputs
    c.clock.advance(running.done - c.clock.now() - 1)
    assert t.get(b"r00000000") and all(f in store.files for f in inputs)  # 1 ms short
    c.clock.advance(1)
    t.get(b"r00000000")  # the server's next request: the compaction is done by now
    c_ = store.counters
    assert not any(f in store.files for f in inputs)
    assert c_.minor_compactions + c_.major_compactions == 1


def test_a_flush_waits_at_most_blocking_wait_time_for_a_compaction():
    # compactions too slow to help (1 KiB/s): each stall lasts until blockingWaitTime passes
    c, ms, _ = _import(_config(compaction_throughput_controller="pressure_aware",
                               compaction_throughput_lower_bound=KiB,
                               compaction_throughput_higher_bound=KiB,
                               blocking_store_files=3, compaction_min_files=2), rows=1500)
    s = _server(c)
    assert s.blocked_requests > 0
    # no stall outlasts the wait (each may start part-way through it)
    assert s.updates_blocked_ms <= s.blocked_requests * 5000
    assert s.updates_blocked_ms >= 5000


def test_big_compactions_go_on_the_large_queue():
    c = hsim.Cluster(config=_config(compaction_throughput_controller="pressure_aware",
                                    compaction_throttle=1, blocking_store_files=100,
                                    compaction_throughput_lower_bound=KiB,
                                    compaction_throughput_higher_bound=KiB))
    c.admin.create_table("t", ["f"], split_policy="DisabledRegionSplitPolicy")
    t = c.table("t")
    queue = c.master.servers[0].compactions
    for i in range(1000):
        t.put(b"r%08d" % i, {b"f:q": b"v" * 1000})
    assert queue.large.running is not None and queue.small.running is None
    m = _server(c)
    assert m.compaction_queue_length == m.small_compaction_queue_length \
        + m.large_compaction_queue_length


def test_the_request_log_and_the_timeline_see_the_blocked_time():
    from array import array

    from hsim.regions.request_log import FIELDS, LogSlice

    c, _, log = _import(_config(compaction_throughput_controller="pressure_aware"), record=True)
    blocked = _server(c).updates_blocked_ms
    at = FIELDS.index("blocked_ms")
    assert sum(e[1 + at] for e in log) == blocked > 0
    # the same entries without the waits: the timeline's elapsed time is shorter by them
    counts = array("q", log.counts)
    counts[at::len(FIELDS)] = array("q", [0]) * len(log)
    unblocked = LogSlice(list(log.servers), counts)
    loads = [ServerLoad(s.name) for s in c.master.servers]
    model = CostModel()
    slow = model.evaluate(loads, requests=log).makespan_ms
    fast = model.evaluate(loads, requests=unblocked).makespan_ms
    assert slow - fast >= 0.9 * blocked


def test_metric_names_are_hbases():
    assert describe("updates_blocked_ms").hbase == "updatesBlockedTime"
    assert describe("blocked_requests").hbase == "blockedRequestCount"
    assert describe("compaction_queue_length").hbase == "compactionQueueLength"
    assert describe("small_compaction_queue_length").hbase == "smallCompactionQueueLength"
    assert describe("large_compaction_queue_length").hbase == "largeCompactionQueueLength"
    from hsim.ui.jmx import beans

    c, _, _ = _import(_config(compaction_throughput_controller="pressure_aware"), rows=1500)
    server = next(b for b in beans(c)["beans"] if b.get("writeRequestCount"))
    assert server["updatesBlockedTime"] == _server(c).updates_blocked_ms > 0
    assert server["blockedRequestCount"] == _server(c).blocked_requests > 0
    assert "compactionQueueLength" in server


def test_splits_and_moves_while_compactions_wait_lose_no_write():
    """A compaction done while a write waits (or just before it) may split its region or the
    balancer may have moved it: the write goes where its row is now, as the client's retry
    after NotServingRegionException; daughters keep their references until their queued
    compaction, and every invariant holds throughout."""
    import random

    from hsim.regions import invariants

    c = hsim.Cluster(region_servers=3, config=_config(
        compaction_throughput_controller="pressure_aware", region_max_filesize=1 << 20,
        compaction_throughput_lower_bound=128 * KiB, compaction_throughput_higher_bound=256 * KiB))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    keys = list(range(6000))
    random.Random(1).shuffle(keys)
    for n, i in enumerate(keys):
        t.put(b"r%08d" % i, {b"f:q": b"v" * 500})
        if n % 3 == 0:  # read-modify-writes pass the same gate (and follow a moved row)
            t.increment(b"r%08d" % (i // 7 * 7), b"f:n")
        if n % 500 == 0:
            c.admin.balance()
            assert invariants.problems(c.master) == []
    assert sum(1 for _ in t.scan()) == 6000
    counters = [cell for row in t.scan() for cell in row if cell.qualifier == b"n"]
    assert sum(int.from_bytes(cell.value, "big") for cell in counters) == 2000
    assert len(c.master.table_state("t").locator.regions) > 1
    assert sum(s.updates_blocked_ms for s in c.metrics().servers) > 0
    assert invariants.problems(c.master) == []
