"""Bulk load (HFileOutputFormat2 + BulkLoadHFilesTool): files in without the write path."""

from __future__ import annotations

import os
import shutil

import pytest

import hsim
from hsim import bulk
from hsim.engine import file_info as fi
from hsim.engine.hfile_reader import HFileReader
from hsim.cell import CellType
from hsim.errors import CorruptHFileError, InvalidArgumentError, NoSuchColumnFamilyError
from hsim.protobuf import read_fields
from hsim.regions.wal_codec import decode_entries, encode_entry
from hsim.regions.wal_markers import is_meta
from hsim.schema import ColumnFamily
from tests.storage.disk import crash
from tests.storage.faults import FaultyDisk

SPLITS = [b"r03", b"r06"]


def _cluster(**kw):
    c = hsim.Cluster(2, clock=hsim.ManualClock(1000), **kw)
    c.admin.create_table("t", {"f": {}, "g": {}}, split_keys=SPLITS)
    return c


def _rows(n: int, tag: str = "v") -> dict:
    return {b"r%02d" % i: {b"f:a": f"{tag}{i}".encode(), b"g:b": b"x" * i} for i in range(n)}


def _snapshot(c) -> dict:
    t = c.table("t")
    return {row: sorted((k.family, k.qualifier, k.value) for k in cells)
            for row, cells in ((cells[0].row, cells) for cells in t.scan())}


def _wal_bytes(c) -> int:
    return sum(s.wal.bytes_written for s in c.master.servers)


def _wal_ends(c) -> dict:
    return {s.name: (s.wal.current, s.wal.current.size) for s in c.master.servers}


def _entries_since(c, ends: dict) -> list:
    """The WAL entries every server appended after `ends` (_wal_ends)."""
    out = []
    for s in c.master.servers:
        f, start = ends[s.name]
        out += decode_entries(f.buf, start)
    return out


def _descriptor(value: bytes) -> dict:
    """A BulkLoadDescriptor's fields (WAL.proto), nested messages decoded."""
    top = read_fields(value, 0, len(value))
    d = {"stores": []}
    for n, v in top:
        if n == 1:
            d["table"] = [x for _, x in read_fields(v, 0, len(v))]
        elif n == 3:
            d["stores"].append(read_fields(v, 0, len(v)))
        else:
            d[n] = v
    return d


def _files(c) -> dict:
    return {(r.start_key, f): [sf.name for sf in fs] for r in c.admin.regions("t")
            for f, fs in r.store_files.items()}


def test_files_one_per_region_and_family_with_hfileoutputformat2_file_info(tmp_path):
    c = _cluster()
    paths = bulk.write_hfiles(c.table("t"), _rows(10), tmp_path, compaction_exclude=True)
    assert len(paths) == 3 * 2  # three regions, two families
    assert sorted(os.listdir(tmp_path)) == ["f", "g"]
    cf = ColumnFamily()
    for p in paths:
        r = HFileReader(open(p, "rb").read(), os.path.basename(p), cf, c.config)
        assert r.file_info[fi.BULKLOAD_TIME_KEY] == fi.long_bytes(c.clock.now())
        assert r.file_info[fi.BULKLOAD_TASK_KEY] == b"hsim-bulk"
        assert r.is_major and r.bulk_loaded and r.exclude_from_minor
        # each file within one region: [b"", r03), [r03, r06), [r06, ...)
        rows = {cell.row for cell in r.cells()}
        assert len({sum(row >= s for s in SPLITS) for row in rows}) == 1


def test_load_reads_back_every_cell_writes_no_wal_and_takes_a_new_sequence_id(tmp_path):
    c = _cluster()
    t = c.table("t")
    t.put(b"r01", {b"f:a": b"old"})  # same timestamp as the load's: the load's seq id wins
    seq_before = {r.start_key: r for r in c.master.tables["t"].locator.regions}[b""].seq_id
    wal, ends = _wal_bytes(c), _wal_ends(c)
    bulk.write_hfiles(t, _rows(10), tmp_path)
    assert c.admin.bulk_load("t", tmp_path) == 6
    # the WAL bytes of the load: one BULK_LOAD marker per region, nothing else
    entries = _entries_since(c, ends)
    assert sum(len(encode_entry(*e)) for e in entries) == _wal_bytes(c) - wal > 0
    regions = {r.encoded_name: r for r in c.master.tables["t"].locator.regions}
    assert sorted(e[0] for e in entries) == sorted(regions)
    for encoded, seq, when, (cell,) in entries:
        r = regions[encoded]
        assert (cell.row, cell.family, cell.qualifier) == (r.start_key or b"\x00",
                                                           b"METAFAMILY", b"HBASE::BULK_LOAD")
        assert cell.type == CellType.PUT and cell.timestamp == when == 1000
        d = _descriptor(cell.value)
        assert d["table"] == [b"default", b"t"] and d[2] == encoded.encode()
        loaded = {f: [sf for sf in s.files if "_SeqId_" in sf.name] for f, s in r.stores.items()}
        assert d[4] == loaded[b"f"][0].max_seq_id == seq - 1 == r.seq_id - 1
        assert d[6] == 1  # replicate
        assert sorted((dict(st)[1], [v for n, v in st if n == 3], dict(st)[4])
                      for st in d["stores"]) == sorted(
            (f, [sf.name.encode() for sf in sfs], sum(sf.size for sf in sfs))
            for f, sfs in loaded.items())
    assert _snapshot(c) == {row: sorted((k.split(b":")[0], k.split(b":")[1], v)
                                        for k, v in cols.items())
                            for row, cols in _rows(10).items()}
    first = [r for r in c.admin.regions("t") if r.start_key == b""][0]
    loaded = [sf for sf in first.store_files["f"] if "_SeqId_" in sf.name]
    assert len(loaded) == 1 and loaded[0].max_seq_id == seq_before + 1
    assert loaded[0].name.endswith(f"_SeqId_{seq_before + 1}_")
    # the MemStore was flushed first (HRegion.bulkLoadHFiles), so "old" sits below the load
    assert len(first.store_files["f"]) == 2


def test_a_file_across_region_boundaries_is_split(tmp_path):
    c = _cluster()
    # one file for all rows, as written for a table of one region
    bulk.write_hfiles([], _rows(10), tmp_path, families=["f", "g"], now=1000)
    assert len(os.listdir(tmp_path / "f")) == 1
    assert c.admin.bulk_load("t", tmp_path) == 6  # two splits of each family's file
    for r in c.admin.regions("t"):
        for fam in ("f", "g"):
            (sf,) = r.store_files[fam]
            assert sf.entries == 3 if r.start_key in (b"", b"r03") else sf.entries == 4
    assert len(_snapshot(c)) == 10


def test_minor_compactions_skip_files_flagged_exclude(tmp_path):
    c = hsim.Cluster(1, config=hsim.Config(compaction_min_files=2), clock=hsim.ManualClock(1))
    c.admin.create_table("t", {"f": {}})
    t = c.table("t")
    bulk.write_hfiles(t, {b"a": {b"f:q": b"1"}}, tmp_path / "one", compaction_exclude=True)
    c.admin.bulk_load("t", tmp_path / "one")
    for i in range(2):
        t.put(b"b%d" % i, {b"f:q": b"v"})
        c.admin.flush("t")
    (region,) = c.admin.regions("t")
    names = [sf.name for sf in region.store_files["f"]]
    assert len(names) == 2 and any("_SeqId_" in n for n in names)  # flushes compacted alone
    c.admin.major_compact("t")
    assert len(c.admin.regions("t")[0].store_files["f"]) == 1  # a major takes it


def test_an_unreadable_file_is_refused_and_nothing_is_loaded(tmp_path):
    c = _cluster()
    t = c.table("t")
    t.put(b"r05", {b"f:a": b"kept"})
    bulk.write_hfiles(t, _rows(10), tmp_path)
    (tmp_path / "f" / "zz-not-an-hfile").write_bytes(b"PAR1 this is parquet, not an HFile")
    before, files = _snapshot(c), _files(c)
    with pytest.raises(CorruptHFileError, match="Problem reading HFile .*zz-not-an-hfile"):
        c.admin.bulk_load("t", tmp_path)
    assert _snapshot(c) == before and _files(c) == files


def test_unknown_family_directory_and_missing_directory_are_refused(tmp_path):
    c = _cluster()
    bulk.write_hfiles([], _rows(3), tmp_path, families=["f", "g"], now=5)
    (tmp_path / "h").mkdir(exist_ok=True)
    shutil.copy(next((tmp_path / "f").iterdir()), tmp_path / "h" / "copy")
    with pytest.raises(NoSuchColumnFamilyError, match="Unmatched family names found.*'h'"):
        c.admin.bulk_load("t", tmp_path)
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        c.admin.bulk_load("t", tmp_path / "nowhere")
    with pytest.raises(NoSuchColumnFamilyError):
        bulk.write_hfiles(c.table("t"), {b"r": {b"h:q": b"v"}}, tmp_path / "x")
    assert _snapshot(c) == {}


def test_a_refused_disk_write_leaves_every_store_as_it_was(tmp_path, monkeypatch):
    disk = FaultyDisk(monkeypatch)
    c = _cluster(data_dir=tmp_path / "data")
    t = c.table("t")
    t.put(b"r07", {b"f:a": b"kept"})
    c.admin.flush("t")
    bulk.write_hfiles(t, _rows(10), tmp_path / "load")
    before, files = _snapshot(c), _files(c)
    disk.arm(full_at=3)  # the third file's write fills the disk
    with pytest.raises(hsim.errors.DiskIOError, match="nothing was loaded"):
        c.admin.bulk_load("t", tmp_path / "load")
    assert _snapshot(c) == before and _files(c) == files
    disk.free()
    assert c.admin.bulk_load("t", tmp_path / "load") == 6
    assert len(_snapshot(c)) == 10
    c.close()


def test_loaded_files_survive_a_restart_and_files_of_another_data_dir_load(tmp_path):
    c = _cluster(data_dir=tmp_path / "a")
    bulk.write_hfiles(c.table("t"), _rows(10), tmp_path / "load")
    c.admin.bulk_load("t", tmp_path / "load")
    want, files = _snapshot(c), _files(c)
    c.close()
    c = hsim.Cluster(2, clock=hsim.ManualClock(5000), data_dir=tmp_path / "a")
    assert _snapshot(c) == want and _files(c) == files
    seqs = [sf.max_seq_id for r in c.admin.regions("t") for sf in r.store_files["f"]]
    assert all(s >= 1 for s in seqs)
    # a region directory of that data directory, loaded into a table elsewhere
    region = c.admin.regions("t")[1]
    src = tmp_path / "a" / "data" / "default" / "t" / region.encoded_name
    c.close()
    other = hsim.Cluster(1, clock=hsim.ManualClock(1))
    other.admin.create_table("t", {"f": {}, "g": {}})
    assert other.admin.bulk_load("t", src) == 2
    assert sorted(_snapshot(other)) == [b"r03", b"r04", b"r05"]


def test_the_bulk_load_marker_is_skipped_on_replay(tmp_path):
    """WALSplitter / replayRecoveredEdits skip METAFAMILY cells: after an abort of a server
    and after a crash of the data directory, the WAL's markers replay nothing and every
    loaded cell reads back from the loaded files."""
    c = _cluster(data_dir=tmp_path / "dd")
    bulk.write_hfiles(c.table("t"), _rows(10), tmp_path / "load")
    c.admin.bulk_load("t", tmp_path / "load")
    c.table("t").put(b"r05", {b"f:z": b"after"})  # an edit after the marker, replayed
    want = _snapshot(c)
    crash(c)
    c2 = hsim.Cluster(2, clock=hsim.ManualClock(5000), data_dir=tmp_path / "dd")
    assert _snapshot(c2) == want
    files = [sf for r in c2.master.tables["t"].locator.regions for s in r.stores.values()
             for sf in s.files]
    assert sum("_SeqId_" in sf.name for sf in files) == 6
    assert sum(not sf.bulk_loaded for sf in files) == 1  # the replayed put's flush, only
    # a server abort: its marker entries go the same way
    ends = _wal_ends(c2)
    bulk.write_hfiles(c2.table("t"), _rows(10, "w"), tmp_path / "load2")
    c2.admin.bulk_load("t", tmp_path / "load2")
    server = next(i for i, s in enumerate(c2.master.servers)
                  if any(is_meta(cell) for e in _entries_since(c2, ends) for cell in e[3]
                         if e[0] in {r.encoded_name for r in s.regions.values()}))
    want = _snapshot(c2)
    report = c2.abort_region_server(server)
    assert report.edits_replayed == 0 and report.regions
    assert _snapshot(c2) == want
    c2.close()


def test_a_directory_that_is_no_path_is_refused_and_changes_nothing():
    c = _cluster()
    c.table("t").put(b"r", {b"f:a": b"v"})
    before = _snapshot(c)
    with pytest.raises(TypeError, match="directory must be a path, not NoneType"):
        c.admin.bulk_load("t", None)
    assert _snapshot(c) == before
