"""FIFOCompactionPolicy (HBase's TestFIFOCompactionPolicy, its cases named after the upstream
methods, at the policy's level: files as records, the clock as `now`), the FIFO family checks of
TableDescriptorChecker, OffPeakHours (TestOffPeakHours) and the policy registry."""

from dataclasses import dataclass

import pytest

from hsim.config import Config
from hsim.engine.compaction_policies import POLICIES, name_of_hbase_class, policy_for
from hsim.engine.compaction_policy import ExploringCompactionPolicy
from hsim.engine.date_tiered_compaction_policy import DateTieredCompactionPolicy
from hsim.engine.fifo_compaction_policy import FIFOCompactionPolicy, check_family
from hsim.engine.off_peak_hours import OffPeakHours
from hsim.errors import DoNotRetryError, InvalidArgumentError

TTL = 1000  # TestFIFOCompactionPolicy: TTL 1 s


@dataclass(eq=False)
class SF:
    max_timestamp: int
    entry_count: int = 10
    size: int = 100
    is_reference: bool = False
    min_timestamp: int | None = None
    create_time: int = 1
    name: str = "f"


def test_testPurgeExpiredFiles():
    """Ten flushed files, all past the TTL: a compaction takes every one (and writes no cell,
    as none is live), whatever force_major says."""
    policy = FIFOCompactionPolicy(Config())
    files = [SF(max_timestamp=100 + i) for i in range(10)]
    now = 100 + 9 + TTL
    assert policy.needs_compaction(files, now=now, ttl_ms=TTL)
    sel = policy.select(files, force_major=True, now=now, ttl_ms=TTL)
    assert list(sel.files) == files and not sel.tried_major
    assert not policy.should_perform_major_compaction(files, now, TTL)


def test_only_expired_files_are_taken():
    policy = FIFOCompactionPolicy(Config())
    old, young = SF(max_timestamp=0), SF(max_timestamp=500)
    now = TTL  # old: now - TTL >= 0, expired; young: not
    assert list(policy.select([old, young], now=now, ttl_ms=TTL).files) == [old]
    assert list(policy.select([old, young], now=now, ttl_ms=TTL, files_compacting=[old]).files) \
        == []
    assert not policy.needs_compaction([young], now=now, ttl_ms=TTL)


def test_testFIFOCompactionPolicyExpiredEmptyHFiles():
    """HBASE-21504: the empty file a compaction of expired files leaves (its max timestamp is
    Long.MAX_VALUE) is taken by the next compaction, so it does not stay for ever."""
    policy = FIFOCompactionPolicy(Config())
    empty = SF(max_timestamp=(1 << 63) - 1, entry_count=0)
    assert policy.needs_compaction([empty], now=5, ttl_ms=TTL)
    assert list(policy.select([empty], now=5, ttl_ms=TTL).files) == [empty]


def test_no_ttl_or_min_versions_means_nothing_expires():
    policy = FIFOCompactionPolicy(Config())
    files = [SF(max_timestamp=0)]
    assert list(policy.select(files, now=10**9, ttl_ms=None).files) == []
    assert list(policy.select(files, now=10**9, ttl_ms=TTL, min_versions=1).files) == []


def test_after_a_split_the_exploring_policy_clears_references():
    policy = FIFOCompactionPolicy(Config(compaction_min_files=2))
    files = [SF(max_timestamp=10**9, is_reference=True), SF(max_timestamp=10**9)]
    sel = policy.select(files, now=10**9, ttl_ms=TTL)
    assert list(sel.files) == files and sel.after_split


def test_testSanityCheckTTL():
    with pytest.raises(DoNotRetryError, match="Default TTL is not supported for FIFO"):
        check_family("f", None, 0, 1000)


def test_testSanityCheckMinVersion():
    with pytest.raises(DoNotRetryError, match="MIN_VERSION > 0 is not supported for FIFO"):
        check_family("f", TTL, 1, 1000)


def test_testSanityCheckBlockingStoreFiles():
    with pytest.raises(DoNotRetryError, match="Blocking file count 'hbase.hstore.blocking"
                                              "StoreFiles' 10 is below recommended minimum of "
                                              "1000 for column family f"):
        check_family("f", TTL, 0, 10)
    check_family("f", TTL, 0, 1000)  # all three rules met


# -- OffPeakHours (TestOffPeakHours: the hour of day 15) ------------------------------------------
HOUR = 15


def test_testWithoutSettings():
    assert not OffPeakHours.from_config(Config()).is_off_peak(HOUR)


def test_testSetPeakHourToTargetTime():
    conf = Config(off_peak_start_hour=HOUR - 1, off_peak_end_hour=HOUR + 1)
    assert OffPeakHours.from_config(conf).is_off_peak(HOUR)


def test_testSetPeakHourOutsideCurrentSelection():
    conf = Config(off_peak_start_hour=HOUR - 2, off_peak_end_hour=HOUR - 1)
    assert not OffPeakHours.from_config(conf).is_off_peak(HOUR)


def test_off_peak_hours_wrap_past_midnight_and_follow_cluster_time():
    night = OffPeakHours(22, 6)
    assert [h for h in range(24) if night.is_off_peak(h)] == [0, 1, 2, 3, 4, 5, 22, 23]
    assert night.is_off_peak_at(23 * 3600 * 1000) and not night.is_off_peak_at(12 * 3600 * 1000)
    assert not OffPeakHours(5, 5).is_off_peak(5)  # start == end: disabled, as HBase


@pytest.mark.parametrize("start, end", [(24, 3), (3, -2), (-1, 4), ("1", 2)])
def test_bad_off_peak_hours_are_refused(start, end):
    with pytest.raises(InvalidArgumentError, match="off-peak"):
        OffPeakHours(start, end)


def test_config_refuses_bad_hours_and_unknown_policies():
    with pytest.raises(InvalidArgumentError, match="off_peak_end_hour must be an hour"):
        Config(off_peak_end_hour=24)
    with pytest.raises(InvalidArgumentError, match="unknown compaction_policy 'leveled'"):
        Config(compaction_policy="leveled")


# -- the registry ----------------------------------------------------------------------------------
def test_each_policy_name_and_hbase_class_resolves():
    assert isinstance(policy_for(Config()), ExploringCompactionPolicy)
    assert isinstance(policy_for(Config(compaction_policy="date_tiered")),
                      DateTieredCompactionPolicy)
    assert isinstance(policy_for(Config(compaction_policy="fifo")), FIFOCompactionPolicy)
    assert set(POLICIES) == {"exploring", "ratio", "date_tiered", "fifo"}
    assert name_of_hbase_class("org.apache.hadoop.hbase.regionserver.DateTieredStoreEngine") \
        == "date_tiered"
    assert name_of_hbase_class(
        "org.apache.hadoop.hbase.regionserver.compactions.FIFOCompactionPolicy") == "fifo"
    with pytest.raises(InvalidArgumentError, match="not a store engine or compaction policy"):
        name_of_hbase_class("org.apache.hadoop.hbase.regionserver.StripeStoreEngine")
