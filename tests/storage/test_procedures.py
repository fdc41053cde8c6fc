"""DDL, splits and merges are crash-safe (hsim.storage.procedures): a crash at any step of
create, delete, truncate, split or merge reopens with every acknowledged row readable by Get
and Scan, the regions tiling every table, and the operation wholly done or wholly undone; a
directory whose regions do not tile a table is refused, never served."""

import os
import signal
import subprocess
import sys

import pytest

import hsim
from hsim.errors import CorruptProcedureStoreError, RegionChainError
from hsim.storage import layout
from hsim.storage.procedure_store import DIR, ProcedureStore

from . import crash_steps as cs
from .disk import snapshot

HERE = os.path.dirname(__file__)
ROOT = os.path.dirname(os.path.dirname(HERE))


def _ponr(tmp_path) -> int:
    """The step at which a split journals its point of no return."""
    return cs.step_of("split", b"SPLIT_TABLE_REGION_UPDATE_META", tmp_path / "probe")


def _outcome(tmp_path, op: str, k: int) -> str:
    c, finished = cs.run_op(tmp_path, op, k)
    try:
        return cs.check(c, op)
    finally:
        c.close()


def test_a_split_crashed_before_its_point_of_no_return_is_undone_and_after_it_done(tmp_path):
    ponr = _ponr(tmp_path)
    # every daughter file written, the parent's retirement not recorded: the parent stays live
    assert _outcome(tmp_path / "a", "split", ponr) == "undone"
    with cs.open_cluster(tmp_path / "a") as c:
        live = {r.encoded_name for r in c.master.tables["t"].locator.regions}
    assert {d for d in os.listdir(tmp_path / "a/data/default/t") if not d.startswith(".")} \
        == live  # the daughters' directories are gone
    # recorded: the daughters are the live regions, the parent is retired
    assert _outcome(tmp_path / "b", "split", ponr + 1) == "done"


def test_a_merge_crashed_before_its_point_of_no_return_is_undone_and_after_it_done(tmp_path):
    ponr = cs.step_of("merge", b"MERGE_TABLE_REGIONS_UPDATE_META", tmp_path / "probe")
    assert _outcome(tmp_path / "a", "merge", ponr) == "undone"
    with cs.open_cluster(tmp_path / "a") as c:
        live = {r.encoded_name for r in c.master.tables["t"].locator.regions}
    assert {d for d in os.listdir(tmp_path / "a/data/default/t") if not d.startswith(".")} \
        == live  # the merged region's directory is gone, the parents are live
    assert _outcome(tmp_path / "b", "merge", ponr + 1) == "done"


def test_a_merged_region_survives_a_restart_with_its_references_and_catalog_row(tmp_path):
    with cs.open_cluster(tmp_path) as c:
        cs.setup(c, "merge")
        cs.do(c, "merge")
        merged = c.master.tables["t"].locator.regions[0]
        refs = sorted(sf.name for s in merged.stores.values() for sf in s.files)
    with cs.open_cluster(tmp_path) as c:
        assert cs.check(c, "merge") == "done"
        region = c.master.tables["t"].locator.regions[0]
        assert region.name == merged.name
        assert sorted(sf.name for s in region.stores.values() for sf in s.files) == refs
        row = c.table("hbase:meta").get(merged.name.encode())
        assert [x.qualifier for x in row][:2] == [b"merge0000", b"merge0001"]
        c.admin.major_compact("t")
    with cs.open_cluster(tmp_path) as c:
        assert cs.check(c, "merge") == "done"
        assert not c.master.tables["t"].locator.regions[0].has_references()
        assert sorted(d for d in os.listdir(tmp_path / "data/default/t")
                      if not d.startswith(".")) == [merged.encoded_name]  # parents gone


def test_a_real_sigkill_mid_split_keeps_every_row(tmp_path):
    ponr = _ponr(tmp_path)
    assert _sigkill(tmp_path / "run", "split", ponr) == "killed"
    with cs.open_cluster(tmp_path / "run") as c:
        assert cs.check(c, "split") == "undone"


def _sigkill(path, op: str, k: int) -> str:
    r = subprocess.run([sys.executable, "-c", cs.CHILD, str(path), op, HERE, str(k)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    if r.returncode == -signal.SIGKILL:
        return "killed"
    assert r.returncode == 0 and r.stdout == "finished\n", r.stderr
    return "finished"


@pytest.mark.slow
@pytest.mark.parametrize("op", cs.OPS)
def test_sigkill_at_every_step(tmp_path, op):
    outcomes = []
    for k in range(1, 100):
        path = tmp_path / str(k)
        ended = _sigkill(path, op, k)
        with cs.open_cluster(path) as c:
            outcomes.append(cs.check(c, op))
        if ended == "finished":
            break
    assert ended == "finished"
    # undone only before the journal's first record (or, for a split, its point of no return)
    first_done = outcomes.index("done")
    assert outcomes == ["undone"] * first_done + ["done"] * (len(outcomes) - first_done)
    ponr = {"split": _ponr(tmp_path), "merge": cs.step_of(
        "merge", b"MERGE_TABLE_REGIONS_UPDATE_META", tmp_path / "probe-merge")}
    assert first_done == ponr.get(op, 1)


@pytest.mark.slow
@pytest.mark.parametrize("op", cs.OPS)
def test_crash_at_every_step_in_process(tmp_path, op):
    for k in range(1, 100):
        c, finished = cs.run_op(tmp_path / str(k), op, k)
        cs.check(c, op)
        c.close()
        if finished:
            break
    assert finished


def test_the_journal_is_empty_once_each_operation_is_done(tmp_path):
    with cs.open_cluster(tmp_path) as c:
        cs.setup(c, "split")
        for op in ("create", "split"):
            cs.do(c, op)
            assert not os.listdir(tmp_path / DIR)
        c.admin.disable_table("t")
        c.admin.truncate_table("t")
        c.admin.disable_table("t")
        c.admin.delete_table("t")
        assert not os.listdir(tmp_path / DIR)
        c.check_invariants()


def _regioninfo_paths(path, table="t") -> list:
    tdir = os.path.join(path, "data", "default", table)
    return [os.path.join(tdir, d, ".regioninfo") for d in sorted(os.listdir(tdir))
            if not d.startswith(".")]


def _two_regions(path):
    with hsim.Cluster(data_dir=path, clock=hsim.ManualClock(1000)) as c:
        c.admin.create_table("t", ["f"], split_keys=[b"m"])
        for r in (b"a", b"q"):
            c.table("t").put(r, {b"f:q": r})


@pytest.mark.parametrize("change, message", [
    ({"end_key": b"c"}, "a hole in the region chain"),
    ({"end_key": b"z"}, "an overlap in the region chain"),
    ({"start_key": b"zz"}, "does not name that region"),
])
def test_regions_that_do_not_tile_are_refused_and_the_directory_left_alone(
        tmp_path, change, message):
    _two_regions(tmp_path)
    first = [p for p in _regioninfo_paths(tmp_path)
             if layout.decode_json(open(p, "rb").read())["start_key"] == b""][0]
    ri = layout.decode_json(open(first, "rb").read())
    with open(first, "wb") as f:
        f.write(layout.encode_json({**ri, **change}))
    before = snapshot(tmp_path)
    with pytest.raises(RegionChainError, match=message):
        hsim.Cluster(data_dir=tmp_path)
    assert snapshot(tmp_path) == before


def test_an_unjournalled_half_split_is_refused_not_served(tmp_path):
    """What the crash left before the journal: daughters next to a live parent (overlap)."""
    c = cs.open_cluster(tmp_path)
    cs.setup(c, "split")
    parent = c.master.tables["t"].locator.locate(b"r0060").encoded_name
    cs.do(c, "split")
    c.close()
    tdir = tmp_path / "data/default/t"
    pinfo = tdir / parent / ".regioninfo"
    pinfo.parent.mkdir(exist_ok=True)
    pinfo.write_bytes(layout.encode_json({"table": "t", "start_key": b"m", "end_key": b"",
                                          "region_id": 1000, "encoded_name": parent,
                                          "split": False}))
    with pytest.raises(RegionChainError, match="overlap"):
        cs.open_cluster(tmp_path)


def test_a_torn_last_journal_record_is_ignored_and_a_corrupt_one_refused(tmp_path):
    store = ProcedureStore(str(tmp_path))
    proc = store.start("DeleteTable", "DELETE_TABLE_PRE_OPERATION", {"table": "t"})
    store.update(proc, "DELETE_TABLE_REMOVE_FROM_META")
    path = store.path
    whole = open(path, "rb").read()
    with open(path, "ab") as f:
        f.write(whole[:len(whole) // 3])  # a crash mid-append
    [p] = ProcedureStore(str(tmp_path)).load()
    assert (p.type, p.state, p.data) == ("DeleteTable", "DELETE_TABLE_REMOVE_FROM_META",
                                         {"table": "t"})
    bad = bytearray(whole)
    bad[12] ^= 0xFF  # a flipped byte in the first record, with a good one after it
    with open(path, "wb") as f:
        f.write(bytes(bad))
    with pytest.raises(CorruptProcedureStoreError, match="CRC"):
        ProcedureStore(str(tmp_path)).load()


def test_a_table_made_again_under_its_name_never_reuses_a_region_name(tmp_path):
    """Truncate or drop-and-create at an unchanged clock time, after a split, and after a
    reopen: the new regions' names are new, so no old WAL edit can replay into them."""
    seen = set()

    def names(c):
        return {r.encoded_name for r in c.master.tables["t"].locator.regions}

    c = hsim.Cluster(clock=hsim.ManualClock(1000), data_dir=tmp_path)
    c.admin.create_table("t", ["f"])
    c.table("t").put(b"q", {b"f:q": b"v"})
    c.admin.split("t", b"m")
    seen |= names(c)
    c.close()
    c = hsim.Cluster(clock=hsim.ManualClock(1000), data_dir=tmp_path)
    for _ in range(2):
        c.admin.disable_table("t")
        c.admin.truncate_table("t", preserve_splits=False)
        assert not names(c) & seen
        seen |= names(c)
    c.admin.disable_table("t")
    c.admin.delete_table("t")
    c.admin.create_table("t", ["f"])
    assert not names(c) & seen
    c.close()
