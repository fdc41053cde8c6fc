"""The WAL class alone (AbstractFSWAL/FSHLog): appends, syncs by durability, rolls, archiving,
a disk that refuses, and what a crash leaves (split)."""

import pytest

import hsim
from hsim.durability import Durability
from hsim.errors import DamagedWALError
from hsim.regions.wal import WAL

R1, R2 = "11" * 16, "22" * 16


def cells(row: bytes, seq: int = 1) -> list:
    return [hsim.Cell.make(row, b"f", b"q", 5, 4, b"v" * 10, seq)]


def wal(**cfg) -> WAL:
    return WAL("rs1.hsim,16020,0", hsim.Config(**cfg), now=0)


def test_sync_wal_is_synced_before_append_returns_and_survives_a_crash():
    w = wal()
    w.append(R1, 1, 10, cells(b"a"), Durability.SYNC_WAL)
    assert w.unsynced_bytes == 0 and w.syncs == 1 and w.fsyncs == 0
    synced, unsynced = w.split()
    assert synced == {R1: cells(b"a")} and unsynced == {}


def test_fsync_wal_counts_an_fsync():
    w = wal()
    w.append(R1, 1, 10, cells(b"a"), Durability.FSYNC_WAL)
    assert (w.syncs, w.fsyncs) == (1, 1)


def test_async_wal_waits_for_the_syncer_interval():
    w = wal(wal_async_flush_interval_ms=1000)
    w.append(R1, 1, 10, cells(b"a"), Durability.ASYNC_WAL)
    assert w.unsynced_bytes > 0
    assert w.split() == ({}, {R1: cells(b"a")})  # lost if the server died now
    w.sync_if_due(500)
    assert w.unsynced_bytes > 0  # not yet an interval since the last sync
    w.sync_if_due(1000)
    assert w.unsynced_bytes == 0 and w.split()[0] == {R1: cells(b"a")}


def test_rolls_at_blocksize_times_multiplier_and_archives_what_is_flushed():
    w = wal(wal_block_size=200, wal_roll_multiplier=1.0)
    rolled = []
    w.on_roll = lambda wal_, now: rolled.append(now)
    for seq in range(1, 6):
        w.append(R1 if seq % 2 else R2, seq, seq, cells(b"r%d" % seq, seq), Durability.SYNC_WAL)
    assert w.rolls == len(rolled) >= 1 and len(w.files) == w.rolls + 1
    # nothing flushed: every closed file is kept
    w.clean_old_logs(lambda region: 1)
    assert w.archived == []
    # every edit flushed: every closed file goes to oldWALs, the current one stays
    closed = [f.name for f in w.files[:-1]]
    w.clean_old_logs(lambda region: 100)
    assert w.archived == closed and w.files == [w.current]


def test_a_file_is_kept_while_one_region_still_has_unflushed_edits_in_it():
    w = wal()
    w.append(R1, 1, 1, cells(b"a", 1), Durability.SYNC_WAL)
    w.append(R2, 2, 2, cells(b"b", 2), Durability.SYNC_WAL)
    w.roll(3)
    w.clean_old_logs(lambda region: 100 if region == R1 else 2)  # R2's seq 2 unflushed
    assert w.archived == [] and len(w.files) == 2


def test_a_refused_sync_fails_the_mutation_and_leaves_the_file_as_it_was():
    w = wal()
    before = bytes(w.current.buf)

    def refuse(file, start, fsync):
        raise OSError("No space left on device")

    w.sink = refuse
    with pytest.raises(DamagedWALError, match="not applied"):
        w.append(R1, 1, 10, cells(b"a"), Durability.SYNC_WAL)
    assert bytes(w.current.buf) == before and w.entries == 0 and w.sync_failures == 1
    assert w.current.regions == {}


def test_a_roll_waits_while_the_disk_refuses_to_sync():
    w = wal()
    w.append(R1, 1, 10, cells(b"a"), Durability.ASYNC_WAL)
    w.sink = lambda file, start, fsync: (_ for _ in ()).throw(OSError("EIO"))
    w.roll(20)
    assert w.rolls == 0 and len(w.files) == 1 and w.unsynced_bytes > 0
    w.sink = None
    w.roll(30)
    assert w.rolls == 1 and len(w.files) == 2
