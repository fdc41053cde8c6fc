"""`hsim run NAME --target thrift://HOST:PORT`: the scenario's workload replayed on a real HBase
(or any Thrift-1 server) through happybase, its observed figures beside hsim's prediction.

Each variant runs in hsim as usual while its client calls (table creation, puts, gets, scans,
deletes, compactions) are recorded. The recorded calls are then sent, in order, to the target
through happybase, into tables named `<prefix>_<variant>_<table>`. What a client can observe
is measured there: latency per operation kind (percentiles), throughput, and the regions the
table ends with (`getTableRegions`) with the writes per region (each recorded put and delete
routed over them, as HBase's client routes a row). The prediction is the same routing over the
regions hsim's table ended with: where the table split, and how the writes fell.

Thrift-1 cannot carry everything a native call says; what was not carried is listed in the
output (pre-split keys, flushes, cell TTLs, family options Thrift-1 has no field for, time
ranges other than "before T").
"""

from __future__ import annotations

import bisect
import json
import time
from pathlib import Path
from urllib.parse import urlparse

from hsim.client.validation import b
from hsim.scenario.errors import ScenarioError, UsageError

_FAMILY_FIELDS = {"max_versions": "max_versions", "compression": "compression",
                  "in_memory": "in_memory", "bloom_filter": "bloom_filter_type",
                  "block_cache_enabled": "block_cache_enabled"}


def parse_target(url: str) -> tuple[str, int]:
    u = urlparse(url)
    if u.scheme != "thrift" or not u.hostname:
        raise UsageError(f"--target {url!r}: expected thrift://HOST:PORT")
    try:
        return u.hostname, u.port or 9090
    except ValueError:
        raise UsageError(f"--target {url!r}: bad port") from None


def _families(spec) -> tuple[dict, list[str]]:
    """Native families -> happybase's create_table dict, and what Thrift-1 could not carry."""
    from hsim.schema import ColumnFamily

    if isinstance(spec, (str, bytes)):
        spec = [spec]
    if not isinstance(spec, dict):
        spec = {f: None for f in spec}
    out, lost = {}, set()
    for name, cf in spec.items():
        name = name.decode() if isinstance(name, bytes) else name
        if isinstance(cf, dict):
            cf = ColumnFamily(**cf)
        opts, default = {}, ColumnFamily()
        if cf is not None:
            for ours, theirs in _FAMILY_FIELDS.items():
                value = getattr(cf, ours, None)
                if value is not None and value != getattr(default, ours, None):
                    opts[theirs] = value
            if cf.ttl is not None:
                opts["time_to_live"] = int(cf.ttl)
            for field in ("block_size", "min_versions", "keep_deleted_cells"):
                if getattr(cf, field, None) != getattr(default, field, None):
                    lost.add(f"family {field.upper()}")
        out[name] = opts
    return out, sorted(lost)


class Replay:
    """Sends one variant's recorded calls to the target and keeps what a client observes."""

    def __init__(self, conn, prefix: str):
        self.conn, self.prefix = conn, prefix
        self.latency: dict[str, list[float]] = {}
        self.rows: dict[str, list[bytes]] = {}  # table -> the row of each write, to route
        self.not_carried: set[str] = set()
        self.tables: list[str] = []

    def run(self, log: list) -> None:
        for kind, table, args in log:
            started = time.perf_counter()
            getattr(self, "_" + kind)(table, args)
            self.latency.setdefault(kind, []).append(time.perf_counter() - started)

    def _create_table(self, table, args):
        families, lost = _families(args["families"])
        self.not_carried.update(lost)
        if args["split_keys"]:
            self.not_carried.add("pre-split keys (Thrift-1 createTable has none)")
        if any(v is not None for v in args["options"].values()):
            self.not_carried.add("table options (" + ", ".join(
                k for k, v in args["options"].items() if v is not None) + ")")
        self.conn.create_table(table, families)
        self.tables.append(table)

    def _put(self, table, a):
        if a["ttl_ms"] is not None:
            self.not_carried.add("cell TTLs")
        self.conn.table(table).put(b(a["row"]), a["data"], timestamp=a["timestamp"])
        self.rows.setdefault(table, []).append(b(a["row"]))

    def _get(self, table, a):
        t, row = self.conn.table(table), b(a["row"])
        if a.get("filter") is not None or a.get("time_range") is not None or a.get("raw"):
            self.not_carried.add("get filters, time ranges and raw reads")
        versions = a.get("max_versions") or 1
        columns = a.get("columns")
        if versions > 1 and columns and len(columns) == 1:
            t.cells(row, columns[0], versions=versions)
        else:
            t.row(row, columns=columns)

    def _scan(self, table, a):
        if a.get("time_range") is not None or a.get("raw") or a.get("max_versions"):
            self.not_carried.add("scan time ranges, versions and raw scans")
        filt = a.get("filter")
        if filt is not None and not isinstance(filt, (str, bytes)):
            self.not_carried.add("filter objects (only filter strings travel over Thrift-1)")
            filt = None
        scanner = self.conn.table(table).scan(
            row_start=a.get("start_row"), row_stop=a.get("stop_row"),
            row_prefix=a.get("row_prefix"), columns=a.get("columns"), filter=filt,
            limit=a.get("limit"), reverse=bool(a.get("reversed")),
            batch_size=a.get("caching") or 1000)
        for _ in scanner:
            pass

    def _delete_row(self, table, a):
        self.conn.table(table).delete(b(a["row"]), timestamp=a["timestamp"])
        self.rows.setdefault(table, []).append(b(a["row"]))

    def _flush(self, table, a):
        self.not_carried.add("flushes (Thrift-1 has no flush)")

    def _compact(self, table, a):
        self.conn.compact_table(table, major=a["major"])

    def regions(self, table: str) -> list[bytes]:
        """The start keys of the target's regions of `table`, in key order."""
        name = self.conn._table_name(table)
        infos = self.conn.client.getTableRegions(name)
        return sorted(r.startKey for r in infos)

    def drop(self) -> None:
        for t in self.tables:
            self.conn.delete_table(t, disable=True)


def route(rows: list[bytes], starts: list[bytes]) -> list[int]:
    """How many of `rows` fall in each region, the regions given by their start keys."""
    counts = [0] * len(starts)
    for r in rows:
        counts[max(0, bisect.bisect_right(starts, r) - 1)] += 1
    return counts


def _percentiles(samples: list[float]) -> dict:
    s = sorted(samples)
    pick = lambda q: round(s[min(len(s) - 1, int(q * len(s)))] * 1000, 3)  # noqa: E731
    return {"count": len(s), "p50_ms": pick(0.5), "p95_ms": pick(0.95), "p99_ms": pick(0.99)}


def compare(variant: str, replay: Replay, elapsed_s: float, predicted: dict) -> dict:
    """One variant's observed figures beside the predicted ones."""
    tables = {}
    for table in replay.tables:
        observed = route(replay.rows.get(table, []), replay.regions(table))
        pred = predicted.get(table)
        tables[table] = {"regions_observed": len(observed),
                         "observed_writes_per_region": observed,
                         "predicted_writes_per_region": pred, "agree": pred == observed}
    ops = sum(len(v) for v in replay.latency.values())
    return {"variant": variant, "elapsed_s": round(elapsed_s, 3),
            "observed_ops_per_s": round(ops / elapsed_s, 1) if elapsed_s else None,
            "latency": {k: _percentiles(v) for k, v in sorted(replay.latency.items())},
            "tables": tables, "not_carried": sorted(replay.not_carried)}


def to_markdown(url: str, results: list[dict]) -> str:
    lines = [f"## On the target: {url}", "",
             "| variant | table | write requests per region, predicted (hsim) "
             "| observed (target) | agree |", "|---|---|---|---|---|"]
    for r in results:
        for t, f in r["tables"].items():
            lines.append(f"| {r['variant']} | {t} | {f['predicted_writes_per_region']} | "
                         f"{f['observed_writes_per_region']} | {'yes' if f['agree'] else 'no'} |")
    lines += ["", "| variant | operation | count | p50 ms | p95 ms | p99 ms |",
              "|---|---|---|---|---|---|"]
    for r in results:
        for kind, p in r["latency"].items():
            lines.append(f"| {r['variant']} | {kind} | {p['count']:,} | {p['p50_ms']} | "
                         f"{p['p95_ms']} | {p['p99_ms']} |")
    lost = sorted({x for r in results for x in r["not_carried"]})
    lines += ["", "Not carried over Thrift-1: " + ("; ".join(lost) if lost else "nothing"), ""]
    return "\n".join(lines)


def run_on_target(scenario, url: str, transport: str = "buffered", protocol: str = "binary",
                  keep: bool = False, out: Path | None = None, **run_kwargs):
    """Run `scenario` in hsim (recording each variant's calls), replay the calls on the target,
    and return (report, target results). Writes target.json and appends to report.md."""
    import happybase

    from hsim.scenario.runner import run_scenario

    host, port = parse_target(url)
    logs: dict = {}
    predicted: dict = {}
    report = run_scenario(scenario, out=out, record=logs, **run_kwargs)
    for variant, (log, cluster) in logs.items():
        predicted[variant] = _predicted(log, cluster) if cluster else {}
    _refuse_occupied(url, host, port, transport, protocol, logs)
    results = []
    for variant, (log, _cluster) in logs.items():
        prefix = f"hsim_{variant}"
        conn = happybase.Connection(host, port, table_prefix=prefix, transport=transport,
                                    protocol=protocol)
        try:
            replay = Replay(conn, prefix)
            started = time.perf_counter()
            try:
                replay.run(log)
                results.append(compare(variant, replay, time.perf_counter() - started,
                                       predicted[variant]))
            finally:
                if not keep:
                    replay.drop()
        finally:
            conn.close()
    if out is not None:
        out = Path(out)
        (out / "target.json").write_text(json.dumps({"target": url, "variants": results},
                                                    indent=2, sort_keys=True) + "\n")
        with open(out / "report.md", "a") as f:
            f.write("\n" + to_markdown(url, results))
    return report, results


def _refuse_occupied(url, host, port, transport, protocol, logs) -> None:
    """Before anything is sent: no table the replay would create may exist on the target."""
    import happybase

    from thriftpy2.transport import TTransportException

    try:
        conn = happybase.Connection(host, port, transport=transport, protocol=protocol)
        try:
            existing = set(conn.tables())
        finally:
            conn.close()
    except (TTransportException, OSError) as e:
        raise ScenarioError(f"--target {url}: cannot reach a Thrift-1 server there ({e})") \
            from None
    for variant, (log, _cluster) in logs.items():
        for kind, table, _args in log:
            name = f"hsim_{variant}_{table}"
            if kind == "create_table" and name.encode() in existing:
                raise ScenarioError(f"--target {url} already has table {name}; "
                                    "refusing to touch it")


def _predicted(log: list, cluster) -> dict:
    """Per table: the recorded writes routed over the regions hsim's table ended with."""
    writes: dict[str, list[bytes]] = {}
    for kind, table, args in log:
        if kind in ("put", "delete_row"):
            writes.setdefault(table, []).append(b(args["row"]))
    return {t: route(writes.get(t, []), [r.start_key for r in cluster.admin.regions(t)])
            for k, t, _ in log if k == "create_table"}
