"""Snapshots, clone and restore: every cell kept through compactions and drops, files shared
(no byte copied until a compaction)."""

from __future__ import annotations

import pytest

import hsim
from hsim.errors import (SnapshotExistsError, SnapshotNotFoundError,
                         TableNotDisabledError)


def _cells(c, table: str) -> list:
    return [(k.row, k.qualifier, k.timestamp, k.value) for row in
            c.table(table).scan(max_versions=10) for k in row]


def _readers(c, table: str) -> set:
    return {id(sf.reader) for r in c.master.tables[table].locator.regions
            for s in r.stores.values() for sf in s.files}


@pytest.fixture
def c():
    c = hsim.Cluster(2, clock=hsim.ManualClock(1000))
    c.admin.create_table("t", {"f": {"max_versions": 3}}, split_keys=[b"m"])
    t = c.table("t")
    for i in range(20):
        t.put(b"%c%02d" % (b"az"[i % 2], i), {b"f:q": b"v%d" % i})
    c.admin.flush("t")
    for i in range(0, 20, 3):
        t.put(b"%c%02d" % (b"az"[i % 2], i), {b"f:q": b"w%d" % i})  # in the MemStore
    return c


def test_snapshot_flushes_and_clone_shares_every_file(c):
    c.admin.snapshot("s1", "t")
    want = _cells(c, "t")
    c.admin.clone_snapshot("s1", "copy")
    assert _cells(c, "copy") == want
    assert _readers(c, "copy") == _readers(c, "t")  # links: the same files, no byte copied
    names = [sf.name for r in c.master.tables["copy"].locator.regions
             for s in r.stores.values() for sf in s.files]
    assert names and all(n.startswith("t=") for n in names)  # HFileLink names
    (s,) = c.admin.list_snapshots()
    assert (s.name, s.table, s.type) == ("s1", "t", "FLUSH") and s.size > 0


def test_cells_survive_compaction_and_drop_of_the_source_and_the_clone_writes_own_files(c):
    c.admin.snapshot("s1", "t")
    want = _cells(c, "t")
    c.table("t").put(b"a00", {b"f:q": b"later"})
    c.admin.major_compact("t")
    c.admin.disable_table("t")
    c.admin.delete_table("t")
    c.admin.clone_snapshot("s1", "copy")
    assert _cells(c, "copy") == want
    shared = _readers(c, "copy")
    c.admin.major_compact("copy")
    assert _cells(c, "copy") == want and not (_readers(c, "copy") & shared)
    c.admin.clone_snapshot("s1", "again")  # the snapshot still holds its files
    assert _cells(c, "again") == want


def test_restore_puts_a_disabled_table_back_and_leaves_it_disabled(c):
    c.admin.snapshot("s1", "t")
    want = _cells(c, "t")
    t = c.table("t")
    t.put(b"a01", {b"f:q": b"after"})
    t.delete_row(b"z19")
    c.admin.split("t", b"f")
    with pytest.raises(TableNotDisabledError):
        c.admin.restore_snapshot("s1")
    c.admin.disable_table("t")
    c.admin.restore_snapshot("s1")
    assert not c.admin.is_table_enabled("t")
    c.admin.enable_table("t")
    assert _cells(c, "t") == want
    assert [r.start_key for r in c.admin.regions("t")] == [b"", b"m"]
    t.put(b"a01", {b"f:q": b"new"})  # writes after a restore sort above the restored cells
    assert t.get(b"a01")[0].value == b"new"


def test_refusals_change_nothing(c, tmp_path):
    c.admin.snapshot("s1", "t")
    with pytest.raises(SnapshotExistsError):
        c.admin.snapshot("s1", "t")
    with pytest.raises(SnapshotNotFoundError):
        c.admin.clone_snapshot("nope", "x")
    with pytest.raises(hsim.errors.TableExistsError):
        c.admin.clone_snapshot("s1", "t")
    with pytest.raises(hsim.errors.InvalidArgumentError, match="illegal"):
        c.admin.snapshot("-bad", "t")
    c.admin.delete_snapshot("s1")
    assert c.admin.list_snapshots() == [] and c.admin.list_tables() == ["t"]
    with pytest.raises(SnapshotNotFoundError):
        c.admin.delete_snapshot("s1")


def test_shell_snapshot_commands():
    import io

    from hsim.shell import Shell

    out = io.StringIO()
    sh = Shell(out=out, timer=lambda: 0.0, width=0)
    sh.run_script("create 't', 'f'\nput 't', 'r1', 'f:q', 'v1'\nsnapshot 't', 's1'\n"
                  "clone_snapshot 's1', 'c'\nput 't', 'r1', 'f:q', 'v2'\n"
                  "disable 't'\nrestore_snapshot 's1'\nenable 't'\nget 't', 'r1'\n"
                  "get 'c', 'r1'\nlist_snapshots\ndelete_snapshot 's1'\nlist_snapshots\n"
                  "restore_snapshot 's1'")
    text = out.getvalue()
    assert text.count("value=v1") == 2 and "value=v2" not in text
    assert "SNAPSHOT TABLE + CREATION TIME" in " ".join(text.split()) or "SNAPSHOT" in text
    assert " s1 t (" in text and "+0000)" in text
    assert "1 row(s)" in text and "0 row(s)" in text
    assert "ERROR:" in text and "Snapshot 's1' doesn't exist" in text and "Traceback" not in text
