"""The master's procedures as they change the data directory, step by step, each step's state
journalled (hsim.storage.procedure_store) before the step is taken; and, at open, the repair
of every procedure a crash left unfinished.

Each runs HBase's states (CreateTableProcedure, DeleteTableProcedure, TruncateTableProcedure,
SplitTableRegionProcedure, MergeTableRegionsProcedure; the states with no file to change in
hsim are journalled all the same, so the journal reads as HBase's). A reopened directory
rolls a procedure forward from its last state, as a restarted HBase master resumes it,
except a split that had not reached
SPLIT_TABLE_REGION_UPDATE_META (its point of no return): that one is rolled back, its
daughters' directories removed and the parent left live, as SplitTableRegionProcedure
.rollbackState does. So a split's daughters are live only once the parent's retirement is
recorded, and the parent's files go only after that. A merge is journalled alike: rolled back
before MERGE_TABLE_REGIONS_UPDATE_META (the merged region's directory removed, the parents
live), rolled forward after it.

A region or table directory is removed by renaming it into .tmp first (then deleting it), so a
crash never leaves half a region directory where the next open would read it.
"""

from __future__ import annotations

import os
import shutil
import tempfile

from hsim.storage import layout
from hsim.storage.archive import archive_files
from hsim.storage.layout import family_dir_name, table_dir, write_atomic

CREATE = ("CREATE_TABLE_PRE_OPERATION", "CREATE_TABLE_WRITE_FS_LAYOUT",
          "CREATE_TABLE_ADD_TO_META", "CREATE_TABLE_POST_OPERATION")
DELETE = ("DELETE_TABLE_PRE_OPERATION", "DELETE_TABLE_REMOVE_FROM_META",
          "DELETE_TABLE_CLEAR_FS_LAYOUT", "DELETE_TABLE_POST_OPERATION")
TRUNCATE = ("TRUNCATE_TABLE_PRE_OPERATION", "TRUNCATE_TABLE_REMOVE_FROM_META",
            "TRUNCATE_TABLE_CLEAR_FS_LAYOUT", "TRUNCATE_TABLE_CREATE_FS_LAYOUT",
            "TRUNCATE_TABLE_ADD_TO_META", "TRUNCATE_TABLE_POST_OPERATION")
SPLIT = ("SPLIT_TABLE_REGION_PREPARE", "SPLIT_TABLE_REGION_CREATE_DAUGHTER_REGIONS",
         "SPLIT_TABLE_REGION_UPDATE_META", "SPLIT_TABLE_REGION_POST_OPERATION")
MERGE = ("MERGE_TABLE_REGIONS_PREPARE", "MERGE_TABLE_REGIONS_CREATE_MERGED_REGION",
         "MERGE_TABLE_REGIONS_UPDATE_META", "MERGE_TABLE_REGIONS_POST_OPERATION")
STATES = {"CreateTable": CREATE, "DeleteTable": DELETE, "TruncateTable": TRUNCATE,
          "SplitTableRegion": SPLIT, "MergeTableRegions": MERGE}


def finished(proc) -> bool:
    return proc.state == STATES[proc.type][-1]


# --- running (at a checkpoint) -------------------------------------------------------------------
def run(dd, master) -> None:
    """Journal and carry out on disk the DDL and splits the master did since the last
    checkpoint, in order; then clear the journal."""
    ops, master.procedures[:] = list(master.procedures), []
    for op in ops:
        kind, name = op[0], op[1]
        st = master.tables.get(name)
        if kind == "CreateTable" and st is not None:
            _create(dd, st, op[2])
        elif kind == "DeleteTable":
            _delete(dd, name)
        elif kind == "TruncateTable" and st is not None:
            _truncate(dd, st, op[2], op[3])
        elif kind == "SplitTableRegion":
            _split(dd, name, op[2], op[3])
        elif kind == "MergeTableRegions":
            _merge(dd, name, op[2], op[3])
    if ops:
        dd.procedures.clear()


def _table_data(st, regions, homes: dict | None = None) -> dict:
    """What a roll-forward needs: descriptor, regions and (a clone's) links and references."""
    links = [[r.encoded_name, fam.hex(), sf.name,
              layout.store_file_bytes(sf, homes or {}).decode()]
             for r in regions for fam, s in r.stores.items() for sf in s.files
             if sf.name != sf.reader.name]
    return {"table": st.descriptor.name,
            "descriptor": layout.encode_descriptor(st.descriptor, st.enabled, st.state_time,
                                                   st.split_keys).decode(),
            "regions": [layout.encode_regioninfo(r).decode() for r in regions],
            "links": links}


def _create(dd, st, regions) -> None:
    proc = dd.procedures.start("CreateTable", CREATE[0],
                               _table_data(st, regions, dd.archive.homes))
    _lay_out(dd, proc, st, regions, CREATE[1:])


def _lay_out(dd, proc, st, regions, states) -> None:
    """A new table's files: the regions' directories, then its descriptor; then done."""
    store, tdir = dd.procedures, table_dir(dd.root, st.descriptor.name)
    store.update(proc, states[0])
    for r in regions:
        _write_region(dd, tdir, r, with_files=True)  # a clone's links with it
    store.update(proc, states[1])
    _write_descriptor(dd, tdir, st)
    store.update(proc, states[2])


def _delete(dd, name: str) -> None:
    store = dd.procedures
    proc = store.start("DeleteTable", DELETE[0], {"table": name})
    store.update(proc, DELETE[1])
    store.update(proc, DELETE[2])
    _forget(dd, table_dir(dd.root, name), whole=True)
    store.update(proc, DELETE[3])


def _truncate(dd, st, regions, old) -> None:
    store = dd.procedures
    data = _table_data(st, regions)
    data["old"] = [r.encoded_name for r in old]
    proc = store.start("TruncateTable", TRUNCATE[0], data)
    tdir = table_dir(dd.root, st.descriptor.name)
    store.update(proc, TRUNCATE[1])
    store.update(proc, TRUNCATE[2])
    for r in old:
        _forget(dd, os.path.join(tdir, r.encoded_name))
    _lay_out(dd, proc, st, regions, TRUNCATE[3:])


def _split(dd, name: str, daughters, parent) -> None:
    store = dd.procedures
    proc = store.start("SplitTableRegion", SPLIT[0], {
        "table": name, "parent": parent.encoded_name,
        "daughters": [d.encoded_name for d in daughters]})
    tdir = table_dir(dd.root, name)
    store.update(proc, SPLIT[1])
    for d in daughters:  # the daughters' directories, every file in place, not yet live
        _write_region(dd, tdir, d, with_files=True)
    store.update(proc, SPLIT[2])  # the point of no return: the parent is retired
    _mark_split(os.path.join(tdir, parent.encoded_name))
    dd._regions[os.path.join(tdir, parent.encoded_name)] = "split"
    store.update(proc, SPLIT[3])


def _merge(dd, name: str, merged, parents) -> None:
    """MergeTableRegionsProcedure's files: the merged region's directory with its references
    to every parent's files, then (the point of no return, UPDATE_META) the parents retired,
    kept on disk while the references read them."""
    store = dd.procedures
    proc = store.start("MergeTableRegions", MERGE[0], {
        "table": name, "parents": [p.encoded_name for p in parents],
        "merged": merged.encoded_name})
    tdir = table_dir(dd.root, name)
    store.update(proc, MERGE[1])
    _write_region(dd, tdir, merged, with_files=True)
    store.update(proc, MERGE[2])
    for p in parents:
        _mark_split(os.path.join(tdir, p.encoded_name))
        dd._regions[os.path.join(tdir, p.encoded_name)] = "split"
    store.update(proc, MERGE[3])


# --- the steps -----------------------------------------------------------------------------------
def _write_region(dd, tdir: str, region, with_files: bool = False) -> None:
    """A region's directory: its .regioninfo, and (a split daughter's) its store files and
    the parent files its references read."""
    rdir = os.path.join(tdir, region.encoded_name)
    if with_files:
        for fam, s in region.stores.items():
            fdir = os.path.join(rdir, family_dir_name(fam))
            for sf in s.files:
                if sf.is_reference and sf.reader not in dd.archive.homes:
                    parent = sf.name.rsplit(".", 1)[1]  # its file, not on disk yet
                    base = os.path.join(tdir, parent, family_dir_name(fam), sf.reader.name)
                    if not os.path.exists(base):
                        write_atomic(base, sf.reader.data)
                    dd.archive.place(base, sf.reader)
                path = os.path.join(fdir, sf.name)
                if dd._files.get(path) is not sf:
                    write_atomic(path, layout.store_file_bytes(sf, dd.archive.homes))
                    dd.placed(path, sf)
    write_atomic(os.path.join(rdir, ".regioninfo"), layout.encode_regioninfo(region))
    dd._regions[rdir] = "live"


def _write_descriptor(dd, tdir: str, st) -> None:
    write_atomic(os.path.join(tdir, ".tabledesc", layout.TABLEINFO),
                 layout.encode_descriptor(st.descriptor, st.enabled, st.state_time,
                                          st.split_keys))
    dd._tables[tdir] = layout.desc_token(st)


def _mark_split(rdir: str) -> None:
    """RegionInfo's split flag on a retired parent (kept while daughters refer to it)."""
    path = os.path.join(rdir, ".regioninfo")
    if os.path.exists(path):
        with open(path, "rb") as f:
            ri = layout.decode_json(f.read())
        if not ri.get("split"):
            write_atomic(path, layout.encode_json({**ri, "split": True}))


def _forget(dd, path: str, whole: bool = False) -> None:
    """Remove a region's (or, `whole`, a table's) directory and the books on it."""
    prefix = path + os.sep
    for books in (dd._regions, dd._files) + ((dd._tables,) if whole else ()):
        for p in [p for p in books if p == path or p.startswith(prefix)]:
            del books[p]
    dd.retire_dir(path)  # what a snapshot or a link reads is archived first


def remove_dir(root: str, path: str) -> None:
    """Rename `path` into the root's .tmp (one atomic step), then delete it there."""
    if not os.path.isdir(path):
        return
    trash = os.path.join(root, ".tmp", "removed")
    os.makedirs(trash, exist_ok=True)
    dest = os.path.join(tempfile.mkdtemp(dir=trash), os.path.basename(path))
    os.rename(path, dest)
    shutil.rmtree(dest, ignore_errors=True)


# --- repair (at open) ----------------------------------------------------------------------------
def recover(root: str, procs: list) -> list:
    """Finish or undo, on disk, every unfinished procedure; returns what was done, one line
    each (for the open's report)."""
    done = []
    for proc in procs:
        if finished(proc):
            continue
        data, tdir = proc.data, table_dir(root, proc.data["table"])
        step = STATES[proc.type].index(proc.state)
        if proc.type == "SplitTableRegion" and step < SPLIT.index(SPLIT[2]):
            for d in data["daughters"]:
                remove_dir(root, os.path.join(tdir, d))
            done.append(f"rolled back {proc.type} {proc.proc_id} of {data['table']} "
                        f"(from {proc.state}): region {data['parent']} stays")
            continue
        if proc.type == "MergeTableRegions" and step < MERGE.index(MERGE[2]):
            remove_dir(root, os.path.join(tdir, data["merged"]))
            done.append(f"rolled back {proc.type} {proc.proc_id} of {data['table']} "
                        f"(from {proc.state}): regions {', '.join(data['parents'])} stay")
            continue
        if proc.type == "MergeTableRegions":
            for p in data["parents"]:
                _mark_split(os.path.join(tdir, p))
        elif proc.type == "SplitTableRegion":
            _mark_split(os.path.join(tdir, data["parent"]))
        elif proc.type == "DeleteTable":
            archive_files(root, tdir)  # all of it: the cleaner deletes what no one reads
            remove_dir(root, tdir)
        else:
            for enc in data.get("old", ()):
                archive_files(root, os.path.join(tdir, enc))
                remove_dir(root, os.path.join(tdir, enc))
            for text in data["regions"]:
                ri = layout.decode_json(text.encode())
                write_atomic(os.path.join(tdir, ri["encoded_name"], ".regioninfo"),
                             text.encode())
            for enc, fam, name, text in data.get("links", ()):
                path = os.path.join(tdir, enc, family_dir_name(bytes.fromhex(fam)), name)
                if not os.path.exists(path):
                    write_atomic(path, text.encode())
            write_atomic(os.path.join(tdir, ".tabledesc", layout.TABLEINFO),
                         data["descriptor"].encode())
        done.append(f"rolled forward {proc.type} {proc.proc_id} of {data['table']} "
                    f"(from {proc.state})")
    return done
