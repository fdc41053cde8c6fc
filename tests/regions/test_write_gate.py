"""One write gate (HRegion.checkResources) for every mutation: Put, Delete, mutateRow,
Increment, Append and checkAndMutate all wait the same way for a flush when their region's
MemStore is past its blocking size, and are counted alike (updatesBlockedTime,
blockedRequestCount, the request log's blocked_ms)."""

import pytest

import hsim
from hsim.client.batch import Mutation
from hsim.config import Config
from hsim.regions.request_log import FIELDS

KiB = 1 << 10
_BLOCKED = FIELDS.index("blocked_ms")

# Each mutation kind, sent to row b"x" of the full region; `f:c` holds a counter b"\0"*8.
OPS = {
    "put": lambda t: t.put(b"x", {b"f:q": b"v"}),
    "delete": lambda t: t.delete_columns(b"x", b"f:q"),
    "mutate_row": lambda t: t.mutate_rows([Mutation("put", b"x", data={b"f:q": b"v"})]),
    "increment": lambda t: t.increment(b"x", b"f:c", 1),
    "append": lambda t: t.append(b"x", {b"f:q": b"v"}),
    "check_and_put_passing": lambda t: t.check_and_put(b"x", b"f:c", b"\0" * 8,
                                                       {b"f:q": b"v"}),
    "check_and_put_failing": lambda t: t.check_and_put(b"x", b"f:c", b"no", {b"f:q": b"v"}),
    "check_and_delete": lambda t: t.check_and_delete(b"x", b"f:c", b"\0" * 8, [b"f:q"]),
}


def _full_region():
    """A cluster whose one region is past its blocking MemStore size, its flush put off by a
    store past its blocking file count while a slow compaction runs."""
    c = hsim.Cluster(config=Config(
        memstore_flush_size=64 * KiB, flush_lower_bound_min=1, blocking_store_files=3,
        compaction_min_files=2, compaction_throughput_controller="pressure_aware",
        compaction_throughput_lower_bound=16 * KiB, compaction_throughput_higher_bound=16 * KiB,
        blocking_wait_ms=5000))
    c.admin.create_table("t", ["f"], split_policy="DisabledRegionSplitPolicy")
    t = c.table("t")
    t.put(b"x", {b"f:c": b"\0" * 8})
    region = c.master.table_state("t").locator.regions[0]
    i = 0
    while region.memstore_heap <= region.blocking_memstore_size:
        t.put(b"r%08d" % i, {b"f:q": b"v" * 1000})
        i += 1
    return c, t, c.master.servers[0].compactions


def _blocked(op):
    """(ms the op waited, blocked requests it added, its request-log blocked_ms, now after)."""
    c, t, queue = _full_region()
    log = c.record_requests()
    ms, count = queue.updates_blocked_ms, queue.blocked_requests
    OPS[op](t)
    entries = list(log)
    return (queue.updates_blocked_ms - ms, queue.blocked_requests - count,
            sum(e[1 + _BLOCKED] for e in entries), c.clock.now())


@pytest.fixture(scope="module")
def put_blocked():
    return _blocked("put")


def test_a_put_into_a_region_past_its_blocking_size_waits_and_is_counted(put_blocked):
    ms, count, logged, _ = put_blocked
    assert count == 1 and ms > 0 and logged == ms


@pytest.mark.parametrize("op", [op for op in OPS if op != "put"])
def test_every_mutation_waits_at_the_same_gate_as_a_put(op, put_blocked):
    assert _blocked(op) == put_blocked


def test_the_mutations_land_after_the_wait():
    c, t, queue = _full_region()
    assert t.increment(b"x", b"f:c", 5) == 5
    assert queue.blocked_requests == 1
    assert t.check_and_put(b"x", b"f:c", (5).to_bytes(8, "big"), {b"f:z": b"1"})
    assert {c.qualifier: c.value for c in t.get(b"x")}[b"z"] == b"1"


@pytest.mark.parametrize("controller", ["no_limit", "pressure_aware"])
def test_the_global_memstore_limit_never_leaves_an_update_to_block(controller):
    """MemStoreFlusher.reclaimMemStoreMemory blocks updates while the server's MemStores are
    above the global limit, until its flush threads bring them down. hsim's global flush
    (RegionServer.check_global_memstore) runs at once, emergency (no wait on store files),
    inside the write that crossed the limit: after every write the server is at or under
    the limit, so the next update never has to wait, and nothing is counted as blocked."""
    import random

    c = hsim.Cluster(config=Config(
        global_memstore_size=200 * KiB, memstore_flush_size=128 * KiB, blocking_store_files=4,
        compaction_throughput_controller=controller, compaction_throughput_lower_bound=KiB,
        compaction_throughput_higher_bound=KiB))
    c.admin.create_table("t", ["a", "b"], split_keys=[b"r3", b"r6"])
    t, server, rnd = c.table("t"), c.master.servers[0], random.Random(3)
    highest = 0
    for i in range(3000):
        column = b"a:q" if rnd.random() < 0.9 else b"b:q"
        t.put(b"r%d%05d" % (rnd.randrange(9), i), {column: b"v" * rnd.randrange(10, 400)})
        highest = max(highest, server.memstore_heap)
    assert server.global_flushes > 0
    assert 0.9 * server.config.global_memstore_size < highest <= \
        server.config.global_memstore_size
    assert server.compactions.updates_blocked_ms == server.compactions.blocked_requests == 0
