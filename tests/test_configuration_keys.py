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


def test_admin_takes_configuration_and_refuses_an_unread_key_changing_nothing():
    key = "KeyPrefixRegionSplitPolicy.prefix_length"
    cluster = hsim.Cluster()
    cluster.admin.create_table("t", ["f"], configuration={key: 3})
    assert cluster.admin.describe("t").configuration == {key: "3"}
    with pytest.raises(InvalidArgumentError, match="hbase.made.up.key"):
        cluster.admin.alter_table("t", configuration={"hbase.made.up.key": "1"})
    assert cluster.admin.describe("t").configuration == {key: "3"}
    cluster.admin.alter_table("t", configuration={})
    assert cluster.admin.describe("t").configuration == {}


def test_configuration_and_cache_settings_survive_a_restart(tmp_path):
    key = "DelimitedKeyPrefixRegionSplitPolicy.delimiter"
    family = ColumnFamily(cache_data_on_write=True, prefetch_blocks_on_open=True,
                          evict_blocks_on_close=True)
    with hsim.Cluster(data_dir=tmp_path) as cluster:
        cluster.admin.create_table("t", {"f": family}, configuration={key: "_"})
        cluster.close()
    with hsim.Cluster(data_dir=tmp_path) as cluster:
        desc = cluster.admin.describe("t")
        assert desc.configuration == {key: "_"}
        assert desc.families[b"f"] == family


def test_docs_list_every_key_hsim_reads():
    """docs/schema-attributes.md's key table is exactly KEYS (one row each, in name order)."""
    from pathlib import Path

    from hsim.configuration_keys import KEYS

    text = (Path(__file__).resolve().parents[1] / "docs" / "schema-attributes.md").read_text()
    table = text.split("<!-- configuration keys -->")[1].split("\n## ")[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert rows == [f"| `{k.name}` | {', '.join(k.scopes)} | {k.what} |"
                    for k in sorted(KEYS.values(), key=lambda k: k.name)]
