"""oldWALs and the LogCleaner: archived WAL files go once older than
hbase.master.logcleaner.ttl of cluster time (TimeToLiveLogCleaner: strictly older), in memory
and on disk."""

import os

import pytest

import hsim
from hsim.errors import HsimError


def _cluster(data_dir=None, ttl=60_000):
    c = hsim.Cluster(1, config=hsim.Config(wal_block_size=2000, wal_archive_ttl_ms=ttl),
                     clock=hsim.ManualClock(1000), data_dir=data_dir)
    if "t" not in c.admin.list_tables():
        c.admin.create_table("t", ["f"])
    return c, c.table("t"), c.region_servers[0].wal


def _archive_some(c, t, wal, tag=b"a"):
    for i in range(30):
        t.put(tag + b"%03d" % i, {b"f:q": b"x" * 20})
    c.admin.flush("t")
    t.put(tag + b"999", {b"f:q": b"x" * 2000})  # a roll: the flushed files are archived
    assert wal.archived


def test_archived_files_are_listed_until_older_than_the_ttl():
    c, t, wal = _cluster()
    _archive_some(c, t, wal)
    cleaner = c.master.log_cleaner
    first = list(cleaner.old_wals)
    assert first == wal.archived and set(cleaner.old_wals.values()) == {1000}
    assert not any(f.name in first for f in wal.files)  # no archived bytes in the process
    c.clock.advance(60_000)  # exactly the TTL: not yet older than it
    _archive_some(c, t, wal, b"b")
    assert set(first) <= set(cleaner.old_wals) and cleaner.deleted == 0
    c.clock.advance(1)
    _archive_some(c, t, wal, b"c")
    assert not set(first) & set(cleaner.old_wals)
    assert cleaner.deleted == len(first) and len(cleaner.old_wals) == len(wal.archived) - len(first)
    assert wal.archived[:len(first)] == first  # the count of files ever archived stays


def test_an_aborted_servers_wals_are_cleaned_too():
    c = hsim.Cluster(2, config=hsim.Config(wal_archive_ttl_ms=10), clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"])
    c.table("t").put(b"r", {b"f:q": b"v"})
    dead = c.region_servers[0].wal
    c.abort_region_server(0)
    assert set(dead.archived) <= set(c.master.log_cleaner.old_wals)
    c.clock.advance(11)
    c.master.log_cleaner.chore(c.clock.now())
    assert not set(dead.archived) & set(c.master.log_cleaner.old_wals)


def test_the_data_directory_deletes_expired_old_wals(tmp_path):
    d = str(tmp_path / "data")
    c, t, wal = _cluster(d)
    _archive_some(c, t, wal)
    old = tmp_path / "data" / "oldWALs"
    first = sorted(wal.archived)
    assert sorted(os.listdir(old)) == first
    c.clock.advance(60_001)
    _archive_some(c, t, wal, b"b")
    on_disk = set(os.listdir(old))
    assert not set(first) & on_disk and on_disk == set(c.master.log_cleaner.old_wals)
    c.close()
    # reopened: what is in oldWALs is listed again, its TTL counted from the opening
    c, t, wal = _cluster(d)
    left = set(os.listdir(old))
    assert left and set(c.master.log_cleaner.old_wals) >= left
    c.clock.advance(60_001)
    _archive_some(c, t, wal, b"c")
    assert not left & set(os.listdir(old))
    c.close()


def test_a_negative_ttl_is_refused():
    with pytest.raises(HsimError, match=r"wal_archive_ttl_ms must be in \[0, "):
        hsim.Config(wal_archive_ttl_ms=-1)
