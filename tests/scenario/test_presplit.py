"""presplit's too_many_regions variant at the small size: a table pre-split into four times
the regions its data needs, merged by the normalizer down to NORMALIZER_TARGET_REGION_COUNT,
with every row still readable and each region serving more of the reads."""

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario


@pytest.fixture(scope="module")
def result():
    report = run_scenario("presplit", ops="small", plots=False, sensitivity="off",
                          variants=["too_many_regions"])
    return report.results["too_many_regions"]


def test_the_normalizer_merges_the_pre_split_regions_to_the_target_count(result):
    assert result["regions_before_normalize"] == 40  # 4 x `regions`
    assert 1 <= result["region_mb_before"] < 2  # whole-MB sizes the normalizer can merge
    assert result["normalizer_merges"] == 10
    assert result["regions_after_normalize"] == result["regions"] == 10  # the target count
    assert result["region_mb_after"] == pytest.approx(4 * result["region_mb_before"], rel=0.1)


def test_each_region_serves_more_of_the_reads_and_every_row_is_still_there(result):
    assert result["reads_per_region_before"] == 25  # 1,000 Gets over 40 regions
    assert result["reads_per_region_after"] == 100
    assert result["empty_regions"] == 0


def test_no_claim_reads_the_variant():
    """The seeds say nothing of merging regions: the variant has metrics, no claim."""
    claims = load_scenario("presplit").claims
    assert not any("too_many_regions" in c.needs for c in claims)
