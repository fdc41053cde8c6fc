"""HRegion.bulkLoadHFiles: HFiles written elsewhere go into a region's stores whole, without
the MemStore, the WAL or a flush of their cells.

A load is checked completely before anything changes (every family exists, every file's rows
lie in the region: HStore.assertBulkLoadHFileOk); then the region flushes its MemStore and
takes a new sequence id, so the loaded cells sort above every edit before them, and each file
is renamed `<name>_SeqId_<id>_` (HStore.bulkLoadHFile), the name a restart reads the id from.
`prepare` writes the files durably, `commit` adds them to their stores: a caller loading
into several regions prepares all of them first, so a refused write leaves every store as
it was. A recorded request log counts the files' bytes as the region's server writing them
(a copy; HBase renames a file whose staging directory shares the store's file system, which
costs less). Once the stores have the files, the region writes HBase's BULK_LOAD marker to its
server's WAL and syncs it (hsim.regions.wal_markers): the only WAL bytes of a load.
"""

from __future__ import annotations

import hashlib
import logging

from hsim.engine.hfile_reader import HFileReader
from hsim.engine.store_file import StoreFile
from hsim.durability import Durability
from hsim.errors import DamagedWALError, DiskIOError, WrongRegionError
from hsim.regions.wal_markers import bulk_load_event

log = logging.getLogger("hsim.bulk")


def check(region, files: list) -> None:
    """HStore.assertBulkLoadHFileOk for each (family, reader) of `files`: the family exists
    and the file's rows lie in the region."""
    for fam, reader in files:
        region.store(fam)  # NoSuchColumnFamilyError
        first, last = reader.first_row, reader.last_row
        if first is None:
            continue
        if not (region.contains(first) and region.contains(last)):
            raise WrongRegionError(
                f"Bulk load file {reader.name} does not fit inside region {region.name}: "
                f"rows {first!r} to {last!r}")


def prepare(region, files: list, now: int) -> list:
    """Flush, take the load's sequence id, and write each file durably under its new name.
    Returns the (store, StoreFile) pairs for `commit`; DiskIOError if the disk refuses one."""
    check(region, files)
    if region.memstore_heap:
        region.flush(now, force_all=True)
    seq = region.seq_id + 1
    region.seq_id = seq
    out = []
    for i, (fam, reader) in enumerate(files):
        if reader.first_row is None:
            continue  # an empty file: nothing to load (LoadIncrementalHFiles skips it)
        store = region.store(fam)
        key = f"{region.encoded_name}/{fam!r}/{seq}/{i}".encode()
        name = f"{hashlib.md5(key).hexdigest()}_SeqId_{seq}_"
        sf = StoreFile(HFileReader(reader.data, name, store.family, region.config,
                                   store.block_cache))
        if store.persist is not None:
            try:
                store.persist(sf)
            except OSError as e:
                raise DiskIOError(f"bulk load into {region.name} could not write {name}, "
                                  f"nothing was loaded: {e}") from None
        out.append((store, sf))
    requests = region._request_log()
    if requests is not None:  # priced as the server writing the files into its stores
        requests.background(region.server.name, flushed=sum(sf.size for _, sf in out))
    return out


def commit(region, pairs: list, now: int) -> None:
    """Add the prepared files to their stores (the readers of open scanners keep the files
    they had, as HBase's do until they are reopened), then write the BULK_LOAD marker
    (HRegion.bulkLoadHFiles: WALUtil.writeBulkLoadMarkerAndSync, under a new sequence id)."""
    for store, sf in pairs:
        store.bulk_load_file(sf)
    if not pairs or region.server is None:
        return
    files: dict = {}
    for store, sf in pairs:
        files.setdefault(store.name, []).append((sf.name, sf.size))
    load_seq = pairs[0][1].max_seq_id
    region.seq_id += 1
    marker = bulk_load_event(region, files, load_seq, region.seq_id, now)
    try:
        region.server.wal.append(region.encoded_name, region.seq_id, now, [marker],
                                 int(Durability.SYNC_WAL))
    except DamagedWALError as e:  # the files are in the stores and on disk already; HBase
        # aborts the server here, hsim keeps serving them and says so
        log.warning("bulk load into %s: the BULK_LOAD marker was not written: %s",
                    region.name, e.message)
