"""A small text language for semantics cases: a script of hsim operations beside the output
HBase gives for them, in the style of toydb's and Pebble's data-driven tests.

A file holds cases. A case starts with `=== name` and runs on a fresh cluster (ManualClock at
0). Lines are commands; `#` starts a comment line; a reading command may be followed by its
expected output: a line `----` (optionally followed by placement names, see below) and the
expected lines up to the next blank line. Several `----` blocks may follow one command when
the answer differs by placement.

    config time_to_purge_deletes_ms=400       Config fields, before `create`
    create f1 f2 versions=3 min_versions=0 ttl=1 kdc=true|false|ttl bloom=ROW regions=g,p
    clock 1000 | advance 5                     set / move the ManualClock (ms)
    put ROW f:q=value f:q2=v @TS ttl=MS        one Put (no @TS: the server's now)
    delete ROW @TS                             whole-row delete (DeleteFamily per family)
    delete_family ROW f @TS | delete_family_version ROW f @TS
    delete_columns ROW f:q @TS | delete_column ROW f:q.. @TS  (no @TS: now / latest version;
                                               several columns: one Delete of them all)
    increment ROW f:q AMOUNT ttl=MS            output: the new value
    append ROW f:q=bytes                       output: the new value
    flush | compact | major_compact | split ROW | alter f versions=5 ...
    place                                      flush / flush + major compaction, per placement
    get ROW cols=f:q,f versions=N|all range=MIN,MAX ts=T raw long filter="..."
    scan start=R stop=R prefix=P cols=.. versions=.. range=.. ts=.. raw reversed limit=N long
    regions                                    each region's [start, end) and file counts
    markers                                    delete markers a raw scan returns (versions =
                                               the first family's VERSIONS, as TestKeepDeletes
                                               counts them)

A case that uses `place` runs three times: `memstore` (place does nothing), `flushed` (place
flushes) and `compacted` (place flushes and major-compacts). `---- flushed compacted` marks an
expected block that holds only for those placements. Cells print as
`row/family:qualifier/timestamp/Type=value` (Bytes.toStringBinary; `long` decodes 8-byte values),
an empty answer as `(empty)`, and an hsim error as `error: ClassName`.
"""

from __future__ import annotations

import shlex
import struct
from dataclasses import dataclass, field
from pathlib import Path

import hsim
from hsim.bytes import to_bytes_binary, to_string_binary

PLACEMENTS = ("memstore", "flushed", "compacted")
_LONG = struct.Struct(">q")


@dataclass
class Step:
    line: int
    command: str
    expected: list = field(default_factory=list)  # [(placements or None, [lines])]


@dataclass
class Case:
    name: str
    path: Path
    steps: list = field(default_factory=list)

    @property
    def placements(self) -> tuple:
        return PLACEMENTS if any(s.command == "place" for s in self.steps) else ("once",)


def parse(path: Path) -> list[Case]:
    cases: list[Case] = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        text = raw.strip()
        i += 1
        if not text or text.startswith("#"):
            continue
        if text.startswith("==="):
            cases.append(Case(text[3:].strip(), path))
            continue
        if not cases:
            raise SyntaxError(f"{path}:{i}: command before the first '=== case'")
        if text.startswith("----"):
            steps = cases[-1].steps
            if not steps:
                raise SyntaxError(f"{path}:{i}: expected output without a command")
            tags = tuple(text[4:].split()) or None
            block = []
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith("----"):
                block.append(lines[i].strip())
                i += 1
            steps[-1].expected.append((tags, block))
            continue
        cases[-1].steps.append(Step(i, text))
    return cases


class Runner:
    """Runs one case in one placement, returning (step, expected, actual) mismatches."""

    def __init__(self, placement: str):
        self.placement = placement
        self.config = {}
        self.cluster = None
        self.table = None

    def run(self, case: Case) -> list:
        mismatches = []
        for step in case.steps:
            expected = self._expected_for(step)
            try:
                actual = self.execute(step.command)
            except hsim.HsimError as e:
                if expected is None:
                    raise
                actual = [f"error: {type(e).__name__}"]
            if expected is not None and actual != expected:
                mismatches.append((step, expected, actual))
        return mismatches

    def _expected_for(self, step: Step):
        for tags, block in step.expected:
            if tags is None or self.placement in tags:
                return block
        if step.expected:
            raise SyntaxError(f"line {step.line}: no expected output for {self.placement}")
        return None

    # --- commands --------------------------------------------------------------------------
    def execute(self, command: str):
        lexer = shlex.shlex(command, posix=True)
        lexer.whitespace_split = True
        lexer.escape = ""  # keep Bytes.toBytesBinary escapes such as \x00
        words = list(lexer)
        name, args = words[0], words[1:]
        handler = getattr(self, "cmd_" + name, None)
        if handler is None:
            raise SyntaxError(f"unknown command {name!r}")
        return handler(args)

    def cmd_config(self, args):
        opts, _ = _options(args)
        self.config.update({k: int(v) for k, v in opts.items()})

    def cmd_create(self, args):
        opts, fams = _options(args)
        regions = opts.pop("regions", None)
        family = _family_options(opts)
        self.cluster = hsim.Cluster(config=hsim.Config(**self.config), clock=hsim.ManualClock(0))
        split_keys = [k.encode() for k in regions.split(",")] if regions else None
        self.cluster.admin.create_table(
            "t", {f: hsim.ColumnFamily(**family) for f in fams}, split_keys=split_keys)
        self.table = self.cluster.table("t")

    def cmd_alter(self, args):
        opts, fams = _options(args)
        for f in fams:
            self.cluster.admin.alter_family("t", f, **_family_options(opts))

    def cmd_clock(self, args):
        # HBase's tests set a ManualEnvironmentEdge anywhere, back in time included
        self.cluster.clock.set(int(args[0]), backwards=True)

    def cmd_advance(self, args):
        self.cluster.clock.advance(int(args[0]))

    def cmd_put(self, args):
        opts, rest, ts = _options(args, with_ts=True)
        row, columns = rest[0], rest[1:]
        data = {}
        for col in columns:
            c, _, v = col.partition("=")
            data[c.encode()] = to_bytes_binary(v)
        ttl = opts.get("ttl")
        self.table.put(row.encode(), data, timestamp=ts, ttl_ms=None if ttl is None else int(ttl))

    def cmd_delete(self, args):
        _, rest, ts = _options(args, with_ts=True)
        self.table.delete_row(rest[0].encode(), timestamp=ts)

    def cmd_delete_family(self, args):
        _, rest, ts = _options(args, with_ts=True)
        self.table.delete_family(rest[0].encode(), rest[1], timestamp=ts)

    def cmd_delete_family_version(self, args):
        _, rest, ts = _options(args, with_ts=True)
        self.table.delete_family_version(rest[0].encode(), rest[1], ts)

    def cmd_delete_columns(self, args):
        _, rest, ts = _options(args, with_ts=True)
        self.table.delete_columns(rest[0].encode(), rest[1].encode(), timestamp=ts)

    def cmd_delete_column(self, args):
        _, rest, ts = _options(args, with_ts=True)
        row, columns = rest[0].encode(), rest[1:]
        if len(columns) == 1:
            self.table.delete_column(row, columns[0].encode(), timestamp=ts)
            return
        # Several addColumn calls in one Delete: one row mutation, as a batch sends it.
        with self.table.batch() as b:
            for col in columns:
                b.delete_column(row, col.encode(), timestamp=ts)

    def cmd_increment(self, args):
        """`increment ROW f:q AMOUNT` or `increment ROW f:a=1 f:b=2` (one Increment)."""
        opts, rest = _options(args)
        ttl = opts.get("ttl")
        ttl = None if ttl is None else int(ttl)
        row = rest[0].encode()
        if len(rest) == 3 and "=" not in rest[1]:
            return [str(self.table.increment(row, rest[1].encode(), int(rest[2]), ttl_ms=ttl))]
        amounts = {}
        for col in rest[1:]:
            c, _, v = col.partition("=")
            amounts[c.encode()] = int(v)
        result = self.table.increment_columns(row, amounts, ttl_ms=ttl)
        return [f"{c.decode()}={result[c]}" for c in amounts]

    def cmd_append(self, args):
        row, col = args[0], args[1]
        c, _, v = col.partition("=")
        result = self.table.append(row.encode(), {c.encode(): to_bytes_binary(v)})
        return [to_string_binary(result[c.encode()])]

    def cmd_flush(self, args):
        self.cluster.admin.flush("t")

    def cmd_compact(self, args):
        self.cluster.admin.compact("t")

    def cmd_major_compact(self, args):
        self.cluster.admin.major_compact("t")

    def cmd_split(self, args):
        self.cluster.admin.split("t", args[0].encode())

    def cmd_place(self, args):
        if self.placement in ("flushed", "compacted"):
            self.cluster.admin.flush("t")
        if self.placement == "compacted":
            self.cluster.admin.major_compact("t")

    def cmd_get(self, args):
        opts, rest = _options(args)
        as_long = opts.pop("long", None) is not None
        cells = self.table.get(rest[0].encode(), **_read_options(opts))
        return _format(cells, as_long)

    def cmd_scan(self, args):
        opts, _ = _options(args)
        as_long = opts.pop("long", None) is not None
        kwargs = _read_options(opts)
        for key in ("start", "stop", "prefix"):
            if key in opts:
                kwargs[{"start": "start_row", "stop": "stop_row", "prefix": "row_prefix"}[key]] = \
                    opts[key].encode()
        if "reversed" in opts:
            kwargs["reversed"] = True
        if "limit" in opts:
            kwargs["limit"] = int(opts["limit"])
        cells = [c for row in self.table.scan(**kwargs) for c in row]
        return _format(cells, as_long)

    def cmd_regions(self, args):
        return [f"[{to_string_binary(r.start_key)}, {to_string_binary(r.end_key)}) "
                f"files={r.store_file_count}"
                f" references={sum(f.is_reference for v in r.store_files.values() for f in v)}"
                for r in self.cluster.admin.regions("t")]

    def cmd_markers(self, args):
        families = self.cluster.admin.describe("t").families
        versions = families[min(families)].max_versions
        return [str(sum(1 for row in self.table.scan(raw=True, max_versions=versions)
                        for c in row if c.type.is_delete))]


def _options(args, with_ts: bool = False):
    """Split `key=value` / bare-flag options from positional words (and `@ts`)."""
    opts, rest, ts = {}, [], None
    for a in args:
        if with_ts and a.startswith("@"):
            ts = int(a[1:])
        elif "=" in a and ":" not in a.partition("=")[0]:
            k, _, v = a.partition("=")
            opts[k] = v
        elif a in ("raw", "reversed", "long"):
            opts[a] = ""
        else:
            rest.append(a)
    return (opts, rest, ts) if with_ts else (opts, rest)


def _family_options(opts: dict) -> dict:
    out = {}
    names = {"versions": "max_versions", "min_versions": "min_versions", "ttl": "ttl",
             "kdc": "keep_deleted_cells", "bloom": "bloom_filter", "block_size": "block_size"}
    for k, v in opts.items():
        key = names[k]
        if key == "keep_deleted_cells":
            out[key] = {"true": True, "false": False, "ttl": "TTL"}[v.lower()]
        elif key == "bloom_filter":
            out[key] = v
        else:
            out[key] = int(v)
    return out


def _read_options(opts: dict) -> dict:
    kwargs = {}
    if "cols" in opts:
        kwargs["columns"] = [c.encode() for c in opts["cols"].split(",")]
    if "versions" in opts:
        v = opts["versions"]
        kwargs["max_versions"] = 2**31 - 1 if v == "all" else int(v)
    if "range" in opts:
        lo, hi = opts["range"].split(",")
        kwargs["time_range"] = (int(lo), int(hi))
    if "ts" in opts:
        kwargs["timestamp"] = int(opts["ts"])
    if "raw" in opts:
        kwargs["raw"] = True
    if "filter" in opts:
        kwargs["filter"] = opts["filter"]
    return kwargs


def _format(cells, as_long: bool) -> list:
    if not cells:
        return ["(empty)"]
    out = []
    for c in cells:
        head = (f"{to_string_binary(c.row)}/{to_string_binary(c.family)}:"
                f"{to_string_binary(c.qualifier)}/{c.timestamp}/{c.type.hbase_name}")
        if c.type.is_delete:
            out.append(head)
        elif as_long and len(c.value) == 8:
            out.append(f"{head}={_LONG.unpack(c.value)[0]}")
        else:
            out.append(f"{head}={to_string_binary(c.value)}")
    return out
