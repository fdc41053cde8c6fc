"""Every attribute HBase 2.x's ColumnFamilyDescriptorBuilder and TableDescriptorBuilder define is
modelled (the descriptor carries it and hsim acts on it), kept where its effect cannot show in
hsim, or refused with one line naming it, and nothing is created: through the shell and the API.

The names are the builders' constants, cited by their source line in apache/hbase
hbase-client/src/main/java/org/apache/hadoop/hbase/client/ColumnFamilyDescriptorBuilder.java
and TableDescriptorBuilder.java (branch-2), `public static final String NAME = "NAME";` unless
noted. A value here is one hsim does not behave as (so a refused attribute is refused), or, for
a modelled one, a non-default value whose effect the check sees.
"""

import io

import pytest

import hsim
from hsim.errors import InvalidArgumentError
from hsim.shell import Shell

# ColumnFamilyDescriptorBuilder: name -> (shell value, ColumnFamily field and value | REFUSED)
REFUSED = "refused"
FAMILY = {
    "IN_MEMORY_COMPACTION": ("'BASIC'", REFUSED),  # IN_MEMORY_COMPACTION = "IN_MEMORY_COMPACTION"
    "IN_MEMORY": ("true", ("in_memory", True)),  # IN_MEMORY = HConstants.IN_MEMORY
    "COMPRESSION": ("'GZ'", ("compression", "GZ")),
    "COMPRESSION_COMPACT": ("'GZ'", REFUSED),
    "COMPRESSION_COMPACT_MAJOR": ("'GZ'", REFUSED),
    "COMPRESSION_COMPACT_MINOR": ("'GZ'", REFUSED),
    "BLOCKCACHE": ("false", ("block_cache", False)),
    "CACHE_DATA_ON_WRITE": ("true", ("cache_data_on_write", True)),
    "CACHE_INDEX_ON_WRITE": ("true", ("cache_index_on_write", True)),
    "CACHE_BLOOMS_ON_WRITE": ("true", ("cache_blooms_on_write", True)),
    "EVICT_BLOCKS_ON_CLOSE": ("true", ("evict_blocks_on_close", True)),
    "PREFETCH_BLOCKS_ON_OPEN": ("true", ("prefetch_blocks_on_open", True)),
    "BLOCKSIZE": ("4096", ("block_size", 4096)),
    "DATA_BLOCK_ENCODING": ("'FAST_DIFF'", ("data_block_encoding", "FAST_DIFF")),
    "TTL": ("86400", ("ttl", 86400)),
    "BLOOMFILTER": ("'ROWCOL'", ("bloom_filter", "ROWCOL")),
    "REPLICATION_SCOPE": ("1", REFUSED),
    "VERSIONS": ("3", ("max_versions", 3)),  # MAX_VERSIONS = HConstants.VERSIONS
    "MIN_VERSIONS": ("1", ("min_versions", 1)),
    "KEEP_DELETED_CELLS": ("true", ("keep_deleted_cells", hsim.KeepDeletedCells.TRUE)),
    "COMPRESS_TAGS": ("false", REFUSED),
    "ENCRYPTION": ("'AES'", REFUSED),
    "ENCRYPTION_KEY": ("'k'", REFUSED),
    "IS_MOB": ("true", REFUSED),
    "MOB_THRESHOLD": ("102400", REFUSED),
    "MOB_COMPACT_PARTITION_POLICY": ("'WEEKLY'", REFUSED),
    "DFS_REPLICATION": ("3", REFUSED),
    "STORAGE_POLICY": ("'ALL_SSD'", REFUSED),
    "NEW_VERSION_BEHAVIOR": ("true", REFUSED),
    # branch-2.5 and later: INDEX_BLOCK_ENCODING = "INDEX_BLOCK_ENCODING"
    "INDEX_BLOCK_ENCODING": ("'PREFIX_TREE'", REFUSED),
    # the shell's hashes (HConstants.METADATA, HConstants.CONFIGURATION)
    "METADATA": ("{'k' => 'v'}", REFUSED),
    "CONFIGURATION": ("{'hbase.made.up' => '1'}", REFUSED),  # a key hsim does not read
}

# TableDescriptorBuilder: name -> (shell value, how hsim takes it). MODELLED: a descriptor
# field hsim acts on; READ: kept in the values map, as HBase keeps it, and read from there
# (the merge procedure, the normalizer; their effect is tested in tests/regions); KEPT: kept
# and shown, its effect not one hsim can show.
MODELLED, READ, KEPT = "modelled", "read", "kept"
TABLE = {
    "SPLIT_POLICY": ("'org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy'",
                     MODELLED),
    "MAX_FILESIZE": ("1048576", MODELLED),
    "OWNER": ("'me'", KEPT),  # no ACLs: an owner changes nothing
    "READONLY": ("true", REFUSED),
    "COMPACTION_ENABLED": ("false", REFUSED),
    "SPLIT_ENABLED": ("false", MODELLED),
    "MERGE_ENABLED": ("false", READ),  # a merge of the table fails (test_split_merge_switches)
    "MEMSTORE_FLUSHSIZE": ("1048576", MODELLED),
    "FLUSH_POLICY": ("'org.apache.hadoop.hbase.regionserver.FlushAllStoresPolicy'", MODELLED),
    "IS_META": ("true", REFUSED),
    "DURABILITY": ("'ASYNC_WAL'", MODELLED),
    "REGION_REPLICATION": ("2", REFUSED),
    "REGION_MEMSTORE_REPLICATION": ("false", KEPT),  # only read with REGION_REPLICATION > 1
    "NORMALIZATION_ENABLED": ("true", READ),  # the normalizer (test_balancer_normalizer)
    "NORMALIZER_TARGET_REGION_COUNT": ("4", READ),
    "NORMALIZER_TARGET_REGION_SIZE": ("100", READ),  # deprecated for ..._MB (HBASE-25651)
    "NORMALIZER_TARGET_REGION_SIZE_MB": ("100", READ),
    "PRIORITY": ("10", KEPT),  # RPC handler queues: hsim serves requests one at a time
    "CONFIGURATION": ("{'hbase.made.up' => '1'}", REFUSED),
}


def _shell():
    out = io.StringIO()
    return Shell(out=out, timer=lambda: 0.0, width=0), out


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_family_attribute_through_the_shell(name):
    value, how = FAMILY[name]
    sh, out = _shell()
    sh.run_script(f"create 't', {{NAME => 'f', {name} => {value}}}")
    if how == REFUSED:
        assert "ERROR: java.lang.IllegalArgumentException: family " in out.getvalue()
        assert name in out.getvalue().split("ERROR:")[1].splitlines()[0]
        assert not sh.cluster.admin.table_exists("t")
    else:
        field, expected = how
        assert getattr(sh.cluster.admin.describe("t").families[b"f"], field) == expected


def _api_value(text: str):
    """The shell value above as a Python value: 'x' -> "x", true -> True, 3 -> 3, a hash."""
    if text.startswith("{"):
        k, v = text.strip("{}").split(" => ")
        return {k.strip("'"): v.strip("'")}
    if text in ("true", "false"):
        return text == "true"
    return text.strip("'") if text.startswith("'") else int(text)


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_family_attribute_through_the_api(name):
    value, how = FAMILY[name]
    c = hsim.Cluster()
    options = {name: _api_value(value)}
    if how == REFUSED:
        with pytest.raises(InvalidArgumentError, match=name if name != "CONFIGURATION"
                           else "hbase.made.up"):
            c.admin.create_table("t", {"f": options})
        assert not c.admin.table_exists("t")
    else:
        c.admin.create_table("t", {"f": options})
        field, expected = how
        assert getattr(c.admin.describe("t").families[b"f"], field) == expected


@pytest.mark.parametrize("name", sorted(TABLE))
def test_table_attribute_through_the_shell(name):
    value, how = TABLE[name]
    sh, out = _shell()
    sh.run_script(f"create 't', 'f', {name} => {value}")
    text = out.getvalue()
    if how == REFUSED:
        line = text.split("ERROR:")[1].splitlines()[0]
        assert "table" in line and (name in line or "hbase.made.up" in line), line
        assert not sh.cluster.admin.table_exists("t")
        return
    assert "ERROR" not in text and "ignored" not in text and "kept and shown" not in text
    desc = sh.cluster.admin.describe("t")
    if how in (KEPT, READ):
        assert name in desc.values
    else:
        assert name not in desc.values or name == "FLUSH_POLICY"
        sh.run_script("describe 't'")
        assert name in out.getvalue().split("describe 't'")[1]  # describe shows it


@pytest.mark.parametrize("name", sorted(n for n, (_, how) in TABLE.items() if how != MODELLED
                                        and n != "CONFIGURATION"))
def test_table_attribute_through_the_api(name):
    value, how = TABLE[name]
    text = str(_api_value(value)).lower() if how == REFUSED else str(_api_value(value))
    c = hsim.Cluster()
    if how == REFUSED:
        with pytest.raises(InvalidArgumentError, match=name):
            c.admin.create_table("t", ["f"], values={name: text})
        assert not c.admin.table_exists("t")
        c.admin.create_table("t", ["f"])
        with pytest.raises(InvalidArgumentError, match=name):
            c.admin.alter_table("t", values={name: text})
        assert c.admin.describe("t").values == {}
    else:
        c.admin.create_table("t", ["f"], values={name: text})
        assert c.admin.describe("t").values[name] == text


def test_an_attribute_at_hsims_own_value_is_accepted():
    sh, out = _shell()
    sh.run_script("create 't', {NAME => 'f', REPLICATION_SCOPE => 0, IN_MEMORY_COMPACTION => "
                  "'NONE', COMPRESS_TAGS => true, DFS_REPLICATION => 0, IS_MOB => false, "
                  "NEW_VERSION_BEHAVIOR => false}, READONLY => false, COMPACTION_ENABLED => "
                  "true, REGION_REPLICATION => 1")
    assert "ERROR" not in out.getvalue() and sh.cluster.admin.table_exists("t")


def test_a_refused_alter_changes_nothing():
    sh, out = _shell()
    sh.run_script("create 't', {NAME => 'f', VERSIONS => 2}")
    before = sh.cluster.admin.describe("t")
    sh.run_script("alter 't', {NAME => 'f', VERSIONS => 5, STORAGE_POLICY => 'ALL_SSD'}")
    sh.run_script("alter 't', READONLY => true")
    sh.run_script("alter 't', CONFIGURATION => {'hbase.made.up' => 1}")
    assert out.getvalue().count("ERROR") == 3
    after = sh.cluster.admin.describe("t")
    assert after.families == before.families and after.values == before.values
    assert after.configuration == before.configuration


def test_every_builder_constant_is_listed():
    """The lists above against the names hsim rules on, so a new ruling is listed here."""
    from hsim import descriptor_attributes as attrs

    assert set(attrs.FAMILY_ONLY) | set(attrs.FAMILY_REFUSED) <= set(FAMILY)
    assert set(attrs.TABLE_ONLY) | set(attrs.TABLE_REFUSED) <= set(TABLE)


def test_a_metadata_entry_named_like_a_setting_is_refused_as_configuration():
    """HBase's region configuration holds the table's values: such an entry is a setting."""
    sh, out = _shell()
    sh.run_script("create 't', 'f', METADATA => {'hbase.regionserver.made.up' => '1'}")
    assert "table CONFIGURATION key 'hbase.regionserver.made.up' is not modelled" in \
        out.getvalue()
    assert not sh.cluster.admin.table_exists("t")
    c = hsim.Cluster()
    with pytest.raises(InvalidArgumentError, match="hfile.block.cache.size"):
        c.admin.create_table("t", ["f"], values={"hfile.block.cache.size": "0.5"})
    c.admin.create_table("t", ["f"], values={"team": "search"})
    assert c.admin.describe("t").values == {"team": "search"}
