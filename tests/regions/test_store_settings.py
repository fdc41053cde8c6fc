"""Per table and per family settings through HBase's CONFIGURATION keys: the family's entries
over the table's over the cluster's Config (HStore's CompoundConfiguration), choosing the store
engine, its compaction policy and its blocking file count."""

import pytest

import hsim
from hsim.config import Config
from hsim.engine.compaction_policy import ExploringCompactionPolicy, RatioBasedCompactionPolicy
from hsim.engine.date_tiered_compaction_policy import DateTieredCompactionPolicy
from hsim.engine.fifo_compaction_policy import FIFOCompactionPolicy
from hsim.errors import DoNotRetryError, InvalidArgumentError
from hsim.schema import ColumnFamily, TableDescriptor

RS = "org.apache.hadoop.hbase.regionserver."
DT = "hbase.hstore.compaction.date.tiered."
# hour-wide windows that never grow into tiers (as tests/regions/test_compaction_engines.py)
DATE_TIERED = {"hbase.hstore.engine.class": RS + "DateTieredStoreEngine",
               DT + "base.window.millis": "3600000", DT + "max.tier.age.millis": "1"}
FIFO = {"hbase.hstore.defaultengine.compactionpolicy.class":
        RS + "compactions.FIFOCompactionPolicy", "hbase.hstore.blockingStoreFiles": "1000"}


def _stores(c, table="t"):
    return c.master.table_state(table).locator.regions[0].stores


def test_the_family_key_selects_the_store_engine():
    c = hsim.Cluster(clock=hsim.ManualClock(10 * 3600_000))
    c.admin.create_table("t", {"dt": ColumnFamily(configuration=DATE_TIERED), "plain": {}})
    stores = _stores(c)
    assert type(stores[b"dt"].policy) is DateTieredCompactionPolicy
    assert type(stores[b"plain"].policy) is ExploringCompactionPolicy
    t = c.table("t")
    for hour in range(2):  # the date-tiered store compacts by windows, on the same reads
        for i in range(10):
            t.put(b"h%d-r%02d" % (hour, i), {b"dt:q": b"v", b"plain:q": b"v"},
                  timestamp=hour * 3600_000 + i)
        c.admin.flush("t")
    c.admin.major_compact("t")
    assert len(stores[b"dt"].files) == 2  # one per window, where the other store has one
    assert len(stores[b"plain"].files) == 1
    assert [(c.value, c.timestamp) for c in t.get(b"h1-r01", [b"dt:q"])] == [(b"v", 3600_001)]


def test_the_family_level_comes_before_the_table_level_and_the_table_before_the_cluster():
    c = hsim.Cluster(config=Config(compaction_policy="ratio"))
    table_conf = {"hbase.hstore.engine.class": "DateTieredStoreEngine",
                  "hbase.hstore.blockingStoreFiles": "20"}
    desc = TableDescriptor("t", {b"a": ColumnFamily(), b"b": ColumnFamily(configuration={
        "hbase.hstore.engine.class": RS + "DefaultStoreEngine",
        "hbase.hstore.blockingStoreFiles": "30"})}, configuration=table_conf)
    c.master.create_table(desc)  # (Admin.create_table gains configuration= with i38-cache)
    stores = _stores(c)
    assert type(stores[b"a"].policy) is DateTieredCompactionPolicy  # the table's
    assert stores[b"a"].config.blocking_store_files == 20
    # the family's DefaultStoreEngine runs the cluster's default-engine policy
    assert type(stores[b"b"].policy) is RatioBasedCompactionPolicy
    assert stores[b"b"].config.blocking_store_files == 30
    c2 = hsim.Cluster()
    c2.admin.create_table("u", ["f"])
    assert _stores(c2, "u")[b"f"].config is c2.config  # no entries: the cluster's own Config


def test_a_fifo_family_is_checked_as_hbase_checks_it():
    c = hsim.Cluster()
    with pytest.raises(DoNotRetryError, match="Default TTL is not supported"):
        c.admin.create_table("t", {"f": ColumnFamily(configuration=FIFO)})
    assert not c.admin.table_exists("t")
    low = {**FIFO, "hbase.hstore.blockingStoreFiles": "10"}
    with pytest.raises(DoNotRetryError, match="Blocking file count .* 10 is below"):
        c.admin.create_table("t", {"f": ColumnFamily(ttl=60, configuration=low)})
    assert not c.admin.table_exists("t")
    c.admin.create_table("t", {"f": ColumnFamily(ttl=60, configuration=FIFO)})
    assert type(_stores(c)[b"f"].policy) is FIFOCompactionPolicy


def test_unmodelled_classes_and_values_out_of_range_are_refused():
    c = hsim.Cluster()
    for conf, message in (
            ({"hbase.hstore.engine.class": RS + "StripeStoreEngine"}, "not a store engine"),
            ({"hbase.hstore.defaultengine.compactionpolicy.class": RS + "DateTieredStoreEngine"},
             "not a compaction policy"),
            ({"hbase.hstore.blockingStoreFiles": "0"}, "blocking_store_files must be in"),
            ({"hbase.hstore.compaction.ratio": "x"}, "For input string"),
            ({"hbase.regionserver.flush.policy": "FlushAllStoresPolicy"},
             "family CONFIGURATION key")):
        with pytest.raises(InvalidArgumentError, match=message):
            c.admin.create_table("t", {"f": ColumnFamily(configuration=conf)})
        assert not c.admin.table_exists("t")


def test_the_three_registries_name_the_classes_the_keys_take():
    from hsim.configuration_keys import (COMPACTION_POLICY_CLASSES, FLUSH_POLICY_CLASSES,
                                         SPLIT_POLICY_CLASSES, STORE_ENGINE_CLASSES)
    from hsim.engine import compaction_policies
    from hsim.regions import flush_policy, split_policy

    assert set(SPLIT_POLICY_CLASSES.values()) == set(split_policy.POLICIES)
    assert set(FLUSH_POLICY_CLASSES.values()) == set(flush_policy.POLICIES)
    assert set(COMPACTION_POLICY_CLASSES.values()) | {"date_tiered"} == \
        set(compaction_policies.POLICIES)
    assert set(STORE_ENGINE_CLASSES.values()) == {"default", "date_tiered"}


def test_the_table_key_chooses_the_flush_and_split_policies():
    c = hsim.Cluster(config=Config(memstore_flush_size=64 << 10, flush_lower_bound_min=1))
    desc = TableDescriptor("t", {b"big": ColumnFamily(), b"small": ColumnFamily()},
                           configuration={"hbase.regionserver.flush.policy":
                                          RS + "FlushAllStoresPolicy",
                                          "hbase.regionserver.region.split.policy":
                                          "DisabledRegionSplitPolicy"})
    c.master.create_table(desc)
    # the cluster's flush policy (large stores); SPLIT_POLICY comes before the key
    c.master.create_table(TableDescriptor(
        "u", {b"big": ColumnFamily(), b"small": ColumnFamily()},
        split_policy="ConstantSizeRegionSplitPolicy", max_filesize=1 << 40,
        configuration={"hbase.regionserver.region.split.policy": "DisabledRegionSplitPolicy"}))
    for name in ("t", "u"):
        t = c.table(name)
        t.put(b"tiny", {b"small:q": b"x"})
        for i in range(200):
            t.put(b"r%04d" % i, {b"big:q": b"v" * 1000})
    t_stores, u_stores = _stores(c, "t"), _stores(c, "u")
    # all stores: the one small cell goes out with the first flush; large stores: never
    assert t_stores[b"big"].counters.flushes > 1 and t_stores[b"small"].counters.flushes == 1
    assert u_stores[b"big"].counters.flushes > 1 and u_stores[b"small"].counters.flushes == 0
    region = c.master.table_state("t").locator.regions[0]
    assert region.split_policy.name == "DisabledRegionSplitPolicy"
    assert len(c.master.table_state("t").locator.regions) == 1
    region = c.master.table_state("u").locator.regions[0]
    assert region.split_policy.name == "ConstantSizeRegionSplitPolicy"
