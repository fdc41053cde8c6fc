"""HBase 2's shell commands for what hsim does not model: each is known by name (so `help`
lists it and a script gets a clear answer instead of a NameError) and answers with one ERROR
line naming what is not modelled; nothing changes."""

from __future__ import annotations

from hsim.shell.registry import NOT_MODELLED, ShellArgumentError, command

_REPLICATION = "replication (hsim runs one cluster)"
_SNAPSHOTS = "these snapshot commands (snapshot, clone, restore, list and delete work)"
_QUOTAS = "quotas"
_ACL = "access control (HBase's AccessController)"
_LABELS = "visibility labels (HBase's VisibilityController)"
_RSGROUPS = "region server groups"
_ASSIGN = "assigning and closing regions by hand (`move` moves one)"
_DECOMMISSION = "decommissioning region servers"
_RINGBUFFER = "the online slow log and the balancer's rejection log"

# name -> (group, what HBase's command does, what hsim does not model)
UNMODELLED = {
    "processlist": ("general", "Shows the tasks running on the servers",
                    "the task monitor (hsim runs each request to its end at once)"),
    "alter_namespace": ("namespace", "Sets or unsets a namespace's properties",
                        "namespace properties"),
    "assign": ("tools", "Assigns a region", _ASSIGN),
    "unassign": ("tools", "Unassigns a region", _ASSIGN),
    "close_region": ("tools", "Closes a region", _ASSIGN),
    "decommission_regionservers": ("tools", "Marks region servers as decommissioned",
                                   _DECOMMISSION),
    "recommission_regionserver": ("tools", "Takes a region server out of decommission",
                                  _DECOMMISSION),
    "list_decommissioned_regionservers": ("tools", "Lists the decommissioned region servers",
                                          _DECOMMISSION),
    "stop_master": ("tools", "Stops the active master",
                    "stopping the master (abort_server stops a region server)"),
    "stop_regionserver": ("tools", "Stops a region server gracefully",
                          "a graceful stop (abort_server kills a region server)"),
    "zk_dump": ("tools", "Dumps the cluster's ZooKeeper state", "ZooKeeper"),
    "trace": ("tools", "Starts or stops tracing", "tracing"),
    "hbck_chore_run": ("tools", "Runs the HBCK chore", "HBCK"),
    "clear_compaction_queues": ("tools", "Clears a region server's compaction queues",
                                "compaction queues (hsim compacts when asked, at once)"),
    "get_balancer_rejections": ("tools", "Shows the balancer's recent rejections", _RINGBUFFER),
    "get_slowlog_responses": ("tools", "Shows the slow RPCs", _RINGBUFFER),
    "get_largelog_responses": ("tools", "Shows the large RPCs", _RINGBUFFER),
    "clear_slowlog_responses": ("tools", "Clears the slow RPC log", _RINGBUFFER),
    "update_config": ("configuration", "Reloads a region server's configuration online",
                      "online configuration changes (the Config is fixed at start)"),
    "update_all_config": ("configuration", "Reloads every server's configuration online",
                          "online configuration changes (the Config is fixed at start)"),
    "grant": ("security", "Grants a user permissions", _ACL),
    "revoke": ("security", "Revokes a user's permissions", _ACL),
    "user_permission": ("security", "Shows users' permissions", _ACL),
}
for _name in ("delete_all_snapshot", "delete_table_snapshots", "list_table_snapshots"):
    UNMODELLED[_name] = ("snapshots", "Snapshot commands: take, clone, restore, delete, list",
                         _SNAPSHOTS)
for _name in ("add_peer", "remove_peer", "list_peers", "enable_peer", "disable_peer",
              "set_peer_replicate_all", "set_peer_serial", "set_peer_namespaces",
              "append_peer_namespaces", "remove_peer_namespaces", "set_peer_exclude_namespaces",
              "append_peer_exclude_namespaces", "remove_peer_exclude_namespaces",
              "show_peer_tableCFs", "set_peer_tableCFs", "set_peer_exclude_tableCFs",
              "append_peer_exclude_tableCFs", "remove_peer_exclude_tableCFs",
              "set_peer_bandwidth", "list_replicated_tables", "append_peer_tableCFs",
              "remove_peer_tableCFs", "enable_table_replication", "disable_table_replication",
              "get_peer_config", "list_peer_configs", "update_peer_config"):
    UNMODELLED[_name] = ("replication", "Replication peers and replicated tables",
                         _REPLICATION)
for _name in ("set_quota", "list_quotas", "list_quota_table_sizes", "list_quota_snapshots",
              "list_snapshot_sizes", "enable_rpc_throttle", "disable_rpc_throttle",
              "enable_exceed_throttle_quota", "disable_exceed_throttle_quota"):
    UNMODELLED[_name] = ("quotas", "Throttle and space quotas", _QUOTAS)
for _name in ("add_labels", "list_labels", "set_auths", "get_auths", "clear_auths",
              "set_visibility"):
    UNMODELLED[_name] = ("visibility labels", "Visibility labels and authorizations", _LABELS)
for _name in ("list_rsgroups", "get_rsgroup", "add_rsgroup", "remove_rsgroup",
              "balance_rsgroup", "move_servers_rsgroup", "move_tables_rsgroup",
              "move_namespaces_rsgroup", "move_servers_tables_rsgroup",
              "move_servers_namespaces_rsgroup", "get_server_rsgroup", "get_table_rsgroup",
              "remove_servers_rsgroup", "rename_rsgroup", "alter_rsgroup_config",
              "show_rsgroup_config", "get_namespace_rsgroup"):
    UNMODELLED[_name] = ("rsgroup", "Region server groups", _RSGROUPS)


def _refuse(name: str, what: str):
    def run(sh, *args):
        raise ShellArgumentError(f"{name}: hsim does not model {what}")
    return run


for _name, (_group, _does, _what) in UNMODELLED.items():
    command(_name, _group, f"{_does}.\n\nNot modelled by hsim: {_what}.",
            status=NOT_MODELLED)(_refuse(_name, _what))
