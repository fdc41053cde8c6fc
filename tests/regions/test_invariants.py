"""Cluster.check_invariants: quiet on a healthy cluster, and it names each broken book."""

import pytest

import hsim


def _cluster():
    c = hsim.Cluster(region_servers=2, config=hsim.Config(compaction_min_files=2))
    c.admin.create_table("t", {"f": hsim.ColumnFamily()}, split_keys=[b"m"])
    t = c.table("t")
    for i in range(200):
        t.put(b"%03d" % i if i % 2 else b"z%03d" % i, {b"f:q": b"v"})
    c.admin.flush("t")
    for i in range(50):
        t.put(b"a%03d" % i, {b"f:q": b"w"})
    list(t.scan())
    c.admin.split("t", b"s")
    return c


def test_a_healthy_cluster_passes():
    _cluster().check_invariants()


@pytest.mark.parametrize("break_it, words", [
    (lambda c, r: setattr(r, "end_key", b"n"), "gap or overlap"),
    (lambda c, r: setattr(r.stores[b"f"].memstore, "data_size", 1), "memstore sizes"),
    (lambda c, r: setattr(r, "memstore_heap", r.memstore_heap + 8), "its stores'"),
    (lambda c, r: setattr(r.server, "memstore_heap", -1), "its regions'"),
    (lambda c, r: setattr(r, "start_key", b"0"), "first region starts"),
])
def test_each_broken_book_is_named(break_it, words):
    c = _cluster()
    region = c.master.tables["t"].locator.regions[0]
    break_it(c, region)
    with pytest.raises(AssertionError, match=words):
        c.check_invariants()
