"""order_object at its small size: reads and updates of the four order designs, a half-applied
multi-row update, CUSTOMER++ keys, twit streams, its report, and determinism."""

import json
from pathlib import Path

import pytest

from hsim.scenario import run_scenario
from hsim.scenario.loader import load_scenario

from .same_report import assert_same_report

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return run_scenario("order_object", ops="small", plots=False, sensitivity="off",
                        out=tmp_path_factory.mktemp("order_object"))


def test_reads_per_order_and_update_costs(report):
    r = report.results
    assert r["object_blob"]["rpcs_per_order_read"] == 1 == r["record_types"]["rpcs_per_order_read"]
    assert r["normalized"]["rpcs_per_order_read"] == 3
    assert r["object_blob"]["puts_per_order"] == 1 < r["normalized"]["puts_per_order"]
    assert r["denormalized"]["puts_per_address_update"] > 1
    assert r["object_blob"]["value_bytes_per_address_update"] > \
        r["record_types"]["value_bytes_per_address_update"]


def test_only_the_multi_row_update_is_seen_half_applied(report):
    r = report.results
    assert 0 < r["denormalized"]["half_updates_seen"] <= 1
    for v in ("normalized", "record_types", "object_blob"):
        assert r[v]["half_updates_seen"] == 0


def test_customer_plus_plus_reads_a_customer_in_one_scan(report):
    num, md5 = report.results["customer_numeric"], report.results["customer_md5"]
    assert num["rpcs_per_customer_read"] == md5["rpcs_per_customer_read"] == 1
    assert num["rows_per_customer_read"] == md5["rows_per_customer_read"] > 1
    assert num["customer_records_found"] == md5["customer_records_found"] == 100
    assert (num["key_bytes_per_order_row"], md5["key_bytes_per_order_row"]) == (17, 33)


def test_a_stream_per_user_trades_writes_for_reads(report):
    norm, stream = report.results["read_followees"], report.results["stream_per_user"]
    assert stream["rpcs_per_timeline"] == 1 < norm["rpcs_per_timeline"]
    assert stream["puts_per_twit"] > 10 * norm["puts_per_twit"]
    assert norm["hot_region_read_share"] > stream["hot_region_read_share"]


def test_claims_cover_the_seed_claims_and_the_report_has_them(report):
    covered = {n for c in load_scenario("order_object").claims for n in c.covers}
    assert covered == {58, 59, 64, 91}
    data = json.loads((Path(report.out) / "report.json").read_text())
    assert [c["verdict"] for c in data["claims"]] == [c.verdict for c in report.claims]
    assert "Order Object Design" in (Path(report.out) / "report.md").read_text()


def test_same_seed_same_report():
    assert_same_report("order_object", ops=200, variants=["denormalized", "stream_per_user"])
