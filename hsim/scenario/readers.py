"""What a batch of requests cost and where it landed: the figures most scenarios record after
a loop of Gets, scans or Puts, measured from the cluster's counts since an earlier `ctx.loads()`.

Each is priced by the cost model through `Run.record_cost`, so a sensitivity sweep re-prices it
under other unit costs without re-running the requests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hsim.scenario.measure import write_spread
from hsim.workloads.costmodel import LOAD_FIELDS
from hsim.scenario.timeseries import time_range_read

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.scenario.context import Run


def record_time_per_op(ctx: Run, key: str, since, n: int, label: str) -> float:
    """Simulated time per request of the `n` requests made since `since` (the makespan of
    their work, divided by n): the figure read and write comparisons claim on."""
    return ctx.record_cost(key, since, ops=n, per=n, label=label)


def record_write_throughput(ctx: Run, since=None, ops: int | None = None, *,
                            key: str = "write_throughput",
                            label: str = "simulated write throughput") -> float:
    """Requests per simulated second over the work since `since` (all of it when None): how
    fast the servers take a write load, the hot one setting the pace."""
    return ctx.record_cost(key, since, ops=ops, measure="throughput_ops_per_s", label=label,
                           unit="ops/s")


def blocks_since(ctx: Run, since) -> tuple[int, int]:
    """(blocks touched, blocks read from disk) by the requests since `since`: a block cache
    hit touches a block without reading it."""
    io = ctx.io(since=since)
    return io["cache_hits"] + io["blocks_read_from_disk"], io["blocks_read_from_disk"]


def cells_scanned(ctx: Run, since) -> int:
    """Cells the reads since `since` handed to the query matcher (the request log counts them;
    the servers' metrics do not): how much of a row a read went through, beyond what it
    returned."""
    logged = ctx.prepared(since)
    if logged is None:
        return 0
    at = LOAD_FIELDS.index("cells_scanned")
    return int(sum(t[at] for t in logged.totals if t))


# The write-spread figures under the names and labels the row-key scenarios report them by.
_SPREAD = {
    "max_server_write_share": ("busiest server's write share", "%"),
    "write_hotspot_ratio": ("write hotspot ratio (max/mean)", "x"),
    "regions_written": ("regions written (of {regions})", ""),
    "last_region_write_share": ("last region's write share", "%"),
}


def record_write_spread(ctx: Run, table: str, *keys: str) -> dict:
    """Record where a table's writes landed (measure.write_spread): the figures `keys` names,
    all of them when none. Returns the whole spread."""
    spread = write_spread(ctx.cluster, table)
    for key in keys or _SPREAD:
        label, unit = _SPREAD[key]
        ctx.record(key, spread[key], label.format(**spread), unit)
    return spread


def record_time_range_read(ctx: Run, table, design, lo: int, hi: int, entities,
                           what: str) -> dict:
    """Read every record with lo <= ts < hi the way the row-key design allows
    (timeseries.time_range_read) and record its scans, rows read and rows wanted, labelled
    `what`: the cost of a time-range query a key layout imposes."""
    read = time_range_read(table, design, lo, hi, entities)
    for key, label in (("scans", "scans"), ("rows_read", "rows read"),
                       ("rows_wanted", "rows wanted")):
        ctx.record(f"time_range_{key}", read[key], f"{what}: {label}")
    return read
