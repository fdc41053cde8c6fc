"""HBase's TestSimpleRegionNormalizer, case by case (each test named after the upstream method):
the same region chains, sizes and settings give the same plans."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from hsim.config import Config
from hsim.regions.normalizer import (DAY_MS, MERGE_ENABLED_KEY, MERGE_MIN_REGION_AGE_DAYS_KEY,
                                     MERGE_MIN_REGION_SIZE_MB_KEY, MIN_REGION_COUNT_KEY,
                                     SPLIT_ENABLED_KEY, SimpleRegionNormalizer)

NOW = 1_767_225_600_000
# generateRegionId: every region is DEFAULT_MERGE_MIN_REGION_AGE_DAYS + 1 days old
CREATED = NOW - 4 * DAY_MS


@dataclass
class R:
    name: str
    start_key: bytes
    end_key: bytes
    size_mb: int
    created_ms: int = CREATED
    state: str = "OPEN"


def regions(*sizes, keys=None) -> list:
    """createRegionInfos + createRegionSizesMap: a chain of len(sizes) regions."""
    if keys is None:
        keys = [b""] + [b"r%02d" % i for i in range(1, len(sizes))] + [b""]
    return [R(f"r{i}", keys[i], keys[i + 1], s) for i, s in enumerate(sizes)]


def plans(rs, config=None, values=None):
    out = SimpleRegionNormalizer(config or Config()).compute_plans(rs, NOW, values)
    return [(p.type, [r.name for r in p.regions]) for p in out]


def test_no_normalization_if_too_few_regions():  # testNoNormalizationIfTooFewRegions
    assert plans(regions(10, 15)) == []


def test_no_normalization_on_normalized_cluster():  # testNoNormalizationOnNormalizedCluster
    assert plans(regions(10, 15, 8, 10)) == []


@pytest.mark.parametrize("state", ["MERGING_NEW", "MERGING", "MERGED", "SPLITTING_NEW",
                                   "SPLITTING", "SPLIT"])
def test_no_normalization_on_transitioning_regions(state):
    # testNoNormalizationOnMergingNewRegions ... testNoNormalizationOnSplitRegions
    rs = regions(10, 1, 100)
    for r in rs:
        r.state = state
    assert plans(rs) == []


def test_merge_of_small_regions():  # testMergeOfSmallRegions
    assert plans(regions(15, 5, 5, 15, 16)) == [("MERGE", ["r1", "r2"])]


def test_merge_of_second_smallest_regions():  # testMergeOfSecondSmallestRegions (HBASE-14867)
    assert plans(regions(1, 10000, 10000, 10000, 2700, 2700)) == [("MERGE", ["r4", "r5"])]


def test_merge_of_small_non_adjacent_regions():  # testMergeOfSmallNonAdjacentRegions
    assert plans(regions(15, 5, 16, 15, 5)) == []


def test_split_of_large_region():  # testSplitOfLargeRegion
    assert plans(regions(8, 6, 10, 30)) == [("SPLIT", ["r3"])]


def test_with_target_region_size():  # testWithTargetRegionSize
    rs = regions(20, 40, 60, 80, 100, 120)
    assert plans(rs, values={"NORMALIZER_TARGET_REGION_SIZE": "20"}) == [
        ("SPLIT", ["r2"]), ("SPLIT", ["r3"]), ("SPLIT", ["r4"]), ("SPLIT", ["r5"])]
    assert plans(rs, values={"NORMALIZER_TARGET_REGION_SIZE": "200"}) == [
        ("MERGE", ["r0", "r1", "r2", "r3"])]


def test_split_with_target_region_count():  # testSplitWithTargetRegionCount
    rs = regions(20, 40, 60, 80)
    assert plans(rs, values={"NORMALIZER_TARGET_REGION_COUNT": "8"}) == [
        ("SPLIT", ["r2"]), ("SPLIT", ["r3"])]
    assert plans(rs, values={"NORMALIZER_TARGET_REGION_COUNT": "3"}) == [
        ("MERGE", ["r0", "r1"])]


def test_honors_split_enabled():  # testHonorsSplitEnabled
    rs = regions(5, 5, 20, 5, 5)
    assert plans(rs, Config(normalizer_split_enabled=True)) == [("SPLIT", ["r2"])]
    assert plans(rs, Config(normalizer_split_enabled=False)) == []


def test_honors_split_enabled_in_td():  # testHonorsSplitEnabledInTD
    rs = regions(5, 5, 20, 5, 5)
    assert plans(rs) == [("SPLIT", ["r2"])]
    assert plans(rs, values={SPLIT_ENABLED_KEY: "false"}) == []


def test_honors_merge_enabled():  # testHonorsMergeEnabled
    rs = regions(20, 5, 5, 20, 20)
    assert plans(rs, Config(normalizer_merge_enabled=True)) == [("MERGE", ["r1", "r2"])]
    assert plans(rs, Config(normalizer_merge_enabled=False)) == []


def test_honors_merge_enabled_in_td():  # testHonorsMergeEnabledInTD
    rs = regions(20, 5, 5, 20, 20)
    assert plans(rs) == [("MERGE", ["r1", "r2"])]
    assert plans(rs, values={MERGE_ENABLED_KEY: "false"}) == []


def test_honors_minimum_region_count():  # testHonorsMinimumRegionCount
    rs = regions(1, 1, 10)
    assert plans(rs, Config(normalizer_min_region_count=1)) == [
        ("SPLIT", ["r2"]), ("MERGE", ["r0", "r1"])]
    assert plans(rs, Config(normalizer_min_region_count=4)) == [("SPLIT", ["r2"])]


def test_honors_minimum_region_count_in_td():  # testHonorsMinimumRegionCountInTD
    rs = regions(1, 1, 10)
    cfg = Config(normalizer_min_region_count=1)
    assert plans(rs, cfg) == [("SPLIT", ["r2"]), ("MERGE", ["r0", "r1"])]
    assert plans(rs, cfg, {MIN_REGION_COUNT_KEY: "4"}) == [("SPLIT", ["r2"])]


def test_honors_merge_min_region_age():  # testHonorsMergeMinRegionAge
    rs = regions(1, 1, 10, 10)
    assert all(t != "MERGE" for t, _ in plans(rs, Config(normalizer_merge_min_region_age_days=7)))
    got = plans(rs)
    assert got and all(t == "MERGE" for t, _ in got)


def test_honors_merge_min_region_age_in_td():  # testHonorsMergeMinRegionAgeInTD
    rs = regions(1, 1, 10, 10)
    assert all(t != "MERGE" for t, _ in plans(rs, Config(normalizer_merge_min_region_age_days=7)))
    got = plans(rs, values={MERGE_MIN_REGION_AGE_DAYS_KEY: "-1"})
    assert got and all(t == "MERGE" for t, _ in got)
    assert plans(rs, values={MERGE_MIN_REGION_AGE_DAYS_KEY: "5"}) == []


def test_honors_merge_min_region_size():  # testHonorsMergeMinRegionSize
    rs = regions(1, 2, 0, 10, 10)
    cfg = Config(normalizer_split_enabled=False)
    assert plans(rs, cfg) == [("MERGE", ["r0", "r1"])]
    assert plans(rs, cfg.replace(normalizer_merge_min_region_size_mb=3)) == []


def test_honors_merge_min_region_size_in_td():  # testHonorsMergeMinRegionSizeInTD
    rs = regions(1, 2, 0, 10, 10)
    cfg = Config(normalizer_split_enabled=False)
    assert plans(rs, cfg) == [("MERGE", ["r0", "r1"])]
    assert plans(rs, cfg, {MERGE_MIN_REGION_SIZE_MB_KEY: "3"}) == []


_NO_SPLIT_ANY_SIZE = Config(normalizer_split_enabled=False, normalizer_merge_min_region_size_mb=0)


def test_merge_empty_regions0():  # testMergeEmptyRegions0
    assert plans(regions(0, 1, 10, 0, 9, 10, 0), _NO_SPLIT_ANY_SIZE) == [
        ("MERGE", ["r0", "r1"]), ("MERGE", ["r2", "r3"]), ("MERGE", ["r5", "r6"])]


def test_merge_empty_regions1():  # testMergeEmptyRegions1
    assert plans(regions(0, 1, 10, 0, 9, 0, 10, 0), _NO_SPLIT_ANY_SIZE) == [
        ("MERGE", ["r0", "r1"]), ("MERGE", ["r2", "r3"]), ("MERGE", ["r4", "r5"]),
        ("MERGE", ["r6", "r7"])]


def test_merge_empty_regions2():  # testMergeEmptyRegions2
    assert plans(regions(0, 10, 1, 0, 9, 0, 10, 0), _NO_SPLIT_ANY_SIZE) == [
        ("MERGE", ["r0", "r1"]), ("MERGE", ["r2", "r3"]), ("MERGE", ["r4", "r5"]),
        ("MERGE", ["r6", "r7"])]


def test_split_and_multi_merge():  # testSplitAndMultiMerge
    assert plans(regions(3, 1, 1, 30, 9, 3, 1, 0),
                 Config(normalizer_merge_min_region_size_mb=0)) == [
        ("SPLIT", ["r3"]), ("MERGE", ["r0", "r1", "r2"]), ("MERGE", ["r5", "r6", "r7"])]


def test_normalizer_cannot_merge_non_adjacent_regions():
    # testNormalizerCannotMergeNonAdjacentRegions: sizes by region, chain sorted by start key
    keys = [b"", b"aa", b"aa1!", b"aa1", b"aa2", b""]
    assert plans(regions(3, 1, 1, 3, 5, keys=keys)) == []


def test_settings_settle_as_hbase_settles_them():
    # parseMinRegionCount / parseMergeMinRegionAge / parseMergeMinRegionSizeMb
    n = SimpleRegionNormalizer(Config(normalizer_min_region_count=-5,
                                      normalizer_merge_min_region_age_days=-1,
                                      normalizer_merge_min_region_size_mb=-3))
    assert (n.min_region_count, n.merge_min_region_age_days, n.merge_min_region_size_mb) == \
        (1, 0, 0)
