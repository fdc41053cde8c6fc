"""Data manipulation commands: put, get, scan, delete, deleteall, incr, get_counter, append,
count (hbase-shell shell/commands/*.rb over hbase/table.rb)."""

from __future__ import annotations

import re
import struct

from hsim.bytes import to_long, to_string_binary
from hsim.shell.args import column_spec, data_bytes, java_int, parse_column, ruby_class
from hsim.shell.formatter import cell_text, column_text
from hsim.shell.parser import ruby_inspect, to_text
from hsim.shell.registry import ShellArgumentError, command


def truthy(v) -> bool:
    """Ruby truthiness: everything but nil and false (0 and [] are true)."""
    return v is not None and v is not False


def _column_bytes(column) -> bytes:
    """A put/incr column: `f:q`, or `f` for the empty qualifier (Put.addColumn(f, null, v))."""
    fam, q = parse_column(column)
    return fam + b":" + (q or b"")


# --- value converters (Table#convert_bytes with Bytes methods) ------------------------------------
def _signed(fmt: str, size: int):
    s = struct.Struct(fmt)

    def conv(b: bytes) -> str:
        if len(b) < size:
            raise ShellArgumentError(
                f"offset (0) + length ({size}) exceed the capacity of the array: {len(b)}")
        return str(s.unpack_from(b)[0])
    return conv


_CONVERTERS = {
    "toStringBinary": to_string_binary,
    "toString": lambda b: b.decode("utf-8", "replace"),
    "toLong": _signed(">q", 8),
    "toInt": _signed(">i", 4),
    "toShort": _signed(">h", 2),
    "toDouble": _signed(">d", 8),
    "toFloat": _signed(">f", 4),
    "toBoolean": lambda b: "true" if b and b[0] != 0 else "false",
    "toHex": lambda b: b.hex(),
    "len": lambda b: str(len(b)),
}


_BYTES_CLASS = "org.apache.hadoop.hbase.util.Bytes"


def _converter(name: str | None):
    """A column's converter: a Bytes method name, or `c(<class>).<method>` (Table#convert)."""
    if name is None:
        return to_string_binary
    m = re.fullmatch(r"c\((.+)\)\.(.+)", name)
    if m is not None:
        if m.group(1) != _BYTES_CLASS:
            raise ShellArgumentError(f"uninitialized constant {m.group(1)} (hsim converts with "
                                     f"{_BYTES_CLASS} only)")
        name = m.group(2)
    conv = _CONVERTERS.get(name)
    if conv is None:
        raise ShellArgumentError(f"undefined method `{name}' for Java::OrgApacheHadoopHbaseUtil"
                                 "::Bytes:Class (hsim knows " + ", ".join(_CONVERTERS) + ")")
    return conv


def _meta_converters(table, converters: dict) -> dict:
    """Table#to_string on hbase:meta: info:regioninfo (and splitA/B) as RegionInfo.toString,
    info:serverstartcode as a long; these win over a column's own converter, as in HBase."""
    from hsim.client.catalog import is_meta, region_info_text

    if is_meta(to_text(table)):
        for q in (b"regioninfo", b"splitA", b"splitB"):
            converters[(b"info", q)] = region_info_text
        converters[(b"info", b"serverstartcode")] = \
            lambda v: str(to_long(v)) if v else to_string_binary(v)
    return converters


def _cell_string(sh, cell, converters: dict, maxlength) -> str:
    """Table#to_string, with the column's FORMATTER if one was given."""
    conv = converters.get((cell.family, cell.qualifier))
    if conv is None or cell.is_delete:
        text = cell_text(cell, sh.timestamps)
    else:
        from hsim.shell.formatter import format_timestamp

        text = f"timestamp={format_timestamp(cell.timestamp, sh.timestamps)}, " \
               f"value={conv(cell.value)}"
    if truthy(maxlength) and maxlength != -1:
        text = text[:java_int(maxlength)]
    return text


def _columns(spec, converters: dict) -> list:
    """Column specs as the native API takes them; registers FAMILY:QUALIFIER:CONVERTER."""
    out = []
    for c in spec:
        fam, q, conv = column_spec(to_text(c) if isinstance(c, str) else str(c))
        if q is None:
            out.append(fam)
        else:
            out.append(fam + b":" + q)
            if conv is not None:
                converters[(fam, q)] = _converter(conv)
    return out


def _time_range(v):
    if not isinstance(v, list) or len(v) != 2:
        raise ShellArgumentError(f"TIMERANGE must be [min, max), not {ruby_inspect(v)}")
    return (java_int(v[0]), java_int(v[1]))


# --- put ------------------------------------------------------------------------------------------
@command("put", "dml", """
Puts a cell 'value' at the given table/row/column and, optionally, timestamp; a trailing hash
may give TTL (milliseconds, the cell's own TTL) or ATTRIBUTES.

  hbase> put 't1', 'r1', 'c1', 'value'
  hbase> put 't1', 'r1', 'c1', 'value', ts1
  hbase> put 't1', 'r1', 'c1', 'value', {TTL => 60000}
  hbase> put 't1', 'r1', 'c1', 'value', ts1, {TTL => 60000}
""")
def put(sh, table, row, column, value, timestamp=None, args=None):
    ttl = None
    for opts in (timestamp, args):
        if isinstance(opts, dict) and truthy(opts.get("TTL")):
            ttl = java_int(opts["TTL"])
    if isinstance(timestamp, dict):
        timestamp = None
    ts = None if timestamp is None else java_int(timestamp)
    sh.table(table).put(data_bytes(row), {_column_bytes(column): data_bytes(value)},
                        timestamp=ts, ttl_ms=ttl)


# --- get ------------------------------------------------------------------------------------------
@command("get", "dml", """
Gets a row or some of its cells: give the table, the row and optionally columns or a hash of
COLUMN(S), TIMESTAMP, TIMERANGE ([min, max)), VERSIONS, FILTER, MAXLENGTH.

  hbase> get 't1', 'r1'
  hbase> get 't1', 'r1', {TIMERANGE => [ts1, ts2]}
  hbase> get 't1', 'r1', {COLUMN => 'c1'}
  hbase> get 't1', 'r1', {COLUMN => ['c1', 'c2', 'c3']}
  hbase> get 't1', 'r1', {COLUMN => 'c1', TIMESTAMP => ts1}
  hbase> get 't1', 'r1', {COLUMN => 'c1', TIMERANGE => [ts1, ts2], VERSIONS => 4}
  hbase> get 't1', 'r1', {FILTER => "ValueFilter(=, 'binary:abc')"}
  hbase> get 't1', 'r1', 'c1', 'c2'
  hbase> get 't1', 'r1', ['c1', 'c2']
  hbase> get 't1', 'r1', {COLUMN => ['cf:counter:toLong']}

A column may name a Bytes method that formats its values: 'cf:q:toLong' (also toInt,
toShort, toString, toDouble, toFloat, toBoolean, toHex).
""")
def get(sh, table, row, *args):
    t = sh.table(table)
    sh.fmt.header(["COLUMN", "CELL"])
    cells, maxlength, converters = get_cells(t, row, args)
    _meta_converters(table, converters)
    for c in cells:
        sh.fmt.row([column_text(c), _cell_string(sh, c, converters, maxlength)])
    sh.fmt.footer(1 if cells else None)


def get_request(row, args) -> tuple[dict, object, dict]:
    """Table#_get_internal's argument handling: the keyword arguments of Table.get, the
    MAXLENGTH and the converters, with its messages for what it cannot parse."""
    converters: dict = {}
    if args and isinstance(args[0], dict):
        a = dict(args[0])
    else:
        a = {"COLUMNS": [x for x in _flat(list(args)) if x is not None]}
    maxlength = a.pop("MAXLENGTH", None)
    filt = a.pop("FILTER", None)
    for k in ("CONSISTENCY", "REGION_REPLICA_ID", "FORMATTER", "FORMATTER_CLASS"):
        a.pop(k, None)
    kw: dict = {"filter": filt}
    if a:
        columns = a.get("COLUMN") if truthy(a.get("COLUMN")) else a.get("COLUMNS")
        vers = a.get("VERSIONS") if truthy(a.get("VERSIONS")) else 1
        if truthy(columns):
            if isinstance(columns, str):
                columns = [columns]
            if not isinstance(columns, list):
                raise ShellArgumentError(
                    f"Failed parse column argument type {ruby_inspect(a)}, Hash")
            kw["columns"] = _columns(columns, converters) or None
        elif not (truthy(a.get("ATTRIBUTES")) or truthy(a.get("AUTHORIZATIONS"))
                  or truthy(a.get("TIMESTAMP")) or truthy(a.get("TIMERANGE"))):
            raise ShellArgumentError(f"Failed parse of {ruby_inspect(a)}, Hash")
        kw["max_versions"] = java_int(vers)
        if truthy(a.get("TIMERANGE")):
            kw["time_range"] = _time_range(a["TIMERANGE"])
        elif truthy(a.get("TIMESTAMP")):
            kw["timestamp"] = java_int(a["TIMESTAMP"])
    return kw, maxlength, converters


def get_cells(t, row, args) -> tuple[list, object, dict]:
    kw, maxlength, converters = get_request(row, args)
    return t.get(data_bytes(row), **kw), maxlength, converters


def _flat(v):
    for x in v:
        if isinstance(x, list):
            yield from _flat(x)
        else:
            yield x


# --- scan -----------------------------------------------------------------------------------------
@command("scan", "dml", """
Scans a table; a hash of scanner specifications may give COLUMNS, STARTROW, STOPROW,
ROWPREFIXFILTER, LIMIT, TIMESTAMP, TIMERANGE, VERSIONS, RAW, REVERSED, FILTER, CACHE,
CACHE_BLOCKS, MAXLENGTH. RAW cannot be combined with COLUMNS.

  hbase> scan 't1'
  hbase> scan 't1', {COLUMNS => ['c1', 'c2'], LIMIT => 10, STARTROW => 'xyz'}
  hbase> scan 't1', {COLUMNS => 'c1', TIMERANGE => [1303668804000, 1303668904000]}
  hbase> scan 't1', {REVERSED => true}
  hbase> scan 't1', {ROWPREFIXFILTER => 'row2', FILTER => "(QualifierFilter (>=, 'binary:xyz'))"}
  hbase> scan 't1', {RAW => true, VERSIONS => 10}

ALL_METRICS => true prints the scan's metrics (HBase's ScanMetrics) after the rows;
METRICS => ['ROWS_SCANNED', 'ROWS_FILTERED'] prints only those.

  hbase> scan 't1', {ALL_METRICS => true}
  hbase> scan 't1', {METRICS => ['RPC_RETRIES', 'ROWS_FILTERED']}
""")
def scan(sh, table, args=None):
    t = sh.table(table)
    sh.fmt.header(["ROW", "COLUMN+CELL"])
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise ShellArgumentError("Args should be a Hash")
    kw, maxlength, converters = scan_request(args)
    _meta_converters(table, converters)
    count = 0
    rows = t.scan(**kw)
    for cells in rows:
        key = to_string_binary(cells[0].row)
        for c in cells:
            sh.fmt.row([key, f"column={column_text(c)}, "
                             f"{_cell_string(sh, c, converters, maxlength)}"])
        count += 1
    sh.fmt.footer(count)
    if kw.get("scan_metrics"):
        _print_scan_metrics(sh, rows.scan_metrics, args.get("METRICS"))


def _print_scan_metrics(sh, metrics: dict, wanted) -> None:
    """Formatter#scan_metrics: a blank line, then METRIC / VALUE rows in key order (only the
    `wanted` keys, when METRICS names some); they do not count as rows."""
    if wanted is not None and not isinstance(wanted, list):
        wanted = [wanted]
    saved = sh.fmt.row_count
    sh.fmt.line()
    sh.fmt.row(["METRIC", "VALUE"], inset=False)
    for key in sorted(metrics):
        if not wanted or key in wanted:
            sh.fmt.row([key, str(metrics[key])])
    sh.fmt.row_count = saved


def scan_request(args: dict) -> tuple[dict, object, dict]:
    """Table#_hash_to_scan: the keyword arguments of Table.scan."""
    converters: dict = {}
    a = dict(args)
    maxlength = a.pop("MAXLENGTH", None)
    if not a:
        return {}, maxlength, converters
    columns = a.get("COLUMNS") if truthy(a.get("COLUMNS")) else a.get("COLUMN")
    if not truthy(columns):
        columns = []
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, list):
        raise ShellArgumentError("COLUMNS must be specified as a String or an Array")
    kw: dict = {}
    prefix = a.get("ROWPREFIXFILTER")
    if truthy(prefix):
        kw["row_prefix"] = data_bytes(prefix)
    else:
        if truthy(a.get("STARTROW")):
            kw["start_row"] = data_bytes(a["STARTROW"])
        if truthy(a.get("STOPROW")):
            kw["stop_row"] = data_bytes(a["STOPROW"])
    if columns:
        kw["columns"] = _columns(columns, converters)
    if truthy(a.get("FILTER")):
        kw["filter"] = a["FILTER"]
    if truthy(a.get("TIMESTAMP")):
        kw["timestamp"] = java_int(a["TIMESTAMP"])
    if truthy(a.get("TIMERANGE")):
        kw["time_range"] = _time_range(a["TIMERANGE"])
        kw.pop("timestamp", None)
    if truthy(a.get("REVERSED")):
        kw["reversed"] = True
    versions = java_int(a["VERSIONS"]) if truthy(a.get("VERSIONS")) else 1
    if versions > 1:
        kw["max_versions"] = versions
    if truthy(a.get("RAW")):
        kw["raw"] = True
    limit = java_int(a["LIMIT"]) if truthy(a.get("LIMIT")) else -1
    if limit > 0:
        kw["limit"] = limit
    cache = java_int(a["CACHE"]) if truthy(a.get("CACHE")) else 0
    if cache > 0:
        kw["caching"] = cache
    if truthy(a.get("ALL_METRICS")) or a.get("METRICS") is not None:
        kw["scan_metrics"] = True  # Scan.setScanMetricsEnabled
    if a.get("CACHE_BLOCKS") is not None:  # Scan.setCacheBlocks (true unless given)
        kw["cache_blocks"] = _cache_blocks(a["CACHE_BLOCKS"])
    return kw, maxlength, converters


def _cache_blocks(v) -> bool:
    """Scan.setCacheBlocks(boolean): JRuby passes true or false, nothing else."""
    if not isinstance(v, bool):
        raise ShellArgumentError(f"CACHE_BLOCKS must be true or false, not {ruby_inspect(v)}")
    return v


# --- count ----------------------------------------------------------------------------------------
@command("count", "dml", """
Counts the rows of a table, printing the count every INTERVAL rows (1000 by default); takes
the scan's specifications too (COLUMNS, STARTROW, STOPROW, FILTER, ...).

  hbase> count 't1'
  hbase> count 't1', INTERVAL => 100000
  hbase> count 't1', CACHE => 1000
  hbase> count 't1', INTERVAL => 10, CACHE => 1000
  hbase> count 't1', FILTER => "PrefixFilter('user')"
""")
def count(sh, table, params=None):
    t = sh.table(table)
    if isinstance(params, int) and not isinstance(params, bool):
        params = {"INTERVAL": params}
    params = {"INTERVAL": 1000, "CACHE": 10, **(params or {})}
    interval = java_int(params.pop("INTERVAL"))
    # count.rb: CACHE_BLOCKS => false unless given (a count reads every block once)
    cache_blocks = _cache_blocks(params.pop("CACHE_BLOCKS", False))
    kw, _, _ = scan_request(params)
    kw["cache_blocks"] = cache_blocks
    sh.fmt.header()
    n = 0
    for cells in t.scan(**kw):
        n += 1
        if interval and n % interval == 0:
            sh.fmt.row([f"Current count: {n}, row: {to_string_binary(cells[0].row)}"])
    sh.fmt.footer(n)
    return n


# --- delete, deleteall ----------------------------------------------------------------------------
@command("delete", "dml", """
Puts a delete marker for one version of a cell: the version at the given timestamp, or the
latest one (HBase 2.x: deletes must match the deleted cell's coordinates exactly).

  hbase> delete 't1', 'r1', 'c1'
  hbase> delete 't1', 'r1', 'c1', ts1
""")
def delete(sh, table, row, column, timestamp=None, args=None):
    _delete(sh, table, row, column, timestamp, all_versions=False)


@command("deleteall", "dml", """
Deletes a whole row, a family, or every version of a column at or before a timestamp.
A hash with ROWPREFIXFILTER deletes every row with that prefix.

  hbase> deleteall 't1', 'r1'
  hbase> deleteall 't1', 'r1', 'c1'
  hbase> deleteall 't1', 'r1', 'c1', ts1
  hbase> deleteall 't1', {ROWPREFIXFILTER => 'prefix'}
""")
def deleteall(sh, table, row, column=None, timestamp=None, args=None):
    if isinstance(row, dict):
        prefix = row.get("ROWPREFIXFILTER")
        if prefix is None:  # Table#_deleterows_internal: prefix.to_java_bytes
            raise ShellArgumentError("undefined method `to_java_bytes' for nil:NilClass")
        rows = [cells[0].row for cells in sh.table(table).scan(row_prefix=data_bytes(prefix))]
        for r in rows:
            _delete(sh, table, r, column, timestamp, all_versions=True)
        return
    _delete(sh, table, row, column, timestamp, all_versions=True)


def _delete(sh, table, row, column, timestamp, all_versions: bool) -> None:
    """Table#_createdelete_internal: which Delete the shell builds."""
    t = sh.table(table)
    row = row if isinstance(row, bytes) else data_bytes(row)
    ts = None if timestamp is None or isinstance(timestamp, dict) else java_int(timestamp)
    if column is None or column == "":
        t.delete_row(row, timestamp=ts)
        return
    fam, q = parse_column(column)
    if all_versions:
        if q is None:
            t.delete_family(row, fam, timestamp=ts)
        else:
            t.delete_columns(row, fam + b":" + q, timestamp=ts)
    elif q is None:
        # Delete.addFamilyVersion(f, LATEST_TIMESTAMP): the server stamps it with its now
        t.delete_family_version(row, fam, ts)
    else:
        t.delete_column(row, fam + b":" + q, timestamp=ts)


# --- counters and append --------------------------------------------------------------------------
@command("incr", "dml", """
Increments a cell's 8-byte counter by 1 or by the given amount.

  hbase> incr 't1', 'r1', 'c1'
  hbase> incr 't1', 'r1', 'c1', 10
  hbase> incr 't1', 'r1', 'c1', 10, {TTL => 60000}
""")
def incr(sh, table, row, column, value=None, args=None):
    ttl = None
    for opts in (value, args):
        if isinstance(opts, dict) and truthy(opts.get("TTL")):
            ttl = java_int(opts["TTL"])
    if isinstance(value, dict) or value is None:
        value = 1
    if not isinstance(value, int) or isinstance(value, bool):
        raise ShellArgumentError(f"no implicit conversion of {ruby_class(value)} into Integer")
    cnt = sh.table(table).increment(data_bytes(row), _column_bytes(column), value, ttl_ms=ttl)
    sh.fmt.line(f"COUNTER VALUE = {cnt}")


@command("get_counter", "dml", """
Reads a counter cell's value (an 8-byte long).

  hbase> get_counter 't1', 'r1', 'c1'
""")
def get_counter(sh, table, row, column):
    fam, q = parse_column(column)
    cells = sh.table(table).get(data_bytes(row), columns=[fam + b":" + (q or b"")],
                                max_versions=1)
    if not cells:
        sh.fmt.line("No counter found at specified coordinates")
        return
    sh.fmt.line(f"COUNTER VALUE = {to_long(cells[0].value)}")


@command("append", "dml", """
Appends a value to a cell's value.

  hbase> append 't1', 'r1', 'c1', 'value'
""")
def append(sh, table, row, column, value, args=None):
    col = _column_bytes(column)
    new = sh.table(table).append(data_bytes(row), {col: data_bytes(value)})
    sh.fmt.line(f"CURRENT VALUE = {to_string_binary(new[col])}")
