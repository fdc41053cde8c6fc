"""Durability: table attribute, per-mutation argument, and what reaches the WAL."""

import pytest

import hsim
from hsim import Durability


def cluster(servers=1, **cfg):
    c = hsim.Cluster(servers, config=hsim.Config(**cfg) if cfg else None,
                     clock=hsim.ManualClock(1000))
    return c


def test_effective_durability_follows_hregion():
    from hsim.durability import effective

    assert effective(Durability.USE_DEFAULT, Durability.USE_DEFAULT) == Durability.SYNC_WAL
    assert effective(Durability.USE_DEFAULT, Durability.ASYNC_WAL) == Durability.ASYNC_WAL
    assert effective(Durability.SKIP_WAL, Durability.FSYNC_WAL) == Durability.SKIP_WAL


def test_sync_wal_by_default_and_skip_wal_appends_nothing():
    c = cluster()
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    wal = c.region_servers[0].wal
    t.put(b"r1", {b"f:q": b"v"})
    assert wal.entries == 1 and wal.syncs == 1 and wal.unsynced_bytes == 0
    t.put(b"r2", {b"f:q": b"v"}, durability=Durability.SKIP_WAL)
    t.delete_row(b"r1", durability="SKIP_WAL")
    assert wal.entries == 1
    t.increment(b"r3", b"f:n", durability=Durability.FSYNC_WAL)
    assert wal.entries == 2 and wal.fsyncs == 1


def test_table_attribute_and_alter():
    c = cluster()
    c.admin.create_table("t", ["f"], durability="ASYNC_WAL")
    t = c.table("t")
    wal = c.region_servers[0].wal
    t.put(b"r1", {b"f:q": b"v"})
    assert wal.entries == 1 and wal.unsynced_bytes > 0
    c.clock.advance(1000)  # optionallogflushinterval: the async syncer runs
    t.put(b"r2", {b"f:q": b"v"})
    assert wal.unsynced_bytes == 81  # r1 synced by the syncer, r2 waits for its next run
    assert wal.syncs == 1
    c.admin.alter_table("t", durability=Durability.SKIP_WAL)
    t.put(b"r3", {b"f:q": b"v"})
    assert wal.entries == 2


def test_bad_durability_is_rejected_and_changes_nothing():
    c = cluster()
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    with pytest.raises(hsim.InvalidArgumentError, match="Durability must be one of"):
        t.put(b"r", {b"f:q": b"v"}, durability="SOMETIMES")
    with pytest.raises(hsim.InvalidArgumentError):
        c.admin.alter_table("t", durability=7)
    assert t.get(b"r") == [] and c.region_servers[0].wal.entries == 0


def test_batch_takes_the_strongest_durability_per_row():
    c = cluster()
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    wal = c.region_servers[0].wal
    with t.batch(durability=Durability.SKIP_WAL) as b:
        b.put(b"a", {b"f:q": b"1"})
        b.put(b"b", {b"f:q": b"1"})
        b.put(b"b", {b"f:r": b"1"}, durability=Durability.SYNC_WAL)
    assert wal.entries == 1  # row b only


def test_check_and_mutate_append_take_durability():
    c = cluster()
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    wal = c.region_servers[0].wal
    assert t.check_and_put(b"r", b"f:q", None, {b"f:q": b"v"}, durability="SKIP_WAL")
    t.append(b"r", {b"f:a": b"x"}, durability="SKIP_WAL")
    assert t.check_and_delete(b"r", b"f:q", b"v", durability="SKIP_WAL")
    assert wal.entries == 0
