"""The tools group's switches and cluster commands, and the procedures and security groups'
read-only commands (hbase-shell shell/commands/*.rb over hbase/admin.rb).

The balancer switch is modelled: off, `balancer` moves nothing and prints false, as HBase's
Admin.balance returns false (the normalizer's is in commands_lifecycle). So are the split and
merge switches (`splitormerge_switch`): they are the master's (hsim.regions.master_lifecycle).
The other switches (catalog janitor, cleaner chore, snapshot cleanup, compactions) name
machinery hsim does not model: they keep their state and answer as HBase does, and change
nothing else."""

from __future__ import annotations

from hsim.shell.values import flatten
from hsim.shell.args import name_text, ruby_class
from hsim.shell.parser import to_text
from hsim.shell.registry import SWITCH_ONLY, ShellArgumentError, command

# the switches' initial states, as a fresh HBase 2 cluster has them
_DEFAULTS = {"catalogjanitor": True, "cleaner_chore": True, "snapshot_cleanup": True}


def _boolean(v) -> bool:
    """java.lang.Boolean.valueOf as JRuby calls it: true or false, or a String ("true", any
    case, is true); anything else has no matching overload."""
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        return v.lower() == "true"
    from hsim.shell.commands_regions import _java

    raise ShellArgumentError(f"no method 'valueOf' for arguments (org.jruby.{_java(v)}) on "
                             "Java::JavaLang::Boolean")


def _switch(sh, name: str, value=None) -> bool:
    """The switch's state before `value` is set (or its state, with no value). The balancer's,
    the normalizer's and the SPLIT and MERGE switches are the master's."""
    if name in ("balancer", "normalizer", "SPLIT", "MERGE"):
        with sh.cluster.lock:
            return sh.cluster.master.switch(name, None if value is None else _boolean(value))
    state = sh.switches.get(name, _DEFAULTS[name])
    if value is not None:
        sh.switches[name] = _boolean(value)
    return state


def _row(sh, text: str) -> int:
    """One row; returns the formatter's row count, as Shell::Formatter#row does."""
    return sh.fmt.row([text])


# --- the balancer ------------------------------------------------------------------------------
@command("balance_switch", "tools", """
Turns the balancer on or off; prints the previous state. Off, `balancer` moves nothing.

  hbase> balance_switch true
  hbase> balance_switch false
""")
def balance_switch(sh, enable_disable):
    prev = _switch(sh, "balancer", enable_disable)
    _row(sh, f"Previous balancer state : {str(prev).lower()}")
    return prev


@command("balancer_enabled", "tools", """
Is the balancer on?

  hbase> balancer_enabled
""")
def balancer_enabled(sh):
    state = _switch(sh, "balancer")
    _row(sh, str(state).lower())
    return state


# --- switches hsim keeps but does not act on ---------------------------------------------------
def _register_switch(key: str, what: str, prev_label: str | None):
    """`<name>_switch` (prints the previous state) and `<name>_enabled`."""

    def switch(sh, enable_disable):
        prev = _switch(sh, key, enable_disable)
        _row(sh, f"Previous {prev_label} state : {str(prev).lower()}" if prev_label
             else str(prev).lower())
        return prev

    def enabled(sh):
        state = _switch(sh, key)
        _row(sh, str(state).lower())
        return state

    name = "balance" if key == "balancer" else key
    command(f"{name}_switch", "tools", f"""
Turns the {what} on or off; prints the previous state. hsim keeps the switch's state; it has
no {what} for it to act on.

  hbase> {name}_switch true
  hbase> {name}_switch false
""", status=SWITCH_ONLY)(switch)
    command(f"{name}_enabled", "tools", f"""
Is the {what} on? (hsim keeps the switch's state; it has no {what}.)

  hbase> {name}_enabled
""", status=SWITCH_ONLY)(enabled)


_register_switch("catalogjanitor", "catalog janitor", None)
_register_switch("cleaner_chore", "cleaner chore", None)
_register_switch("snapshot_cleanup", "snapshot auto-cleanup", "snapshot cleanup")


@command("catalogjanitor_run", "tools", """
Runs the catalog janitor, which deletes split parents once their daughters hold no references
to them. hsim retires a split parent at once, so there is never one to clean: it returns 0.

  hbase> catalogjanitor_run
""", status=SWITCH_ONLY)
def catalogjanitor_run(sh):
    return 0


@command("cleaner_chore_run", "tools", """
Runs the cleaner chore over the archived store files and WALs. hsim keeps no archive for it
to clean: it returns true.

  hbase> cleaner_chore_run
""", status=SWITCH_ONLY)
def cleaner_chore_run(sh):
    return True


def _switch_type(v) -> str:
    text = to_text(v) if isinstance(v, str) else str(v)
    if text not in ("SPLIT", "MERGE"):
        raise ShellArgumentError("No enum constant "
                                 f"org.apache.hadoop.hbase.client.MasterSwitchType.{text}")
    return text


@command("splitormerge_switch", "tools", """
Turns region splits or merges ('SPLIT' or 'MERGE') on or off cluster-wide; prints the
previous state. Off, `split` or `merge_region` is refused, a region's own split does not
happen, and the normalizer plans none of that kind.

  hbase> splitormerge_switch 'SPLIT', true
  hbase> splitormerge_switch 'MERGE', false
""")
def splitormerge_switch(sh, switch_type, enabled):
    prev = _switch(sh, _switch_type(switch_type), enabled)
    _row(sh, str(prev).lower())
    return prev


@command("splitormerge_enabled", "tools", """
Are region splits or merges ('SPLIT' or 'MERGE') on?

  hbase> splitormerge_enabled 'SPLIT'
""")
def splitormerge_enabled(sh, switch_type):
    state = _switch(sh, _switch_type(switch_type))
    _row(sh, str(state).lower())
    return state


@command("compaction_switch", "tools", """
Turns compactions on or off on every region server (or the ones named); prints each server's
previous state. hsim keeps the switch's state; its compactions run when asked.

  hbase> compaction_switch true
  hbase> compaction_switch false, ['server2', 'server1']
""", status=SWITCH_ONLY)
def compaction_switch(sh, enable_disable, servers=None):
    value = _boolean(enable_disable)
    names = [s.name for s in sh.cluster.master.servers]
    if servers is not None:
        wanted = [to_text(str(s)) for s in (servers if isinstance(servers, list) else [servers])]
        names = [n for n in names if any(n.startswith(w) for w in wanted)]
    sh.fmt.header(["SERVER", "PREV_STATE"])
    for n in names:
        prev = sh.switches.get(("compaction", n), True)
        sh.switches[("compaction", n)] = value
        sh.fmt.row([n, str(prev).lower()])
    sh.fmt.footer(len(names))


# --- cluster state -----------------------------------------------------------------------------
@command("compaction_state", "tools", """
Shows a table's compaction state. hsim compacts when asked and at once, so it is NONE between
commands.

  hbase> compaction_state 't1'
  hbase> compaction_state 'ns1:t1'
""")
def compaction_state(sh, table):
    name = name_text(table)
    sh.admin.describe(name)  # TableNotFound for an unknown table
    return "NONE"


def _server(sh, name):
    """A live region server by its full name (`rs1.hsim,16020,1767225600000`)."""
    text = name_text(name)
    for s in sh.cluster.master.servers:
        if s.name == text:
            return s
    raise ShellArgumentError(f"{text} is not a live region server (see status 'simple')")


@command("wal_roll", "tools", """
Rolls a region server's WAL: closes its current file and starts a new one (then archives the
files whose edits are all flushed). The server is named as `status 'simple'` shows it.

  hbase> wal_roll 'rs1.hsim,16020,1767225600000'
""", aliases=("hlog_roll",))
def wal_roll(sh, server_name):
    server = _server(sh, server_name)
    with sh.cluster.lock:
        server.wal.roll(sh.clock.now())


@command("compact_rs", "tools", """
Compacts every region on a region server; true as a second argument makes it a major
compaction.

  hbase> compact_rs 'rs1.hsim,16020,1767225600000'
  hbase> compact_rs 'rs1.hsim,16020,1767225600000', true
""")
def compact_rs(sh, server_name, major=False):
    server = _server(sh, server_name)
    if not isinstance(major, bool):
        raise ShellArgumentError(f"no implicit conversion of {ruby_class(major)} into Boolean")
    for region in list(server.regions.values()):
        (sh.admin.major_compact if major else sh.admin.compact)(region.name)


@command("list_deadservers", "tools", """
Lists the dead region servers (those `abort_server` killed and not yet cleared).

  hbase> list_deadservers
""")
def list_deadservers(sh):
    dead = list(sh.cluster.master.dead_servers)
    sh.fmt.header(["SERVERNAME"])
    for name in dead:
        sh.fmt.row([name])
    sh.fmt.footer(len(dead))


@command("clear_deadservers", "tools", """
Clears dead region servers from the master's list (all of them when none is named); prints
true, or the servers it could not clear, and returns those.

  hbase> clear_deadservers 'host1,16020,1234', 'host2,16020,1234'
  hbase> clear_deadservers
""")
def clear_deadservers(sh, *servers):
    dead = sh.cluster.master.dead_servers
    names = [name_text(s) for s in flatten(servers) if s is not None] or list(dead)
    failed = []
    for name in names:
        if name in dead:
            dead.remove(name)
        else:
            failed.append(name)
    if not failed:
        _row(sh, "true")
        return failed
    _row(sh, "Some dead server clear failed")
    _row(sh, "SERVERNAME")
    for name in failed:
        _row(sh, name)
    sh.fmt.footer(len(failed))
    return failed




@command("is_in_maintenance_mode", "tools", """
Is the master in maintenance mode? hsim's never is.

  hbase> is_in_maintenance_mode
""")
def is_in_maintenance_mode(sh):
    _row(sh, "false")
    return False


@command("rit", "tools", """
Lists the regions in transition. hsim moves regions at once, so there are none between
commands.

  hbase> rit
""")
def rit(sh):
    sh.fmt.footer(0)


@command("regioninfo", "tools", """
Shows a region's RegionInfo, by region name or encoded region name.

  hbase> regioninfo 't1,,1767225600000.1cc99389c5eedc8b4850b2251a56893e.'
  hbase> regioninfo '1cc99389c5eedc8b4850b2251a56893e'
""")
def regioninfo(sh, region_name):
    from hsim.client.catalog import region_info_bytes, region_info_text, region_row

    region = sh.cluster.master.region_by_name(name_text(region_name))
    sh.fmt.line(region_info_text(region_info_bytes(region), region_row(region)))


# --- procedures and security -------------------------------------------------------------------
@command("list_procedures", "procedures", """
Lists the master's procedures. hsim runs each admin operation to its end at once, so none is
ever pending.

  hbase> list_procedures
""")
def list_procedures(sh, *args):
    sh.fmt.header(["PID", "Name", "State", "Submitted", "Last_Update", "Parameters"])
    sh.fmt.footer(0)


@command("list_locks", "procedures", """
Lists the master's procedure locks (none in hsim: see list_procedures).

  hbase> list_locks
""")
def list_locks(sh):
    return []


@command("list_security_capabilities", "security", """
Lists the cluster's security capabilities: simple authentication, no authorization.

  hbase> list_security_capabilities
""")
def list_security_capabilities(sh):
    sh.fmt.line("SIMPLE_AUTHENTICATION")
    return ["SIMPLE_AUTHENTICATION"]


@command("clear_block_cache", "tools", """
Evicts a table's blocks from the region servers' block caches; prints how many were evicted.

  hbase> clear_block_cache 't1'
""")
def clear_block_cache(sh, table):
    name = name_text(table)
    st = sh.cluster.master.table_state(name)
    evicted = 0
    caches = {}
    with sh.cluster.lock:
        for region in st.locator.regions:
            cache = region.server.block_cache
            caches[id(cache)] = cache
            for store in region.stores.values():
                for sf in store.files:
                    evicted += cache.evict_file(sf.reader.name)
    size = sum(c.capacity for c in caches.values())
    # CacheEvictionStats#toString; the command returns formatter.row's value
    return _row(sh, f"CacheEvictionStats{{evictedBlocks={evicted}, maxCacheSize={size}, "
                    "failedRegionsSize=0, failedRegions=}")
