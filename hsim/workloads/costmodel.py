"""The cost model: turns what a cluster did (counts per region server) into simulated time.

Each region server serves its own queue. Its busy time is what its requests cost plus the
flushes and compactions it ran. The run lasts as long as the busiest server (the makespan),
so a hotspot, one server with most of the work, caps throughput no matter how many servers
sit idle. Latency per server is M/M/1 at the utilisation a paced run gives it. The full
model, its parameters and where their defaults come from: docs/cost-model.md.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.metrics import ServerMetrics


@dataclass
class ServerLoad:
    """What one region server did during a run. Every field is a plain count."""

    server: str = ""
    read_requests: int = 0  # read RPCs: Gets and scanner batches (one per `caching` rows)
    write_requests: int = 0  # mutations it applied (each one RPC, one WAL append and sync)
    scan_rows: int = 0  # rows its reads returned (a Get's row or a scanner's rows)
    cache_hits: int = 0  # data blocks served from the block cache
    blocks_read_from_disk: int = 0  # blocks fetched from store files (cache misses)
    bytes_flushed: int = 0  # memstore bytes written out as store files
    bytes_compacted_read: int = 0
    bytes_compacted_written: int = 0
    wal_bytes: int = 0  # bytes appended to its write-ahead log
    chunk_hits: int = 0  # index and bloom chunks looked up in the block cache
    rows_examined: int = 0  # rows its reads examined, filtered ones included (>= scan_rows)
    cells_scanned: int = 0  # cells its reads handed to the query matcher
    streamed_blocks: int = 0  # of blocks_read_from_disk: read streaming, after a scan's switch
    streamed_bytes: int = 0  # their bytes (priced by bandwidth, not by a seek each)
    blocked_ms: int = 0  # cluster ms its writes waited for a flush (updatesBlockedTime)

    @property
    def requests(self) -> int:
        """Read plus write requests."""
        return self.read_requests + self.write_requests

    @classmethod
    def from_metrics(cls, m: ServerMetrics) -> "ServerLoad":
        """From an hsim.metrics.ServerMetrics. Its read_requests counts rows (as HBase's
        readRequestsCount does), so RPCs come from read_rpcs; its block cache hits include the
        index and bloom chunks, which are priced apart. WAL bytes are every byte the server's
        write-ahead log appended (SKIP_WAL mutations append none). Rows examined are
        read_requests plus filtered_read_requests where the metrics have it (0 otherwise); the
        metrics carry no cells scanned and no streaming reads: a RequestLog does."""
        chunks = getattr(m, "chunk_cache_hits", 0)
        examined = m.read_requests + getattr(m, "filtered_read_requests", 0)
        return cls(m.name, getattr(m, "read_rpcs", m.read_requests), m.write_requests,
                   m.read_requests, max(0, m.block_cache_hits - chunks), m.blocks_read,
                   m.bytes_flushed, m.compaction_bytes_read, m.compaction_bytes_written,
                   getattr(m, "wal_bytes_written", 0), chunks, examined,
                   blocked_ms=getattr(m, "updates_blocked_ms", 0))


LOAD_FIELDS = tuple(f.name for f in fields(ServerLoad) if f.name != "server")


@dataclass(frozen=True)
class ServerCost:
    """One server's simulated time. `latency_ms` is inf when its queue is saturated."""

    server: str
    requests: int
    share: float  # of all requests
    foreground_ms: float  # serving requests
    background_ms: float  # flushes and compactions
    busy_ms: float
    service_ms: float  # mean time one request occupies the server
    utilization: float  # busy fraction at the offered rate
    latency_ms: float  # M/M/1 mean response time

    @property
    def saturated(self) -> bool:
        """True when the server is busy all the time (utilisation >= 1)."""
        return self.utilization >= 1.0


@dataclass(frozen=True)
class CostReport:
    """The cost model's verdict on a run: per-server simulated time and the throughput it allows."""

    servers: tuple
    ops: int
    makespan_ms: float
    throughput_ops_per_s: float  # ops / makespan: the rate the busiest server allows
    offered_ops_per_s: float  # the rate latencies are evaluated at
    hotspot_ratio: float  # busiest server's requests / mean per server (0.0: no requests)
    mean_latency_ms: float  # over requests, inf if a loaded server is saturated
    latencies: tuple = ()  # each request's latency on the timeline, sorted (none: M/M/1)

    def latency_percentile(self, p: float) -> float:
        """The p-th percentile (0 < p < 100) of request latency over the cluster: from the
        timeline's latencies (nearest rank) when the run was laid out on one; otherwise each
        server's M/M/1 response time, exponential with the server's mean, so the cluster's is
        a mixture of exponentials weighted by request share, solved by bisection."""
        if not 0 < p < 100:
            raise ValueError(f"percentile must be in (0, 100): {p}")
        if self.latencies:
            n = len(self.latencies)
            return self.latencies[min(n - 1, max(0, math.ceil(p / 100.0 * n) - 1))]
        tail = 1.0 - p / 100.0
        parts = [(s.share, s.latency_ms) for s in self.servers if s.requests]
        if not parts:
            return 0.0
        if sum(w for w, r in parts if math.isinf(r)) >= tail:
            return math.inf
        finite = [(w, r) for w, r in parts if not math.isinf(r) and r > 0]
        stuck = sum(w for w, r in parts if math.isinf(r))
        if not finite:
            return 0.0

        def above(t):  # P(latency > t)
            return stuck + sum(w * math.exp(-t / r) for w, r in finite)

        lo, hi = 0.0, max(r for _, r in finite) * 64.0
        for _ in range(100):
            mid = (lo + hi) / 2
            if above(mid) > tail:
                lo = mid
            else:
                hi = mid
        return hi

    def to_dict(self) -> dict:
        """JSON-ready: infinities become None."""

        def clean(d):
            return {k: (None if isinstance(v, float) and math.isinf(v) else v)
                    for k, v in d.items()}

        out = clean({f.name: getattr(self, f.name) for f in fields(self)
                     if f.name not in ("servers", "latencies")})
        out["servers"] = [clean(asdict(s)) for s in self.servers]
        return out


@dataclass(frozen=True)
class CostModel:
    """Per-unit costs, each one a unit of work HBase pays, all overridable. Where each default
    comes from, and a worked example: docs/cost-model.md. A cached Get (one RPC, one row, a
    bloom and an index chunk, one data block from the cache) comes to ~0.8 ms and a Get that
    misses the cache to ~9 ms: the seeds' "~1 ms" and "~10 ms" are outputs, not inputs."""

    request_ms: float = 0.7  # RPC round trip and handler work, per request or scanner batch
    scan_row_ms: float = 0.01  # per row examined: the merge and query matcher work of one row
    cache_block_ms: float = 0.05  # a data block from the block cache (tens of microseconds)
    chunk_ms: float = 0.005  # an index or bloom chunk looked up in the block cache
    disk_block_ms: float = 8.0  # a block read from disk: one random seek of a spinning disk
    wal_sync_ms: float = 0.1  # per mutation: its share of a group-committed WAL sync
    disk_mb_per_s: float = 100.0  # sequential bandwidth: WAL, flushes, compactions, streaming
    cell_ms: float = 0.001  # per cell examined: one step of the heap and the query matcher
    reference_utilization: float = 0.7  # pacing for latencies when no rate is given
    client_threads: int = 16  # requests the clients keep in flight (the timeline's threads)

    UNITS = ("request_ms", "scan_row_ms", "cache_block_ms", "chunk_ms", "disk_block_ms",
             "wal_sync_ms", "disk_mb_per_s", "cell_ms")  # the priced units a sweep varies

    def __post_init__(self):
        if self.disk_mb_per_s <= 0 or not 0 < self.reference_utilization < 1:
            raise ValueError("disk_mb_per_s must be > 0 and reference_utilization in (0, 1)")
        if min(getattr(self, u) for u in self.UNITS) < 0:
            raise ValueError("costs must not be negative")
        if self.client_threads < 1:
            raise ValueError("client_threads must be at least 1")

    def scaled(self, unit: str, factor: float) -> "CostModel":
        """The same model with one unit multiplied by `factor`."""
        if unit not in self.UNITS:
            raise ValueError(f"no cost unit {unit!r} (units: {', '.join(self.UNITS)})")
        return replace(self, **{unit: getattr(self, unit) * factor})

    def foreground_ms(self, load: ServerLoad) -> float:
        """Time spent serving requests: RPCs, the rows and cells examined, the blocks and chunks
        read (by a seek each, or streamed by bandwidth), the WAL, and the time writes waited
        blocked for a flush (cluster ms, as they are)."""
        return (self.request_ms * (load.read_requests + load.write_requests)
                + self.scan_row_ms * max(load.scan_rows, load.rows_examined)
                + self.cell_ms * load.cells_scanned
                + self.cache_block_ms * load.cache_hits
                + self.chunk_ms * load.chunk_hits
                + self.disk_block_ms * (load.blocks_read_from_disk - load.streamed_blocks)
                + self.wal_sync_ms * load.write_requests
                + (load.wal_bytes + load.streamed_bytes) * self._ms_per_byte()
                + load.blocked_ms)

    def background_ms(self, load: ServerLoad) -> float:
        """Time the server's disk spends on flushes and compactions."""
        return (load.bytes_flushed + load.bytes_compacted_read
                + load.bytes_compacted_written) * self._ms_per_byte()

    def busy_ms(self, load: ServerLoad) -> float:
        """A server's simulated busy time: foreground requests plus background flush and compaction
        work."""
        return self.foreground_ms(load) + self.background_ms(load)

    def _ms_per_byte(self) -> float:
        return 1000.0 / (self.disk_mb_per_s * 1_000_000)

    def _weights(self) -> tuple:
        """(foreground, background) price of one of each ServerLoad count, in LOAD_FIELDS order:
        what one RequestLog entry costs is their dot product with its counts (rows are priced
        as examined, which a log entry never has fewer of than it returned)."""
        b = self._ms_per_byte()
        fg = dict(read_requests=self.request_ms, write_requests=self.request_ms + self.wal_sync_ms,
                  cache_hits=self.cache_block_ms, blocks_read_from_disk=self.disk_block_ms,
                  wal_bytes=b, chunk_hits=self.chunk_ms, rows_examined=self.scan_row_ms,
                  cells_scanned=self.cell_ms, streamed_blocks=-self.disk_block_ms,
                  streamed_bytes=b, blocked_ms=1.0)
        bg = dict(bytes_flushed=b, bytes_compacted_read=b, bytes_compacted_written=b)
        return ([fg.get(f, 0.0) for f in LOAD_FIELDS], [bg.get(f, 0.0) for f in LOAD_FIELDS])

    def evaluate(self, loads: list[ServerLoad], ops: int | None = None,
                 offered_ops_per_s: float | None = None, requests: list | None = None,
                 latency: bool = True) -> CostReport:
        """Cost a run. `loads`: one ServerLoad per region server, idle ones included (they
        count in the mean of the hotspot ratio). `ops`: client operations the run made
        (default: the requests served). `offered_ops_per_s`: the rate latencies are taken
        at (default: reference_utilization x the simulated throughput). `requests`: the run's
        RequestLog entries; with them the counts come from the entries and the run is laid out
        on the timeline (hsim.workloads.timeline), else priced from the totals alone (each
        server's busy time; M/M/1 latencies). `latency=False` skips the latencies."""
        if requests is None:
            return self._evaluate_totals(list(loads), ops, offered_ops_per_s)
        return self._evaluate_timeline(list(loads), ops, offered_ops_per_s, requests, latency)

    def _evaluate_timeline(self, loads, ops, offered_ops_per_s, requests, latency):
        from hsim.workloads import timeline

        if not isinstance(requests, timeline.Logged):
            requests = timeline.Logged(requests, [x.server for x in loads])
        fw, bw = self._weights()
        # prices of counts the entries do not have cannot change the result
        prices = (tuple(w for w, p in zip(fw, requests.present) if p),
                  tuple(w for w, p in zip(bw, requests.present) if p), self.client_threads)
        key = prices + (self.reference_utilization, ops, offered_ops_per_s, latency)
        report = requests.priced.get(key)
        if report is None:
            report = requests.priced[key] = self._lay_out(requests, fw, bw, ops,
                                                          offered_ops_per_s, latency, prices)
        return report

    def _lay_out(self, requests, fw, bw, ops, offered_ops_per_s, latency,
                 prices) -> CostReport:
        """The CostReport of `requests` (a timeline.Logged) at per-count prices fw, bw (the
        elapsed time is kept per `prices`: it does not depend on ops or the offered rate)."""
        import numpy as np

        from hsim.workloads import timeline

        names, k = requests.names, len(requests.names)
        fg = (requests.request_counts @ np.array(fw)).tolist() if requests.where else []
        bg = (requests.job_counts @ np.array(bw)).tolist() if requests.jobs else []
        jobs = [(before, s, ms) for (before, s), ms in zip(requests.jobs, bg)]
        loads = [ServerLoad(n, *row) for n, row in zip(names, requests.totals)]
        reqs = [x.requests for x in loads]
        total = sum(reqs)
        if ops is None:
            ops = total
        elapsed = requests.elapsed.get(prices)
        if elapsed is None:
            elapsed = requests.elapsed[prices] = timeline.closed_loop(
                requests.where, fg, jobs, k, self.client_threads,
                requests.stretches(self.client_threads))
        throughput = ops * 1000.0 / elapsed if elapsed > 0 else 0.0
        offered = (self.reference_utilization * throughput if offered_ops_per_s is None
                   else float(offered_ops_per_s))
        lat, duration = [], 0.0
        if latency and total and offered > 0:
            gap = 1000.0 * ops / (offered * total)  # ms between requests at the offered rate
            lat = timeline.paced(requests.where, fg, jobs, k, gap)
            duration = gap * total
        per = [[] for _ in names]
        for s, t in zip(requests.where, lat):
            per[s].append(t)
        servers = []
        for x, r, mine in zip(loads, reqs, per):
            f, b = self.foreground_ms(x), self.background_ms(x)
            servers.append(ServerCost(x.server, r, r / total if total else 0.0, f, b, f + b,
                                      f / r if r else 0.0,
                                      (f + b) / duration if duration else 0.0,
                                      sum(mine) / len(mine) if mine else 0.0))
        mean = total / k if k else 0.0
        hotspot = max(reqs) / mean if mean else 0.0
        return CostReport(tuple(servers), ops, elapsed, throughput, offered, hotspot,
                          sum(lat) / len(lat) if lat else 0.0, tuple(sorted(lat)))

    def _evaluate_totals(self, loads, ops, offered_ops_per_s) -> CostReport:
        """The run priced from per-server totals: makespan = the busiest server's busy time,
        M/M/1 latencies (for counts gathered without a RequestLog)."""
        fg = [self.foreground_ms(x) for x in loads]
        bg = [self.background_ms(x) for x in loads]
        busy = [f + b for f, b in zip(fg, bg)]
        reqs = [x.requests for x in loads]
        total = sum(reqs)
        if ops is None:
            ops = total
        makespan = max(busy, default=0.0)
        throughput = ops * 1000.0 / makespan if makespan > 0 else 0.0
        offered = (self.reference_utilization * throughput if offered_ops_per_s is None
                   else float(offered_ops_per_s))
        # a run of `ops` at `offered` lasts ops / offered seconds; a server busy for busy_i ms
        # of it is utilised busy_i / duration
        per_ms = offered / (1000.0 * ops) if ops else 0.0
        servers = []
        for x, f, b, t, r in zip(loads, fg, bg, busy, reqs):
            service = f / r if r else 0.0
            rho = t * per_ms
            latency = service / (1.0 - rho) if rho < 1.0 else math.inf
            servers.append(ServerCost(x.server, r, r / total if total else 0.0, f, b, t,
                                      service, rho, latency))
        mean = total / len(loads) if loads else 0.0
        hotspot = max(reqs) / mean if mean else 0.0  # as ClusterMetrics.hotspot_ratio
        if total:
            mean_latency = sum(s.share * s.latency_ms for s in servers if s.requests)
        else:
            mean_latency = 0.0
        return CostReport(tuple(servers), ops, makespan, throughput, offered, hotspot,
                          mean_latency)

