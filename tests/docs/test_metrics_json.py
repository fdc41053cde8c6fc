"""`cluster.metrics()` is saved and compared: to_dict() is JSON-ready, to_json() round-trips."""

import json

import hsim
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
