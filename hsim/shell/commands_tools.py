"""Cluster tools and general commands: flush, compact, major_compact, split, balancer, status,
version, whoami (hbase-shell shell/commands/*.rb over hbase/admin.rb), and hsim's `clock`."""

from __future__ import annotations

from hsim.errors import TableNotFoundError, UnknownRegionError
from hsim.shell.args import data_bytes, duration_ms, name_text
from hsim.shell.formatter import format_timestamp, parse_timestamp
from hsim.shell.parser import to_text
from hsim.shell.registry import ShellArgumentError, command

HBASE_VERSION = "2.5.0-hsim"
MASTER = ("master.hsim", 16000)


def target(sh, name) -> str:
    """Admin#flush/compact/split: a region name (full or encoded) or a table name."""
    name = name_text(name)
    if sh.admin.table_exists(name):
        return name
    try:
        sh.cluster.master.region_by_name(name)
    except UnknownRegionError:
        raise TableNotFoundError(name) from None
    return name


@command("flush", "tools", """
Flushes the memstores of every region of a table, of one region (by region name or encoded
region name) or of every region on a region server, into new store files. A family name may
follow (hsim flushes the whole region).

  hbase> flush 'TABLENAME'
  hbase> flush 'REGIONNAME'
  hbase> flush 'ENCODED_REGIONNAME'
  hbase> flush 'REGION_SERVER_NAME'
""")
def flush(sh, table_or_region, family=None):
    name = name_text(table_or_region)
    server = next((s for s in sh.cluster.master.servers if s.name == name), None)
    if server is not None:  # Admin.flushRegionServer
        for region in list(server.regions.values()):
            sh.admin.flush(region.name)
        return
    sh.admin.flush(target(sh, table_or_region))


@command("compact", "tools", """
Requests a compaction of a table, of one region, or of one column family of either. The
compaction policy picks the files (it may pick none).

  hbase> compact 't1'
  hbase> compact 't1', 'c1'
  hbase> compact 'r1'
""")
def compact(sh, table_or_region, family=None, type="NORMAL"):
    sh.admin.compact(*_compaction_args(sh, table_or_region, family, type))


@command("major_compact", "tools", """
Runs a major compaction: every store file of a table, region or family rewritten into one,
dropping deleted, expired and surplus cells.

  hbase> major_compact 't1'
  hbase> major_compact 't1', 'c1'
  hbase> major_compact 'r1'
""")
def major_compact(sh, table_or_region, family=None, type="NORMAL"):
    sh.admin.major_compact(*_compaction_args(sh, table_or_region, family, type))


def _compaction_args(sh, table_or_region, family, type) -> tuple:
    """(table or region, family or None) for admin.compact / major_compact; hsim has no MOB
    files, so a type other than NORMAL is refused with the shell's own message."""
    if type != "NORMAL":
        raise ShellArgumentError("only NORMAL or MOB accepted for type!")
    return target(sh, table_or_region), None if family is None else data_bytes(family)


@command("split", "tools", """
Splits a table's regions (each at its mid key) or one region, optionally at a given row.

  hbase> split 'tableName'
  hbase> split 'regionName'
  hbase> split 'tableName', 'splitKey'
  hbase> split 'regionName', 'splitKey'
""")
def split(sh, table_or_region, split_point=None):
    point = None if split_point is None else data_bytes(split_point)
    sh.admin.split(target(sh, table_or_region), point)


@command("balancer", "tools", """
Runs the balancer, which evens out the number of regions per region server. Prints true when
it ran, false when the balancer is switched off (balance_switch).

  hbase> balancer
  hbase> balancer "force"
""")
def balancer(sh, force=None):
    if force is not None and force != "force":
        raise ShellArgumentError(f"Invalid argument {to_text(str(force))}.")
    from hsim.shell.commands_admin import _switch

    ran = _switch(sh, "balancer")
    if ran:
        sh.admin.balance()
    sh.fmt.row([str(ran).lower()])
    return ran


@command("status", "general", """
Shows the cluster's status: 'summary' (the default), 'simple' or 'detailed'.

  hbase> status
  hbase> status 'simple'
  hbase> status 'summary'
  hbase> status 'detailed'
""")
def status(sh, format="summary", type="both"):
    fmt = to_text(str(format))
    master = sh.cluster.master
    servers = master.servers
    regions = sum(len(s.regions) for s in servers)
    if fmt not in ("simple", "detailed"):
        avg = regions / len(servers) if servers else 0.0
        sh.fmt.line(f"1 active master, 0 backup masters, {len(servers)} servers, 0 dead, "
                    f"{avg:.4f} average load")
        return
    out = sh.fmt.line
    if fmt == "detailed":
        out(f"version {HBASE_VERSION}")
        out("0 regionsInTransition")
    out(f"active master:  {MASTER[0]}:{MASTER[1]} 0")
    out("0 backup masters")
    if fmt == "detailed":
        out("master coprocessors: []")
    out(f"{len(servers)} live servers")
    load = 0
    for s in servers:
        out(f"    {s.hostname}:{s.port} {s.start_code}")
        out(f"        {_server_load(s)}")
        load += s.read_requests + s.write_requests
        if fmt == "detailed":
            for r in sorted(s.regions.values(), key=lambda r: r.name):
                out(f'        "{r.name}"')
                out(f"            {_region_load(r)}")
    out("0 dead servers")
    if fmt == "simple":
        out(f"Aggregate load: {load}, regions: {regions}")


def _mb(n: int) -> int:
    return n >> 20


def _server_load(s) -> str:
    """ServerLoad#toString, with the figures hsim keeps."""
    stores = [st for r in s.regions.values() for st in r.stores.values()]
    files = sum(len(st.files) for st in stores)
    size = sum(st.size for st in stores)
    return (f"requestsPerSecond=0.0, numberOfOnlineRegions={len(s.regions)}, "
            f"numberOfStores={len(stores)}, numberOfStorefiles={files}, "
            f"storefileSizeMB={_mb(size)}, memstoreSizeMB={_mb(s.memstore_heap)}, "
            f"readRequestsCount={s.read_requests}, "
            f"filteredReadRequestsCount={s.filtered_read_requests}, "
            f"writeRequestsCount={s.write_requests}, "
            f"totalStaticIndexSizeKB={sum(st.index_size for st in stores) >> 10}, "
            f"totalStaticBloomSizeKB={sum(st.bloom_size for st in stores) >> 10}")


def _region_load(r) -> str:
    """RegionLoad#toString, with the figures hsim keeps."""
    stores = list(r.stores.values())
    return (f"numberOfStores={len(stores)}, "
            f"numberOfStorefiles={sum(len(st.files) for st in stores)}, "
            f"storefileSizeMB={_mb(sum(st.size for st in stores))}, "
            f"memstoreSizeMB={_mb(r.memstore_heap)}, readRequestsCount={r.read_requests}, "
            f"filteredReadRequestsCount={r.filtered_read_requests}, "
            f"writeRequestsCount={r.write_requests}")


@command("table_help", "general", """
Help for table references: what `t = get_table 't'` gives and the commands it takes.

  hbase> table_help
""")
def table_help(sh):
    sh.table_help()


@command("version", "general", """
Prints the version of the HBase shell hsim follows.

  hbase> version
""")
def version(sh):
    sh.fmt.line(f"{HBASE_VERSION}, hsim, an in-process simulator of HBase 2.x")


@command("whoami", "general", """
Shows the current user.

  hbase> whoami
""")
def whoami(sh):
    sh.fmt.line("hsim (auth:SIMPLE)")
    sh.fmt.line("    groups: hsim")


@command("clock", "hsim", """
Shows the cluster's clock, advances it, or sets it. By default the clock moves 1 ms per
request (so put, delete, put keeps the second put, as on a cluster) and jumps when told to, so
TTLs expire exactly when a lab says so; `hsim shell --clock manual` stands it still. It never
goes back. Durations are milliseconds or '90s', '5m', '2h', '7d'; times are epoch milliseconds
or ISO dates (UTC).

  hbase> clock
  hbase> clock 'advance', '1h'
  hbase> clock 'advance', 60000
  hbase> clock 'set', '2026-01-02T00:00'
""")
def clock(sh, action=None, value=None):
    c = sh.clock
    if action is not None:
        act = to_text(str(action))
        if act not in ("advance", "set"):
            raise ShellArgumentError(f"Unknown clock action: {act} (use 'advance' or 'set')")
        if value is None:
            raise ShellArgumentError(f"clock '{act}' needs a value")
        if act == "advance":
            c.advance(duration_ms(value))
        else:
            try:
                c.set(value if isinstance(value, int) else parse_timestamp(to_text(value)))
            except ValueError:
                raise ShellArgumentError(f"not a time: {to_text(str(value))}") from None
    now = c.now()
    sh.fmt.line(f"{format_timestamp(now, 'iso')} ({now})")
