"""`cluster.metrics()` is saved and compared: to_dict() is JSON-ready, to_json() round-trips."""

import json

import hsim
from hsim.bytes import to_bytes_binary
from hsim.metrics import ClusterMetrics


def _metrics():
    cluster = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(1_000))
    # Split keys that are not text: they must come back byte for byte.
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily()}, split_keys=[b"\x00\xff\\m"])
    table = cluster.table("t")
    for i in range(20):
        table.put(b"\x00\xff%d" % i, {b"f:q": b"v"})
    cluster.admin.flush("t")
    return cluster.metrics()


def test_to_dict_round_trips_through_json_dumps():
    m = _metrics()
    d = m.to_dict()
    assert json.loads(json.dumps(d)) == d
    # The shell's printable form: Bytes.toStringBinary escapes a backslash too.
    assert [r["start_key"] for r in d["regions"]] == ["", "\\x00\\xFF\\x5Cm"]
    assert d["regions"][0]["stores"][0]["family"] == "f"


def test_from_dict_restores_the_records():
    m = _metrics()
    back = ClusterMetrics.from_dict(json.loads(m.to_json()))
    assert back == m
    assert back.regions[1].start_key == b"\x00\xff\\m"
    assert back.to_dict() == m.to_dict()


def test_region_records_are_json_ready():
    cluster = hsim.Cluster(clock=hsim.ManualClock(1_000))
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily()}, split_keys=[b"\x01k"])
    cluster.table("t").put(b"\x01z", {b"f:q": b"v"})
    cluster.admin.flush("t")
    info = cluster.admin.regions("t")[1]
    d = json.loads(info.to_json())
    assert d == info.to_dict()
    assert d["start_key"] == "\\x01k"
    assert to_bytes_binary(d["start_key"]) == info.start_key
    assert d["store_files"]["f"][0]["entries"] == 1


def test_scenario_report_to_dict_is_json_ready():
    from hsim.scenario import run_scenario
    from hsim.scenario.loader import load_scenario

    report = run_scenario(load_scenario("presplit"), ops="small", plots=False, out=None)
    d = report.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert report.to_json() == json.dumps(d, indent=2) + "\n"
