"""Snapshots in a data directory (hsim.storage.snapshots, hsim.storage.archive): HBase's
layout (.hbase-snapshot/<name>/.snapshotinfo and data.manifest, archive/data/..., HFileLinks
named <table>=<region>-<hfile>); snapshot, clone, restore and delete survive a clean restart
and a crash with every cell readable; a file only a snapshot or a link reads is archived, not
deleted, and removed when the last of them goes."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

import hsim
from hsim.errors import DeserializationError

from . import crash_steps as cs
from .disk import crash
from .splits import split_uncompacted
from .disk import snapshot as disk_snapshot

ROWS = [b"r%03d" % i for i in range(60)]
LINK = re.compile(r"^t=[0-9a-f]{32}-[0-9a-f]{32}$")


def _open(path):
    return hsim.Cluster(2, clock=hsim.ManualClock(1000), data_dir=path)


def _fill(c, table: str, tag: bytes) -> None:
    t = c.table(table)
    for r in ROWS:
        t.put(r, {b"f:q": tag + r, b"f:z": tag})
    c.admin.flush(table)


def _cells(c, table: str) -> list:
    return [(k.row, k.qualifier, k.timestamp, k.value) for row in
            c.table(table).scan(max_versions=10) for k in row]


def _files(root, sub: str) -> dict:
    """relative path -> size of every file under root/sub."""
    top = os.path.join(root, sub)
    return {os.path.relpath(os.path.join(d, f), top): os.path.getsize(os.path.join(d, f))
            for d, _dirs, files in os.walk(top) for f in files}


def _store_files(root, table: str) -> dict:
    return {p: n for p, n in _files(root, f"data/default/{table}").items()
            if not os.path.basename(p).startswith(".")}


def _archived(root, table: str = "t") -> set:
    """The archived files of `table` (as _store_files names them); AssertionError if any other
    table has one."""
    files = set(_files(root, "archive/data"))
    prefix = f"default/{table}/"
    assert all(p.startswith(prefix) for p in files), files
    return {p[len(prefix):] for p in files}


def _setup(path):
    c = _open(path)
    c.admin.create_table("t", {"f": {}}, split_keys=[b"r030"])
    _fill(c, "t", b"a")
    c.admin.snapshot("s1", "t")
    return c, _cells(c, "t")


def test_layout_is_hbases_and_a_clone_copies_no_byte(tmp_path):
    c, want = _setup(tmp_path)
    snap = tmp_path / ".hbase-snapshot" / "s1"
    assert sorted(os.listdir(snap)) == [".snapshotinfo", "data.manifest"]
    assert not os.listdir(tmp_path / ".hbase-snapshot" / ".tmp")  # the working dir, emptied
    source = _store_files(tmp_path, "t")
    c.admin.clone_snapshot("s1", "c1")
    links = _store_files(tmp_path, "c1")
    assert len(links) == len(source) == 2
    # each link is an empty file named for the file it reads, in the same family directory
    assert all(size == 0 and LINK.match(os.path.basename(p)) for p, size in links.items())
    assert sorted(os.path.basename(p).replace("t=", "").replace("-", "/f/") for p in links) \
        == sorted(source)
    assert _cells(c, "c1") == want
    c.close()


def test_snapshot_clone_restore_delete_survive_restarts_and_crashes(tmp_path):
    c, want = _setup(tmp_path)
    held = set(_store_files(tmp_path, "t"))
    c.admin.clone_snapshot("s1", "c1")
    _fill(c, "t", b"b")
    c.admin.major_compact("t")  # the snapshot's files leave t: archived, not deleted
    assert _archived(tmp_path) == held
    assert not held & set(_store_files(tmp_path, "t"))
    changed = _cells(c, "t")
    c.close()

    c = _open(tmp_path)  # a clean restart
    assert [(s.name, s.table) for s in c.admin.list_snapshots()] == [("s1", "t")]
    assert _cells(c, "c1") == want and _cells(c, "t") == changed
    c.admin.disable_table("t")
    c.admin.restore_snapshot("s1")
    c.admin.enable_table("t")
    assert _cells(c, "t") == want
    crash(c)  # kill -9: no close, no flush

    c = _open(tmp_path)
    assert _cells(c, "t") == want and _cells(c, "c1") == want
    c.admin.delete_snapshot("s1")
    assert not (tmp_path / ".hbase-snapshot" / "s1").exists()
    assert _archived(tmp_path) == held  # t (restored) and c1 still link to them
    c.admin.major_compact("c1")
    assert _archived(tmp_path) == held  # t still does
    crash(c)

    c = _open(tmp_path)
    assert c.admin.list_snapshots() == []
    assert _cells(c, "t") == want and _cells(c, "c1") == want
    c.admin.major_compact("t")  # the last link goes: HFileCleaner deletes the archived files
    assert _archived(tmp_path) == set()
    assert all(not LINK.match(os.path.basename(p)) for p in _store_files(tmp_path, "t"))
    c.close()
    c = _open(tmp_path)
    assert _cells(c, "t") == want and _cells(c, "c1") == want
    c.close()


def test_files_held_only_by_a_snapshot_go_when_it_goes(tmp_path):
    c, want = _setup(tmp_path)
    held = set(_store_files(tmp_path, "t"))
    c.admin.disable_table("t")
    c.admin.delete_table("t")  # HFileArchiver keeps what the snapshot holds
    assert not (tmp_path / "data" / "default" / "t").exists()
    assert _archived(tmp_path) == held
    c.close()
    c = _open(tmp_path)
    c.admin.clone_snapshot("s1", "t2")  # from archive/ alone
    assert _cells(c, "t2") == want
    c.admin.disable_table("t2")
    c.admin.delete_table("t2")
    assert _archived(tmp_path) == held
    c.admin.delete_snapshot("s1")  # the last reader: SnapshotHFileCleaner lets them go
    assert _archived(tmp_path) == set()
    assert not (tmp_path / "archive" / "data" / "default" / "t").exists()
    c.close()
    c = _open(tmp_path)
    assert c.admin.list_snapshots() == [] and c.admin.list_tables() == []
    c.close()


def test_a_snapshot_of_a_split_table_and_of_a_clone(tmp_path):
    """References (a split daughter's halves) and links (a clone's) in a snapshot: cloned
    again, restarted, compacted away, every cell still there."""
    c = _open(tmp_path)
    c.admin.create_table("t", {"f": {}})
    _fill(c, "t", b"a")
    split_uncompacted(c, "t", b"r030")
    assert any(f.is_reference for r in c.admin.regions("t") for f in r.store_files["f"])
    want = _cells(c, "t")
    c.admin.snapshot("refs", "t")
    c.admin.clone_snapshot("refs", "c1")
    c.admin.snapshot("links", "c1")
    c.admin.clone_snapshot("links", "c2")
    for table in ("t", "c1"):
        c.admin.major_compact(table)
    crash(c)
    c = _open(tmp_path)
    for table in ("t", "c1", "c2"):
        assert _cells(c, table) == want, table
    c.admin.delete_snapshot("refs")
    c.admin.delete_snapshot("links")
    assert _archived(tmp_path)  # c2 still reads the parent's file through its references
    c.admin.major_compact("c2")
    assert _archived(tmp_path) == set()
    c.close()
    c = _open(tmp_path)
    for table in ("t", "c1", "c2"):
        assert _cells(c, table) == want, table
    c.close()


def test_a_snapshot_whose_file_is_gone_is_refused_at_open(tmp_path):
    c, _want = _setup(tmp_path)
    c.admin.disable_table("t")
    c.admin.delete_table("t")
    c.close()
    for p in _archived(tmp_path):
        os.remove(tmp_path / "archive" / "data" / "default" / "t" / p)
    half = tmp_path / ".hbase-snapshot" / ".tmp" / "half"  # a crash's working directory
    os.makedirs(half)
    (half / ".snapshotinfo").write_bytes(b"{}")
    before = disk_snapshot(tmp_path)
    with pytest.raises(DeserializationError, match="neither under data/ nor under archive"):
        _open(tmp_path)
    assert disk_snapshot(tmp_path) == before  # refused, and nothing changed
    shutil.rmtree(tmp_path / ".hbase-snapshot" / "s1")
    _open(tmp_path).close()  # the snapshot gone, the directory opens: the working dir goes
    assert not half.exists()


OPS = ("snapshot", "clone", "restore", "delete_snapshot")


def _do(c, op: str) -> None:
    if op == "snapshot":
        c.admin.snapshot("s2", "t")
    elif op == "clone":
        c.admin.clone_snapshot("s1", "c1")
    elif op == "restore":
        c.admin.restore_snapshot("s1")
    else:
        c.admin.delete_snapshot("s1")


def _crash_setup(path, op: str):
    c, want = _setup(path)
    _fill(c, "t", b"b")
    c.admin.major_compact("t")
    before = _cells(c, "t")
    if op == "restore":
        c.admin.disable_table("t")
    return c, want, before


@pytest.mark.parametrize("op", [pytest.param(op, marks=pytest.mark.slow) if op == "restore"
                                else op for op in OPS])
def test_a_crash_at_every_step(tmp_path, op):
    """Each step that changes the disk, in turn, is where the process dies; the reopened
    directory has the operation done or not, never half, and every cell readable. (A restore
    is a drop and a re-creation of its table: a crash between them leaves no table, and the
    restore is run again, as after a failed RestoreSnapshotProcedure.)"""
    outcomes = []
    for k in range(1, 200):
        path = tmp_path / str(k)
        c, want, before = _crash_setup(path, op)
        finished = True
        with cs.steps(k, _killed):
            try:
                _do(c, op)
            except cs.Killed:
                finished = False
        crash(c)
        c = _open(path)
        names = [s.name for s in c.admin.list_snapshots()]
        tables = c.admin.list_tables()
        if "t" in tables and not c.admin.is_table_enabled("t"):
            c.admin.enable_table("t")
        if op == "snapshot":
            assert names in (["s1"], ["s1", "s2"])
            outcomes.append("s2" in names)
            if "s2" in names:
                c.admin.clone_snapshot("s2", "x")
                assert _cells(c, "x") == before
        elif op == "clone":
            outcomes.append("c1" in tables)
            if "c1" in tables:
                assert _cells(c, "c1") == want
        elif op == "restore":
            outcomes.append("t" in tables and _cells(c, "t") == want)
            if not outcomes[-1]:
                if "t" in tables:
                    assert _cells(c, "t") == before
                    c.admin.disable_table("t")
                c.admin.restore_snapshot("s1")
                c.admin.enable_table("t")
            assert _cells(c, "t") == want
        else:
            assert names in (["s1"], [])
            outcomes.append(names == [])
        if op != "restore":
            assert _cells(c, "t") == before
        if "s1" in names:  # what the snapshot holds is all there
            c.admin.clone_snapshot("s1", "check")
            assert _cells(c, "check") == want
        c.close()
        if finished:
            break
    assert finished
    # not done up to some step, done from then on
    first = outcomes.index(True)
    assert first > 0 and outcomes == [False] * first + [True] * (len(outcomes) - first)


def _killed():
    raise cs.Killed


CHILD = """
import os, signal, sys
from tests.storage.test_snapshot_persistence import _fill, _setup
c, want = _setup(sys.argv[1])
c.admin.clone_snapshot("s1", "c1")
_fill(c, "t", b"b")
c.admin.major_compact("t")
c.table("c1").put(b"r000", {b"f:q": b"only in the WAL"})
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_real_sigkill_keeps_snapshot_clone_and_archive(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    r = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], cwd=root,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == -signal.SIGKILL, r.stderr
    c = _open(tmp_path)
    assert [s.name for s in c.admin.list_snapshots()] == ["s1"]
    assert {v for *_k, v in _cells(c, "t")} == {b"b" + r for r in ROWS} | {b"b"}
    c.admin.clone_snapshot("s1", "c2")  # s1 as taken, from its archived files
    got, snap = _cells(c, "c1"), _cells(c, "c2")
    assert got[0][3] == b"only in the WAL" and got[1:] == snap[1:] and snap[0][3] == b"ar000"
    assert len(_archived(tmp_path)) == 2
    c.close()
