"""skew_and_import at its small size: the monotonic import's hot region moving on, random
order spreading it, hashed pairs in one region, managed vs automatic splitting of skewed and
timestamp keys, its report, and the same seed giving the same report."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("skew_and_import", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("skew_and_import"))


def test_a_sorted_import_pounds_one_region_at_a_time_and_moves_on(report):
    r = report.results
    sorted_, randomized = r["sorted_import"], r["randomized_import"]
    assert sorted_["window_busiest_region_share"] == 1 and sorted_["regions"] >= 8
    assert sorted_["hot_regions_over_time"] >= 3
    points = [y for _, y in report.variants[0].series["busiest region's start in the key "
                                                       "space"]]
    assert points == sorted(points) and points[-1] > 0.5  # it climbs the key space
    assert randomized["window_busiest_region_share"] < 0.5


def test_hashing_keeps_each_pair_together(report):
    h, s = report.results["hashed_pairs"], report.results["salted_pairs"]
    assert h["pairs_in_one_region"] == 1 and s["pairs_in_one_region"] < 0.2
    assert h["pair_read_rpcs"] == 1 and s["pair_read_rpcs"] == 16


def test_managed_splitting_helps_skewed_keys_not_timestamps(report):
    r = report.results
    for kind in ("benford", "product"):
        assert r[f"{kind}_managed"]["max_server_write_share"] < 0.3
        assert r[f"{kind}_managed"]["regions_written"] >= 12
    assert r["timestamp_managed"]["last_region_write_share"] == 1
    assert r["timestamp_managed"]["regions_written"] == 1


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("skew_and_import").claims for n in c.covers}
    assert covered == {9, 11, 12, 15, 37}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "adjacency is bad" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    def stable(report):
        return [line for line in report.to_json().splitlines() if '"elapsed_s"' not in line]

    args = dict(ops="small", plots=False, sensitivity="off",
                variants=["randomized_import", "salted_pairs", "benford_auto"])
    assert stable(run_scenario("skew_and_import", **args)) \
        == stable(run_scenario("skew_and_import", **args))
