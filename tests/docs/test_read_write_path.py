"""A Get and a Put can be followed by reading: each call on the path names a method that the
class its caller annotates defines itself. No mixin supplies it (a reader who opens Region
finds Region.get there) and no subclass replaces it (hbase:meta's region refuses writes
through its server, not by overriding Region.mutate). farm-studio's walk from Table.get
follows the same rule to the block bytes (docs/engine.md, "Following a Get and a Put")."""

import pytest

from hsim.engine.hfile_reader import HFileReader
from hsim.engine.memstore import MemStore
from hsim.engine.store import Store
from hsim.engine.store_file import StoreFile
from hsim.engine.store_file_scanner import RowCursor
from hsim.regions.meta import CatalogRegion
from hsim.regions.region import Region
from hsim.regions.region_server import RegionServer
from hsim.regions.wal import WAL

# (class, the methods a Get or a Put calls on it)
PATH = [
    (RegionServer, ["get", "mutate", "check_resources", "open_scanner", "scan"]),
    (Region, ["get", "mutate", "cells_of", "store", "check_row_in_range", "memstore_changed"]),
    (WAL, ["append"]),
    (Store, ["get", "scan"]),
    (MemStore, ["add"]),
    (StoreFile, ["get_row", "in_row_range", "scan", "scan_reversed_rows"]),
    (RowCursor, ["seek", "seek_column", "advance", "fill"]),
    (HFileReader, ["locate", "row_part", "data_block", "scan", "passes_bloom",
                   "passes_prefix_bloom", "passes_delete_family_bloom", "may_hold_column",
                   "may_delete_family"]),
]


@pytest.mark.parametrize("cls,methods", PATH, ids=[c.__name__ for c, _ in PATH])
def test_each_method_on_the_path_is_defined_by_the_class_its_callers_name(cls, methods):
    inherited = [m for m in methods if m not in vars(cls)]
    assert not inherited, f"{cls.__name__} inherits {inherited}: define them on the class"


def test_no_subclass_of_region_replaces_a_method_of_the_path():
    replaced = set(vars(CatalogRegion)) & set(dict(PATH)[Region])
    assert not replaced, f"CatalogRegion overrides {sorted(replaced)}"
