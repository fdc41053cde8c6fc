"""The region life cycle's shell commands: merge_region, move, normalize, normalizer_switch,
normalizer_enabled and get_balancer_decisions (hbase-shell shell/commands/*.rb over
hbase/admin.rb). The balancer and normalizer switches are the master's
(hsim.regions.master_lifecycle): `balance_switch` and `normalizer_switch` turn their chores
off too."""

from __future__ import annotations

import json

from hsim.errors import TableNotFoundError
from hsim.shell.values import flatten
from hsim.shell.args import name_text
from hsim.shell.registry import ShellArgumentError, command


@command("merge_region", "tools", """
Merges two (or more) adjacent regions, named by full or encoded region name; `true` last
forces a merge of regions that are not adjacent (which hsim refuses: it would overlap the
regions between them). The merged region reads its parents' files through reference files
until a compaction rewrites them.

  hbase> merge_region 'FULL_REGIONNAME', 'FULL_REGIONNAME'
  hbase> merge_region 'ENCODED_REGIONNAME', 'ENCODED_REGIONNAME', true
  hbase> merge_region ['ENCODED_REGIONNAME', 'ENCODED_REGIONNAME', 'ENCODED_REGIONNAME']
""")
def merge_region(sh, *args):
    names = flatten(args)
    force = False
    if len(names) > 2 and isinstance(names[-1], bool):
        force = names.pop()
    if len(names) < 2:
        raise ShellArgumentError("Must pass at least 2 regions to merge")
    master = sh.cluster.master
    with sh.cluster.lock:
        regions = [master.region_by_name(name_text(n)) for n in names]
        master.merge_regions(regions, force)


@command("move", "tools", """
Moves a region (by encoded region name) to a region server, or, with no server named, to one
chosen at random. The region flushes and closes, then opens on the new server, whose block
cache holds none of its blocks yet.

  hbase> move 'ENCODED_REGIONNAME'
  hbase> move 'ENCODED_REGIONNAME', 'SERVER_NAME'
""")
def move(sh, encoded_region_name, server_name=None):
    server = None if server_name is None else name_text(server_name)
    sh.admin.move(name_text(encoded_region_name), server)


@command("normalize", "tools", """
Runs the region normalizer over every table with NORMALIZATION_ENABLED (or the one named):
regions larger than twice the table's average split, runs of small adjacent regions merge.
Prints true when it ran, false when it is switched off (normalizer_switch).

  hbase> normalize
  hbase> normalize 'TABLE_NAME' => 't1'
""")
def normalize(sh, *args):
    table = None
    for a in args:
        if not isinstance(a, dict):
            raise ShellArgumentError("normalize takes no argument but TABLE_NAME => 'table'")
        for k, v in a.items():
            if name_text(k).upper() != "TABLE_NAME":
                raise ShellArgumentError(f"Unknown normalize argument {name_text(k)}")
            table = name_text(v)
    try:
        ran = sh.admin.normalize(table)
    except TableNotFoundError:
        raise ShellArgumentError(f"Unknown table {table}!") from None
    sh.fmt.row([str(ran).lower()])
    return ran


@command("normalizer_switch", "tools", """
Turns the region normalizer (its chore, every hbase.normalizer.period, and `normalize`) on or
off; prints the previous state.

  hbase> normalizer_switch true
  hbase> normalizer_switch false
""")
def normalizer_switch(sh, enable_disable):
    from hsim.shell.commands_admin import _switch

    prev = _switch(sh, "normalizer", enable_disable)
    sh.fmt.row([f"Previous normalizer state : {str(prev).lower()}"])
    return prev


@command("normalizer_enabled", "tools", """
Is the region normalizer on?

  hbase> normalizer_enabled
""")
def normalizer_enabled(sh):
    from hsim.shell.commands_admin import _switch

    state = _switch(sh, "normalizer")
    sh.fmt.row([str(state).lower()])
    return state


@command("get_balancer_decisions", "tools", """
Shows the balancer's latest runs that moved regions, newest first: each run's cost functions
before and after, its total cost, steps and region plans (hsim keeps the last 250).

  hbase> get_balancer_decisions
  hbase> get_balancer_decisions LIMIT => 10
""")
def get_balancer_decisions(sh, args=None):
    limit = 250
    if args is not None:
        if not isinstance(args, dict) or any(name_text(k) != "LIMIT" for k in args):
            raise ShellArgumentError("get_balancer_decisions takes LIMIT => n")
        limit = args.get("LIMIT", limit)
    out = []
    for d in sh.admin.get_balancer_decisions(limit):
        out.append(json.dumps({  # BalancerDecision#toJsonPrettyPrint
            "initialFunctionCosts": d.initial_function_costs,
            "finalFunctionCosts": d.final_function_costs,
            "initTotalCost": d.init_total_cost, "computedTotalCost": d.computed_total_cost,
            "computedSteps": d.computed_steps,
            "regionPlans": [f"hri={r}, source={a}, destination={b}"
                            for r, a, b in d.region_plans]}, indent=2))
    sh.fmt.line("Retrieved BalancerDecision Responses")
    for text in out:
        sh.fmt.line(text)
    return out


