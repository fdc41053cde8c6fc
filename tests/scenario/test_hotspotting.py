"""hotspotting's rebalanced variants at the small size: the balancer evens out the regions of
a table whose regions all start on one server, but the busiest server keeps every write of
timestamp-lead keys (one hot region) while salted keys' writes spread."""

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

VARIANTS = ["timestamp_lead_rebalanced", "salted_rebalanced"]


@pytest.fixture(scope="module")
def report():
    return run_scenario("hotspotting", ops="small", plots=False, sensitivity="off",
                        variants=VARIANTS)


def test_the_balancer_spreads_the_regions_of_both_designs(report):
    for name in VARIANTS:
        r = report.results[name]
        assert r["max_regions_per_server_before"] == 16  # every region on one server
        assert r["balancer_moves"] == 12 and r["max_regions_per_server_after"] == 4, name
        assert r["write_share_before_balance"] == 1.0, name


def test_one_hot_region_keeps_its_server_hot_salted_writes_spread(report):
    assert report.results["timestamp_lead_rebalanced"]["write_share_after_balance"] == 1.0
    assert report.results["salted_rebalanced"]["write_share_after_balance"] < 0.35


def test_the_claim_is_declared_before_the_run_and_holds(report):
    claim = next(c for c in load_scenario("hotspotting").claims if "balancer" in c.title)
    assert claim.covers == (36,) and set(claim.needs) == set(VARIANTS)
    verdict = next(c for c in report.claims if c.title == claim.title)
    assert verdict.verdict == "held"
