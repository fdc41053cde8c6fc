"""RegionServer (HRegionServer): hosts regions, owns the block cache, the WAL and the global
MemStore accounting, and counts requests. Splits it decides on are carried out by the master."""

from __future__ import annotations

from hsim.engine import store_cache
from hsim.filters import regex_budget
from hsim.regions import atomic
from hsim.regions.scan_metrics import ScanMetrics

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.cell import Entry
    from hsim.regions.master import Master
    from hsim.regions.region import Region
    from hsim.regions.wal import WAL


class RegionServer:
    """One region server (HRegionServer + RSRpcServices): owns its regions by encoded name, its
    WAL, its block cache, its compaction queues and its request counters. Every client request
    to a region goes through one of its methods; the Master assigns and moves its regions."""

    def __init__(self, index: int, config, master, start_code: int = 0):
        from hsim.engine.block_cache import BlockCache

        self.index = index
        self.hostname = f"rs{index + 1}.hsim"
        self.port = 16020
        self.start_code = start_code
        self.name = f"{self.hostname},{self.port},{start_code}"
        self.config = config
        self.master: Master = master
        self.block_cache = BlockCache(config.block_cache_size)
        self.regions: dict[str, Region] = {}  # by encoded name
        self.memstore_heap = 0
        self.read_requests = 0
        self.filtered_read_requests = 0
        self.write_requests = 0
        self.read_rpcs = 0
        self.check_mutate_passed = 0
        self.check_mutate_failed = 0
        self.global_flushes = 0
        # Store counters of regions that closed here (split parents): server totals keep them,
        # as a region server's metrics keep counting across its regions' lifetimes.
        from hsim.engine.store import StoreCounters

        self.retired = StoreCounters()
        from hsim.regions.wal import WAL

        self.wal: WAL = WAL(self.name, config, start_code)
        self.wal.on_roll = self._after_roll
        # set with a data directory: sink(region, family, store_file) writes a new file before
        # its store takes it in (hsim.storage.data_dir.DataDir.write_store_file)
        self.store_file_sink = None
        from hsim.regions.compact_split import CompactSplit

        self.compactions = CompactSplit(self)  # its compaction queues, on cluster time

    def __repr__(self) -> str:
        return f"RegionServer({self.name}, {len(self.regions)} regions)"

    # --- hosting -------------------------------------------------------------------------------
    def open_region(self, region) -> None:
        region.server = self
        region.opened_at = self.master.clock.now()  # hbase:meta's location timestamps
        region.open_seq_num = region.seq_id + 1  # seqnumDuringOpen
        region.set_block_cache(self.block_cache)
        for store in region.stores.values():  # prefetch-on-open (hsim.engine.store_cache)
            store_cache.opened(store, region.opened_at)
        self.regions[region.encoded_name] = region
        self.memstore_heap += region.memstore_heap

    def close_region(self, region, retire: bool = False) -> None:
        """Close a region here; `retire` (a split parent, a dropped table) keeps its store
        counters in the server's totals."""
        self.regions.pop(region.encoded_name, None)
        self.memstore_heap -= region.memstore_heap
        region.server = None
        if retire:
            for store in region.stores.values():
                self.retired.add(store.counters)

    def count_table_regions(self, table: str) -> int:
        return sum(1 for r in self.regions.values() if r.table.name == table)

    # --- requests (RSRpcServices): the only way a client reaches a region ----------------------
    def mutate(self, region: Region, row: bytes, entries: list[Entry], now: int,
               durability: int = 0) -> list:
        """One row mutation (a Mutate RPC: Put, Delete, mutateRow): applied by the region,
        counted here."""
        region, now, blocked = self.check_resources(region, row, now)
        if region.server is not self:  # it moved while the update waited: the client's retry
            return region.server.mutate(region, row, entries, now, durability)
        log = self.master.request_log
        if log is None:
            cells = region.mutate(row, entries, now, durability)
        else:
            wal = self.wal.bytes_written
            cells = region.mutate(row, entries, now, durability)
            log.write(self.name, self.wal.bytes_written - wal, blocked)
        self.write_requests += 1
        if self.memstore_heap > self.config.global_memstore_size:
            self.check_global_memstore(region)
        return cells

    def check_resources(self, region: Region, row: bytes, now: int) -> tuple[Region, int, int]:
        """HRegion.checkResources: the one gate every mutation passes before it touches its
        region (batchMutate, mutateRow, increment, append, checkAndMutate all call it first).
        Compactions done by `now` land; an update to a region whose MemStore is past its
        blocking size waits for a flush (wait_for_flush). Returns (the region to write to, the
        update's time, how long it waited): when a compaction done meanwhile split the region
        or the balancer moved it, the region where the row is now, as the client's retry after
        NotServingRegionException finds it."""
        if region.server is not self:
            self._not_serving(region)
        if not self.compactions.pending and region.flush_delayed_since is None:
            return region, now, 0  # nothing on cluster time: never blocked (the default)
        self.compactions.run_until(now)
        blocked = 0
        if region.memstore_heap > region.blocking_memstore_size:
            now, blocked = self.wait_for_flush(region, now)
        if region.closed or region.server is not self:
            region = self.master.table_state(region.table.name).locator.locate(row)
        return region, now, blocked

    def wait_for_flush(self, region, now: int) -> tuple[int, int]:
        """HRegion.checkResources: the region's MemStore is past its blocking size, so the
        update waits (on cluster time: the clock moves on) until a flush brings it under, the
        flush itself waiting on a compaction or on hbase.hstore.blockingWaitTime. Returns the
        update's time and how long it waited (updatesBlockedTime, blockedRequestCount)."""
        start, queue = now, self.compactions
        limit = region.blocking_memstore_size
        while region.memstore_heap > limit:
            region.flush_in_background(now)
            if region.memstore_heap <= limit:
                break
            ends = [t for t in (queue.next_done(), region.flush_delay_ends()) if t is not None]
            if not ends:
                break  # nothing will bring it down (the disk refuses the flush): go on
            now = max(now, min(ends))
            queue.run_until(now)
        if now == start:
            return now, 0
        clock = self.master.clock
        if now > clock.now():
            clock.advance(now - clock.now())
        now = clock.tick()  # the update's time: when it went ahead
        queue.updates_blocked_ms += now - start
        queue.blocked_requests += 1
        return now, now - start

    def increment(self, region, row: bytes, amounts: list, ttl: int, now: int,
                  durability: int = 0) -> tuple[list, list]:
        """One Increment (a Mutate RPC): read and written inside the region
        (hsim.regions.atomic.increment)."""
        region, now, blocked = self.check_resources(region, row, now)
        if region.server is not self:  # moved while it waited: the client's retry
            return region.server.increment(region, row, amounts, ttl, now, durability)
        return self._read_modify_write(region, blocked, atomic.increment, row, amounts, ttl,
                                       now, durability)

    def append(self, region, row: bytes, deltas: list, ttl: int, now: int,
               durability: int = 0) -> list:
        """One Append (a Mutate RPC): read and written inside the region."""
        region, now, blocked = self.check_resources(region, row, now)
        if region.server is not self:  # moved while it waited: the client's retry
            return region.server.append(region, row, deltas, ttl, now, durability)
        return self._read_modify_write(region, blocked, atomic.append, row, deltas, ttl, now,
                                       durability)

    def check_and_mutate(self, region, row: bytes, family: bytes, qualifier: bytes,
                         expected: bytes | None, entries: list, now: int,
                         durability: int = 0) -> bool:
        """One checkAndMutate (a Mutate RPC with a condition): checked and applied inside the
        region; counted as checkMutatePassedCount or checkMutateFailedCount. It passes the
        write gate before its check, as HRegion.checkAndMutate does, whether it applies or not."""
        region, now, blocked = self.check_resources(region, row, now)
        if region.server is not self:  # moved while it waited: the client's retry
            return region.server.check_and_mutate(region, row, family, qualifier, expected,
                                                  entries, now, durability)
        applied = self._read_modify_write(region, blocked, atomic.check_and_mutate, row,
                                          family, qualifier, expected, entries, now,
                                          durability)
        if applied:
            self.check_mutate_passed += 1
        else:
            self.check_mutate_failed += 1
        return applied

    def _read_modify_write(self, region, blocked: int, op, *args):
        """Run a read-modify-write operation of hsim.regions.atomic on one of this server's
        regions, once it passed check_resources (`blocked`: the ms it waited there); the
        server's read and write requests grow by what the region counted (its Gets inside the
        region, and the mutation if one was applied). No read RPC: the client sent one Mutate."""
        reads, writes = region.read_requests, region.write_requests
        log, wal = self.master.request_log, self.wal.bytes_written
        before = None if log is None else log.before_read(region)
        try:
            return op(region, *args)
        finally:
            if log is not None:  # one Mutate RPC: its read inside the region and its write
                log.read_write(self.name, region, before, self.wal.bytes_written - wal,
                               blocked)
            self.read_requests += region.read_requests - reads
            self.write_requests += region.write_requests - writes
            if self.memstore_heap > self.config.global_memstore_size:
                self.check_global_memstore(region)

    def get(self, region: Region, row: bytes, queries, now: int, io=None, filt=None,
            max_versions: int = 1, limits: tuple | None = None) -> list:
        """One Get RPC: the region reads, the server counts one read request (and a filtered
        one when the region's filter or per-family limits dropped the row)."""
        if region.server is not self:
            self._not_serving(region)
        if self.compactions.pending:
            self.compactions.run_until(now)
        filtered = region.filtered_read_requests
        log = self.master.request_log
        before = None if log is None else log.before_read(region)
        if filt is None:  # no filter, no regex: no budget to keep
            cells = region.get(row, queries, now, io, filt, max_versions, limits)
        else:
            with regex_budget.scope(self.config.regex_budget_ms):
                cells = region.get(row, queries, now, io, filt, max_versions, limits)
        if log is not None:
            log.read(self.name, region, before, 1)
        self.read_rpcs += 1
        self.read_requests += 1
        self.filtered_read_requests += region.filtered_read_requests - filtered
        return cells

    def open_scanner(self, region: Region, *args, **options):
        """A RegionScanner on one of this server's regions (the openScanner RPC's first half;
        `scan` returns its batches)."""
        from hsim.regions.region_scanner import RegionScanner

        if region.server is not self:
            self._not_serving(region)
        if self.compactions.pending:
            self.compactions.run_until(self.master.clock.now())
        return RegionScanner(region, *args, **options)

    def scan(self, scanner, want: int, metrics=None) -> list:
        """One scanner batch (a Scan RPC): up to `want` rows, each counted as a read request;
        the rows the region examined and did not return count as filtered read requests.
        `metrics`, the scan's ScanMetrics when the client asked for them, gets the batch's
        server-side counts (ROWS_SCANNED, ROWS_FILTERED, BLOCK_BYTES_SCANNED), as the
        ScanResponse carries them back."""
        batch = ScanMetrics()
        stores = [scanner.region.stores[f].counters.io for f in scanner.queries]
        block_bytes = sum(io.block_bytes_scanned for io in stores)
        log = self.master.request_log
        before = None if log is None else log.before_read(scanner.region)
        if scanner.filt is None:
            rows = scanner.next_rows(want, batch)
        else:
            with regex_budget.scope(self.config.regex_budget_ms):
                rows = scanner.next_rows(want, batch)
        if log is not None:
            log.read(self.name, scanner.region, before, len(rows), scanner)
        self.read_rpcs += 1
        self.read_requests += len(rows)
        self.filtered_read_requests += batch.rows_filtered
        if metrics is not None:
            batch.block_bytes_scanned = sum(io.block_bytes_scanned for io in stores) - block_bytes
            metrics.add(batch)
        return rows

    def _not_serving(self, region):
        from hsim.errors import NotServingRegionError

        raise NotServingRegionError(f"{region.name} is not online on {self.name}")

    def check_global_memstore(self, region=None) -> None:
        """MemStoreFlusher: above the global limit, flush the largest memstores until usage is
        below the lower limit."""
        limit = self.config.global_memstore_size
        if self.memstore_heap <= limit:
            return
        target = limit * self.config.global_memstore_lower_limit
        now = self.master.clock.now()
        for r in sorted(self.regions.values(), key=lambda r: -r.memstore_heap):
            if self.memstore_heap <= target or r.memstore_heap == 0:
                break
            self.global_flushes += 1
            r.flush_in_background(now, emergency=True)  # MemStoreFlusher: selectively

    # --- WAL pressure (LogRoller, AbstractFSWAL.findRegionsToForceFlush) ----------------------
    def _lowest_unflushed(self, encoded: str) -> int:
        r = self.regions.get(encoded)
        return r.lowest_unflushed_seq() if r is not None else 1 << 63

    def _after_roll(self, wal, now: int) -> None:
        """Archive flushed WALs; past maxlogs, flush the regions that pin the oldest one."""
        wal.clean_old_logs(self._lowest_unflushed)
        if len(wal.files) > self.config.wal_max_logs:
            oldest = wal.files[0]
            for encoded in sorted(oldest.regions):
                r = self.regions.get(encoded)
                if r is not None and r.lowest_unflushed_seq() <= oldest.regions[encoded]:
                    wal.forced_flushes += 1
                    r.flush_in_background(now, force_all=True)
            wal.clean_old_logs(self._lowest_unflushed)
        self.master.log_cleaner.collect(wal, now)

    def request_split(self, region, split_row: bytes, now: int) -> None:
        if len(self.regions) >= self.config.region_split_limit:
            return  # hbase.regionserver.regionSplitLimit
        self.master.split_region(region, split_row, now)
