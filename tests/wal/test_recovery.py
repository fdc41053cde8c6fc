"""Region-server abort: WAL split, reassignment, replay, and what was lost."""

import pytest

import hsim
from hsim import Durability


def make(servers=2):
    c = hsim.Cluster(servers, clock=hsim.ManualClock(1000))
    c.admin.create_table("t", ["f", "g"], split_keys=[b"m"])
    return c, c.table("t")


def rows(t):
    return {cells[0].row: {(c.family, c.qualifier): c.value for c in cells} for cells in t.scan()}


def test_abort_keeps_every_acknowledged_cell_and_loses_skip_wal():
    c, t = make()
    t.put(b"a", {b"f:q": b"1", b"g:q": b"2"})
    t.put(b"z", {b"f:q": b"3"})
    c.admin.flush("t")
    t.put(b"b", {b"f:q": b"4"})
    t.delete_column(b"a", b"g:q")
    t.increment(b"n", b"f:c", 5)
    t.increment(b"n", b"f:c", 2)
    t.put(b"e", {b"f:q": b"lost"}, durability=Durability.SKIP_WAL)
    t.put(b"f", {b"f:q": b"lost"}, durability=Durability.ASYNC_WAL)
    before = rows(t)
    report = c.abort_region_server(0)
    assert len(c.region_servers) == 1
    assert report.lost_skip_wal == 1 and report.lost_async_wal == 1
    assert report.edits_replayed > 0
    after = rows(t)
    expected = {r: v for r, v in before.items() if r not in (b"e", b"f")}
    assert after == expected
    assert after[b"n"][(b"f", b"c")] == (7).to_bytes(8, "big")
    assert all(r.server is c.region_servers[0] for r in c.master.tables["t"].locator.regions)
    # recovered regions keep working: flush, compaction, split
    for i in range(20):
        t.put(b"c%02d" % i, {b"f:q": b"v"})
    c.admin.flush("t")
    c.admin.major_compact("t")
    c.admin.split("t", b"c10")
    assert len(c.admin.regions("t")) == 3
    assert rows(t)[b"c05"] == {(b"f", b"q"): b"v"}


def test_async_wal_synced_by_the_interval_survives():
    c, t = make()
    t.put(b"a", {b"f:q": b"1"}, durability=Durability.ASYNC_WAL)
    c.clock.advance(1000)
    t.put(b"b", {b"f:q": b"2"}, durability=Durability.SKIP_WAL)
    t.put(b"c", {b"f:q": b"3"}, durability=Durability.ASYNC_WAL)  # the syncer ran just before
    report = c.abort_region_server(0)
    assert rows(t).keys() == {b"a"}
    assert (report.lost_skip_wal, report.lost_async_wal) == (1, 1)


def test_two_aborts_in_a_row_and_a_new_server():
    c, t = make(3)
    for i in range(30):
        t.put(b"%c%02d" % (97 + i % 26, i), {b"f:q": b"%d" % i})
    expected = rows(t)
    c.abort_region_server(0)
    t.put(b"new", {b"f:q": b"after first"})
    expected[b"new"] = {(b"f", b"q"): b"after first"}
    c.abort_region_server(0)
    assert rows(t) == expected
    srv = c.start_region_server()
    c.admin.balance()
    assert len(srv.regions) == 1
    c.abort_region_server(0)
    assert rows(t) == expected
    assert c.master.dead_servers and len(c.region_servers) == 1


def test_abort_rejects_bad_index_and_the_last_server():
    c, t = make(1)
    t.put(b"a", {b"f:q": b"1"})
    with pytest.raises(hsim.InvalidArgumentError):
        c.abort_region_server(3)
    with pytest.raises(hsim.InvalidArgumentError, match="last live region server"):
        c.abort_region_server(0)
    assert rows(t) == {b"a": {(b"f", b"q"): b"1"}}


def test_a_moved_region_keeps_its_synced_edits_through_an_abort():
    """Moving a region flushes it (HRegion.close), so the old server's WAL is not needed."""
    c, t = make(1)
    t.put(b"a", {b"f:q": b"1"})
    t.put(b"z", {b"f:q": b"1"})
    c.start_region_server()
    c.admin.balance()  # one region moves to the new server
    moved = [r for r in c.master.tables["t"].locator.regions if r.server.index == 1]
    assert len(moved) == 1 and moved[0].memstore_heap == 0
    t.put(b"b" if moved[0].contains(b"b") else b"y", {b"f:q": b"2"})
    report = c.abort_region_server(1)
    assert report.lost == 0 and report.edits_replayed == 1
    assert len(rows(t)) == 3
