"""time_series_columns at its small size: OpenTSDB's layouts read the same points from fewer
rows, compaction shrinks the store, the row per metric cannot split, web-log buckets, its
report, and determinism."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

from .same_report import assert_same_report

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("time_series_columns", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("time_series_columns"))


def test_every_layout_reads_the_same_points_from_fewer_rows(report):
    r = report.results
    layouts = ("row_per_point", "row_per_hour", "compacted_hour", "row_per_metric")
    assert len({r[v]["points_per_query"] for v in layouts}) == 1
    assert r["row_per_point"]["rows_per_query"] == r["row_per_point"]["points_per_query"]
    assert r["row_per_hour"]["rows_per_query"] <= 3 and r["row_per_metric"]["rows_per_query"] == 1


def test_compaction_packs_an_hour_into_one_cell(report):
    r = report.results
    assert r["compacted_hour"]["store_bytes_per_point"] < \
        0.5 * r["row_per_hour"]["store_bytes_per_point"]
    assert r["compacted_hour"]["write_ms_per_point"] > r["row_per_hour"]["write_ms_per_point"]
    assert r["row_per_hour"]["widest_row_columns"] == 240  # one column per 15 s of an hour


def test_the_row_per_metric_cannot_split():
    # two metrics: each one's row outgrows MAX_FILESIZE, an hour's row never does
    r = run_scenario("time_series_columns", ops="small", params={"metrics": 2}, plots=False,
                     sensitivity="off", variants=["row_per_hour", "row_per_metric"]).results
    assert r["row_per_metric"]["largest_region_vs_max"] > 1.5
    assert r["row_per_hour"]["largest_region_vs_max"] < 1.5
    assert r["row_per_metric"]["widest_row_columns"] == 6000 // 2


def test_web_log_buckets(report):
    rows, buckets = report.results["visit_rows"], report.results["visit_buckets"]
    assert buckets["rpcs_per_path"] == 1 == rows["rpcs_per_path"]
    # the seed's schema names the referer, term or product in the qualifier: a repeat in the
    # same hour is one cell
    assert 0 < rows["path_events"] - buckets["path_events"] < 0.05 * rows["path_events"] or \
        rows["path_events"] == buckets["path_events"]


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("time_series_columns").claims for n in c.covers}
    assert covered == {57, 61, 77, 82}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "on Steroids" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    assert_same_report("time_series_columns", ops=800, variants=["compacted_hour", "visit_buckets"])
