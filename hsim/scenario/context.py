"""Run: what a scenario's run function gets for one variant (`ctx`).

It owns the variant's fresh cluster (made on first use from Config().scaled(scale) plus the
scenario's and the variant's overrides, on a TickingClock that starts at a fixed epoch), the
variant's seeded random generator, and what the run records: named metrics for the comparison
table and the claims, (x, y) points for line charts, and a timeline of store files and
compaction bytes sampled as `tick()` counts operations.

`tick()` is the one call per operation: operations arrive `ms_per_op` apart, so it moves the
clock on to the next operation's due time (the same seed gives the same timestamps, TTL
expiries and periodic major compactions). The clock also moves 1 ms per request as everywhere;
an operation that makes more requests than its `ms_per_op` runs late, and the schedule waits
for it instead of jumping back. Every so many
operations samples the timeline, runs the compaction chore when asked, and reports progress.
"""

from __future__ import annotations

import math
import random

from hsim.clock import TickingClock
from hsim.config import Config
from hsim.scenario.errors import ScenarioError
from hsim.workloads.costmodel import LOAD_FIELDS, CostModel, CostReport, ServerLoad
from hsim.workloads.timeline import Logged

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Callable
    from hsim.client.admin import Admin
    from hsim.client.cluster import Cluster
    from hsim.client.table import Table
    from hsim.scenario.model import Scenario, Variant
    from typing import Any

START_MS = 1_700_000_000_000  # every run's clock starts here (2023-11-14T22:13:20Z)

# Called with each cluster a run builds, as it is built (`hsim run --ui` follows them).
CLUSTER_WATCHERS: list = []


class Run:
    """What a scenario's run function gets: a fresh cluster for one variant, its workload size, seed
    and recorders."""

    def __init__(self, scenario: Scenario, variant: Variant, *, ops: int, seed: int, scale: float,
                 servers: int,
                 params: dict, on_progress: Callable[[float], None] | None = None,
                 sample_points: int = 40,
                 cost_model: CostModel | None = None):
        self.scenario = scenario
        self.variant = variant
        self.ops = ops
        self.seed = seed
        self.servers = servers
        self.params = ReadParams(params)
        self.rng = random.Random(f"{seed}:{scenario.name}:{variant.name}")
        self.config = Config().scaled(scale).replace(**scenario.config, **variant.config)
        self.clock = TickingClock(START_MS)
        self._due = START_MS  # when the next operation is due
        self.ms_per_op = scenario.ms_per_op
        self.cost_model = cost_model or CostModel()
        self.metrics: dict = {}
        self.priced: dict = {}  # key -> (loads, ops, measure, per): a cost to re-price
        self.labels: dict = {}
        self.units: dict = {}
        self.series: dict = {}
        self.notes: list[str] = []
        self.timeline: list[dict] = []
        self.done = 0
        self._cluster = None
        self._log = None
        self._prepared: dict = {}  # (mark, end) -> Logged
        self.requests: list | None = None  # the client calls, when recording for --target
        self._on_progress = on_progress
        self._sample_points = sample_points
        self._chore_every_ms = 0
        self._next_chore = 0
        self.expect(ops)

    # --- the cluster -------------------------------------------------------------------------
    @property
    def cluster(self) -> Cluster:
        """The variant's cluster, made on first use (a scenario about file formats needs none)."""
        if self._cluster is None:
            from hsim.client.cluster import Cluster

            self._cluster = Cluster(region_servers=self.servers, config=self.config,
                                    clock=self.clock)
            self._log = self._cluster.record_requests()  # the cost model's timeline
            for watch in CLUSTER_WATCHERS:
                watch(self._cluster)
        return self._cluster

    @property
    def has_cluster(self) -> bool:
        """Whether the run has built its cluster yet."""
        return self._cluster is not None

    @property
    def admin(self) -> Admin:
        """The run's cluster's Admin (recording its calls when replaying on a target)."""
        if self.requests is not None:  # recorded for a replay on a real target
            from hsim.scenario.recording import RecordingAdmin

            return RecordingAdmin(self.cluster.admin, self.requests)
        return self.cluster.admin

    def table(self, name: str) -> Table:
        """A Table on the run's cluster (recording its calls when replaying on a target)."""
        if self.requests is not None:
            from hsim.scenario.recording import RecordingTable

            return RecordingTable(self.cluster.table(name), self.requests)
        return self.cluster.table(name)

    # --- pacing ---------------------------------------------------------------------------------
    def expect(self, ticks: int) -> None:
        """How many tick()s this variant will make: paces the timeline and the progress bar."""
        self._expected = max(1, int(ticks))
        self._sample_every = max(1, self._expected // self._sample_points)
        self._progress_every = max(1, self._expected // 100)
        self._next_sample = self.done + self._sample_every
        self._next_progress = self.done + self._progress_every
        self._next_event = min(self._next_sample, self._next_progress)

    def run_compaction_chore_every(self, ms: int) -> None:
        """Run the cluster's compaction chore (CompactionChecker) each time the clock passes
        another `ms`: that is where periodic major compactions fire."""
        self._chore_every_ms = int(ms)
        self._next_chore = self.clock.now() + self._chore_every_ms

    def tick(self, n: int = 1) -> None:
        """Count n operations: advance the clock; sample, chore and progress when due."""
        self.done += n
        self._due += self.ms_per_op * n
        late = self.clock.now() - self._due
        if late < 0:
            self.clock.advance(-late)
        else:  # the operations (or the scenario's own clock moves) ran past the schedule
            self._due = self.clock.now()
        if self._chore_every_ms and self.clock.now() >= self._next_chore:
            while self._next_chore <= self.clock.now():
                self._next_chore += self._chore_every_ms
            if self._cluster is not None:
                self._cluster.run_compaction_chore()
        if self.done >= self._next_event:
            if self.done >= self._next_sample:
                self.sample()
                self._next_sample = self.done + self._sample_every
            if self.done >= self._next_progress:
                if self._on_progress is not None:
                    self._on_progress(min(1.0, self.done / self._expected))
                self._next_progress = self.done + self._progress_every
            self._next_event = min(self._next_sample, self._next_progress)

    # --- recording ------------------------------------------------------------------------------
    def record(self, key: str, value: Any, label: str | None = None, unit: str = "") -> None:
        """A named result for the comparison table and the claims. `unit`: "%" (a fraction),
        "B" (bytes), "ms", "x" (a ratio), "ops/s" or free text."""
        if isinstance(value, float) and math.isnan(value):
            value = None
        self.metrics[key] = value
        self.labels[key] = label or key.replace("_", " ")
        self.units[key] = unit

    def point(self, series: str, x: float, y: float) -> None:
        """A point of a line chart (one line per variant)."""
        self.series.setdefault(series, []).append((x, y))

    def note(self, text: str) -> None:
        """Add a line to the variant's notes in the report."""
        self.notes.append(text)

    def sample(self, after_run: bool = False) -> None:
        """A timeline sample: store files, bytes flushed and compacted, regions, so far.
        `after_run`: the runner's last sample, taken once the run function has returned, so it
        holds what the run did after its last operation (a closing major compaction, say) and
        plots mark it apart from the run."""
        if self._cluster is None:
            return
        m = self._cluster.metrics()
        s = m.servers
        self.timeline.append({
            "ops": self.done,
            "time_ms": self.clock.now() - START_MS,
            "store_files": sum(x.store_files for x in s),
            "bytes_flushed": sum(x.bytes_flushed for x in s),
            "compaction_bytes_read": sum(x.compaction_bytes_read for x in s),
            "compaction_bytes_written": sum(x.compaction_bytes_written for x in s),
            "regions": len(m.regions),
            **({"after_run": True} if after_run else {}),
        })

    # --- cost -----------------------------------------------------------------------------------
    def loads(self) -> list[ServerLoad]:
        """Each region server's counts so far, as the cost model takes them; it also marks
        where the run's request log stands, so a cost `since` it is laid out on the timeline
        from there."""
        if self._cluster is None:
            return Loads([], 0)
        return Loads([ServerLoad.from_metrics(s) for s in self._cluster.metrics().servers],
                     self._log.mark())

    def logged(self, since: list[ServerLoad] | None = None) -> list | None:
        """The request log's entries since an earlier `loads()` (all of them when None), or
        None when the run has no cluster."""
        if self._log is None:
            return None
        return self._log.since(getattr(since, "mark", 0))

    def prepared(self, since: list[ServerLoad] | None = None) -> Logged | None:
        """`logged(since)` made ready for the cost model, once per stretch of the log (the
        figures a run records and its summary often price the same stretch)."""
        if self._log is None:
            return None
        key = (getattr(since, "mark", 0), self._log.mark())
        if key not in self._prepared:
            self._prepared[key] = Logged(self._log.since(key[0]),
                                         [s.name for s in self._cluster.region_servers])
        return self._prepared[key]

    def io(self, since: list[ServerLoad] | None = None) -> dict:
        """The cluster's counts summed over servers (since an earlier `loads()`)."""
        loads = _delta(self.loads(), since)
        return {f: sum(getattr(x, f) for x in loads) for f in LOAD_FIELDS}

    def reads(self, since: dict | None = None) -> dict:
        """The cluster's read counts summed over servers (since an earlier `reads()`):
        `read_requests` (rows returned: HBase's readRequestCount), `filtered_read_requests`
        (rows read and not returned, a filter's or a per-family limit's: filteredReadRequestCount)
        and `read_rpcs` (Gets and scanner batches)."""
        servers = self._cluster.metrics().servers if self._cluster is not None else []
        now = {n: sum(getattr(s, n) for s in servers)
               for n in ("read_requests", "filtered_read_requests", "read_rpcs")}
        return {n: v - (since or {}).get(n, 0) for n, v in now.items()}

    def cost(self, since: list[ServerLoad] | None = None, ops: int | None = None,
             offered_ops_per_s: float | None = None) -> CostReport:
        """What the cost model makes of the work done (since an earlier `loads()`)."""
        return self.cost_model.evaluate(_delta(self.loads(), since), ops=ops,
                                        offered_ops_per_s=offered_ops_per_s,
                                        requests=self.prepared(since))

    def record_cost(self, key: str, since: list[ServerLoad] | None = None, *,
                    ops: int | None = None, measure: str = "makespan_ms", per: float = 1,
                    label: str | None = None, unit: str = "ms") -> float:
        """Record what the cost model makes of the work done (since an earlier `loads()`):
        `measure`, a CostReport field (makespan_ms, throughput_ops_per_s, mean_latency_ms),
        divided by `per`. The counts are kept, so a sensitivity sweep re-prices this metric
        under other unit costs without re-running anything."""
        return self.record_priced(key, _delta(self.loads(), since), ops=ops, measure=measure,
                                  per=per, label=label, unit=unit,
                                  requests=self.prepared(since))

    def record_priced(self, key: str, loads: list[ServerLoad], *, ops: int | None = None,
                      measure: str = "makespan_ms", per: float = 1, label: str | None = None,
                      unit: str = "ms", requests: list | None = None) -> float:
        """record_cost of counts the scenario gathered itself (e.g. only the Gets that hit);
        `requests`: the request log entries they came from (`logged`), to lay them out on the
        timeline (without them, they are priced from the totals). A makespan (the default
        measure) is labelled "makespan ...", never "server time"."""
        if measure == "makespan_ms" and "makespan" not in (label or ""):
            # the busiest server's busy time, not any one server's time: say so
            raise ScenarioError(f"metric {key!r}: a makespan figure is labelled as one "
                                f"(\"makespan per query\"), not {label!r}")
        if requests is not None and not isinstance(requests, Logged):  # made ready once: a
            requests = Logged(requests, [x.server for x in loads])  # sweep re-prices them
        loads = Loads(loads, requests=requests)
        self.priced[key] = (loads, ops, measure, per)
        value = price(self.cost_model, loads, ops, measure, per)
        self.record(key, value, label, unit)
        return value

    def shared_rng(self) -> random.Random:
        """A generator that gives every variant the same numbers (the same records, the same
        requests), unlike `rng`, which is the variant's own."""
        return random.Random(f"{self.seed}:{self.scenario.name}")

    def param(self, key: str) -> Any:
        """A scenario parameter's value for this run (--param or its default)."""
        try:
            return self.params[key]
        except KeyError:
            raise ScenarioError(f"scenario {self.scenario.name!r} has no parameter {key!r}") \
                from None


class ReadParams(dict):
    """The run's parameters, noting which ones the variant read: a sensitivity sweep varies a
    parameter only for the claims whose variants read it."""

    def __init__(self, params):
        super().__init__(params)
        self.read: set = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)


class Loads(list):
    """ServerLoads, with where the request log stood (`mark`, from `Run.loads`) or the log
    entries they were counted from (`requests`, for a priced figure)."""

    def __init__(self, loads, mark: int = 0, requests: list | None = None):
        super().__init__(loads)
        self.mark = mark
        self.requests = requests


def price(model: CostModel, loads, ops, measure: str, per: float = 1) -> float:
    """One priced figure of a run's counts under `model` (on the timeline when `loads` carries
    its request log entries)."""
    requests = getattr(loads, "requests", None)
    latency = measure.startswith("p") or measure == "mean_latency_ms"
    report = model.evaluate(loads, ops=ops, requests=requests, latency=latency)
    if measure.startswith("p") and measure[1:].isdigit():
        value = report.latency_percentile(float(measure[1:]))
    elif measure == "foreground_ms":  # the servers' time serving requests, queueing left out
        value = sum(s.foreground_ms for s in report.servers)
    else:
        value = getattr(report, measure)
    return value / per if per else value


def _delta(now: list[ServerLoad], before: list[ServerLoad] | None) -> list[ServerLoad]:
    if not before:
        return now
    old = {x.server: x for x in before}
    out = []
    for x in now:
        b = old.get(x.server)
        if b is None:
            out.append(x)
        else:
            out.append(ServerLoad(x.server, *(getattr(x, f) - getattr(b, f) for f in LOAD_FIELDS)))
    return out
