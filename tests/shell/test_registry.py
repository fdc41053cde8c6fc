"""The command registry against HBase 2.5's: every group and command HBase's shell loads is
known (with its status on hsim), docs/shell.md's table is the registry's, and every command
answers bad input with an ERROR line and changes nothing."""

import inspect
import pathlib

import pytest

from hsim.shell import help as shell_help
from hsim.shell.registry import COMMANDS, GROUPS, NOT_MODELLED, SWITCH_ONLY, WORKS

from .conftest import Session

# hbase-shell shell.rb (2.5): load_command_group's commands, by group
HBASE_GROUPS = {
    "general": "processlist status table_help version whoami",
    "ddl": "alter alter_async alter_status clone_table_schema create describe disable "
           "disable_all drop drop_all enable enable_all exists get_table is_disabled "
           "is_enabled list list_regions locate_region show_filters desc",
    "namespace": "alter_namespace create_namespace describe_namespace drop_namespace "
                 "list_namespace list_namespace_tables",
    "dml": "append count delete deleteall get get_counter get_splits incr put scan truncate "
           "truncate_preserve",
    "tools": "assign balance_switch balancer balancer_enabled catalogjanitor_enabled "
             "catalogjanitor_run catalogjanitor_switch cleaner_chore_enabled cleaner_chore_run "
             "cleaner_chore_switch clear_block_cache clear_compaction_queues clear_deadservers "
             "clear_slowlog_responses close_region compact compact_rs compaction_state "
             "compaction_switch decommission_regionservers flush get_balancer_decisions "
             "get_balancer_rejections get_largelog_responses get_slowlog_responses "
             "hbck_chore_run is_in_maintenance_mode list_deadservers "
             "list_decommissioned_regionservers major_compact merge_region move normalize "
             "normalizer_enabled normalizer_switch recommission_regionserver regioninfo rit "
             "snapshot_cleanup_enabled snapshot_cleanup_switch split splitormerge_enabled "
             "splitormerge_switch stop_master stop_regionserver trace unassign wal_roll zk_dump "
             "hlog_roll",
    "replication": "add_peer append_peer_exclude_namespaces append_peer_exclude_tableCFs "
                   "append_peer_namespaces append_peer_tableCFs disable_peer "
                   "disable_table_replication enable_peer enable_table_replication "
                   "get_peer_config list_peer_configs list_peers list_replicated_tables "
                   "remove_peer remove_peer_exclude_namespaces remove_peer_exclude_tableCFs "
                   "remove_peer_namespaces remove_peer_tableCFs set_peer_bandwidth "
                   "set_peer_exclude_namespaces set_peer_exclude_tableCFs set_peer_namespaces "
                   "set_peer_replicate_all set_peer_serial set_peer_tableCFs "
                   "show_peer_tableCFs update_peer_config",
    "snapshots": "clone_snapshot delete_all_snapshot delete_snapshot delete_table_snapshots "
                 "list_snapshots list_table_snapshots restore_snapshot snapshot",
    "configuration": "update_all_config update_config",
    "quotas": "disable_exceed_throttle_quota disable_rpc_throttle enable_exceed_throttle_quota "
              "enable_rpc_throttle list_quota_snapshots list_quota_table_sizes list_quotas "
              "list_snapshot_sizes set_quota",
    "security": "grant list_security_capabilities revoke user_permission",
    "procedures": "list_locks list_procedures",
    "visibility labels": "add_labels clear_auths get_auths list_labels set_auths set_visibility",
    "rsgroup": "add_rsgroup alter_rsgroup_config balance_rsgroup get_namespace_rsgroup "
               "get_rsgroup get_server_rsgroup get_table_rsgroup list_rsgroups "
               "move_namespaces_rsgroup move_servers_namespaces_rsgroup move_servers_rsgroup "
               "move_servers_tables_rsgroup move_tables_rsgroup remove_rsgroup "
               "remove_servers_rsgroup rename_rsgroup show_rsgroup_config",
}


def test_every_hbase_command_is_known_in_its_group():
    for group, names in HBASE_GROUPS.items():
        assert group in GROUPS
        for name in names.split():
            assert name in COMMANDS, name
            assert COMMANDS[name].group == group, (name, COMMANDS[name].group)
    hbase = {n for names in HBASE_GROUPS.values() for n in names.split()}
    extra = {n for n, c in COMMANDS.items() if c.group != "hsim"} - hbase
    assert extra == set()  # only hsim's own group adds commands
    assert {c.status for c in COMMANDS.values()} == {WORKS, SWITCH_ONLY, NOT_MODELLED}


def test_help_lists_every_group_and_command(sh):
    out = sh("help")
    for group in GROUPS:
        assert f"  Group name: {group}\n  Commands: " in out
    for name in COMMANDS:
        assert name in out


def test_docs_command_table_is_the_registrys():
    path = pathlib.Path(__file__).parents[2] / shell_help.DOCS
    text = path.read_text(encoding="utf-8")
    assert shell_help.BEGIN in text and shell_help.END in text
    assert shell_help.docs_with_table(text) == text, \
        "docs/shell.md's command table is stale: run `python -m hsim.shell.help`"


def _state(s: Session):
    """Everything a command could change, as plain values."""
    sh = s.shell
    admin = sh.admin
    tables = {}
    for name in admin.list_tables():
        desc = admin.describe(name)
        regions = [(r.start_key, r.store_file_count, r.server) for r in admin.regions(name)]
        cells = [c for row in sh.cluster.table(name).scan(raw=True, max_versions=100)
                 for c in row]
        tables[name] = (repr(desc), admin.is_table_enabled(name), regions,
                        [(c.row, c.family, c.qualifier, c.timestamp, c.value) for c in cells])
    return (tables, admin.list_namespaces(), list(sh.cluster.master.dead_servers),
            dict(sh.switches), [s.name for s in sh.cluster.master.servers])


@pytest.fixture(scope="module")
def loaded():
    s = Session(servers=2)
    s("create 't', 'f', SPLITS => ['m']\nput 't', 'a', 'f:q', 'v'\nput 't', 'x', 'f:q', 'w'\n"
      "create_namespace 'ns1'")
    assert s.shell.failures == 0
    return s


def _arity(name):
    params = list(inspect.signature(COMMANDS[name].func).parameters.values())[1:]
    positional = [p for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
    return positional, variadic


def _bad_inputs(name):
    """Too many arguments (unless it takes any number), and a Hash where each positional
    argument goes (with the others valid-looking strings)."""
    positional, variadic = _arity(name)
    out = []
    if not variadic:
        out.append(", ".join(["'t'"] * (len(positional) + 1)))
    required = [p for p in positional if p.default is p.empty]
    for i in range(len(required)):
        args = ["'t'"] * len(required)
        args[i] = "{1 => 2}"
        out.append(", ".join(args))
    return out


CASES = [(name, args) for name in sorted(COMMANDS) for args in _bad_inputs(name)]


# What HBase takes as it is: `get` reads its row with row.to_s (a Hash is the row "{1=>2}")
ACCEPTED = {("get", "'t', {1 => 2}")}


@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}({a})" for n, a in CASES])
def test_bad_input_is_an_error_line_and_changes_nothing(loaded, name, args):
    before = _state(loaded)
    failures = loaded.shell.failures
    out = loaded(f"{name}({args})")  # `f {` would start a block
    assert "Traceback" not in out
    if (name, args) in ACCEPTED:
        assert "ERROR" not in out and _state(loaded) == before
        return
    assert "\nERROR: " in out and f"For usage try 'help \"{name}\"'\n" in out, out
    assert loaded.shell.failures == failures + 1
    assert _state(loaded) == before
