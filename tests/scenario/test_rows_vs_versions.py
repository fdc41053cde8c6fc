"""rows_vs_versions at its small size: history as rows or versions, expired files with the
knob on and off, cell TTL against the family TTL, kept deleted cells, a rowkey change, its
report, and the same seed giving the same report."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("rows_vs_versions", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("rows_vs_versions"))


def test_both_history_designs_answer_right_and_rows_read_one_block(report):
    r = report.results
    rows, versions = r["reverse_ts_rows"], r["versions"]
    assert rows["answers_right"] == versions["answers_right"] == 1
    assert rows["history_kept"] == 1
    assert rows["as_of_blocks_per_query"] == 1 <= versions["as_of_blocks_per_query"]


def test_the_knob_keeps_expired_files_until_a_major_compaction(report):
    r = report.results
    on, off = r["expired_files_dropped"], r["expired_files_kept"]
    assert on["expired_files_dropped"] > 0 == off["expired_files_dropped"]
    assert off["store_files_after_minor"] == 30 > on["store_files_after_minor"]
    assert off["major_bytes_read"] > 2 * on["major_bytes_read"]


def test_a_cell_ttl_shortens_but_never_extends(report):
    c = report.results["cell_ttl"]
    assert (c["none_visible_5m"], c["short_visible_5m"], c["long_visible_5m"]) == (1, 0, 1)
    assert c["none_visible_15m"] == c["long_visible_15m"] == 0
    assert c["raw_cells_after_major"] == 0


def test_kept_deleted_cells_obey_versions_and_ttl(report):
    k = report.results["keep_deleted"]
    assert k["deleted_now"] == 0
    assert k["point_in_time_after_major"] == k["deleted_cells_kept"] == 3
    assert k["point_in_time_past_ttl"] == k["deleted_cells_past_ttl"] == 0


def test_a_rowkey_change_is_a_get_a_put_and_a_delete(report):
    r = report.results
    change, update = r["change_rowkey"], r["update_value"]
    assert change["requests_per_change"] == 3 and update["requests_per_change"] == 1
    # the old row's 5 cells + its delete marker + the new row's 5 cells, until the major
    assert change["raw_cells_per_row_before_major"] == 11
    assert change["cells_per_row_after_major"] == update["cells_per_row_after_major"] == 5


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("rows_vs_versions").claims for n in c.covers}
    assert covered == {31, 32, 43, 44, 47}
    assert [c.verdict for c in report.claims] == ["held"] * 6
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "Immutability of Rowkeys" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    def stable(report):
        return [line for line in report.to_json().splitlines() if '"elapsed_s"' not in line]

    args = dict(ops="small", plots=False, sensitivity="off",
                variants=["reverse_ts_rows", "expired_files_kept", "change_rowkey"])
    assert stable(run_scenario("rows_vs_versions", **args)) \
        == stable(run_scenario("rows_vs_versions", **args))
