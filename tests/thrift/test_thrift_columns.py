"""Column specs (CellUtil.parseColumn, Get/Scan addFamily/addColumn) and ColumnDescriptor
mapping (ThriftUtilities.colDescFromThrift / colDescFromHbase)."""

import pytest

from hsim.errors import DoNotRetryError, InvalidArgumentError, NoSuchColumnFamilyError
from hsim.schema import ColumnFamily
from hsim.gateway.columns import parse_column, select
from hsim.thrift.descriptors import family_from_thrift, family_to_thrift
from hsim.thrift.idl import ttypes
from hsim.gateway.ordering import java_order
from hsim.thrift.results import row_result


def test_parse_column():
    assert parse_column(b"cf") == (b"cf", None)
    assert parse_column(b"cf:") == (b"cf", b"")
    assert parse_column(b"cf:a:b") == (b"cf", b"a:b")


def test_select_follows_get_add_family_and_add_column():
    assert select(None) is None and select([]) is None
    assert select([b"cf:a", b"g", b"cf:b"]) == [b"cf:a", b"cf:b", b"g"]
    assert select([b"cf", b"cf:a"]) == [b"cf:a"]
    assert select([b"cf:a", b"cf"]) == [b"cf"]
    assert select([b"cf:"]) == [b"cf:"]
    with pytest.raises(NoSuchColumnFamilyError):
        select([b":q"])


def test_family_from_thrift_takes_every_field_with_idl_defaults():
    fam, cf = family_from_thrift(ttypes.ColumnDescriptor(name=b"cf:x"))
    assert fam == b"cf"
    assert cf == ColumnFamily(max_versions=3, bloom_filter="NONE", block_cache=False)
    fam, cf = family_from_thrift(ttypes.ColumnDescriptor(
        name=b"f", maxVersions=1, compression="Lz4", inMemory=True, bloomFilterType="ROW",
        blockCacheEnabled=True, timeToLive=60))
    assert cf == ColumnFamily(max_versions=1, compression="LZ4", in_memory=True,
                              bloom_filter="ROW", block_cache=True, ttl=60)
    assert family_from_thrift(ttypes.ColumnDescriptor(name=b"f", timeToLive=-5))[1].ttl is None
    assert family_from_thrift(ttypes.ColumnDescriptor(name=b"f", compression="zstd"))[1] \
        .compression == "ZSTD"


@pytest.mark.parametrize("field, value, error, text", [
    ("compression", "zip", InvalidArgumentError, "Unsupported compression algorithm name: zip"),
    ("compression", "bzip2", DoNotRetryError, "previously failed test"),
    ("bloomFilterType", "Row", InvalidArgumentError, "No enum constant"),
    # Thrift-1's ColumnDescriptor carries no CONFIGURATION: no prefix length, as in HBase
    ("bloomFilterType", "ROWPREFIX_FIXED_LENGTH", DoNotRetryError,
     "Failed to get bloom filter param"),
    ("bloomFilterType", "ROWPREFIX_DELIMITED", InvalidArgumentError, "ROWPREFIX"),
    ("maxVersions", 0, InvalidArgumentError, "Maximum versions must be positive"),
])
def test_family_from_thrift_errors(field, value, error, text):
    with pytest.raises(error, match=text):
        family_from_thrift(ttypes.ColumnDescriptor(name=b"f", **{field: value}))
    with pytest.raises(ttypes.IllegalArgument):
        family_from_thrift(ttypes.ColumnDescriptor(name=b""))


def test_family_to_thrift():
    cd = family_to_thrift(b"f", ColumnFamily(compression="GZ", ttl=None))
    assert (cd.name, cd.maxVersions, cd.compression, cd.bloomFilterType, cd.timeToLive,
            cd.blockCacheEnabled) == (b"f:", 1, "GZ", "ROW", 2**31 - 1, True)


def test_row_result_orders_and_keeps_the_oldest_version_in_the_map():
    from hsim.cell import Cell

    cells = [Cell.make(b"r", b"f", b"a", 2, 4, b"new"), Cell.make(b"r", b"f", b"a", 1, 4, b"old"),
             Cell.make(b"r", b"f", b"\x80", 1, 4, b"hi")]
    res = row_result(b"r", cells)
    assert list(res.columns) == [b"f:\x80", b"f:a"]
    assert res.columns[b"f:a"].value == b"old"  # TreeMap.put: the last cell of the column
    assert [c.cell.value for c in row_result(b"r", cells, True).sortedColumns] == [
        b"new", b"old", b"hi"]
    assert sorted([b"a", b"\xff", b"B"], key=java_order) == [b"\xff", b"B", b"a"]
