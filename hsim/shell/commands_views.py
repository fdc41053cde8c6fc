"""hsim's views inside the engine as shell commands: regions, store, hfile, explain
(the Python functions behind them are in hsim.inspect)."""

from __future__ import annotations

from hsim import inspect as views
from hsim.bytes import to_string_binary
from hsim.shell.args import data_bytes, java_bool, java_int, name_text
from hsim.shell.commands_dml import _cell_string, get_request, scan_request
from hsim.shell.formatter import column_text
from hsim.shell.parser import ruby_literal, to_text
from hsim.shell.registry import ShellArgumentError, command


def _region(spec):
    return spec if isinstance(spec, int) and not isinstance(spec, bool) else to_text(str(spec))


def _print(sh, view) -> None:
    for line in str(view).split("\n"):
        sh.fmt.line(line)


@command("regions", "hsim", """
Shows a table's regions in key order: index, encoded name, key range, server, memstore size
(heap bytes), store files, bytes on disk, read and write requests.

  hbase> regions 't1'
""")
def regions(sh, table):
    _print(sh, views.regions(sh.cluster, name_text(table)))


@command("store", "hsim", """
Shows one store (a column family of one region): the MemStore's cells, then each store file
with its size, entries, time range, max sequence id, rows, bloom and index sizes. The region
is its index in `regions` (0 = first), its name, or its encoded name (or a unique prefix).

  hbase> store 't1', 0, 'f1'
  hbase> store 't1', '1cc99389', 'f1'
""")
def store(sh, table, region, family):
    _print(sh, views.store(sh.cluster, name_text(table), _region(region), name_text(family),
                           timestamps=sh.timestamps))


@command("hfile", "hsim", """
Lays open the n-th store file of a store (0 = oldest), as HBase's HFile pretty-printer does:
trailer, file info, bloom meta, block index entries, the list of blocks, and with CELLS => true
the cells.

  hbase> hfile 't1', 0, 'f1', 0
  hbase> hfile 't1', 0, 'f1', 0, CELLS => true
""")
def hfile(sh, table, region, family, n=0, opts=None):
    cells = isinstance(opts, dict) and java_bool(opts.get("CELLS", False))
    _print(sh, views.hfile(sh.cluster, name_text(table), _region(region), name_text(family),
                           java_int(n), cells=cells))


@command("explain", "hsim", """
Runs a get or a scan, prints its result, then explains it: per region and family, whether the
MemStore was read, which store files were read and which were skipped and why (key range,
time range or TTL, bloom filter), how many blocks came from disk and how many from the block
cache, and how many cells the query matcher saw, kept and dropped, and why.

  hbase> explain get 't1', 'r1'
  hbase> explain get 't1', 'r1', {COLUMN => 'f1:q', VERSIONS => 3}
  hbase> explain scan 't1', {STARTROW => 'a', STOPROW => 'c'}
""")
def explain(sh, what, table, *args):
    kind = to_text(str(what))
    name = name_text(table)
    text = f"{kind} '{name}'" + "".join(", " + _literal(a) for a in args)
    if kind == "get":
        if not args:
            raise ShellArgumentError("wrong number of arguments (given 2, expected 3+)")
        kw, maxlength, converters = get_request(args[0], args[1:])
        ex = views.explain_get(sh.cluster, name, data_bytes(args[0]), command=text,
                               timestamps=sh.timestamps, **kw)
        sh.fmt.header(["COLUMN", "CELL"])
        for cells in ex.result:
            for c in cells:
                sh.fmt.row([column_text(c), _cell_string(sh, c, converters, maxlength)])
        sh.fmt.footer(1 if ex.result else None)
    elif kind == "scan":
        if len(args) > 1 or (args and not isinstance(args[0], dict)):
            raise ShellArgumentError("Args should be a Hash")
        kw, maxlength, converters = scan_request(args[0] if args else {})
        ex = views.explain_scan(sh.cluster, name, command=text, timestamps=sh.timestamps, **kw)
        sh.fmt.header(["ROW", "COLUMN+CELL"])
        for cells in ex.result:
            for c in cells:
                sh.fmt.row([to_string_binary(c.row), f"column={column_text(c)}, "
                            f"{_cell_string(sh, c, converters, maxlength)}"])
        sh.fmt.footer(len(ex.result))
    else:
        raise ShellArgumentError(f"explain works on get and scan, not {kind}")
    _print(sh, ex)


@command("debug", "hsim", """
Runs one of the views by name: regions, store, hfile or explain.

  hbase> debug 'regions', 't1'
  hbase> debug 'store', 't1', 0, 'f1'
""")
def debug(sh, view, *args):
    from hsim.shell.registry import COMMANDS

    name = to_text(str(view))
    if name not in ("regions", "store", "hfile", "explain"):
        raise ShellArgumentError(f"Unknown view: {name} (regions, store, hfile or explain)")
    cmd = COMMANDS[name]
    cmd.check_arity(len(args))
    return cmd.func(sh, *args)


def _literal(v) -> str:
    """A shell argument written back in the shell's syntax."""
    if isinstance(v, str):
        text = to_text(v).replace("\\", "\\\\")
        if "'" in text and '"' not in text:
            return '"' + text + '"'
        return "'" + text.replace("'", "\\'") + "'"
    if v is True or v is False or v is None:
        return ruby_literal(v)
    if isinstance(v, list):
        return "[" + ", ".join(_literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} => {_literal(x)}" for k, x in v.items()) + "}"
    return str(v)


def _key(k) -> str:
    return k if isinstance(k, str) and k.isupper() else _literal(k)
