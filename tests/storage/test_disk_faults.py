"""Disk full, short writes and I/O errors injected at every write the WAL and HFile writers
make: no acknowledged put is lost, no failed put is applied (checked in the running cluster
and again after a crash and a reopen), flushes and compactions the disk refuses leave their
store as it was and are retried, and an open on a full disk leaves nothing behind."""

import errno
import os

import pytest

import hsim
from hsim import Durability
from hsim.errors import DamagedWALError, DiskIOError, DroppedSnapshotError

from .disk import crash
from .faults import FaultyDisk

CFG = dict(memstore_flush_size=6 * 1024, compaction_min_files=2)
PUTS = 70


def _cluster(path):
    return hsim.Cluster(config=hsim.Config(**CFG), data_dir=path)


def _setup(path):
    c = _cluster(path)
    c.admin.create_table("t", ["f"], split_keys=[b"r0035"])
    return c


def _workload(c, disk=None, free_after=None):
    """PUTS puts of distinct rows (some FSYNC_WAL); returns (acknowledged {row: value}, rows
    whose put failed). A failed put must be invisible at once."""
    t = c.table("t")
    acked, failed = {}, set()
    for i in range(PUTS):
        row, value = b"r%04d" % i, b"v%d-" % i + b"x" * 300
        try:
            t.put(row, {b"f:q": value}, durability=Durability.FSYNC_WAL if i % 5 == 0 else None)
        except DamagedWALError as e:
            assert "DamagedWALException" in str(e)
            assert t.get(row) == []  # not applied
            failed.add(row)
        else:
            acked[row] = value
        if disk is not None and free_after is not None and disk.refused >= free_after:
            disk.free()
    return acked, failed


def _visible(c) -> dict:
    return {cells[0].row: cells[0].value for cells in c.table("t").scan()}


def _writes_of_the_workload(tmp_path, monkeypatch) -> int:
    disk = FaultyDisk(monkeypatch)
    c = _setup(tmp_path / "count")
    disk.arm()
    _workload(c)
    n = disk.writes
    c.close()
    assert n > PUTS  # every SYNC_WAL put is a write, and flushes and compactions add theirs
    return n


def _check_after_crash(c, path, acked, failed):
    assert _visible(c) == acked
    c.check_invariants()
    crash(c)
    c2 = _cluster(path)
    assert _visible(c2) == acked  # every acknowledged put, no failed one
    assert not failed & set(_visible(c2))
    c2.check_invariants()
    c2.close()
    assert not os.path.exists(path / ".tmp")


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["full, freed", "full until the crash", "short write"])
def test_a_fault_at_every_write_loses_no_acknowledged_put(tmp_path, monkeypatch, mode):
    total = _writes_of_the_workload(tmp_path, monkeypatch)
    disk = FaultyDisk(monkeypatch)
    for k in range(total):
        path = tmp_path / f"k{k}"
        c = _setup(path)
        if mode == "short write":
            disk.arm(short_at=k)  # retried: nothing fails
        else:
            disk.arm(full_at=k)
        acked, failed = _workload(c, disk, free_after=3 if mode == "full, freed" else None)
        if mode == "short write":
            assert not failed and len(acked) == PUTS
        else:
            assert failed, f"write {k}: the full disk failed no put"
        disk.armed = False  # the crash, and the reopen on a disk with room again
        _check_after_crash(c, path, acked, failed)


def test_short_write_of_a_wal_entry_is_completed_not_ignored(tmp_path, monkeypatch):
    """The issue's finding: a short os.write of an entry was ignored and the put acknowledged."""
    disk = FaultyDisk(monkeypatch)
    c = _setup(tmp_path)
    disk.arm(short_at=0)
    acked, failed = _workload(c, disk)
    assert disk.writes > 1 and not failed
    disk.armed = False
    _check_after_crash(c, tmp_path, acked, failed)


def test_fsync_error_fails_the_put_unapplied(tmp_path, monkeypatch):
    disk = FaultyDisk(monkeypatch)
    c = _setup(tmp_path)
    t = c.table("t")
    t.put(b"a", {b"f:q": b"1"}, durability=Durability.FSYNC_WAL)
    disk.arm(eio_fsync_at=0)
    with pytest.raises(DamagedWALError, match="Input/output error"):
        t.put(b"b", {b"f:q": b"2"}, durability=Durability.FSYNC_WAL)
    assert t.get(b"b") == []
    t.put(b"c", {b"f:q": b"3"}, durability=Durability.FSYNC_WAL)
    assert c.metrics().servers[0].wal_sync_failures == 1
    disk.armed = False
    _check_after_crash(c, tmp_path, {b"a": b"1", b"c": b"3"}, {b"b"})


def _hfile_writes_fail(monkeypatch, times=1):
    """The disk fills up in the middle of the next `times` store-file writes (half the file
    lands in .tmp, then ENOSPC); the WAL and metadata writes still succeed."""
    from hsim.storage import fs

    real_write_file, real_pwrite, left = fs.write_file, fs.pwrite, [times]

    def half_then_full(fd, data, offset):
        if offset:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_pwrite(fd, bytes(data[:len(data) // 2]), offset)

    def write_file(path, data, tmp_dir):
        if left[0] and os.path.basename(os.path.dirname(path)) == "f":
            left[0] -= 1
            monkeypatch.setattr(fs, "pwrite", half_then_full)
            try:
                real_write_file(path, data, tmp_dir)
            finally:
                monkeypatch.setattr(fs, "pwrite", real_pwrite)
        return real_write_file(path, data, tmp_dir)

    monkeypatch.setattr(fs, "write_file", write_file)
    return left


def _store_dir_files(path) -> list:
    return sorted(p.name for p in (path / "data" / "default" / "t").rglob("*")
                  if p.is_file() and p.parent.name == "f")


def test_put_whose_flush_hits_enospc_is_acknowledged_and_the_flush_retried(tmp_path,
                                                                            monkeypatch):
    """The issue's finding: the put raised a bare OSError yet was applied. Its WAL entry is on
    disk, so it is acknowledged; the flush's snapshot goes back to the MemStore and the next
    write that crosses the flush size flushes it."""
    c = _cluster(tmp_path)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    left = _hfile_writes_fail(monkeypatch)
    store = c.master.tables["t"].locator.regions[0].stores[b"f"]
    acked = {}
    i = 0
    while left[0]:
        row, value = b"r%04d" % i, b"x" * 300
        t.put(row, {b"f:q": value})  # never raises: the flush runs in the background
        acked[row] = value
        i += 1
    assert store.files == [] and _store_dir_files(tmp_path) == []
    m = c.metrics()
    assert m.servers[0].flush_failures == 1 and m.regions[0].stores[0].flush_failures == 1
    assert m.regions[0].memstore_heap_bytes >= c.config.memstore_flush_size  # kept
    assert _visible(c) == acked
    c.check_invariants()
    t.put(b"next", {b"f:q": b"y"})  # the flush is retried, and now succeeds
    acked[b"next"] = b"y"
    assert len(store.files) == 1 and _store_dir_files(tmp_path) == [store.files[0].reader.name]
    _check_after_crash(c, tmp_path, acked, set())


def test_admin_flush_on_a_full_disk_raises_and_keeps_the_memstore(tmp_path, monkeypatch):
    c = _cluster(tmp_path)
    c.admin.create_table("t", ["f"])
    c.table("t").put(b"a", {b"f:q": b"1"})
    _hfile_writes_fail(monkeypatch)
    with pytest.raises(DroppedSnapshotError, match="DroppedSnapshotException"):
        c.admin.flush("t")
    assert _visible(c) == {b"a": b"1"} and c.metrics().regions[0].memstore_heap_bytes > 0
    c.check_invariants()
    c.admin.flush("t")  # space again
    assert c.metrics().regions[0].memstore_heap_bytes == 0
    _check_after_crash(c, tmp_path, {b"a": b"1"}, set())


def test_compaction_the_disk_refuses_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    c = _cluster(tmp_path)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for i in range(3):
        t.put(b"r%d" % i, {b"f:q": b"v%d" % i})
        c.admin.flush("t")
    store = c.master.tables["t"].locator.regions[0].stores[b"f"]
    files, on_disk = list(store.files), _store_dir_files(tmp_path)
    _hfile_writes_fail(monkeypatch)
    c.admin.major_compact("t")  # asynchronous in HBase: a failure is logged, not raised
    assert store.files == files and _store_dir_files(tmp_path) == on_disk
    assert c.metrics().regions[0].stores[0].compaction_failures == 1
    assert not os.listdir(tmp_path / "data" / "default" / "t" / ".tmp")  # no half file
    c.admin.major_compact("t")  # retried
    assert len(store.files) == 1 and len(_store_dir_files(tmp_path)) == 1
    _check_after_crash(c, tmp_path, {b"r%d" % i: b"v%d" % i for i in range(3)}, set())


def _tree(root) -> tuple:
    """Every directory and every file's bytes under root."""
    dirs, files = [], {}
    for d, subdirs, names in os.walk(root):
        dirs += [os.path.relpath(os.path.join(d, s), root) for s in subdirs]
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                files[os.path.relpath(os.path.join(d, n), root)] = f.read()
    return sorted(dirs), files


def test_reopen_on_a_full_disk_refuses_and_leaves_nothing_behind(tmp_path, monkeypatch):
    c = _setup(tmp_path)
    acked, _ = _workload(c)
    crash(c)  # its WAL edits wait for a replay, which must flush (write HFiles)
    before = _tree(tmp_path)
    disk = FaultyDisk(monkeypatch)
    disk.arm(full_at=0)
    with pytest.raises(DiskIOError, match="nothing was changed") as e:
        _cluster(tmp_path)
    assert "java.io.IOException" in str(e.value) and "No space left" in str(e.value)
    assert _tree(tmp_path) == before  # no new WAL directory, no .tmp, no HFile
    disk.armed = False
    c2 = _cluster(tmp_path)
    assert _visible(c2) == acked
    c2.close()


def test_region_server_abort_whose_replay_cannot_flush_keeps_the_dead_wal(tmp_path, monkeypatch):
    """abort_region_server on a full disk: the replayed edits stay in the new server's
    MemStore, and the dead server's WAL stays on disk until they are flushed."""
    c = hsim.Cluster(2, config=hsim.Config(**CFG), data_dir=tmp_path)
    c.admin.create_table("t", ["f"], split_keys=[b"m"])
    t = c.table("t")
    acked = {}
    for i in range(20):
        row = b"%c%03d" % (b"am"[i % 2], i)
        t.put(row, {b"f:q": b"v%d" % i})
        acked[row] = b"v%d" % i
    dead = c.region_servers[0].name
    left = _hfile_writes_fail(monkeypatch, times=10)
    report = c.abort_region_server(0)  # no exception: the failed flush is retried later
    assert report.edits_replayed == 10 and left[0] < 10
    assert _visible(c) == acked
    assert os.listdir(tmp_path / "WALs" / dead)  # still needed
    left[0] = 0  # space again
    crash(c)
    c2 = hsim.Cluster(2, config=hsim.Config(**CFG), data_dir=tmp_path)
    assert _visible(c2) == acked
    c2.admin.flush("t")
    c2.close()
    assert not (tmp_path / "WALs" / dead).exists()


def test_dead_wal_goes_once_the_replayed_edits_are_flushed(tmp_path, monkeypatch):
    c = hsim.Cluster(2, config=hsim.Config(**CFG), data_dir=tmp_path)
    c.admin.create_table("t", ["f"], split_keys=[b"m"])
    c.table("t").put(b"a", {b"f:q": b"1"})
    dead = c.region_servers[0].name
    left = _hfile_writes_fail(monkeypatch, times=10)
    c.abort_region_server(0)
    assert (tmp_path / "WALs" / dead).exists()
    left[0] = 0
    c.admin.flush("t")
    assert not (tmp_path / "WALs" / dead).exists()
    assert _visible(c) == {b"a": b"1"}
    c.close()


def test_open_needing_no_writes_works_on_a_full_disk_and_refuses_puts(tmp_path, monkeypatch):
    with _setup(tmp_path) as c:
        acked, _ = _workload(c)
    disk = FaultyDisk(monkeypatch)
    disk.arm(full_at=0)
    c = _cluster(tmp_path)  # a clean close left nothing to replay: nothing to write
    assert _visible(c) == acked
    with pytest.raises(DamagedWALError):
        c.table("t").put(b"new", {b"f:q": b"1"})
    assert c.table("t").get(b"new") == []
    disk.armed = False
    c.close()


def test_async_wal_syncer_refused_keeps_the_edits_for_the_next_sync(tmp_path, monkeypatch):
    c = hsim.Cluster(config=hsim.Config(**CFG), data_dir=tmp_path, clock=hsim.ManualClock(1000))
    c.admin.create_table("t", ["f"], durability="ASYNC_WAL")
    t = c.table("t")
    wal = c.region_servers[0].wal
    disk = FaultyDisk(monkeypatch)
    t.put(b"a", {b"f:q": b"1"})  # acknowledged, not yet synced
    disk.arm(full_at=0)
    c.clock.advance(1000)
    t.put(b"b", {b"f:q": b"2"})  # the syncer runs first, and the disk refuses it
    assert wal.sync_failures == 1 and wal.unsynced_bytes > 0
    assert _visible(c) == {b"a": b"1", b"b": b"2"}
    disk.armed = False
    c.clock.advance(1000)
    t.put(b"c", {b"f:q": b"3"}, durability=Durability.SYNC_WAL)  # covers a and b too
    crash(c)
    c2 = _cluster(tmp_path)
    assert _visible(c2) == {b"a": b"1", b"b": b"2", b"c": b"3"}
    c2.close()


def test_shell_on_a_disk_that_fills_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    """Puts refused (ERROR lines), then the exit's close cannot flush: one line, no
    traceback, and the next start has every acknowledged put."""
    from hsim.shell.main import main as shell_main
    from hsim.storage import fs

    d = str(tmp_path / "hbase")
    script = tmp_path / "a.hb"
    script.write_text("create 't', 'f'\nput 't', 'r1', 'f:a', 'v1'\n")
    assert shell_main(["--data-dir", d, str(script)]) == 0
    script.write_text("put 't', 'r2', 'f:a', 'v2'\nput 't', 'r3', 'f:a', 'v3'\n")
    real, calls = fs.pwrite, []

    def pwrite(fd, data, offset):  # room for one WAL write, then full
        calls.append(1)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data, offset)

    monkeypatch.setattr(fs, "pwrite", pwrite)
    capsys.readouterr()
    shell_main(["--data-dir", d, str(script)])
    out, err = capsys.readouterr()
    assert "DamagedWALException" in out  # r3's put
    assert "cannot close data directory" in err and "WALs are kept" in err
    assert "Traceback" not in out + err
    monkeypatch.setattr(fs, "pwrite", real)
    c = hsim.Cluster(data_dir=d)
    assert {cells[0].row: cells[0].value for cells in c.table("t").scan()} == {
        b"r1": b"v1", b"r2": b"v2"}
    c.close()


def test_balance_whose_move_cannot_flush_leaves_the_region_where_it_was(tmp_path, monkeypatch):
    c = hsim.Cluster(1, config=hsim.Config(**CFG), data_dir=tmp_path)
    c.admin.create_table("t", ["f"], split_keys=[b"m"])
    c.table("t").put(b"a", {b"f:q": b"1"})
    c.table("t").put(b"x", {b"f:q": b"2"})
    c.start_region_server()
    _hfile_writes_fail(monkeypatch, times=10)
    with pytest.raises(DroppedSnapshotError):
        c.admin.balance()
    assert [len(s.regions) for s in c.region_servers] == [2, 0]  # nothing moved, none lost
    assert _visible(c) == {b"a": b"1", b"x": b"2"}
    c.check_invariants()
