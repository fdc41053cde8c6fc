"""Regions and the filter language in the ddl group: list_regions, locate_region,
show_filters, and the schema-change companions alter_status, alter_async,
clone_table_schema (hbase-shell shell/commands/*.rb)."""

from __future__ import annotations

from hsim.bytes import to_string_binary
from hsim.shell.args import data_bytes, name_text, ruby_class
from hsim.shell.parser import to_text
from hsim.shell.registry import ShellArgumentError, command
from hsim.shell.table_attributes import TableAttributes
from hsim.shell.values import ruby_to_s

# list_regions's columns and their least widths (ListRegions#command's size_hash)
REGION_COLUMNS = {"SERVER_NAME": 12, "REGION_NAME": 12, "START_KEY": 10, "END_KEY": 10,
                  "SIZE": 5, "REQ": 5, "LOCALITY": 10}
_COLUMN_LIST = ", ".join(REGION_COLUMNS)


def valid_locality_threshold(value: float) -> bool:
    return 0 <= value <= 1.0


def accept_server_name(desired: str | None, actual: str) -> bool:
    """A server is chosen by a prefix of its name (`host`, `host.domain`, `host,16020`)."""
    return desired is None or actual.startswith(desired)


def accept_region_for_locality(actual: float, threshold: float) -> bool:
    return actual <= threshold


def regions_for_server(regions: list, server: str | None) -> list:
    return [r for r in regions if accept_server_name(server, r.server.name)]


@command("list_regions", "ddl", """
Lists a table's regions: server, region name, start and end key, store file size (MB),
requests and locality; optionally only those of servers whose name starts with a prefix, or
with locality at most LOCALITY_THRESHOLD; a third argument picks the columns (SERVER_NAME,
REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY, any case). hsim's data is always local:
locality 1.0.

  hbase> list_regions 'table_name'
  hbase> list_regions 'table_name', 'server_name'
  hbase> list_regions 'table_name', {SERVER_NAME => 'server_name', LOCALITY_THRESHOLD => 0.8}
  hbase> list_regions 'table_name', {}, ['SERVER_NAME', 'start_key']
  hbase> list_regions 'table_name', '', ['SERVER_NAME', 'start_key']
""")
def list_regions(sh, table, options=None, cols=None):
    name = name_text(table)
    if options is None:
        options = {}
    elif not isinstance(options, dict):
        options = {"SERVER_NAME": options}
    if not sh.admin.is_table_enabled(name):
        raise ShellArgumentError(f"Table {name} must be enabled.")
    widths = _columns(cols)
    server = options.get("SERVER_NAME")
    server = None if server is None else ruby_to_s(server)
    threshold = 1.0
    if "LOCALITY_THRESHOLD" in options:
        value = options["LOCALITY_THRESHOLD"]
        if not isinstance(value, float):
            raise ShellArgumentError("LOCALITY_THRESHOLD must be a float value")
        if not valid_locality_threshold(value):
            raise ShellArgumentError("LOCALITY_THRESHOLD must be between 0 and 1.0, inclusive")
        threshold = value
    st = sh.cluster.master.table_state(name)
    rows = []
    for r in regions_for_server(list(st.locator.regions), server):
        locality = 1.0
        if not accept_region_for_locality(locality, threshold):
            continue
        size = sum(s.size for s in r.stores.values()) >> 20
        values = {"SERVER_NAME": r.server.name, "REGION_NAME": r.name,
                  "START_KEY": to_string_binary(r.start_key),
                  "END_KEY": to_string_binary(r.end_key), "SIZE": str(size),
                  "REQ": str(r.read_requests + r.write_requests), "LOCALITY": str(locality)}
        row = {c: values[c] for c in widths}
        for c, v in row.items():
            widths[c] = max(widths[c], len(v))
        rows.append(row)
    w = sh.out.write
    w("".join(f" {c:>{n}} |" for c, n in widths.items()) + "\n")
    w("".join(f" {'-' * n:>{n}} |" for n in widths.values()) + "\n")
    for row in rows:
        w("".join(f" {row[c]:>{n}} |" for c, n in widths.items()) + "\n")
    w(f" {len(rows)} rows\n")


def _columns(cols) -> dict:
    if cols is None:
        return dict(REGION_COLUMNS)
    if not isinstance(cols, list):
        raise ShellArgumentError(f"{ruby_to_s(cols)} must be an array of strings. Possible "
                                 f"values are {_COLUMN_LIST}.")
    out = {}
    for c in cols:
        key = ruby_to_s(c).upper()
        if key not in REGION_COLUMNS:
            raise ShellArgumentError(f"{ruby_to_s(c)} is not a valid column. Possible values "
                                     f"are {_COLUMN_LIST}.")
        out[key] = REGION_COLUMNS[key]
    return out


def _java(v) -> str:
    """JRuby's Java class for a Ruby value, as its conversion errors name it."""
    return {"Integer": "RubyFixnum", "NilClass": "RubyNil"}.get(ruby_class(v),
                                                             "Ruby" + ruby_class(v))


class RegionLocation:
    """HRegionLocation, what locate_region returns (IRB echoes its toString)."""

    ruby_class = "Java::OrgApacheHadoopHbase::HRegionLocation"

    def __init__(self, region):
        # the seqNum hbase:meta records for the region (meta.catalog_entries)
        self.text = (f"region={region.name}, hostname={region.server.name}, "
                     f"seqNum={region.open_seq_num}")

    def __str__(self) -> str:
        return f"#<{self.ruby_class} {self.text}>"


@command("locate_region", "ddl", """
Shows the region that holds a row: its server (host:port) and the region's description.

  hbase> locate_region 'tableName', 'key0'
""")
def locate_region(sh, table, row_key):
    from hsim.client.catalog import region_info_bytes, region_info_text, region_row

    name = name_text(table)
    if not isinstance(row_key, str):  # Bytes.toBytesBinary(String) from JRuby
        raise ShellArgumentError(f"cannot convert instance of class org.jruby.{_java(row_key)} "
                                 "to class java.lang.String")
    region = sh.cluster.master.table_state(name).locator.locate(data_bytes(row_key))
    sh.fmt.header(["HOST", "REGION"])
    server = region.server
    sh.fmt.row([f"{server.hostname}:{server.port}",
                region_info_text(region_info_bytes(region), region_row(region))])
    sh.fmt.footer(1)
    return RegionLocation(region)


@command("show_filters", "ddl", """
Shows the filters the filter language knows (ParseFilter's supported filters).

  hbase> show_filters
""")
def show_filters(sh):
    from hsim.filters.parser import supported_filters

    for name in supported_filters():
        sh.fmt.row([name])


@command("alter_status", "ddl", """
Shows how many regions have the table's latest schema. hsim changes a schema on every region
at once, so all of them do.

  hbase> alter_status 't1'
""")
def alter_status(sh, table):
    name = name_text(table)
    if not sh.admin.table_exists(name):
        raise ShellArgumentError(f"Table {name} does not exist.")
    n = len(sh.admin.regions(name))
    sh.fmt.line(f"{n}/{n} regions updated.")
    sh.fmt.line("Done.")


@command("alter_async", "ddl", """
Alters a table as `alter` does, without waiting for the regions to take the new schema (in
hsim they take it at once). Same arguments as alter.

  hbase> alter_async 't1', NAME => 'f1', VERSIONS => 5
  hbase> alter_async 't1', 'delete' => 'f1'
""")
def alter_async(sh, table, *args):
    from hsim.shell.commands_ddl import alter_table

    alter_table(sh, table, args, wait=False)


@command("clone_table_schema", "ddl", """
Creates a table with the schema (families and attributes) of an existing one, without its
data; with false as a third argument, without its split points.

  hbase> clone_table_schema 'table_name', 'new_table_name'
  hbase> clone_table_schema 'table_name', 'new_table_name', false
""")
def clone_table_schema(sh, table, new_table, preserve_splits=True):
    for v in (table, new_table):
        if not isinstance(v, str):
            raise ShellArgumentError(f"no implicit conversion of {ruby_class(v)} into String")
    if not isinstance(preserve_splits, bool):
        raise ShellArgumentError(f"no implicit conversion of {ruby_class(preserve_splits)} "
                                 "into Boolean")
    src, dst = to_text(table), to_text(new_table)
    desc = sh.admin.describe(src)
    keys = [r.start_key for r in sh.admin.regions(src) if r.start_key] if preserve_splits \
        else None
    sh.admin.create_table(dst, dict(desc.families), split_keys=keys,
                          **TableAttributes(desc).kwargs())
