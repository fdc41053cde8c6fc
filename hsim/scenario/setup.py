"""Setting up a variant's tables: the steps nearly every scenario takes before it measures.

A scenario names its tables, families and options (its own idea); these helpers are the
plumbing around them: create and open a table in one step, and bring tables to the state a
quiet cluster reaches (memstores flushed, one store file per store) before the reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.table import Table
    from hsim.scenario.context import Run

# Config for scenarios that flush only when they ask (Admin.flush): a flush size and a global
# memstore limit no run reaches, so store files come from the scenario, never from sizes.
MANUAL_FLUSHES = {"memstore_flush_size": 1 << 30, "global_memstore_size": 1 << 31}


def create_table(ctx: Run, name: str, families, **options) -> Table:
    """Admin.createTable on the variant's cluster, then the table's handle."""
    ctx.admin.create_table(name, families, **options)
    return ctx.table(name)


def settle(ctx: Run, *tables: str) -> None:
    """Flush and major-compact each table: every store down to one file, as a loaded table
    stands before a benchmark's read phase."""
    for name in tables:
        ctx.admin.flush(name)
        ctx.admin.major_compact(name)
