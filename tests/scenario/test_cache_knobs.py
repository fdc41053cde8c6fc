"""cache_knobs at its small size: the measured directions behind each claim, its report, and the
same seed giving the same report."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("cache_knobs", ops="small", plots=False,
                        out=tmp_path_factory.mktemp("cache_knobs"))


def test_in_memory_protects_a_family_that_fits_its_share_not_one_twice_as_big(report):
    r = report.results
    assert r["lru"]["cache_vs_data"] == pytest.approx(0.5, abs=0.02)
    assert r["in_memory"]["hot_disk_blocks_per_get"] < r["lru"]["hot_disk_blocks_per_get"]
    over = r["in_memory_oversized"]
    assert over["hot_family_vs_cache"] > 0.45 and over["hot_hit_ratio"] < 0.9
    assert over["hot_disk_blocks_per_get"] > 10 * r["in_memory"]["hot_disk_blocks_per_get"]


def test_big_values_in_small_blocks_make_a_block_and_an_index_entry_per_cell(report):
    r = report.results
    assert r["big_values_4k"]["cells_per_block"] == 1
    assert r["big_values_64k"]["cells_per_block"] == pytest.approx(4, abs=0.1)
    assert r["small_values_4k"]["cells_per_block"] > 20
    assert r["big_values_4k"]["scan_disk_blocks_per_mb"] > 3.5 * \
        r["big_values_64k"]["scan_disk_blocks_per_mb"]


def test_width_compression_column_scans_and_the_ladder(report):
    r = report.results
    narrow, wide = r["narrow"], r["wide"]
    # lazy seek: one column of a wide row reads that column's block alone, as in a narrow row.
    # A narrow row's Get (all columns) steps past its one cell to learn the row is done, which
    # loads the next block when the cell ends its block (StoreFileScanner.next reads ahead); a
    # Get of one named column stops at it (INCLUDE_AND_SEEK_NEXT_ROW on the Get's only row).
    w, n = wide["item_disk_blocks_per_get"], narrow["item_disk_blocks_per_get"]
    assert w <= n <= 1.05 * w
    assert narrow["item_warm_ms"] < narrow["item_cold_ms"] / 10
    # a Get of one column reseeks to it: fewer blocks than the whole row's
    assert wide["item_blocks_per_get"] < wide["user_blocks_per_read"]
    assert r["gz"]["store_bytes"] < r["plain"]["store_bytes"] / 3
    assert r["gz"]["inflated_per_wanted_byte"] > 100 and r["plain"]["inflated_per_wanted_byte"] == 0
    assert r["row_scan"]["entries_found"] == r["column_scan"]["entries_found"] > 50
    assert r["column_scan"]["blocks_per_query"] >= 4 * r["row_scan"]["blocks_per_query"]
    ops = r["ops"]
    assert ops["get_record_ms"] < ops["increment_ms"] < ops["range_scan_ms"] < ops["full_scan_ms"]
    # the cache holds FAST_DIFF blocks encoded: the same rows fit, and Gets stop going to disk
    enc, none = r["enc_fast_diff"], r["enc_none"]
    assert none["cache_vs_data"] < 0.6 and enc["cached_bytes"] < 0.5 * none["cached_bytes"]
    assert enc["disk_blocks_per_get"] < 0.5 * none["disk_blocks_per_get"]


def test_claims_cover_the_seed_claims_and_the_report_quotes_them(report):
    covered = {n for c in load_scenario("cache_knobs").claims for n in c.covers}
    assert covered == {17, 66, 71, 84, 85, 86, 88, 89}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert all(c.verdict in ("held", "did not hold") for c in report.claims)
    assert "Column Scanning" in (Path(report.out) / "report.md").read_text()


def _stable(report) -> list[str]:
    return [line for line in report.to_json().splitlines() if '"elapsed_s"' not in line]


def test_same_seed_same_report():
    args = dict(ops="small", plots=False, sensitivity="off", variants=["narrow", "wide", "ops"])
    assert _stable(run_scenario("cache_knobs", **args)) == \
        _stable(run_scenario("cache_knobs", **args))
