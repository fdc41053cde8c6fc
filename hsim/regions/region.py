"""Region (HRegion): one [start_key, end_key) range of a table, with one Store per family.

The region validates a row mutation completely before applying any of it, stamps cells that
have no timestamp with the clock's now, gives the whole mutation one sequence id (as one WAL
edit has), and applies it to its stores: a row mutation is atomic across families. After a
write it checks the flush size; after a flush, compaction; after a compaction, the split policy.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import weakref

from hsim.bytes import to_string_binary
from hsim.cell import (DELETE, FAMILY, LATEST_TIMESTAMP, MAX_ROW_LENGTH, PUT, Entry, check_row,
                       fields)
from hsim.configuration_keys import configured
from hsim.durability import Durability, effective
from hsim.engine.query_matcher import ScanQuery
from hsim.engine.store import Store
from hsim.errors import (
    DiskIOError,
    InvalidArgumentError,
    NoSuchColumnFamilyError,
    WrongRegionError,
)
from hsim.metrics import IOCounters
from hsim.regions import flush_policy, split_policy
from hsim.regions.region_scanner import get_filtered
from hsim.rowrange import RowRange

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.config import Config
    from hsim.engine.block_cache import BlockCache
    from hsim.engine.memstore import MemStore
    from hsim.regions.region_server import RegionServer
    from hsim.regions.wal import WAL
    from hsim.schema import TableDescriptor

log = logging.getLogger("hsim.regions")
SKIP_WAL = int(Durability.SKIP_WAL)
_PUT = int(PUT)


def encode_region_name(table: str, start_key: bytes, region_id: int) -> str:
    """RegionInfo.encodeRegionName: the MD5 of the raw region name `<table>,<start>,<id>`."""
    return hashlib.md5(f"{table},".encode() + start_key + f",{region_id}".encode()).hexdigest()


class Region:
    """One region (HRegion): a row range of one table, its stores (one per family), its
    sequence ids and MVCC read point, its request counters and its split policy. Its
    RegionServer routes requests to it; the Master opens, closes, splits, merges and moves it;
    recovery replays the WAL into it. Clients never reach it but through its server."""

    def __init__(self, table, start_key: bytes, end_key: bytes, region_id: int, config,
                 block_cache=None, seq_id: int = 0):
        self.table: TableDescriptor = table  # shared with the master; alter updates it
        self.start_key = start_key  # b"" = from the first row
        self.end_key = end_key  # b"" = to the last row
        self.keys: RowRange = RowRange.half_open(start_key, end_key)  # its rows, fixed for life
        self.region_id = region_id
        self.config: Config = config
        # RegionInfo.encodeRegionName: MD5 of the raw region name bytes; the name as text is
        # its Bytes.toStringBinary (RegionInfo.getRegionNameAsString)
        self.encoded_name = encode_region_name(table.name, start_key, region_id)
        key = f"{table.name},{to_string_binary(start_key)},{region_id}"
        self.name = f"{key}.{self.encoded_name}."
        self.seq_id = seq_id
        self.server: RegionServer | None = None  # hosting it: set by RegionServer.open_region
        # hbase:meta's open time and seqnumDuringOpen, set by RegionServer.open_region (and the
        # time again by Master.enable_table)
        self.opened_at: int = 0
        self.open_seq_num: int = 1
        self.explicit_split_point: bytes | None = None
        self.read_requests = 0  # rows returned: Gets and scanned rows (readRequestsCount)
        self.filtered_read_requests = 0  # rows examined, not returned (filteredReadRequestsCount)
        self.write_requests = 0
        self.memstore_heap = 0
        self.closed = False
        self.splitting = False
        # MemStoreFlusher: since when a flush has waited on a compaction (too many store files)
        self.flush_delayed_since: int | None = None
        # open RegionScanners (region_scanner.py): their read points and pinned store files
        self.scanners: weakref.WeakSet = weakref.WeakSet()
        self.stores: dict[bytes, Store] = {}
        self.set_block_cache(block_cache)
        self._settings = (None, config)
        self.split_policy = split_policy.create(
            table.split_policy or self.settings.split_policy, self, self.settings
        )

    @property
    def settings(self):
        """The Config this region runs under: the cluster's with the table's CONFIGURATION
        entries over it (HRegion's CompoundConfiguration)."""
        entries = self.table.configuration
        if not entries:
            return self.config
        if entries != self._settings[0]:
            self._settings = (dict(entries), configured(self.config, entries))
        return self._settings[1]

    def set_block_cache(self, block_cache) -> None:
        """(Re)build stores on open; keeps existing stores' files when moving servers. On a
        server with a data directory, the stores write their new files through it."""
        self.block_cache: BlockCache | None = block_cache  # its server's
        sink = getattr(self.server, "store_file_sink", None)
        for fam in sorted(self.table.families):
            store = self.stores.get(fam)
            if store is None:
                self.stores[fam] = Store(fam, self.table.families[fam], self.config,
                                         block_cache, owner=self.encoded_name,
                                         table_configuration=self.table.configuration)
            else:
                store.block_cache = block_cache
                for sf in store.files:
                    sf.reader.block_cache = block_cache
            self.stores[fam].persist = None if sink is None else functools.partial(sink, self, fam)
        self.stores = {f: self.stores[f] for f in sorted(self.stores)}

    def __repr__(self) -> str:
        return f"Region({self.name})"

    # --- helpers ---------------------------------------------------------------------------------
    @property
    def flush_size(self) -> int:
        return self.table.memstore_flush_size or self.config.memstore_flush_size

    def contains(self, row: bytes) -> bool:
        return self.keys.contains(row)

    def check_row_in_range(self, row: bytes) -> None:
        check_row(row)
        if not self.contains(row):
            raise WrongRegionError(f"Requested row out of range for {self.name}")

    def store(self, family: bytes) -> Store:
        s = self.stores.get(family)
        if s is None:
            raise NoSuchColumnFamilyError(
                f"Column family {family.decode('utf-8', 'replace')} does not exist in region "
                f"{self.name} in table {self.table.name}"
            )
        return s

    def memstore_changed(self, delta: int) -> None:
        """The one place MemStore heap accounting moves: the stores' MemStores changed by
        `delta` bytes, so the region's and its server's totals (the flush and global-limit
        checks read them) move by the same amount."""
        self.memstore_heap += delta
        server = self.server
        if server is not None:
            server.memstore_heap += delta

    def table_regions_on_server(self) -> int:
        if self.server is None:
            return 1
        return self.server.count_table_regions(self.table.name)

    # --- writes ----------------------------------------------------------------------------------
    def mutate(self, row: bytes, entries: list[Entry], now: int, durability: int = 0) -> list:
        """Apply one row mutation atomically; returns the cells written (as the MemStore holds
        them: plain tuples of a Cell's fields). Everything is checked while the cells are built,
        before anything is applied; the WAL edit is appended (and synced, as `durability` asks)
        before the MemStore sees the cells."""
        if (not row or len(row) > MAX_ROW_LENGTH or row < self.start_key
                or (self.end_key and row >= self.end_key)):
            self.check_row_in_range(row)  # raises the precise error
        stores = self.stores
        seq = self.seq_id + 1
        one_put = False
        if len(entries) == 1:
            family, qualifier, timestamp, code, value, ttl = entries[0]
            one_put = timestamp is None and code == _PUT and family in stores
        if one_put:  # one Put cell at the request's time (most puts): what cells_of gives
            cells = [fields(row, family, qualifier, now, _PUT, value, seq, ttl)]
        else:
            cells = self.cells_of(row, entries, now, seq)
        self.seq_id = seq
        server = self.server
        if server is not None:
            d = effective(durability, self.table.durability)
            if d != SKIP_WAL:
                wal: WAL = server.wal
                wal.append(self.encoded_name, seq, now, cells, d)
        if len(cells) == 1:  # most puts: one cell
            memstore: MemStore = stores[cells[0][FAMILY]].memstore
            delta = memstore.add(cells[0])
        else:
            delta = 0
            for c in cells:
                memstore = stores[c[FAMILY]].memstore
                delta += memstore.add(c)
        self.memstore_changed(delta)
        self.write_requests += 1
        if self.memstore_heap >= self.flush_size:
            self.flush_in_background(now)
        return cells

    def cells_of(self, row: bytes, entries: list[Entry], now: int, seq: int) -> list:
        """A mutation's cells (hsim.cell.fields tuples), every entry checked before any is
        returned; a timestamp-less Delete of a column's latest version takes that version's."""
        stores = self.stores
        cells = []
        latest_deletes = False
        for fam, q, ts, code, value, ttl in entries:
            if fam not in stores:
                self.store(fam)  # raises NoSuchColumnFamilyError
            if ts is None or ts == LATEST_TIMESTAMP:
                if code == DELETE:
                    latest_deletes = True  # resolved below, once every entry has passed
                    cells.append(None)
                    continue
                ts = now
            elif ts < 0:
                raise InvalidArgumentError(f"Timestamp cannot be negative. ts={ts}")
            cells.append(fields(row, fam, q, ts, code, value, seq, ttl))
        if latest_deletes:
            self._stamp_latest_deletes(row, entries, cells, now, seq)
        return cells

    def _stamp_latest_deletes(self, row, entries, cells, now, seq) -> None:
        """The Deletes of a column's latest version (`None` in `cells`) get their timestamps."""
        cache: dict = {}
        for i, c in enumerate(cells):
            if c is None:
                fam, q, _ts, code, value, ttl = entries[i]
                ts = self._latest_delete_ts(row, fam, q, now, cache)
                cells[i] = fields(row, fam, q, ts, code, value, seq, ttl)

    def _latest_delete_ts(self, row, fam, q, now, cache) -> int:
        """HRegion.updateDeleteLatestVersionTimestamp: the k-th 'delete latest version' of a
        column in one Delete takes the timestamp of the k-th newest visible version."""
        k = cache.get((fam, q), 0) + 1
        cache[(fam, q)] = k
        query = ScanQuery(max_versions=k, columns=frozenset([q]))
        found = self.stores[fam].get(row, query, now, IOCounters())
        if len(found) < k:
            return now
        return found[k - 1].timestamp

    # --- reads -----------------------------------------------------------------------------------
    def get(self, row: bytes, queries: dict, now: int, io: IOCounters | None = None,
            filt=None, max_versions: int = 1, limits: tuple | None = None) -> list:
        """The row's visible cells across the requested families (family order).
        `queries` maps family -> ScanQuery (families not named are not read). Reads are counted
        on each store's own counters, or on `io` when the caller traces one request. `limits`:
        the per-family (max results, offset) of hsim.filters.apply.store_limits."""
        self.check_row_in_range(row)
        self.read_requests += 1
        if filt is not None:
            return get_filtered(self, row, queries, now, io, filt, max_versions, limits)
        out = []
        scanned = 0  # the row's raw cells the stores' matchers saw
        for fam, q in queries.items():
            s: Store = self.store(fam)
            sio = s.counters.io if io is None else io
            before = sio.cells_scanned
            out.extend(s.get(row, q, now, sio))
            scanned += sio.cells_scanned - before
        kept = out
        if limits is not None:
            from hsim.filters.apply import store_limits

            kept = store_limits(out, limits)
        if not kept and (out or scanned):
            # RegionScannerImpl: an examined row that gives nothing (the limits dropped it, or
            # none of its cells is visible: isEmptyRow) is a filtered read
            self.filtered_read_requests += 1
        return kept

    def lowest_unflushed_seq(self) -> int:
        """The oldest sequence id still only in a MemStore (the WAL must keep it); one past
        the region's last when everything is flushed."""
        low = self.seq_id + 1
        for s in self.stores.values():
            oldest = s.memstore.oldest_seq_id()
            if oldest is not None and oldest < low:
                low = oldest
        return low

    # --- flush, compaction, split ------------------------------------------------------------
    @property
    def blocking_memstore_size(self) -> int:
        """HRegion.blockingMemStoreSize: past it, updates wait for a flush."""
        return self.flush_size * self.settings.memstore_block_multiplier

    def flush_in_background(self, now: int, force_all: bool = False,
                            emergency: bool = False) -> list:
        """A flush no client waits on (MemStoreFlusher: the write that crossed the flush size,
        the global MemStore limit, maxlogs): if the disk refuses its file it is logged and
        counted (flush_failures), the MemStore keeps the cells, and the next trigger retries.
        With compactions on cluster time, a region with a store past its blocking file count
        waits up to hbase.hstore.blockingWaitTime for a compaction first (MemStoreFlusher
        .flushRegion), unless the flush is an emergency (the global MemStore limit)."""
        if not emergency and self._flush_delayed(now):
            return []
        try:
            return self.flush(now, force_all)
        except DiskIOError as e:
            log.warning("%s: %s", self.name, e)
            return []

    def flush(self, now: int, force_all: bool = False) -> list:
        """Flush the stores the flush policy picks (all of them when forced); then the compaction
        check for each flushed store, then the split check. A store whose file the disk
        refuses (DroppedSnapshotError) keeps its MemStore; the stores flushed before it stay
        flushed, and the error is raised once their compaction checks ran."""
        stores = list(self.stores.values())
        chosen = stores if force_all else flush_policy.stores_to_flush(
            stores, self.flush_size, self.settings, self.table.values.get("FLUSH_POLICY"))
        flushed = []
        requests = self._request_log()
        if requests is not None:
            written = sum(s.counters.bytes_flushed for s in chosen)
        scanners = list(self.scanners)
        smallest = min((sc.read_point for sc in scanners), default=None)
        failed = None
        for s in chosen:
            before = s.memstore.heap_size
            if before == 0:
                continue
            try:
                sf = s.flush(now, self.seq_id, smallest)
            except DiskIOError as e:
                failed = e
                break
            if sf is not None:
                for sc in scanners:  # ChangedReadersObserver: the flushed cells move to sf
                    sc.flushed(s.name, sf)
            self.memstore_changed(-before)
            flushed.append(s)
        if requests is not None:
            requests.background(self.server.name, flushed=sum(s.counters.bytes_flushed
                                                              for s in chosen) - written)
        for s in flushed:
            self.compact_store(s, now)
        if failed is not None:
            raise failed
        if flushed:
            self.check_split(now)
        return flushed

    def _flush_delayed(self, now: int) -> bool:
        """Whether MemStoreFlusher puts this flush off: a store has more files than its
        blocking count, compactions are asked for, and blockingWaitTime has not passed."""
        queue = self._compaction_queue()
        if queue is None:
            return False
        crowded = [s for s in self.stores.values()
                   if len(s.files) > s.config.blocking_store_files]
        if not crowded:
            self.flush_delayed_since = None
            return False
        if self.flush_delayed_since is None:
            self.flush_delayed_since = now
            log.info("%s has too many store files; delaying flush up to %d ms", self.name,
                     self.config.blocking_wait_ms)
        for s in crowded:
            queue.request(self, s, now)
        if now - self.flush_delayed_since < self.config.blocking_wait_ms:
            return True
        self.flush_delayed_since = None  # waited long enough: the flush goes ahead
        return False

    def flush_delay_ends(self) -> int | None:
        """When a delayed flush stops waiting for a compaction (cluster ms), or None."""
        since = self.flush_delayed_since
        return None if since is None else since + self.config.blocking_wait_ms

    def _compaction_queue(self):
        """The server's CompactSplit when compactions run on cluster time, else None."""
        queue = getattr(self.server, "compactions", None)
        return queue if queue is not None and queue.throttled else None

    def compact_store(self, store: Store, now: int, major: bool = False,
                      user_requested: bool = False) -> int:
        """One compaction request; re-requested while the store is at the blocking file count
        (CompactSplit re-queues a store whose compact priority is <= 0). Returns compactions
        run now: on cluster time a compaction goes on the server's queue instead
        (hsim.regions.compact_split; a user's at PRIORITY_USER) and counts 0."""
        ran = 0
        if (not (major or user_requested) and not store.needs_compaction(now)
                and not store.has_references()):
            return 0
        queue = self._compaction_queue()
        if queue is not None:
            queue.request(self, store, now, major=major, user=major or user_requested)
            return 0
        with self._compacting(store):
            sel = store.compact(now, major=major, user_requested=user_requested)
            if sel is not None:
                ran += 1
            while sel is not None and len(store.files) >= store.config.blocking_store_files:
                sel = store.compact(now)
                if sel is not None:
                    ran += 1
        return ran

    @contextlib.contextmanager
    def _compacting(self, store: Store):
        """Around a compaction: a failed one is logged, the store as it was (CompactSplit);
        the request log gets what it read and wrote."""
        requests = self._request_log()
        c = store.counters
        read, written = c.compaction_bytes_read, c.compaction_bytes_written
        try:
            yield
        except DiskIOError as e:
            log.warning("%s: %s", self.name, e)
        if requests is not None:
            requests.background(self.server.name, compacted_read=c.compaction_bytes_read - read,
                                compacted_written=c.compaction_bytes_written - written)

    def finish_compaction(self, compaction) -> None:
        """A compaction of the server's queue is done: its output replaces its inputs (unless
        they went meanwhile), as of its start; then, at the time it ended, the store is queued
        again if still at its blocking file count, a delayed flush retried and the split policy
        asked."""
        store, sel, done = compaction.store, compaction.selection, compaction.done
        present = set(map(id, store.files))
        if all(id(sf) in present for sf in sel.files):
            with self._compacting(store):
                store.run_compaction(list(sel.files), compaction.start, is_major=sel.is_major,
                                     boundaries=sel.boundaries)
        if len(store.files) >= store.config.blocking_store_files:  # CompactionRunner: priority <= 0
            self.server.compactions.request(self, store, done)
        if self.flush_delayed_since is not None and self.memstore_heap >= self.flush_size:
            self.flush_in_background(done)
        self.check_split(done)

    def _request_log(self):
        """The cluster's RequestLog while one is recorded (and the region is on a server)."""
        return None if self.server is None else self.server.master.request_log

    def compact(self, now: int, major: bool = False, family: bytes | None = None) -> int:
        stores = [self.store(family)] if family is not None else list(self.stores.values())
        ran = 0
        for s in stores:
            ran += self.compact_store(s, now, major=major, user_requested=True)
        if ran:
            self.check_split(now)
        return ran

    def check_split(self, now: int) -> None:
        if self.closed or self.splitting or self.server is None or not self.table.split_enabled:
            return
        if self.split_policy.should_split():
            point = self.split_policy.split_point()
            if point is not None:
                try:
                    self.server.request_split(self, point, now)
                except DiskIOError as e:  # the parent's flush failed: it stays, unsplit
                    log.warning("%s: split not taken: %s", self.name, e)

    def split_point(self) -> bytes | None:
        return self.split_policy.split_point()

    def valid_split_row(self, row: bytes | None) -> bool:
        return bool(row) and row > self.start_key and (not self.end_key or row < self.end_key)

    def daughters(self, split_row: bytes, now: int) -> tuple[Region, Region]:
        """Split into [start, split_row) and [split_row, end): flush, then give each daughter
        reference files to its half of every store file (SplitTableRegionProcedure). A flush
        the disk refuses abandons the split: the parent stays open, as it was."""
        try:
            self.flush(now, force_all=True)
        except DiskIOError:
            self.splitting = False
            raise
        rid = max(self.region_id + 1, now)
        a = Region(self.table, self.start_key, split_row, rid, self.config, None, self.seq_id)
        b = Region(self.table, split_row, self.end_key, rid, self.config, None, self.seq_id)
        for fam, store in self.stores.items():
            a.stores[fam].adopt_files(store.reference_files(split_row, top=False))
            b.stores[fam].adopt_files(store.reference_files(split_row, top=True))
        self.closed = True
        return a, b

    # --- figures ----------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return sum(s.size for s in self.stores.values())

    def has_references(self) -> bool:
        return any(s.has_references() for s in self.stores.values())
