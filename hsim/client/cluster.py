"""Cluster: the user's handle on an in-process HBase (a master and N region servers), with
`admin`, `table(name)`, `clock` and `metrics()`.

Every client call is one request and runs under the cluster's lock, so a cluster can be shared
by threads (the Thrift server's handlers) with each request atomic. A request reads the time
once, from `tick()`: the default TickingClock moves 1 ms per request, as a cluster's time moves
between one RPC and the next.
"""

from __future__ import annotations

import os
import threading

from hsim.clock import TickingClock
from hsim.config import Config
from hsim.errors import ClusterClosedError, DiskIOError, InvalidArgumentError
from hsim.filters import regex_budget
from hsim.regions.master import Master

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.table import Table
    from hsim.clock import ManualClock, SystemClock
    from hsim.metrics import ClusterMetrics
    from hsim.regions.recovery import CrashReport
    from hsim.regions.request_log import RequestLog
    from hsim.regions.region_server import RegionServer
    from typing import ContextManager


class Cluster:
    """A simulated HBase cluster: a master, region servers and one clock; `admin` for DDL,
    `table(name)` for data. With `data_dir`, its tables, store files and WALs are kept in that
    directory (hsim.storage) and reopened from it; close() it when done."""

    def __init__(self, region_servers: int = 1, config: Config | None = None,
                 clock: ManualClock | TickingClock | SystemClock | None = None,
                 data_dir: str | os.PathLike | None = None, seed: int = 0):
        """`seed`: what the cluster's random choices draw from (a RandomRowFilter without a
        seed of its own), so the same seed gives the same rows."""
        from hsim.client.admin import Admin

        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidArgumentError(f"seed must be an int, got {seed!r}")
        _check_arguments(region_servers, config, clock, data_dir)
        self.seed = seed
        self.config = config or Config()
        self.clock = clock if clock is not None else TickingClock()
        self.data_dir = None
        if data_dir is not None:  # kept on disk (hsim.storage); without it, all in memory
            from hsim.storage.data_dir import DataDir

            store = DataDir(str(data_dir))
            store.load(self.config)  # reads and checks everything; changes nothing
            if store.max_time >= self.clock.now():
                self.clock.set(store.max_time + 1)  # time never goes back across a restart
        self.master = Master(region_servers, self.config, self.clock)
        self.master.seed = seed
        self.lock = threading.RLock()
        if data_dir is not None:
            store.restore(self.master)
            self.data_dir = store
            self.lock = _PersistingLock(lambda: store.checkpoint(self.master))
        self.admin = Admin(self)
        self._request_depth = 0  # > 0 while a request() holds the lock

    def tick(self) -> int:
        """The time of the request starting now (call with the lock held): the clock moves
        once per request, unless this call is part of an enclosing request() (one Thrift call
        that runs several Table calls is still one RPC)."""
        if self._request_depth:
            return self.clock.now()
        now = self.clock.tick()
        for srv in self.master.servers:  # prefetches whose delay has passed (PrefetchExecutor)
            if srv.block_cache.prefetches:
                srv.block_cache.prefetches.run_due(now)
        if now >= self.master.chores_due:  # the balancer and normalizer chores, on cluster time
            self.master.run_chores(now)
        return now

    def request(self) -> ContextManager[None]:
        """`with cluster.request():` one client request (a Thrift call, a shell statement):
        the lock held, the clock ticked once, and the Table calls inside it tick no further."""
        return _Request(self)

    def table(self, name: str | bytes) -> Table:
        """The Table client for a table (str or bytes name)."""
        from hsim.client.table import Table

        return Table(self, name)  # checks and normalises the name

    def metrics(self) -> ClusterMetrics:
        """A snapshot of every server's and region's counters (ClusterMetrics)."""
        with self.lock:
            return self.master.metrics()

    def record_requests(self) -> RequestLog:
        """Start (or go on) keeping a RequestLog: every request and background job from now on,
        in order, with what it read and wrote (the timeline of hsim.workloads prices it)."""
        from hsim.regions.request_log import RequestLog

        with self.lock:
            if self.master.request_log is None:
                self.master.request_log = RequestLog()
            return self.master.request_log

    def check_invariants(self) -> None:
        """Raise AssertionError naming every broken invariant: regions tile each table's key
        space, every region is on the server that lists it, memstore cells and store files lie
        in their region's range (reference halves included), memstore sizes equal their cells'
        and add up per region and server, the block cache's books balance, and the metrics report
        what the servers hold."""
        from hsim.regions.invariants import problems

        with self.lock:
            found = problems(self.master)
        if found:
            raise AssertionError("; ".join(found))

    @property
    def region_servers(self) -> list:
        """The region servers, in order."""
        return self.master.servers

    def abort_region_server(self, index: int) -> CrashReport:
        """MiniHBaseCluster.abortRegionServer: live server `index` dies; its regions are
        recovered from its WAL on the live servers. Returns a CrashReport (what was replayed,
        what was lost)."""
        with self.lock:
            return self.master.abort_server(index)

    def start_region_server(self) -> RegionServer:
        """MiniHBaseCluster.startRegionServer: a new, empty live server (run
        `admin.balance()` to give it regions)."""
        with self.lock:
            return self.master.start_server()

    def run_compaction_chore(self) -> int:
        """CompactionChecker: ask every store whether it needs a compaction now, which is also
        where periodic major compactions fire as the clock passes their due time."""
        with self.lock:
            now = self.clock.now()
            ran = 0
            log = self.master.request_log
            for st in list(self.master.tables.values()):
                for r in list(st.locator.regions):
                    for s in list(r.stores.values()):
                        if r.closed:
                            break
                        c = s.counters
                        read, written = c.compaction_bytes_read, c.compaction_bytes_written
                        try:
                            sel = s.compact(now)
                        except DiskIOError:  # the store is as it was; the next run retries
                            sel = None
                        if sel is not None:
                            ran += 1
                            if log is not None and r.server is not None:
                                log.background(r.server.name,
                                               compacted_read=c.compaction_bytes_read - read,
                                               compacted_written=c.compaction_bytes_written
                                               - written)
                    if not r.closed:
                        r.check_split(now)
            return ran

    def close(self) -> None:
        """Shut down: with a data directory, flush every region, archive the WALs and release
        the directory's lock, so the directory reopens without replay. Final: every later
        request raises ClusterClosedError (as a closed HBase Connection). Idempotent."""
        if self.closed:
            return
        with self.lock:
            if self.data_dir is not None:
                self.data_dir.close(self.master)
                self.data_dir = None
                self.lock.closed = True  # for requests already waiting on it
            self.lock = _ClosedLock()

    @property
    def closed(self) -> bool:
        """Whether close() has run."""
        return type(self.lock) is _ClosedLock

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self) -> str:
        return f"Cluster({len(self.master.servers)} servers, {len(self.master.tables)} tables)"


class _PersistingLock:
    """The cluster's lock when it has a data directory: releasing the outermost hold runs the
    checkpoint, so a request's WAL bytes and files are on disk before its reply. Once `closed`
    (by close(), holding it), a request that was waiting for it is refused, not applied and
    then lost."""

    __slots__ = ("_lock", "_depth", "_checkpoint", "closed")

    def __init__(self, checkpoint):
        self._lock = threading.RLock()
        self._depth = 0
        self._checkpoint = checkpoint
        self.closed = False

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        got = self._lock.acquire(blocking, timeout)
        if got:
            if self.closed:
                self._lock.release()
                _ClosedLock().acquire()  # raises ClusterClosedError
            self._depth += 1
        return got

    def release(self) -> None:
        try:
            if self._depth == 1:
                self._checkpoint()
        finally:
            self._depth -= 1
            self._lock.release()

    __enter__ = acquire

    def __exit__(self, *exc):
        self.release()
        return False


class _ClosedLock:
    """The lock of a closed cluster: any request that takes it is refused."""

    __slots__ = ()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        raise ClusterClosedError("Cluster is closed: no request after close()")

    def release(self) -> None:
        pass

    __enter__ = acquire

    def __exit__(self, *exc):
        return False


class _Request:
    """One request: the lock, one clock tick, and one regex budget for all its RPCs."""

    __slots__ = ("cluster", "budget")

    def __init__(self, cluster):
        self.cluster = cluster
        self.budget = regex_budget.scope(cluster.config.regex_budget_ms)

    def __enter__(self):
        c = self.cluster
        c.lock.acquire()
        now = c.tick()
        c._request_depth += 1
        self.budget.__enter__()
        return now

    def __exit__(self, *exc):
        c = self.cluster
        self.budget.__exit__()
        c._request_depth -= 1
        c.lock.release()
        return False


MAX_REGION_SERVERS = 1024  # a simulated cluster in one process; HBase's own have hundreds


def _check_arguments(region_servers, config, clock, data_dir) -> None:
    """Cluster's arguments, each named in its error, before anything is built."""
    from hsim.clock import ManualClock, SystemClock, TickingClock
    from hsim.client.validation import integer, type_error

    integer(region_servers, "region_servers", 1, MAX_REGION_SERVERS)
    if config is not None and not isinstance(config, Config):
        raise type_error("config", "an hsim.Config", config)
    if clock is not None and not isinstance(clock, (ManualClock, TickingClock, SystemClock)):
        raise type_error("clock", "an hsim clock (ManualClock, TickingClock, SystemClock)", clock)
    if data_dir is not None and not isinstance(data_dir, (str, os.PathLike)):
        raise type_error("data_dir", "a path (str or os.PathLike)", data_dir)
