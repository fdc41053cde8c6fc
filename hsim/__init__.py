"""hsim: an in-process simulator of Apache HBase's storage engine and region layer.

    import hsim
    cluster = hsim.Cluster(region_servers=3)   # clock: hsim.TickingClock() by default
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=3)}, split_keys=[b"m"])
    table = cluster.table("t")
    table.put(b"r1", {b"f:q": b"v"})
    table.get(b"r1")
"""

from hsim.cell import LATEST_TIMESTAMP, Cell, CellType
from hsim.clock import ManualClock, SystemClock, TickingClock
from hsim.config import Config
from hsim.durability import Durability
from hsim.errors import (DoNotRetryError, FilterParseError, HsimError, IncompatibleFilterError,
                         InvalidArgumentError, NoSuchColumnFamilyError, NotServingRegionError,
                         RegionTooBusyError,
                         TableDisabledError, TableExistsError, TableNotDisabledError,
                         TableNotEnabledError, TableNotFoundError, UnknownRegionError,
                         WrongRegionError, WrongRowError)
from hsim.errors import (ConstraintError, NamespaceExistError, NamespaceNotFoundError,
                         RetriesExhaustedWithDetailsError)
from hsim.keep_deleted_cells import KeepDeletedCells
from hsim.schema import ColumnFamily, TableDescriptor
from hsim.version import __version__  # noqa: F401 -- public, by convention not in __all__


def __getattr__(name):
    # The cluster pulls in the whole engine; import it on first use so `import hsim` stays light.
    if name == "Cluster":
        from hsim.client.cluster import Cluster

        return Cluster
    raise AttributeError(f"module 'hsim' has no attribute {name!r}")


__all__ = [
    "Cell", "CellType", "LATEST_TIMESTAMP", "ManualClock", "SystemClock", "TickingClock", "Config",
    "Durability",
    "ColumnFamily", "KeepDeletedCells", "TableDescriptor", "Cluster", "HsimError",
    "InvalidArgumentError", "DoNotRetryError", "NoSuchColumnFamilyError", "NotServingRegionError",
    "TableNotFoundError", "TableExistsError",
    "TableNotDisabledError", "TableNotEnabledError", "TableDisabledError", "WrongRegionError",
    "WrongRowError",
    "RegionTooBusyError", "UnknownRegionError", "IncompatibleFilterError", "FilterParseError",
    "ConstraintError", "NamespaceExistError", "NamespaceNotFoundError",
    "RetriesExhaustedWithDetailsError",
]
