"""Row mutations: atomic across families, counters, append, check-and-mutate, batches."""

import pytest

import hsim


def test_increment_semantics(cluster):
    cluster.admin.create_table("t", ["f"])
    t = cluster.table("t")
    assert t.increment(b"r", b"f:c", 5) == 5  # a missing cell counts from 0
    cluster.clock.set(500, backwards=True)  # the clock goes back: timestamps must not
    assert t.increment(b"r", b"f:c", -2) == 3
    cells = t.get(b"r")
    assert cells[0].value == (3).to_bytes(8, "big", signed=True)
    assert cells[0].timestamp == 1_001
    t.put(b"r", {b"f:s": b"abc"})
    with pytest.raises(hsim.DoNotRetryError, match="Field is not a long, it's 3 bytes wide"):
        t.increment(b"r", b"f:s", 1)
    assert t.increment(b"r2", b"f:c", 0) == 0
    assert t.get(b"r2")[0].value == b"\x00" * 8


def test_append_and_check_and_mutate(cluster):
    cluster.admin.create_table("t", ["f"])
    t = cluster.table("t")
    assert t.append(b"r", {b"f:q": b"ab"}) == {b"f:q": b"ab"}
    assert t.append(b"r", {b"f:q": b"cd"}) == {b"f:q": b"abcd"}
    assert not t.check_and_put(b"r", b"f:q", b"zz", {b"f:x": b"1"})
    assert t.check_and_put(b"r", b"f:q", b"abcd", {b"f:x": b"1"})
    assert t.check_and_put(b"r", b"f:absent", None, {b"f:y": b"2"})
    assert not t.check_and_put(b"r", b"f:y", None, {b"f:z": b"3"})
    assert t.check_and_delete(b"r", b"f:x", b"1", columns=[b"f:y"])
    assert sorted(c.qualifier for c in t.get(b"r")) == [b"q", b"x"]


def test_batch_is_row_atomic(cluster):
    cluster.admin.create_table("t", ["f", "g"])
    t = cluster.table("t")
    with t.batch() as bt:
        bt.put(b"r1", {b"f:a": b"1"})
        bt.put(b"r1", {b"g:b": b"2"})
        bt.put(b"r2", {b"f:a": b"3"})
    assert len(t.get(b"r1")) == 2 and len(t.get(b"r2")) == 1
    # one invalid family in a row's mutation: none of that row is applied
    b2 = t.batch()
    b2.put(b"r3", {b"f:a": b"1"})
    b2.put(b"r3", {b"x:b": b"2"})
    with pytest.raises(hsim.RetriesExhaustedWithDetailsError):
        b2.send()
    assert t.get(b"r3") == []
    # an exception inside the with block sends nothing
    with pytest.raises(RuntimeError):
        with t.batch() as b3:
            b3.put(b"r4", {b"f:a": b"1"})
            raise RuntimeError("boom")
    assert t.get(b"r4") == []


def test_request_counters(cluster):
    cluster.admin.create_table("t", ["f"], split_keys=[b"m"])
    t = cluster.table("t")
    for r in (b"a", b"b", b"x"):
        t.put(r, {b"f:q": b"1"})
    t.get(b"a")
    list(t.scan())
    regions = cluster.admin.regions("t")
    assert [r.write_requests for r in regions] == [2, 1]
    assert [r.read_requests for r in regions] == [3, 1]  # 1 get + 2 scanned rows; 1 scanned row
    m = cluster.metrics()
    assert sum(s.write_requests for s in m.servers) == 3
    assert sum(s.read_requests for s in m.servers) == 4
    assert m.to_dict()["derived"]["write_share_per_server"]
