"""The compaction queues are priority queues, as CompactSplit's (its COMPARATOR): lower
priority first, a system compaction at its store's HStore.getCompactPriority (blocking files
less files held; 1 becomes 2), a user's (admin.compact / major_compact) at PRIORITY_USER 1;
then the earlier selection, then the earlier request. With a throughput limit a user
compaction goes through the queue; without one (the default) it runs at once, as before."""

from types import SimpleNamespace

import hsim
from hsim.config import Config
from hsim.regions.compact_split import PRIORITY_USER, CompactSplit

KiB = 1 << 10


class _Store:
    """A store as CompactSplit sees it: its priority and what a selection would take."""

    def __init__(self, name, priority, size=KiB):
        self.name, self.priority, self.size = name, priority, size
        self.config = Config()

    def compact_priority(self):
        return self.priority

    def select_compaction(self, now, major=False, user_requested=False, files_compacting=()):
        return SimpleNamespace(files=(SimpleNamespace(size=self.size),))


def _queue():
    """A CompactSplit on a server with no regions, compacting 1 KiB a second."""
    config = Config(compaction_throughput_controller="pressure_aware",
                    compaction_throughput_lower_bound=KiB, compaction_throughput_higher_bound=KiB)
    return CompactSplit(SimpleNamespace(config=config, regions={}))


def _started_in_order(queue, requests):
    """Request (store, user, at) compactions while a first one keeps the thread busy; the
    stores' names in the order their compactions start."""
    gone = SimpleNamespace(closed=True)  # its compactions' outputs are not applied
    queue.request(gone, _Store("busy", 0), 0)
    for store, user, at in requests:
        queue.request(gone, store, at, user=user)
    order = []
    while queue.small.running is not None:
        order.append(queue.small.running.store.name)
        queue.run_until(queue.next_done())
    return order[1:]


def test_lower_priority_first_a_user_request_at_priority_user():
    stores = {n: _Store(n, p) for n, p in
              [("relaxed", 9), ("crowded", 2), ("blocking", 0), ("past_blocking", -3)]}
    requests = [(stores["relaxed"], False, 1), (stores["crowded"], False, 2),
                (_Store("user", 9), True, 3), (stores["blocking"], False, 4),
                (stores["past_blocking"], False, 5)]
    assert _started_in_order(_queue(), requests) == \
        ["past_blocking", "blocking", "user", "crowded", "relaxed"]


def test_equal_priorities_by_selection_time_then_request_order():
    requests = [(_Store("later", 4), False, 7), (_Store("first", 4), False, 5),
                (_Store("second", 4), False, 5)]
    assert _started_in_order(_queue(), requests) == ["first", "second", "later"]


def test_the_queue_lengths_count_the_waiting_compactions():
    queue = _queue()
    gone = SimpleNamespace(closed=True)
    for i in range(4):
        queue.request(gone, _Store(f"s{i}", i), 0)
    assert (queue.small_queue_length, queue.large_queue_length) == (3, 0)
    big = _Store("big", 5, size=queue.server.config.compaction_throttle_point + 1)
    queue.request(gone, big, 0)
    assert queue.large.running.store is big and queue.large_queue_length == 0


def test_the_store_priority_is_blocking_files_less_files_held():
    c = hsim.Cluster(config=Config(blocking_store_files=4, compaction_min_files=10))
    c.admin.create_table("t", ["f"])
    store = c.master.table_state("t").locator.regions[0].stores[b"f"]
    seen = []
    for i in range(6):
        seen.append(store.compact_priority())
        c.table("t").put(b"r%d" % i, {b"f:q": b"v"})
        c.admin.flush("t")
    # 4 - 0, 4 - 1, then 4 - 2 = 2, 4 - 3 = 1 (PRIORITY_USER) becomes 2, then 0, -1
    assert seen == [4, 3, 2, 2, 0, -1]


def _throttled_cluster(files=4, **changes):
    c = hsim.Cluster(config=Config(**{
        "compaction_throughput_controller": "pressure_aware", "compaction_min_files": 10,
        "compaction_throughput_lower_bound": 16 * KiB,
        "compaction_throughput_higher_bound": 16 * KiB, **changes}))
    c.admin.create_table("t", ["f"], split_policy="DisabledRegionSplitPolicy")
    t = c.table("t")
    for i in range(files):
        t.put(b"r%d" % i, {b"f:q": b"v" * 4000})
        c.admin.flush("t")
    region = c.master.table_state("t").locator.regions[0]
    return c, region.stores[b"f"], c.master.servers[0].compactions


def test_a_user_major_compaction_goes_through_the_queue_when_throttled():
    c, store, queue = _throttled_cluster()
    files = list(store.files)
    c.admin.major_compact("t")
    (compaction,) = queue.pending[store]
    assert compaction.user and compaction.priority == PRIORITY_USER
    assert compaction.selection.is_major and store.files == files  # not done yet
    assert compaction.done > c.clock.now()
    c.clock.advance(compaction.done - c.clock.now())
    c.table("t").get(b"r0")  # the server's next request: the compaction is done
    assert len(store.files) == 1 and store.counters.major_compactions == 1
    assert not queue.pending


def test_compactions_of_one_store_side_by_side_take_disjoint_files():
    c, store, queue = _throttled_cluster(files=2, compaction_min_files=3)
    c.admin.major_compact("t")
    (first,) = queue.pending[store]
    assert first.selection.is_major and len(first.selection.files) == 2
    for i in range(3):  # the third flush asks for a system compaction of the files not compacting
        c.table("t").put(b"s%d" % i, {b"f:q": b"v" * 4000})
        c.admin.flush("t")
    first_, second = queue.pending[store]
    assert first_ is first and not second.user
    assert not set(first.selection.files) & set(second.selection.files)
    assert len(second.selection.files) == 3 and not second.selection.is_major
    assert second.priority == store.config.blocking_store_files - 5
    c.admin.major_compact("t")  # every file compacting: nothing to select, no forced major
    assert len(queue.pending[store]) == 2
    c.clock.advance(10_000)
    c.table("t").get(b"r0")
    assert len(store.files) == 2 and not queue.pending
    assert store.counters.major_compactions == 1 and store.counters.minor_compactions == 1


def test_without_a_limit_a_user_compaction_runs_at_once():
    c = hsim.Cluster(config=Config(compaction_min_files=10))
    c.admin.create_table("t", ["f"])
    for i in range(4):
        c.table("t").put(b"r%d" % i, {b"f:q": b"v"})
        c.admin.flush("t")
    c.admin.major_compact("t")
    store = c.master.table_state("t").locator.regions[0].stores[b"f"]
    assert len(store.files) == 1 and not c.master.servers[0].compactions.pending
