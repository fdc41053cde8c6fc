"""ServerCrashProcedure: what the master does when a region server dies.

The dead server's MemStores and block cache are gone. Its WALs are split per region
(WALSplitter); only bytes a sync covered are there to split. Each region it hosted is reassigned
to a live server and reopened: its recovered edits newer than what each store has already
flushed are replayed into the MemStore, and the region flushes them
(HRegion.replayRecoveredEditsIfAny). Edits that were only in the MemStore -- SKIP_WAL ones and
ASYNC_WAL ones not yet synced -- are lost, and reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hsim.cell import FAMILY, NEG_SEQ, NEG_TS, NEG_TYPE, QUALIFIER, ROW
from hsim.engine.memstore import MemStore
from hsim.regions.wal_markers import is_meta


@dataclass
class CrashReport:
    """What an abort cost: counted in cells (a row mutation of three columns is three)."""

    server: str
    regions: list = field(default_factory=list)  # (region name, new server name)
    wal_files_split: int = 0
    wal_bytes_split: int = 0
    edits_replayed: int = 0  # cells replayed from the WAL into reopened regions
    lost_skip_wal: int = 0  # cells written with SKIP_WAL and never flushed
    lost_async_wal: int = 0  # cells written with ASYNC_WAL whose sync had not happened

    @property
    def lost(self) -> int:
        return self.lost_skip_wal + self.lost_async_wal


def _key(c) -> tuple:
    """A cell's identity within its store: row, qualifier, timestamp, type, sequence id."""
    return c[ROW], c[QUALIFIER], c[NEG_TS], c[NEG_TYPE], c[NEG_SEQ]


def recover(dead, assign, now: int) -> CrashReport:
    """Split `dead`'s WALs and reopen its regions through `assign(region) -> server`."""
    wal = dead.wal
    wal.sync_if_due(now)  # the syncer's last run before the crash
    report = CrashReport(server=dead.name, wal_files_split=len(wal.files), wal_bytes_split=wal.size)
    synced, unsynced = wal.split()
    dead_regions = sorted(dead.regions.values(), key=lambda r: r.name)
    for region in dead_regions:
        in_memory = {s: s.memstore.all_cells() for s in region.stores.values()}
        dead.close_region(region)
        recovered = synced.get(region.encoded_name, [])
        not_synced = {-c[NEG_SEQ] for c in unsynced.get(region.encoded_name, ())}
        for store, cells in in_memory.items():
            store.memstore = MemStore()
            flushed = max((f.max_seq_id for f in store.files), default=0)
            kept = {_key(c) for c in recovered
                    if c[FAMILY] == store.name and -c[NEG_SEQ] > flushed}
            for c in cells:
                if _key(c) not in kept:
                    if -c[NEG_SEQ] in not_synced:
                        report.lost_async_wal += 1
                    else:
                        report.lost_skip_wal += 1
        region.memstore_heap = 0
        server = assign(region)
        report.edits_replayed += replay(region, recovered, now, background=True)
        report.regions.append((region.name, server.name))
    # A file whose replayed edits a refused flush left in a MemStore stays (hsim.storage keeps
    # it on disk until they are flushed); the others are archived.
    moved = {r.encoded_name: r for r in dead_regions}

    def lowest(encoded: str) -> int:
        r = moved.get(encoded)
        return r.lowest_unflushed_seq() if r is not None and not r.closed else 1 << 63

    keep = [f for f in wal.files if not wal.archivable(f, lowest)]
    wal.archived.extend(f.name for f in wal.files if f not in keep)
    wal.files = keep or [wal.current]
    return report


def replay(region, cells: list, now: int, background: bool = False) -> int:
    """HRegion.replayRecoveredEdits: put the WAL's cells newer than what each store has
    flushed into the MemStore (of the region's server), then flush them. Returns the cells
    replayed. A flush the disk refuses raises (an open must fail whole), or with `background`
    (a region server's abort, which cannot be undone) keeps the cells in the MemStore and is
    retried as any failed flush is."""
    flushed = {f: max((sf.max_seq_id for sf in s.files), default=0)
               for f, s in region.stores.items()}  # each store's newest edit on disk
    replayed = 0
    for c in cells:
        if is_meta(c):
            continue  # a marker (a bulk load's), not an edit: WALSplitter skips it
        store = region.stores.get(c[FAMILY])
        if store is None or -c[NEG_SEQ] <= flushed[c[FAMILY]]:
            continue  # already in a store file (or the family is gone)
        region.memstore_changed(store.add(c))
        region.seq_id = max(region.seq_id, -c[NEG_SEQ])
        replayed += 1
    if replayed:
        (region.flush_in_background if background else region.flush)(now, force_all=True)
    return replayed
