"""lookup_patterns at its small size: each pattern's answers right and its costs compared,
its report, and the same seed giving the same report."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("lookup_patterns", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("lookup_patterns"))


def test_ip_range_scan_of_one_row_answers_like_a_get(report):
    ip = report.results["ip_range"]
    assert ip["ip_right"] == 1 and ip["ip_scan_requests"] == ip["ip_get_requests"] == 1


def test_autocomplete_json_is_one_cell_per_prefix(report):
    j, cells = report.results["autocomplete_json"], report.results["autocomplete_cells"]
    assert j["cells_per_request"] == 1 < cells["cells_per_request"] <= 10
    assert j["cells_stored"] < cells["cells_stored"]


def test_graph_layouts_agree_and_differ_in_cost(report):
    r = report.results
    layouts = ("edge_list", "adjacency_rows", "sharded_adjacency", "serialized_list")
    assert all(r[v]["connected_right"] == r[v]["neighbours_right"] == 1 for v in layouts)
    # a miss reads a block only on a bloom false positive (HBase's MurmurHash bits)
    assert r["edge_list"]["miss_blocks"] < min(0.05, 0.5 * r["adjacency_rows"]["miss_blocks"])
    assert r["edge_list"]["bloom_negatives"] > 0
    assert r["sharded_adjacency"]["rows_stored"] > r["adjacency_rows"]["rows_stored"]


def test_quadkeys_and_rollups(report):
    q, p = report.results["quadkey"], report.results["point_id"]
    assert q["area_right"] == p["area_right"] == q["summary_right"] == 1
    assert q["area_blocks"] < p["area_blocks"]


def test_airport_layouts_and_timezone_versions(report):
    r = report.results
    assert r["family_per_field"]["store_files"] == 6 > r["one_family"]["store_files"] == 1
    assert r["family_per_field"]["record_cells"] == r["one_family"]["record_cells"] == 6
    assert r["serialized_record"]["record_cells"] == 1
    tz = r["timezone_versions"]
    assert tz["tz_right"] == 1 and tz["tz_cells"] == 1 and tz["tz_all_cells"] == 10


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("lookup_patterns").claims for n in c.covers}
    assert covered == {67, 72, 73, 74, 75, 76}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "Range Lookup" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    def stable(report):
        return [line for line in report.to_json().splitlines() if '"elapsed_s"' not in line]

    args = dict(ops="small", plots=False, sensitivity="off",
                variants=["ip_range", "edge_list", "quadkey"])
    assert stable(run_scenario("lookup_patterns", **args)) \
        == stable(run_scenario("lookup_patterns", **args))
