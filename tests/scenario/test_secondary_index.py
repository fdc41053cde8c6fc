"""secondary_index at its small size: what an index costs writes and space, staleness of a
periodic index, full-scan query cost, filter push-down, its report, and determinism."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

from .same_report import assert_same_report

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("secondary_index", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("secondary_index"))


def test_an_index_costs_writes_and_space(report):
    r = report.results
    plain, dual, periodic = r["filter_scan"], r["dual_write"], r["periodic_index"]
    assert plain["requests_per_update"] == 1 and dual["requests_per_update"] == 4
    assert dual["store_bytes"] > plain["store_bytes"] and plain["index_space_share"] == 0
    assert periodic["rows_scanned_per_update"] > 0 == plain["rows_scanned_per_update"]


def test_periodic_index_and_summary_go_stale_dual_write_does_not(report):
    r = report.results
    assert r["dual_write"]["stale_answers"] == 0 == r["filter_scan"]["stale_answers"]
    assert r["periodic_index"]["stale_answers"] > 0 and r["summary_table"]["stale_answers"] > 0


def test_full_scan_reads_every_block_an_index_one(report):
    r = report.results
    assert r["filter_scan"]["blocks_per_query"] > 3 * r["dual_write"]["blocks_per_query"]
    assert r["summary_table"]["ms_per_query"] < r["filter_scan"]["ms_per_query"]


def test_push_down_returns_only_matching_rows(report):
    server, client = report.results["filter_scan"], report.results["client_filter"]
    assert server["stale_answers"] == client["stale_answers"] == 0
    assert server["bytes_to_client_per_query"] < 0.2 * client["bytes_to_client_per_query"]
    assert server["ms_per_query"] < client["ms_per_query"]


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("secondary_index").claims for n in c.covers}
    assert covered == {50, 51, 93}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "Periodic-Update Secondary Index" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    assert_same_report("secondary_index", ops=300, variants=["dual_write", "summary_table"])
