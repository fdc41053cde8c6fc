"""region_size at its small size: per-table MAX_FILESIZE, the 1 TB / 4 GB arithmetic, splits
against region size, its report, and the same seed giving the same report."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("region_size", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("region_size"))


def test_a_tables_max_filesize_sets_its_region_count(report):
    r = report.results
    t = r["per_table"]
    assert t["orders_regions"] > 10 * t["audit_regions"]
    assert r["region_1g"]["regions"] > r["region_4g"]["regions"] > r["region_16g"]["regions"]
    # auto splitting ends with regions between half and all of MAX_FILESIZE: 256-512 "4 GB"
    assert 256 <= r["region_4g"]["regions"] <= 600


def test_the_books_arithmetic_gives_16_regions_per_server_not_256(report):
    pre = report.results["presplit_4g"]
    assert pre["regions"] >= 256 and 16 <= pre["mean_regions_per_server"] < 64


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("region_size").claims for n in c.covers}
    assert covered == {36, 83}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "Table Region Size" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    def stable(report):
        return [line for line in report.to_json().splitlines() if '"elapsed_s"' not in line]

    args = dict(ops=512, plots=False, sensitivity="off", variants=["region_4g"])
    assert stable(run_scenario("region_size", **args)) == stable(run_scenario("region_size",
                                                                                **args))
