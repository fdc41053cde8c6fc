"""CompactSplit: a region server's compaction queues, on cluster time, with the compaction
throughput PressureAwareCompactionThroughputController allows.

hsim has one thread of control, so nothing runs in the background: a compaction is selected
when it is asked for (HBase selects a system one only when a thread takes it), waits on its
queue, takes `bytes read / throughput` milliseconds of cluster time once started, and
its output replaces its input files at the first request the server serves at or after it is
done (`run_until`). Two queues, one compaction each (hbase.regionserver.thread.compaction.small
and .large, 1 each): a compaction reading more than the store's throttle point
(hbase.regionserver.thread.compaction.throttle) runs on the large one. The throughput, tuned at
each start (HBase tunes it every hbase.hstore.compaction.throughput.tune.period), is
`lower + (higher - lower) x pressure` bytes a second, shared by the compactions running, where
pressure is the server's highest store pressure (HStore.getCompactionPressure); above 1.0 (a
store past its blocking file count) it is unlimited, and in off-peak hours the off-peak bound.

Each queue is a priority queue, as CompactSplit's executors are (its COMPARATOR over
CompactionRunner and CompactionRequestImpl): lower priority first (a system compaction gets its
store's HStore.getCompactPriority, the blocking file count less the files held; a user's
admin.compact / major_compact PRIORITY_USER, 1), then the earlier selection, then the earlier
request. A user compaction is selected at once among the store's files not already
compacting, beside any system one the store has.

Used only with Config.compaction_throughput_controller "pressure_aware"; with "no_limit" a
compaction takes no cluster time and runs inside the write (or the Admin call) that asked for
it (Region.compact_store), as hsim always did. The write stalls this makes (MemStoreFlusher
delaying the flush of a region with too many store files, HRegion.checkResources blocking its
updates) are in Region.flush_in_background and RegionServer.check_resources / wait_for_flush;
their time and count are kept here (updatesBlockedTime, blockedRequestCount).
"""

from __future__ import annotations

import heapq
import itertools

PRIORITY_USER = 1  # Store.PRIORITY_USER: an Admin's compaction request


class Compaction:
    """One queued or running compaction: its store's selection, its queue priority, when it
    was asked for, started and will be done (cluster ms)."""

    __slots__ = ("region", "store", "selection", "priority", "user", "requested", "order",
                 "start", "done", "size")

    def __init__(self, region, store, selection, requested: int, priority: int, user: bool,
                 order: int):
        self.region, self.store, self.selection = region, store, selection
        self.priority, self.user = priority, user
        self.requested, self.order = requested, order
        self.start = self.done = None
        self.size = sum(sf.size for sf in selection.files)


class _Queue:
    """One compaction thread and the compactions waiting for it, a heap by (priority,
    selection time, request order)."""

    __slots__ = ("waiting", "running")

    def __init__(self):
        self.waiting: list = []
        self.running: Compaction | None = None

    def __len__(self) -> int:
        return len(self.waiting)

    def push(self, c: Compaction) -> None:
        heapq.heappush(self.waiting, (c.priority, c.requested, c.order, c))

    def pop(self) -> Compaction:
        return heapq.heappop(self.waiting)[-1]


class CompactSplit:
    """A region server's compaction threads (HBase's CompactSplit) on cluster time: small and
    large queues ordered by priority, each running one compaction whose output lands when its
    bytes have gone through the throughput controller, so writes can wait on it."""

    def __init__(self, server):
        self.server = server
        self.small, self.large = _Queue(), _Queue()
        self.pending: dict = {}  # store -> its Compactions, waiting or running
        self.updates_blocked_ms = 0  # updatesBlockedTime
        self.blocked_requests = 0  # blockedRequestCount
        self._running = False
        self._order = itertools.count()

    @property
    def throttled(self) -> bool:
        return self.server.config.compaction_throughput_controller != "no_limit"

    # --- queue lengths (compactionQueueLength and its small and large parts) --------------------
    @property
    def small_queue_length(self) -> int:
        return len(self.small)

    @property
    def large_queue_length(self) -> int:
        return len(self.large)

    # --- requests --------------------------------------------------------------------------------
    def request(self, region, store, now: int, major: bool = False, user: bool = False) -> bool:
        """A compaction of `store`, selected now among its files not already compacting and
        queued by its size: a system one (CompactSplit.requestSystemCompaction) at the store's
        priority, not asked for twice while one is pending; a user one (requestCompaction at
        PRIORITY_USER; `major`: major_compact) beside it. False when nothing is selected."""
        pending = self.pending.get(store, [])
        if not user and any(not c.user for c in pending):
            return False
        compacting = [sf for c in pending for sf in c.selection.files]
        sel = store.select_compaction(now, major=major, user_requested=user,
                                      files_compacting=compacting)
        if sel is None:
            return False
        c = Compaction(region, store, sel, now, PRIORITY_USER if user else
                       store.compact_priority(), user, next(self._order))
        queue = self.large if c.size > store.config.compaction_throttle_point else self.small
        queue.push(c)
        self.pending.setdefault(store, []).append(c)
        self._start(queue, now)
        self.run_until(now)
        return True

    def next_done(self) -> int | None:
        """When the next running compaction is done (cluster ms), or None."""
        times = [q.running.done for q in (self.small, self.large) if q.running is not None]
        return min(times) if times else None

    def run_until(self, now: int) -> None:
        """Complete, in the order they end, the compactions done by `now`, starting the next
        of each queue as one ends."""
        if self._running:
            return
        self._running = True
        try:
            while True:
                due = [q for q in (self.small, self.large)
                       if q.running is not None and q.running.done <= now]
                if not due:
                    return
                queue = min(due, key=lambda q: q.running.done)
                c, queue.running = queue.running, None
                left = self.pending[c.store]
                left.remove(c)
                if not left:
                    del self.pending[c.store]
                self._start(queue, c.done)
                if not c.region.closed and c.region.server is self.server:
                    c.region.finish_compaction(c)
        finally:
            self._running = False

    def _start(self, queue: _Queue, now: int) -> None:
        if queue.running is not None or not queue.waiting:
            return
        c = queue.pop()
        queue.running = c
        c.start = now
        rate = self.max_throughput(now)
        if rate is None:
            c.done = now
        else:
            sharing = (self.small.running is not None) + (self.large.running is not None)
            c.done = now + -(-c.size * 1000 * sharing // rate)  # ceil, in ms

    # --- PressureAwareCompactionThroughputController ---------------------------------------------
    def compaction_pressure(self) -> float:
        """HRegionServer.getCompactionPressure: the highest of its stores'."""
        return max((s.compaction_pressure() for r in self.server.regions.values()
                    for s in r.stores.values()), default=0.0)

    def max_throughput(self, now: int) -> int | None:
        """Bytes a second the compactions may read together at `now`; None: no limit."""
        config = self.server.config
        pressure = self.compaction_pressure()
        if pressure > 1.0:
            return None  # some store is past its blocking file count
        if self._off_peak(now):
            rate = config.compaction_throughput_offpeak
        else:
            lower, higher = (config.compaction_throughput_lower_bound,
                             config.compaction_throughput_higher_bound)
            rate = int(lower + (higher - lower) * pressure)
        return None if rate >= (1 << 63) - 1 else max(1, rate)

    def _off_peak(self, now: int) -> bool:
        from hsim.engine.off_peak_hours import OffPeakHours

        return OffPeakHours.from_config(self.server.config).is_off_peak_at(now)
