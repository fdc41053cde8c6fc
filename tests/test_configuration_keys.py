"""CONFIGURATION entries on tables and families: read when hsim models the key, refused (and
nothing created) when it does not."""

import pytest

import hsim
from hsim.configuration_keys import FAMILY, TABLE, lookup, validate
from hsim.errors import InvalidArgumentError
from hsim.schema import ColumnFamily, TableDescriptor


def test_unknown_family_key_is_refused_and_nothing_is_created():
    cluster = hsim.Cluster()
    with pytest.raises(InvalidArgumentError, match="hbase.made.up.key.*not modelled"):
        cluster.admin.create_table(
            "t", {"f": ColumnFamily(configuration={"hbase.made.up.key": "1"})})
    assert not cluster.admin.table_exists("t")


def test_table_key_is_read_with_its_parser_and_kept_as_text():
    desc = TableDescriptor("t", {b"f": ColumnFamily()},
                           configuration={"KeyPrefixRegionSplitPolicy.prefix_length": 4})
    assert desc.configuration == {"KeyPrefixRegionSplitPolicy.prefix_length": "4"}
    assert lookup("KeyPrefixRegionSplitPolicy.prefix_length", None, desc.configuration) == 4


def test_a_table_key_is_not_a_family_key_and_bad_values_are_refused():
    with pytest.raises(InvalidArgumentError, match="family CONFIGURATION key"):
        validate({"KeyPrefixRegionSplitPolicy.prefix_length": "4"}, FAMILY)
    with pytest.raises(InvalidArgumentError, match="For input string"):
        validate({"KeyPrefixRegionSplitPolicy.prefix_length": "four"}, TABLE)
    with pytest.raises(InvalidArgumentError, match="map of key to value"):
        validate(["x"], TABLE)


def test_family_level_comes_before_table_level():
    key = "KeyPrefixRegionSplitPolicy.prefix_length"
    assert lookup(key, {key: "2"}, {key: "9"}) == 2
    assert lookup(key, {}, None, default=7) == 7
