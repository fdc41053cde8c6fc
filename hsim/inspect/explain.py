"""`explain get` and `explain scan`: run one read and show why its answer is what it is.

The read runs for real (through the client, so the block cache and counters see it) while each
store it touches calls an observer (a ReadTrace as Store.observer) that records what the read
did: whether the MemStore was read, every store file read or skipped and why (key range, time
range or TTL, bloom filter), how many blocks each file read from "disk" and how many came from
the block cache, and the cells the query matcher
saw and kept, and, tallied by the matcher itself as it decided, the rule that dropped each
other cell (markers, TTL, deletes, time range, columns, versions): the reasons come from the
code that makes the read's answer, so they cannot disagree with it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from hsim.client import requests as rq
from hsim.client import validation as v
from hsim.engine.query_matcher import (CELL_EXPIRED, COLUMN, DELETED, EXPIRED, MARKER,
                                       OVERWRITTEN, TIME_RANGE, VERSIONS)
from hsim.engine.read_trace import CursorSeek, FileRead, MemStoreRead, ReadTrace
from hsim.inspect.render import html_lines, html_table, key_text, text_table, time_text
from hsim.metrics import IOCounters, describe

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable
    from hsim.client.cluster import Cluster
    from hsim.filters.base import Filter
    from typing import Any


# Why a cell was dropped: the matcher's reasons (tallied by the matcher itself as it reads,
# hsim.engine.query_matcher), then the filter's.
FILTERED = "removed by the filter (or past the LIMIT)"


@dataclass
class SourceRead:
    """What one source of one store did: the MemStore or a store file."""

    region: str
    family: str
    source: str  # "memstore" or "#n <file name>"
    decision: str
    io: IOCounters = field(default_factory=IOCounters)  # what its reads cost (files only)


@dataclass
class Explain:
    """The `explain` view: what one get or scan read: files skipped and why, blocks, cache,
    cells."""

    command: str
    table: str
    regions: list  # (region name, server) in the order the read visited them
    sources: list  # SourceRead
    cells_seen: int
    cells_kept: int  # by the matcher
    cells_returned: int
    rows_returned: int
    dropped: dict  # reason -> cells
    io: IOCounters
    result: list = field(default_factory=list)  # the rows (lists of cells) the read returned
    # the reseeks that left a block a file's scanner held: "family #n file: seek to KEY (why)"
    seeks: list = field(default_factory=list)

    # Each source's read costs, by metric name (their headings: hsim.metrics' labels).
    METRICS = ("blocks_read", "cache_hits", "bytes_read")

    def _headers(self):
        return ("FAMILY", "SOURCE", "DECISION") + tuple(
            describe(name).label.upper() for name in self.METRICS) + ("BLOOM",)

    def _rows(self, region):
        out = []
        for s in self.sources:
            if s.region != region:
                continue
            io = s.io
            bloom = "-"
            if io.bloom_checks:
                probes = f" ({io.bloom_probes} probes)" if io.bloom_probes > io.bloom_checks \
                    else ""
                bloom = f"{io.bloom_checks} check(s){probes}, " + (
                    f"{io.bloom_negatives} negative" if io.bloom_negatives else "passed")
            no_io = s.source == "memstore" or s.decision.startswith("skipped") \
                and not io.bloom_checks
            out.append((s.family, s.source, s.decision)
                       + tuple("-" if no_io else getattr(io, name) for name in self.METRICS)
                       + (bloom,))
        return out

    def _summary(self) -> list[str]:
        lines = []
        drops = ", ".join(f"{why}: {n}" for why, n in self.dropped.items() if why != FILTERED)
        dropped = self.cells_seen - self.cells_kept
        lines.append(f"Matcher: saw {self.cells_seen} cell(s), kept {self.cells_kept}, "
                     f"dropped {dropped}" + (f" ({drops})" if drops else ""))
        if self.dropped.get(FILTERED):
            lines.append(f"Filter: {self.dropped[FILTERED]} cell(s) {FILTERED}")
        lines.append(f"Returned: {self.rows_returned} row(s), {self.cells_returned} cell(s)")
        lines += [f"Seek: {s}" for s in self.seeks]
        io = self.io
        lines.append(
            f"I/O: {io.blocks_read} block(s) read from disk ({io.bytes_read} bytes), "
            f"{io.cache_hits} from the block cache ({io.cache_misses} cache miss(es)); "
            f"bloom: {io.bloom_checks} check(s), {io.bloom_negatives} negative; "
            f"files skipped: {io.files_skipped_key_range} by key range, "
            f"{io.files_skipped_time_range} by time range, {io.files_skipped_bloom} by bloom")
        return lines

    def _lines(self) -> list[str]:
        lines = [f"EXPLAIN {self.command}"]
        if not self.regions:
            lines.append("  (no region was read)")
        for name, server in self.regions:
            lines.append(f"Region {name} on {server}")
            lines += text_table(self._headers(), self._rows(name))
        return lines + self._summary()

    def __str__(self) -> str:
        return "\n".join(self._lines())

    __repr__ = __str__

    def _repr_html_(self) -> str:
        parts = [html_lines([f"EXPLAIN {self.command}"])]
        for name, server in self.regions:
            parts.append(html_table(self._headers(), self._rows(name),
                                    f"Region {name} on {server}"))
        return "".join(parts) + html_lines(self._summary())


def _key_text(key: tuple) -> str:
    """A seek key (a cell prefix: row, family, qualifier) as row/family:qualifier."""
    text = key_text(key[0], "")
    if len(key) > 2:
        text += f"/{key_text(key[1], '')}:{key_text(key[2], '')}"
    return text


# --- running a traced read ------------------------------------------------------------------
def _watch(regions) -> dict:
    """Give every store of each region one shared observer (so a region's families stay in
    order); returns region -> its entries."""
    traces = {}
    for r in regions:
        observer = ReadTrace()
        traces[r] = observer.entries
        for s in r.stores.values():
            s.observer = observer
    return traces


def _unwatch(regions) -> None:
    for r in regions:
        for s in r.stores.values():
            s.observer = None


def _file_decision(fio: IOCounters, sf, tr, mode: str) -> str:
    if fio.files_skipped_key_range:
        first, last = sf.first_row or b"", sf.last_row or b""
        return f"skipped: key range (rows {key_text(first, '-')}..{key_text(last, '-')})"
    if fio.files_skipped_time_range:
        span = f"{time_text(sf.min_timestamp, mode)}..{time_text(sf.max_timestamp, mode)}"
        if sf.min_timestamp < tr[1] and sf.max_timestamp >= tr[0]:
            return f"skipped: all expired by TTL (cells {span})"
        return f"skipped: time range (cells {span})"
    if fio.files_skipped_bloom:
        if sf.reader.bloom_type == "ROWCOL":  # neither the column nor a row delete
            return "skipped: bloom filter (row/column not in file)"
        return "skipped: bloom filter (row not in file)"
    return "read"


def _explain(cluster, table, command, queries, run, mode: str) -> Explain:
    """Run `run()` (a read) with tracing on every region of `table`; explain what it did."""
    with cluster.lock:
        regions = list(cluster.master.table_state(table).locator.regions)
        files = {(r, s.name): {sf.name: (i, sf) for i, sf in enumerate(s.files)}
                 for r in regions for s in r.stores.values()}
        before = {id(s): s.counters.io.to_dict() for r in regions for s in r.stores.values()}
        empty = {(r, s.name) for r in regions for s in r.stores.values() if s.memstore.is_empty()}
        traces = _watch(regions)
        try:
            io, result = run()
        finally:
            _unwatch(regions)
        if io is None:  # a scan counts on the stores' own counters: take the difference
            io = IOCounters()
            for r in regions:
                for s in r.stores.values():
                    after = s.counters.io.to_dict()
                    for k, v in before[id(s)].items():
                        setattr(io, k, getattr(io, k) + after[k] - v)
    sources, visited, seeks = [], [], []
    seen = kept = 0
    dropped: Counter = Counter()
    for r in regions:
        trace = traces[r]
        if not trace:
            continue
        visited.append((r.name, r.server.name if r.server else "-"))
        for entry in trace:
            fam = entry.family
            fam_text = fam.decode("utf-8", "replace")
            kind = type(entry)
            if kind is MemStoreRead:
                n = entry.cells
                if (r, fam) in empty:
                    decision = "empty"
                elif n is None:
                    decision = "skipped: time range"
                else:
                    decision = f"read {n} cell(s)" if n else "read"
                if not any(s.region == r.name and s.family == fam_text and s.source == "memstore"
                           for s in sources):
                    sources.append(SourceRead(r.name, fam_text, "memstore", decision))
            elif kind is FileRead:
                i, sf = files[(r, fam)][entry.name]
                src = f"#{i} {entry.name[:8]}"
                decision = _file_decision(entry.io, sf, queries[fam].time_range, mode)
                old = next((s for s in sources if s.region == r.name and s.family == fam_text
                            and s.source == src), None)
                if old is None:
                    old = SourceRead(r.name, fam_text, src, decision)
                    sources.append(old)
                old.io.add(entry.io)
            elif kind is CursorSeek:
                i, _sf = files[(r, fam)][entry.file]
                skipped = entry.blocks_skipped
                seeks.append(f"{fam_text} #{i} {entry.file[:8]}: seek to {_key_text(entry.key)} "
                             f"({entry.reason})"
                             + (f", {skipped} block(s) passed over unread" if skipped else ""))
            else:  # MatchRun
                seen += entry.cells_seen
                kept += len(entry.visible)
                dropped.update(entry.why)
    returned = sum(len(cells) for cells in result)
    if returned < kept:
        dropped[FILTERED] += kept - returned
    order = [MARKER, EXPIRED, CELL_EXPIRED, DELETED, TIME_RANGE, COLUMN, OVERWRITTEN, VERSIONS,
             FILTERED]
    return Explain(command=command, table=table, regions=visited, sources=sources,
                   cells_seen=seen, cells_kept=kept, cells_returned=returned,
                   rows_returned=len(result), dropped={k: dropped[k] for k in order if dropped[k]},
                   io=io, result=result, seeks=seeks)


# --- the two entry points -----------------------------------------------------------------------
def explain_get(cluster: Cluster, table: str, row: bytes | str,
                columns: Iterable[bytes | str] | bytes | str | None = None,
                max_versions: int | None = None,
                time_range: tuple[int, int] | None = None, timestamp: int | None = None,
                raw: bool = False, filter: Filter | str | None = None,
                command: str | None = None, timestamps: str = "iso") -> Explain:
    """Run `table.get(row, ...)` and explain it."""
    t = cluster.table(table)
    row = v.b(row)
    request = t._checked_get(row, columns, max_versions, time_range, timestamp, raw, filter)
    _, cols, versions, tr = request[:4]

    def run():
        io = IOCounters()
        cells = t._get(request, io=io)
        return io, [cells] if cells else []

    with cluster.lock:
        v.raw_columns(raw, cols)
        queries = rq.build(cluster.admin.describe(table).families, cols, versions, tr, raw,
                           filter is not None)
    command = command or f"get '{table}', {key_text(row, '')!r}"
    return _explain(cluster, table, command, queries, run, timestamps)


def explain_scan(cluster: Cluster, table: str, command: str | None = None, timestamps: str = "iso",
                 **scan_args: Any) -> Explain:
    """Run `table.scan(**scan_args)` to its end and explain it."""
    t = cluster.table(table)
    tr = v.time_range(scan_args.get("time_range"), scan_args.get("timestamp"))
    raw = bool(scan_args.get("raw"))

    def run():
        return None, list(t.scan(**scan_args))

    with cluster.lock:
        queries = rq.queries(cluster.admin.describe(table).families, scan_args.get("columns"),
                             scan_args.get("max_versions"), tr, raw,
                             scan_args.get("filter") is not None)
    command = command or f"scan '{table}'"
    return _explain(cluster, table, command, queries, run, timestamps)
