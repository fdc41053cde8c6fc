"""Snapshots (SnapshotManager, FlushSnapshotSubprocedure, CloneSnapshotProcedure,
RestoreSnapshotProcedure): a table's descriptor and store-file lists, taken without copying a
byte, because HFiles never change once written.

A snapshot flushes the table first (SnapshotType.FLUSH) and then holds the store files as they
are: the same HFile readers, so a compaction or a drop of the table that would delete a file
leaves it to the snapshot (HBase moves it to archive/). A clone is a new table whose stores
hold links to those files (HFileLink, named `<table>=<region>-<hfile>`); its first compaction
writes its own files. A restore puts the snapshot's regions and files back into a disabled
table. With a data directory, hsim.storage writes each snapshot to .hbase-snapshot/ and keeps
in archive/ the files it holds that a table let go (docs/bulk-load.md, "Snapshots").
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from hsim.engine.store_file import StoreFile
from hsim.errors import (InvalidArgumentError, SnapshotExistsError, SnapshotNotFoundError,
                         TableNotDisabledError)

# SnapshotDescriptionUtils / TableName rules: a snapshot name is a legal table qualifier.
_NAME = re.compile(r"^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$")


@dataclass
class SnapshotDescription:
    """What `list_snapshots` shows, and the regions' files the snapshot holds."""

    name: str
    table: str
    creation_time: int
    type: str = "FLUSH"
    descriptor: object = None
    # (start_key, end_key, encoded region name, {family: [StoreFile]}) per region, in key order
    regions: list = field(default_factory=list, repr=False)

    @property
    def size(self) -> int:
        """The bytes of the files it holds (shared with the table while it keeps them)."""
        return sum(sf.size for _s, _e, _n, fams in self.regions for fs in fams.values()
                   for sf in fs)


def check_name(name: str) -> None:
    if not _NAME.match(name):
        raise InvalidArgumentError(
            f"Snapshot name {name!r} is illegal: use word characters, '.' and '-', not first "
            f"'.' or '-'")


def take(master, name: str, table: str, now: int) -> SnapshotDescription:
    """SnapshotManager.takeSnapshot: flush an enabled table's regions, then hold their files."""
    check_name(name)
    if name in master.snapshots:
        raise SnapshotExistsError(f"Snapshot '{name}' already stored on the filesystem.")
    st = master.table_state(table)
    regions = []
    for r in st.locator.regions:
        if st.enabled:
            r.flush(now, force_all=True)
        regions.append((r.start_key, r.end_key, r.encoded_name,
                        {f: list(s.files) for f, s in r.stores.items()}))
    snap = SnapshotDescription(name, table, now, "FLUSH" if st.enabled else "DISABLED",
                               copy.deepcopy(st.descriptor), regions)
    master.snapshots[name] = snap
    return snap


def get(master, name: str) -> SnapshotDescription:
    snap = master.snapshots.get(name)
    if snap is None:
        raise SnapshotNotFoundError(f"Snapshot '{name}' doesn't exist on the filesystem")
    return snap


def _links(snap: SnapshotDescription, region: str, files: list) -> list:
    """HFileLinks to a snapshot's files of `region`: the same reader (and reference bounds),
    named `<table>=<region>-<hfile>` as HFileLink.createHFileLinkName names them (a file that
    is a link already keeps its name: HFileLink.createPath)."""
    table = snap.table.replace(":", "=")
    return [StoreFile(sf.reader, lo=sf.lo, hi=sf.hi,
                      name=sf.name if "=" in sf.name else f"{table}={region}-{sf.name}")
            for sf in files]


def _build(master, desc, snap: SnapshotDescription) -> None:
    """Create `desc`'s table with the snapshot's regions, each store holding links."""
    keys = [start for start, _e, _n, _f in snap.regions][1:]
    master.create_table(desc, keys)
    st = master.tables[desc.name]
    for region, (_s, _e, encoded, fams) in zip(st.locator.regions, snap.regions):
        for fam, files in fams.items():
            if fam in region.stores:
                region.stores[fam].adopt_files(_links(snap, encoded, files))
                region.seq_id = max([region.seq_id] + [sf.max_seq_id for sf in files])


def clone(master, name: str, table: str) -> None:
    """CloneSnapshotProcedure: a new table of the snapshot's descriptor, regions and files."""
    snap = get(master, name)
    desc = copy.deepcopy(snap.descriptor)
    desc.name = table
    _build(master, desc, snap)


def restore(master, name: str) -> None:
    """RestoreSnapshotProcedure: the disabled table gets the snapshot's descriptor, regions
    and files back (it stays disabled)."""
    snap = get(master, name)
    st = master.table_state(snap.table) if snap.table in master.tables else None
    if st is not None:
        if st.enabled:
            raise TableNotDisabledError(snap.table)
        master.delete_table(snap.table)
    _build(master, copy.deepcopy(snap.descriptor), snap)
    master.disable_table(snap.table)


def delete(master, name: str) -> None:
    get(master, name)
    del master.snapshots[name]
