"""key_encoding at its small size: key bytes by encoding, fixed-length substitution, the derp
sort, reversed domains, its report, and the same seed giving the same report."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

from .same_report import assert_same_report

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("key_encoding", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("key_encoding"))


def test_numbers_as_strings_grow_with_their_digits_longs_stay_eight_bytes(report):
    r = report.results
    assert r["long_binary"]["key_bytes_per_row"] == 8
    assert r["long_string"]["max_long_key_bytes"] == 20
    assert r["long_string"]["book_number_key_bytes"] == 10
    points = dict(report.variant("long_string").series["key_bytes"])
    assert points[4] == 4 and points[20] == 20


def test_digests_and_substitution_sizes(report):
    r = report.results
    assert [r[v]["key_bytes_per_row"] for v in ("md5_raw", "sha1_raw", "sha1_hex")] == \
        [16, 20, 40]
    assert r["url_key"]["key_bytes_per_row"] > 40
    assert r["md5_raw"]["md5_as_string_bytes"] == 26
    names, md5, num = (r[v] for v in ("names_in_key", "md5_substitution",
                                      "numeric_substitution"))
    assert names["key_bytes_per_row"] > md5["key_bytes_per_row"] == 40
    assert num["key_length_spread"] == md5["key_length_spread"] == 0
    assert 0 < num["lookup_requests_per_event"] and names["lookup_requests_per_event"] == 0


def test_derp_sort_and_padding(report):
    r = report.results
    assert r["decimal_strings"]["scan_in_numeric_order"] < 1
    assert r["decimal_strings"]["wrong_rows_per_range_scan"] > 0
    assert r["null_padded"]["scan_in_numeric_order"] == 1
    notes = report.variant("decimal_strings").notes
    assert any("1, 119, 12, 2, 7" in n for n in notes)


def test_reversed_domains_read_an_org_in_one_scan(report):
    fwd, rev = report.results["hostname_first"], report.results["reversed_domain"]
    assert rev["rows_per_org"] == fwd["rows_per_org"] > 0
    assert fwd["scans_per_org"] == 4 and rev["scans_per_org"] == 1
    assert rev["regions_per_org"] < fwd["regions_per_org"]


def test_claims_cover_the_seed_claims_and_all_hold(report):
    covered = {n for c in load_scenario("key_encoding").claims for n in c.covers}
    assert covered == {26, 27, 56, 78, 81, 90}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == ["held"] * 6
    assert "External Referer" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    assert_same_report("key_encoding", ops=400,
                       variants=["names_in_key", "numeric_substitution", "reversed_domain"])
