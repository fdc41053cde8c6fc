"""Store: one column family of one region (HStore) = a MemStore plus its store files.

It answers reads for its family (merging MemStore and files through the query matcher),
flushes its MemStore into a new HFile, and compacts its files as the compaction policy selects.
It knows nothing of regions: the region hands it cells with sequence ids and asks it to flush,
compact or split.
"""

from __future__ import annotations

import hashlib

from hsim.cell import NEG_SEQ
from hsim.configuration_keys import configured
from hsim.engine import scanner, store_cache
from hsim.engine.compaction_policies import policy_for
from hsim.engine.off_peak_hours import OffPeakHours
from hsim.engine.gc_pause import gc_paused
from hsim.engine.hfile import HFileReader, HFileWriter
from hsim.engine.memstore import MemStore
from hsim.engine.query_matcher import CompactionMatcher, ScanQuery, UserMatcher, oldest_unexpired
from hsim.engine.store_file import StoreFile
from hsim.errors import DroppedSnapshotError
from hsim.engine.store_compaction import StoreCompaction
from hsim.engine.store_file_scanner import RowCursor
from hsim.engine.store_scanner import read_row
from hsim.metrics import IOCounters, UncachedReads

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.read_trace import ReadTrace
    from collections.abc import Callable
    from hsim.config import Config
    from hsim.engine.block_cache import BlockCache
    from hsim.schema import ColumnFamily

_NEG_INF = -(1 << 63)


class StoreCounters:
    """What a store did, cumulatively."""

    __slots__ = ("flushes", "bytes_flushed", "cells_flushed", "minor_compactions",
                 "major_compactions", "compaction_files_read", "compaction_bytes_read",
                 "compaction_bytes_written", "compaction_kv_bytes_read", "cells_dropped_deleted",
                 "cells_dropped_expired", "cells_dropped_versions", "markers_dropped",
                 "expired_files_dropped", "flush_failures", "compaction_failures", "io")

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, 0)
        self.io = IOCounters()

    def add(self, other: "StoreCounters") -> None:
        for name in self.__slots__:
            if name != "io":
                setattr(self, name, getattr(self, name) + getattr(other, name))
        self.io.add(other.io)

    def to_dict(self) -> dict:
        d = {name: getattr(self, name) for name in self.__slots__ if name != "io"}
        d.update(self.io.to_dict())
        return d


class Store(StoreCompaction):
    """One column family of one region (HStore): owns its MemStore, its store files (oldest
    first), its counters and its compaction policy. Only its Region writes to it (cells with
    sequence ids, flushes, compactions, split references); an `alter` replaces `family`."""

    def __init__(self, name: bytes, family, config, block_cache=None, *, owner: str = "",
                 table_configuration: dict | None = None):
        self.name = name  # the family name
        self.family: ColumnFamily = family  # replaced by alter, applies to reads at once
        self.cluster_config: Config = config
        # the table's CONFIGURATION entries (shared with its descriptor): with the family's,
        # over the cluster's Config, they make the settings this store runs under (`config`)
        self.table_configuration = table_configuration
        self._settings = (None, config, None)  # (entries they came from, Config, policy)
        self.block_cache: BlockCache | None = block_cache  # its region server's
        self.owner = owner  # the region's encoded name, used in file names
        self.memstore: MemStore = MemStore()
        self.files: list[StoreFile] = []  # ordered by max sequence id, oldest first
        self.counters = StoreCounters()
        self._file_counter = 0
        # Set while the store's region is open with a data directory: persist(sf) writes a new
        # file durably before the store takes it in (HRegionFileSystem.commitStoreFile), or
        # raises OSError and the store stays as it was.
        self.persist: Callable[[StoreFile], None] | None = None
        # The observer its reads call while an `explain` watches this store (None otherwise)
        self.observer: ReadTrace | None = None

    # --- settings -------------------------------------------------------------------------------
    @property
    def config(self):
        """The Config this store runs under: the cluster's, with the table's and then the
        family's CONFIGURATION entries over it (HStore's CompoundConfiguration)."""
        fam, table = self.family.configuration, self.table_configuration
        if not fam and not table:
            return self.cluster_config
        entries = (tuple(fam.items()), tuple(table.items()) if table else ())
        if entries != self._settings[0]:
            self._settings = (entries, configured(self.cluster_config, fam, table), None)
        return self._settings[1]

    @property
    def policy(self):
        """The compaction policy the store's settings name (hsim.engine.compaction_policies)."""
        config = self.config
        cached, settings = self._settings[2], self._settings[1]
        if cached is None or settings is not config:
            cached = (policy_for(config), OffPeakHours.from_config(config))
            self._settings = (self._settings[0] if settings is config else None, config, cached)
        return cached[0]

    @property
    def off_peak(self) -> OffPeakHours:
        self.policy  # noqa: B018 (builds both from the current settings)
        return self._settings[2][1]

    # --- writes ---------------------------------------------------------------------------------
    def add(self, cell) -> int:
        """Add a cell (sequence id already set); returns the heap bytes added."""
        return self.memstore.add(cell)

    # --- reads ----------------------------------------------------------------------------------
    def _expired_cutoff(self, now: int, raw: bool) -> int:
        # StoreScanner: files wholly older than the TTL are skipped unless MIN_VERSIONS keeps them
        if raw or self.family.min_versions > 0:
            return _NEG_INF
        return oldest_unexpired(self.family.ttl_ms, now)

    def _memstore_passes(self, tr_min: int, tr_max: int) -> bool:
        ms = self.memstore
        if ms.snapshot:
            return True
        return ms.min_ts is not None and ms.min_ts < tr_max and ms.max_ts >= tr_min

    def get(self, row: bytes, query: ScanQuery, now: int, io: IOCounters, sink=None) -> list:
        """The visible cells of one row in this family (a Get is a one-row scan). `sink`, for
        a Get with a filter: a callable giving the row's filter run (hsim.filters.apply
        .RowRun). A row that runs past a block is then read with the filter inside the loop:
        the store feeds the run what the matcher returns, stops or seeks as it answers, and
        returns []; a row read whole is returned, for the caller to filter."""
        obs = self.observer
        if not query.cache_blocks:
            io = UncachedReads(io)
        tr_min, tr_max = query.time_range
        use_memstore = self._memstore_passes(tr_min, tr_max)
        cells = self.memstore.row_cells(row) if use_memstore else []
        if obs is not None:
            mark = obs.memstore(self.name, len(cells) if use_memstore else None)
        sources = 1 if cells else 0
        cutoff = self._expired_cutoff(now, query.raw)
        columns = query.columns
        one_column = wanted = None
        if columns is not None:
            wanted = sorted(columns)
            if len(wanted) == 1:
                one_column = wanted[0]
        raw = query.raw  # raw Gets read their rows whole
        cursors = None  # the files whose row goes on past the block their seek landed on
        for sf in self.files:
            fio = io if obs is None else obs.file(self.name, sf.name, io)
            if not sf.in_row_range(row):
                fio.files_skipped_key_range += 1
                continue
            if not sf.passes_time_range(tr_min, tr_max, cutoff):
                fio.files_skipped_time_range += 1
                continue
            if not sf.reader.passes_bloom(row, one_column, fio):
                fio.files_skipped_bloom += 1
                continue
            if raw:
                found = sf.get_row(row, fio, columns)
            else:
                cur = RowCursor(sf.reader, row, fio, sf.name, wanted)
                if cur.more:
                    if cursors is None:
                        cursors = []
                    cursors.append(cur)
                    continue
                found = cur.held
            if found:
                cells.extend(found)
                sources += 1
        if sources > 1:
            cells.sort()
        if cursors is not None:
            matcher = UserMatcher(self.family, query, now)
            run = None if sink is None else sink()
            if obs is None:
                visible = read_row(row, self.name, cells, cursors, matcher, run, None, io, wanted)
            else:
                visible = obs.cursor_read(mark, row, self.name, cells, cursors, matcher, run, io,
                                          wanted)
            return visible if sink is None else []
        if obs is not None:
            obs.files_done(mark, io)
        io.cells_scanned += len(cells)
        if not cells:
            return cells
        match = UserMatcher(self.family, query, now).match
        return match(cells) if obs is None else obs.match(self.name, cells, match)

    def scan(self, start_row: bytes | None, stop_row: bytes | None, query: ScanQuery, now: int,
             io: IOCounters, reversed: bool = False, read_point: int | None = None,
             files: list | None = None, cursors: dict | None = None):
        """(row, visible cells) for the rows of this family in [start_row, stop_row), or, when
        reversed, from start_row (inclusive) down to stop_row (exclusive). A row with cells
        but none visible comes with [] (the region counts it examined, RegionScannerImpl's
        isEmptyRow); a row with no cell here does not come at all.

        `read_point`: only cells written at or before it are seen (an open region scanner's
        MVCC read point; None when nothing was written since it opened). `files`: the store
        files the scanner holds (those of its opening plus those flushed since; the inputs of a
        compaction stay its files until it closes), instead of the current ones. `cursors`:
        one per file, kept by the caller across scans of one request, so that a scan opened
        again further on (a filter's seek hint) reseeks each file instead of seeking anew, and
        the files it skipped are counted once."""
        tr_min, tr_max = query.time_range
        if not query.cache_blocks:
            io = UncachedReads(io)
        cutoff = self._expired_cutoff(now, query.raw)
        use_memstore = self._memstore_passes(tr_min, tr_max)
        if reversed:
            lo, hi = stop_row, start_row
        else:
            lo, hi = start_row, stop_row
        obs = self.observer
        if obs is not None:
            mark = obs.memstore(self.name, 0 if use_memstore else None)
        reseek = cursors is not None and None in cursors  # reopened: skips counted then
        chosen = []
        for sf in self.files if files is None else files:
            fio = io if obs is None else obs.file(self.name, sf.name, io)
            if not sf.overlaps(lo, None if hi is None else hi + (b"\x00" if reversed else b"")):
                fio.files_skipped_key_range += not reseek
            elif not sf.passes_time_range(tr_min, tr_max, cutoff):
                fio.files_skipped_time_range += not reseek
            elif not sf.reader.passes_prefix_bloom(start_row, stop_row, fio):
                fio.files_skipped_bloom += not reseek
            else:
                chosen.append((sf, fio))
        if cursors is not None:
            cursors[None] = True  # marks the first opening done
        match = UserMatcher(self.family, query, now).match
        if reversed:
            sources = []
            if use_memstore:
                for src in self.memstore.scan_sources_reversed(start_row):
                    sources.append(scanner.memstore_rows_reversed(src, stop_row))
            for sf, fio in chosen:
                cursor = None if cursors is None else cursors.setdefault(sf, [None, None])
                sources.append(sf.scan_reversed_rows(start_row, stop_row, fio, cursor))
            rows = scanner.rows_reversed(sources)
        else:
            sources = self.memstore.scan_sources(start_row) if use_memstore else []
            for sf, fio in chosen:
                sources.append(sf.scan(start_row, fio, None if cursors is None
                                       else cursors.setdefault(sf, [None, None])))
            rows = scanner.rows_forward(sources, stop_row)
        if read_point is not None:
            rows = _as_of(rows, -read_point)
        if obs is not None:
            yield from obs.rows(rows, match, io, mark, self.name)
            return
        for row, cells in rows:
            io.cells_scanned += len(cells)
            yield row, match(cells)

    # --- flush ----------------------------------------------------------------------------------
    def flush(self, now: int, max_seq_id: int,
              smallest_read_point: int | None = None) -> StoreFile | None:
        """Write the MemStore snapshot to a new HFile (StoreFlusher: a COMPACT_RETAIN_DELETES
        pass, so versions beyond VERSIONS, expired cells and masked puts are not written, except
        what a scanner open at `smallest_read_point` still needs)."""
        ms = self.memstore
        include_tags = ms.has_tags
        snap = ms.take_snapshot()
        if not snap:
            ms.clear_snapshot()
            return None
        matcher = CompactionMatcher(self.family, now, drop_deletes=False,
                                    max_read_point=smallest_read_point)
        writer = HFileWriter(self.family, self.config, include_tags=include_tags)
        with gc_paused():
            out = matcher.match_all(snap, ms.snapshot_one_cell_rows)
            writer.append_all(out)
            written = len(out)
            # a snapshot whose every cell the pass dropped (expired, masked) still makes a
            # file, empty, as HBase's StoreFlusher commits its writer whatever it wrote
            data = writer.finish(max_seq_id=max_seq_id, major_compaction=False, create_time=now)
        c = self.counters
        sf = self._open(data, out, writer.cell_offsets)
        if self.persist is not None:
            try:
                self.persist(sf)
            except OSError as e:  # HRegion.internalFlushCacheAndCommit: flush aborted
                self._evict(sf)
                ms.restore_snapshot()
                c.flush_failures += 1
                raise DroppedSnapshotError(
                    f"flush of {self.owner}/{self.name.decode('utf-8', 'replace')} could not "
                    f"write its file, the MemStore is kept and the flush retried: {e}"
                ) from None
        self._add_file(sf)
        store_cache.written(self, sf, now, compaction=False)
        c.bytes_flushed += sf.size
        ms.clear_snapshot()
        c.flushes += 1
        c.cells_flushed += written
        self._tally_dropped(matcher.dropped)
        return sf

    # --- split support --------------------------------------------------------------------------
    def split_row(self) -> bytes | None:
        """RegionSplitPolicy: the mid key of the largest file, as a row; None when that row is
        the file's first or last row (one huge row cannot be split) or references remain."""
        if not self.files or self.has_references():
            return None
        largest = max(self.files, key=lambda sf: sf.size)
        mid = largest.reader.mid_key()
        if mid is None:
            return None
        row = mid[0]
        if row == largest.first_row or row == largest.last_row:
            return None
        return row

    def has_references(self) -> bool:
        return any(sf.is_reference for sf in self.files)

    def reference_files(self, split_row: bytes, top: bool) -> list[StoreFile]:
        """The reference files a daughter gets: the top half [split_row, hi) or the bottom half
        [lo, split_row) of each of this store's files that has rows there: like
        HRegionFileSystem.splitStoreFile, no reference to an empty half, whose file's metadata
        (EARLIEST_PUT_TS) would otherwise reach the daughter's compaction."""
        out = []
        for sf in self.files:
            if sf.last_row is None:  # an empty file: no half has rows
                continue
            if (sf.last_row < split_row) if top else (sf.first_row >= split_row):
                continue
            lo, hi = sf.lo, sf.hi
            if top:
                lo = split_row if lo is None or split_row > lo else lo
            else:
                hi = split_row if hi is None or split_row < hi else hi
            out.append(StoreFile(sf.reader, lo=lo, hi=hi, name=f"{sf.reader.name}.{self.owner}"))
        return out

    def bulk_load_file(self, sf: StoreFile) -> None:
        """HStore.bulkLoadHFile: take in a file written elsewhere; the caller has persisted it
        (with every other file of the load, so a load is all or nothing)."""
        self._add_file(sf)

    def adopt_files(self, files: list[StoreFile]) -> None:
        self.files = sorted(files, key=lambda sf: sf.max_seq_id)

    # --- figures ----------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """HStore.getSize: the sum of the store files' lengths."""
        return sum(sf.size for sf in self.files)

    @property
    def index_size(self) -> int:
        return sum(sf.reader.index_size for sf in self.files if not sf.is_reference)

    @property
    def bloom_size(self) -> int:
        return sum(sf.reader.bloom_size for sf in self.files if not sf.is_reference)

    # --- internals -------------------------------------------------------------------------------
    def _open(self, data: bytes, cells: list | None = None,
              cell_offsets: dict | None = None, others: int | None = None) -> StoreFile:
        """A store file of `data`; `others`: the files it will join (default: the store's)."""
        self._file_counter += 1
        key = f"{self.owner}/{self.name!r}/{self._file_counter}".encode()
        name = hashlib.md5(key).hexdigest()  # HBase names store files by a random UUID's hex
        reader = HFileReader(data, name, self.family, self.config, self.block_cache,
                              cell_offsets)
        sf = StoreFile(reader)
        if (cells is not None and len(data) <= 4 * self.config.memstore_flush_size
                and (len(self.files) if others is None else others) + 2
                >= self.config.compaction_min_files):
            # A small file joining others is next in line for a compaction: keep the cells it
            # was written from so that compaction need not decode them. A file with too few
            # others to compact keeps none: it may wait long, its cells a second copy of its
            # bytes (BENCHMARKS.md, "Memory per cell").
            sf.cells = cells
        return sf

    def _add_file(self, sf: StoreFile) -> None:
        self.files.append(sf)
        self.files.sort(key=lambda f: f.max_seq_id)

    def _evict(self, sf: StoreFile) -> None:
        if self.block_cache is not None and not sf.is_reference:
            self.block_cache.prefetches.cancel(sf.reader.name)
            self.block_cache.evict_file(sf.reader.name)

    def _tally_dropped(self, dropped: dict) -> None:
        c = self.counters
        c.cells_dropped_deleted += dropped["deleted"]
        c.cells_dropped_expired += dropped["expired"]
        c.cells_dropped_versions += dropped["versions"]
        c.markers_dropped += dropped["markers"]


def _as_of(rows, neg_read_point: int):
    """Rows as of a read point: cells written after it (sequence id above it) left out."""
    for row, cells in rows:
        seen = [c for c in cells if c[NEG_SEQ] >= neg_read_point]
        if seen:
            yield row, seen
