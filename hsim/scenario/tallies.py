"""Per-region tallies of a table: what it stores, and how many reads each region served, in
key order (Admin.regions, HBase's RegionLoad figures). Scenarios compare designs by them:
the space a layout takes, and how many regions a query had to visit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.scenario.context import Run


def table_bytes(ctx: Run, *tables: str) -> int:
    """Bytes of the tables' store files, summed over their regions (memstores not counted:
    settle the tables first to measure all they hold)."""
    return sum(r.size for name in tables for r in ctx.admin.regions(name))


def region_reads(ctx: Run, table: str) -> list[int]:
    """Read requests each region of the table has served so far, in key order: take it before
    and after a query to see which regions the query visited."""
    return [r.read_requests for r in ctx.admin.regions(table)]
