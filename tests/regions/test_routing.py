"""Routing: every row lands in the region whose [start, end) holds it, before and after splits."""

import random

import pytest

import hsim
from hsim.bytes import split as bytes_split
from hsim.presplit import HexStringSplit


def _region_holding(cluster, table, row):
    for info in cluster.admin.regions(table):
        if row >= info.start_key and (not info.end_key or row < info.end_key):
            return info
    raise AssertionError(row)


def test_rows_land_in_their_region(cluster):
    cluster.admin.create_table("t", ["f"], split_keys=[b"g", b"p"])
    t = cluster.table("t")
    rows = [b"a", b"g", b"h", b"o", b"p", b"z", b"\x00", b"\xff\xff"]
    for r in rows:
        t.put(r, {b"f:q": r})
    for info in cluster.admin.regions("t"):
        assert info.write_requests == sum(
            1 for r in rows if r >= info.start_key and (not info.end_key or r < info.end_key))
    assert [c[0].row for c in t.scan()] == sorted(rows)
    assert [c[0].row for c in t.scan(reversed=True)] == sorted(rows, reverse=True)


def test_regions_are_assigned_round_robin(cluster):
    cluster.admin.create_table("t", ["f"], split_keys=[b"b", b"c", b"d", b"e", b"f"])
    servers = [r.server for r in cluster.admin.regions("t")]
    assert len(set(servers)) == 3
    assert [servers.count(s) for s in sorted(set(servers))] == [2, 2, 2]


def test_scan_bounds_and_limit_across_regions(cluster):
    cluster.admin.create_table("t", ["f"], split_keys=[b"k10", b"k20", b"k30"])
    t = cluster.table("t")
    for i in range(40):
        t.put(b"k%02d" % i, {b"f:q": b"%d" % i})
    rows = [c[0].row for c in t.scan(start_row=b"k05", stop_row=b"k25")]
    assert rows == [b"k%02d" % i for i in range(5, 25)]
    rows = [c[0].row for c in t.scan(start_row=b"k25", stop_row=b"k05", reversed=True)]
    assert rows == [b"k%02d" % i for i in range(25, 5, -1)]
    assert len(list(t.scan(limit=7))) == 7
    assert [c[0].row for c in t.scan(stop_row=b"k20")][-1] == b"k19"
    assert [c[0].row for c in t.scan(row_prefix=b"k1")] == [b"k%02d" % i for i in range(10, 20)]
    assert [c[0].row for c in t.scan(row_prefix=b"k1", reversed=True)] == \
        [b"k%02d" % i for i in range(19, 9, -1)]


def test_routing_survives_splits(small_config):
    cluster = hsim.Cluster(region_servers=2, config=small_config, clock=hsim.ManualClock(0))
    cluster.admin.create_table("t", ["f"])
    t = cluster.table("t")
    rnd = random.Random(7)
    rows = sorted({b"%08x" % rnd.getrandbits(32) for _ in range(3000)})
    for r in rows:
        t.put(r, {b"f:q": b"x" * 100})
    cluster.admin.flush("t")
    regions = cluster.admin.regions("t")
    assert len(regions) > 1, "the scaled config must have split the table"
    for r in rows[::97]:
        got = t.get(r)
        assert [c.row for c in got] == [r]
    assert [c[0].row for c in t.scan()] == rows
    # region ranges tile the key space
    keys = [(x.start_key, x.end_key) for x in regions]
    assert keys[0][0] == b"" and keys[-1][1] == b""
    for (_a_start, a_end), (b_start, _b_end) in zip(keys, keys[1:]):
        assert a_end == b_start


def test_presplit_hex_example_three_of_ten_regions():
    """The seed's pitfall: Bytes.split over "0"*16.."f"*16 into 10 regions puts uniformly random
    hex keys in only three regions; HexStringSplit spreads them over all ten."""
    rnd = random.Random(1)
    keys = [("%016x" % rnd.getrandbits(64)).encode() for _ in range(2000)]
    c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(0))
    c.admin.create_table("bad", ["f"], start_key=b"0" * 16, end_key=b"f" * 16, num_regions=10)
    c.admin.create_table("good", ["f"], presplit=(HexStringSplit, 10))
    for k in keys:
        c.table("bad").put(k, {b"f:q": b"1"})
        c.table("good").put(k, {b"f:q": b"1"})
    bad = [r.write_requests for r in c.admin.regions("bad")]
    good = [r.write_requests for r in c.admin.regions("good")]
    assert len(bad) == 10 and len(good) == 10
    assert sum(1 for n in bad if n) == 3
    assert all(n > 100 for n in good)
    # the split keys are Bytes.split's, start and end included
    assert [r.start_key for r in c.admin.regions("bad")][1:] == bytes_split(b"0" * 16, b"f" * 16, 7)


def test_presplit_forms_agree():
    c = hsim.Cluster(clock=hsim.ManualClock(0))
    c.admin.create_table("a", ["f"], presplit=("HexStringSplit", 4))
    c.admin.create_table("b", ["f"], presplit=HexStringSplit(), num_regions=4)
    ka = [r.start_key for r in c.admin.regions("a")]
    kb = [r.start_key for r in c.admin.regions("b")]
    assert ka == kb == [b"", b"40000000", b"80000000", b"c0000000"]
    with pytest.raises(hsim.InvalidArgumentError):
        c.admin.create_table("c", ["f"], start_key=b"a", end_key=b"z", num_regions=2)
