"""An HBase shell on hsim: HBase 2.x's shell syntax and output, on an in-process cluster with a
manual clock, plus views inside the engine (`regions`, `store`, `hfile`, `explain`).

    hsim shell                      # interactive, with line editing and history
    hsim shell labs/salting.hb      # run a script, printing what the session would print

    from hsim.shell import Shell
    sh = Shell(out=io.StringIO())
    sh.run_script("create 't', 'f'\\nput 't', 'r1', 'f:q', 'v'\\nscan 't'")
"""

from hsim.shell import (  # noqa: F401
    commands_admin,
    commands_all,
    commands_bulk,
    commands_ddl,
    commands_dml,
    commands_lifecycle,
    commands_namespace,
    commands_regions,
    commands_snapshot,
    commands_tools,
    commands_ui,
    commands_unmodelled,
    commands_views,
    commands_wal,
)
from hsim.shell.shell import DEFAULT_CLOCK_START, Shell, TableRef

__all__ = ["Shell", "TableRef", "DEFAULT_CLOCK_START"]
