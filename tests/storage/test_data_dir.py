"""The data directory: layout, round trip through close() and through a crash, durability on
disk, compaction and split files, and clear errors that leave a bad directory untouched."""

import os

import pytest

import hsim
from hsim import Durability
from hsim.errors import (
    CorruptHFileError,
    DeserializationError,
    FileSystemVersionError,
    TableInfoMissingError,
)

from .disk import crash, snapshot
from .splits import split_uncompacted

CFG = dict(memstore_flush_size=32 * 1024)


def _cluster(path, **kw):
    return hsim.Cluster(config=hsim.Config(**CFG), data_dir=path, **kw)


def _fill(c, n=1500, table="t"):
    t = c.table(table)
    for i in range(n):
        t.put(b"r%05d" % i, {b"f:q": b"v%d" % i, b"g:x": b"x" * 40})
    return t


def _rows(c, table="t") -> dict:
    return {cells[0].row: [(x.column(), x.value) for x in cells] for cells in c.table(table).scan()}


def test_layout_is_hbases(tmp_path):
    with _cluster(tmp_path) as c:
        c.admin.create_table("t", ["f", "g"])
        _fill(c)
        region = c.master.tables["t"].locator.regions[0]
        sf = region.stores[b"f"].files[0]
        rdir = tmp_path / "data" / "default" / "t" / region.encoded_name
        assert (tmp_path / "hbase.version").read_text().startswith("hsim-data-dir")
        assert (tmp_path / "data/default/t/.tabledesc/.tableinfo.0000000001").is_file()
        assert (rdir / ".regioninfo").is_file()
        # the file on disk is the very bytes the HFile writer produced
        assert (rdir / "f" / sf.reader.name).read_bytes() == sf.reader.data
        server = c.region_servers[0].name
        assert os.listdir(tmp_path / "WALs" / server)
    assert not os.listdir(tmp_path / "WALs")  # a clean shutdown archives every WAL
    assert os.listdir(tmp_path / "oldWALs")


def test_round_trip_through_close(tmp_path):
    with _cluster(tmp_path) as c:
        c.admin.create_table("t", ["f", "g"], split_keys=[b"r00500"], durability=None)
        _fill(c)
        c.table("t").delete_row(b"r00007")
        c.table("t").increment(b"counter", b"f:n", 5)
        c.admin.disable_table("t")
        c.admin.enable_table("t")
        before = _rows(c)
        regions = [(r.start_key, r.end_key, r.encoded_name)
                   for r in c.master.tables["t"].locator.regions]
    with _cluster(tmp_path) as c2:
        assert _rows(c2) == before
        assert [(r.start_key, r.end_key, r.encoded_name)
                for r in c2.master.tables["t"].locator.regions] == regions
        assert c2.table("t").increment(b"counter", b"f:n", 1) == 6
        # time goes on from where it stopped: a new put is the newest version
        c2.table("t").put(b"r00001", {b"f:q": b"new"})
        assert c2.table("t").get(b"r00001", [b"f:q"])[0].value == b"new"
        c2.check_invariants()


def test_crash_keeps_acknowledged_writes_and_loses_skip_wal(tmp_path):
    c = _cluster(tmp_path)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    t.put(b"sync", {b"f:q": b"1"})
    t.put(b"fsync", {b"f:q": b"2"}, durability=Durability.FSYNC_WAL)
    t.put(b"skip", {b"f:q": b"3"}, durability=Durability.SKIP_WAL)
    t.delete_row(b"sync")
    t.put(b"sync", {b"f:q": b"4"})
    crash(c)
    c2 = _cluster(tmp_path)
    assert _rows(c2) == {b"fsync": [(b"f:q", b"2")], b"sync": [(b"f:q", b"4")]}
    c2.close()


def test_sync_wal_bytes_reach_the_os_before_the_reply(tmp_path):
    c = _cluster(tmp_path)
    c.admin.create_table("t", ["f"])
    wal = c.region_servers[0].wal
    path = tmp_path / "WALs" / c.region_servers[0].name / wal.current.name
    c.table("t").put(b"a", {b"f:q": b"1"})
    assert path.stat().st_size == wal.current.size > 0
    size = wal.current.size
    c.table("t").put(b"b", {b"f:q": b"2"}, durability=Durability.SKIP_WAL)
    c.table("t").put(b"c", {b"f:q": b"3"}, durability=Durability.ASYNC_WAL)
    assert path.stat().st_size == size  # SKIP_WAL appends nothing; ASYNC_WAL waits for a sync
    c.clock.advance(2000)
    c.table("t").put(b"d", {b"f:q": b"4"}, durability=Durability.ASYNC_WAL)
    assert path.stat().st_size > size  # the syncer ran: the earlier ASYNC_WAL edit is out
    c.close()


def test_compaction_deletes_files_and_split_survives_reopen(tmp_path):
    c = hsim.Cluster(config=hsim.Config(memstore_flush_size=16 * 1024, compaction_min_files=2),
                     data_dir=tmp_path)
    c.admin.create_table("t", ["f", "g"], max_filesize=64 * 1024)
    _fill(c, 3000)
    c.admin.major_compact("t")
    regions = c.master.tables["t"].locator.regions
    assert len(regions) > 1
    on_disk = {p for p in snapshot(tmp_path / "data") if "/f/" in p or "/g/" in p}
    in_memory = {f"default/t/{r.encoded_name}/{fam.decode()}/{sf.reader.name}"
                 for r in regions for fam, s in r.stores.items() for sf in s.files}
    assert on_disk == in_memory  # compacted-away files and split parents are gone
    before = _rows(c)
    crash(c)
    c2 = _cluster(tmp_path)
    assert _rows(c2) == before
    assert len(c2.master.tables["t"].locator.regions) == len(regions)
    c2.admin.flush("t")
    c2.admin.major_compact("t")
    c2.check_invariants()
    c2.close()


def test_drop_table_removes_its_directory(tmp_path):
    with _cluster(tmp_path) as c:
        c.admin.create_table("t", ["f"])
        c.admin.create_table("u", ["f"])
        c.admin.disable_table("t")
        c.admin.delete_table("t")
    assert sorted(os.listdir(tmp_path / "data" / "default")) == ["u"]
    with _cluster(tmp_path) as c2:
        assert [n for n in c2.master.tables] == ["u"]


def test_torn_last_wal_entry_is_dropped(tmp_path):
    c = _cluster(tmp_path)
    c.admin.create_table("t", ["f"])
    c.table("t").put(b"a", {b"f:q": b"1"})
    c.table("t").put(b"b", {b"f:q": b"2"})
    wal = c.region_servers[0].wal
    path = tmp_path / "WALs" / c.region_servers[0].name / wal.current.name
    crash(c)
    data = path.read_bytes()
    path.write_bytes(data[:-5])  # the process died in the middle of the last write
    c2 = _cluster(tmp_path)
    assert _rows(c2) == {b"a": [(b"f:q", b"1")]}
    c2.close()


def _broken(tmp_path, how) -> None:
    with _cluster(tmp_path) as c:
        c.admin.create_table("t", ["f"])
        _fill(c, 300)
        c.table("t").put(b"unflushed", {b"f:q": b"1"})
        crash(c)
    how()


def _one(tmp_path, pattern):
    return next(p for p in (tmp_path / "data").rglob("*") if p.is_file() and pattern(p))


@pytest.mark.parametrize("damage, error", [
    ("version", FileSystemVersionError),
    ("hfile", CorruptHFileError),
    ("truncated hfile", CorruptHFileError),
    ("tableinfo", TableInfoMissingError),
    ("no tableinfo", TableInfoMissingError),
    ("regioninfo", DeserializationError),
])
def test_bad_directory_gives_a_clear_error_and_is_left_untouched(tmp_path, damage, error):
    c = _cluster(tmp_path)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for i in range(300):
        t.put(b"r%04d" % i, {b"f:q": b"v"})
    c.admin.flush("t")
    t.put(b"unflushed", {b"f:q": b"1"})
    crash(c)
    hfile = _one(tmp_path, lambda p: p.parent.name == "f")
    if damage == "version":
        (tmp_path / "hbase.version").write_text("hsim-data-dir 99\n")
    elif damage == "hfile":
        data = bytearray(hfile.read_bytes())
        data[40:80] = b"\xff" * 40  # inside the first data block
        hfile.write_bytes(bytes(data))
    elif damage == "truncated hfile":
        hfile.write_bytes(hfile.read_bytes()[:100])
    elif damage == "tableinfo":
        (tmp_path / "data/default/t/.tabledesc/.tableinfo.0000000001").write_text("{nope")
    elif damage == "no tableinfo":
        (tmp_path / "data/default/t/.tabledesc/.tableinfo.0000000001").unlink()
    else:
        _one(tmp_path, lambda p: p.name == ".regioninfo").write_text("[]")
    before = snapshot(tmp_path)
    with pytest.raises(error) as e:
        _cluster(tmp_path)
    assert error.hbase_exception in str(e.value)
    assert snapshot(tmp_path) == before


def test_not_a_data_directory(tmp_path):
    (tmp_path / "something").write_text("mine")
    with pytest.raises(FileSystemVersionError):
        hsim.Cluster(data_dir=tmp_path)
    assert os.listdir(tmp_path) == ["something"]


def test_without_data_dir_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with hsim.Cluster() as c:
        c.admin.create_table("t", ["f"])
        c.table("t").put(b"a", {b"f:q": b"1"})
        assert c.data_dir is None
    assert os.listdir(tmp_path) == []


def test_namespaces_and_their_tables_survive(tmp_path):
    with _cluster(tmp_path) as c:
        c.admin.create_namespace("ns1")
        c.admin.create_namespace("empty")
        c.admin.create_table("ns1:t", ["f"])
        c.table("ns1:t").put(b"a", {b"f:q": b"1"})
    assert (tmp_path / "data" / "ns1" / "t" / ".tabledesc").is_dir()
    with _cluster(tmp_path) as c2:
        assert {"ns1", "empty", "default"} <= set(c2.admin.list_namespaces())
        assert c2.table("ns1:t").get(b"a")[0].value == b"1"
        c2.admin.drop_namespace("empty")
    assert not (tmp_path / "data" / "empty").exists()


def test_reference_files_survive_a_crash_until_compacted(tmp_path):
    """Daughters that still hold References to their parent's file (no compaction yet): the
    parent's directory stays, marked split, and goes once no reference is left."""
    c = hsim.Cluster(config=hsim.Config(**CFG), data_dir=tmp_path)
    c.admin.create_table("t", ["f"], split_enabled=False)
    t = c.table("t")
    for i in range(500):
        t.put(b"r%04d" % i, {b"f:q": b"v" * 50})
    c.admin.flush("t")
    parent = c.master.tables["t"].locator.regions[0]
    a, b = split_uncompacted(c, "t", b"r0250")
    pdir = tmp_path / "data/default/t" / parent.encoded_name
    assert b'"split": true' in (pdir / ".regioninfo").read_bytes()
    refs = list((tmp_path / "data/default/t" / a.encoded_name / "f").iterdir())
    assert [p.name.rsplit(".", 1)[1] for p in refs] == [parent.encoded_name]
    before = _rows(c)
    crash(c)
    with _cluster(tmp_path) as c2:
        assert _rows(c2) == before
        assert len(c2.master.tables["t"].locator.regions) == 2
        c2.admin.major_compact("t")
    assert not pdir.exists()
    with _cluster(tmp_path) as c3:
        assert _rows(c3) == before


def test_store_file_names_never_meet_an_earlier_sessions(tmp_path):
    """Sessions whose clocks barely move (a ManualClock) still name their flushes apart, so a
    new flush never takes the name (and so the place on disk) of an older file."""
    for session, flushes in enumerate([1, 3, 1]):
        with hsim.Cluster(clock=hsim.ManualClock(1000), data_dir=tmp_path) as c:
            if session == 0:
                c.admin.create_table("t", ["f"])
            for flush in range(flushes):
                c.table("t").put(b"r", {b"f:q": b"%d-%d" % (session, flush)})
                c.admin.flush("t")
    with hsim.Cluster(clock=hsim.ManualClock(1000), data_dir=tmp_path) as c:
        assert c.table("t").get(b"r")[0].value == b"2-0"


def test_zstd_and_bloom_families_round_trip_and_print_with_hsim_hfile(tmp_path, capsys):
    from hsim.cli import main
    fams = {"f": hsim.ColumnFamily(compression="ZSTD", bloom_filter="ROWCOL"),
            "g": hsim.ColumnFamily(compression="SNAPPY")}
    with _cluster(tmp_path) as c:
        c.admin.create_table("t", fams)
        _fill(c, 300)
        c.admin.flush("t")
        before = _rows(c)
    with _cluster(tmp_path) as c:
        assert c.master.tables["t"].descriptor.families[b"f"].compression == "ZSTD"
        assert _rows(c) == before
    path = next((tmp_path / "data" / "default" / "t").glob("*/f/*"))
    assert main(["hfile", str(path), "-m"]) == 0
    out = capsys.readouterr().out
    assert "compression=zstd" in out and "BLOOM_FILTER_TYPE = ROWCOL" in out


def test_encoded_family_and_its_files_survive_reopen(tmp_path):
    with _cluster(tmp_path) as c:
        c.admin.create_table("t", {"f": hsim.ColumnFamily(data_block_encoding="FAST_DIFF"),
                                   "g": hsim.ColumnFamily(data_block_encoding="ROW_INDEX_V1")})
        _fill(c)
        c.admin.flush("t")
        before = _rows(c)
    with _cluster(tmp_path) as c2:
        region = c2.master.tables["t"].locator.regions[0]
        assert region.stores[b"f"].family.data_block_encoding == "FAST_DIFF"
        assert {sf.reader.data_block_encoding for sf in region.stores[b"g"].files} == \
            {"ROW_INDEX_V1"}
        assert _rows(c2) == before
