"""KeepDeletedCells as org.apache.hadoop.hbase.KeepDeletedCells, and the old spellings that
ColumnFamily, the shell and happybase still accept."""

import pytest

import hsim
from hsim import ColumnFamily, KeepDeletedCells
from hsim.shell.commands_ddl import family_description


@pytest.mark.parametrize("spelling, member", [
    (False, KeepDeletedCells.FALSE), (True, KeepDeletedCells.TRUE), ("TTL", KeepDeletedCells.TTL),
    ("ttl", KeepDeletedCells.TTL), ("true", KeepDeletedCells.TRUE),
    (KeepDeletedCells.TTL, KeepDeletedCells.TTL),
])
def test_old_spellings_become_the_enum(spelling, member):
    assert ColumnFamily(keep_deleted_cells=spelling).keep_deleted_cells is member


def test_default_is_false_and_unknown_is_refused():
    assert ColumnFamily().keep_deleted_cells is KeepDeletedCells.FALSE
    with pytest.raises(hsim.InvalidArgumentError, match="KEEP_DELETED_CELLS"):
        ColumnFamily(keep_deleted_cells="maybe")


def test_describe_prints_hbase_names():
    text = family_description(b"f", ColumnFamily(keep_deleted_cells=True))
    assert "KEEP_DELETED_CELLS => 'TRUE'" in text
