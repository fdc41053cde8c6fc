"""counters at its small size: lost updates under interleaved clients, the timestamp trick,
checks before writes, its report, and the same seed giving the same report."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("counters", ops="small", plots=False,
                        out=tmp_path_factory.mktemp("counters"))


def test_read_modify_write_loses_updates_increment_and_check_and_put_do_not(report):
    r = report.results
    rmw, cas, incr = r["read_modify_write"], r["check_and_put"], r["increment"]
    assert rmw["lost_updates"] > 0.05 * 2000 and rmw["round_trips_per_update"] == 2
    assert incr["lost_updates"] == 0 and incr["round_trips_per_update"] == 1
    assert cas["lost_updates"] == 0 and cas["retries_per_update"] > 0
    # every retry is one more read and one more checkAndPut
    assert cas["round_trips_per_update"] == pytest.approx(2 + 2 * cas["retries_per_update"])
    assert cas["ms_per_update"] > incr["ms_per_update"]


def test_the_timestamp_trick_answers_with_one_cell_and_versions_keep_five(report):
    r = report.results
    trick, scan = r["timestamp_trick"], r["read_all_counts"]
    assert trick["most_frequent_right"] == scan["most_frequent_right"] == 1
    assert trick["cells_per_query"] == 1 < 5 <= scan["cells_per_query"]
    assert trick["most_recent_right"] == 1 and trick["recent_cells_kept"] == 5
    assert trick["write_ms_per_view"] > scan["write_ms_per_view"]  # the trick's extra put


def test_a_check_before_each_write_costs_throughput(report):
    r = report.results
    checked, unchecked = r["checked_writes"], r["unchecked_writes"]
    assert checked["orders_refused"] > 0 and unchecked["orders_refused"] == 0
    assert checked["orders_written"] + checked["orders_refused"] == unchecked["orders_written"]
    assert checked["write_throughput"] < 0.5 * unchecked["write_throughput"]


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("counters").claims for n in c.covers}
    assert covered == {49, 52, 79, 92}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "Most-Frequent URLs" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    def stable(report):
        return [line for line in report.to_json().splitlines() if '"elapsed_s"' not in line]

    args = dict(ops="small", plots=False, sensitivity="off",
                variants=["read_modify_write", "check_and_put", "timestamp_trick"])
    assert stable(run_scenario("counters", **args)) == stable(run_scenario("counters", **args))
