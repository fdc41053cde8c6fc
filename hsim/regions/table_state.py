"""A table's entry in the master's table map (TableStateManager and the region map in one):
its descriptor, whether it is enabled, the locator of its regions in key order, the split keys
it was created with, and when its state last changed (hbase:meta's state column)."""

from __future__ import annotations

from dataclasses import dataclass

from hsim.regions.router import RegionLocator
from hsim.schema import TableDescriptor


@dataclass
class TableState:
    """One table in the master's table map; the master is its only writer (create, enable, disable,
    truncate, splits and merges through the locator)."""

    descriptor: TableDescriptor
    enabled: bool
    locator: RegionLocator
    split_keys: list
    state_time: int = 0  # when the table was last created, disabled or enabled (hbase:meta)
