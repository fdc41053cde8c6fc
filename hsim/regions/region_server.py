"""RegionServer (HRegionServer): hosts regions, owns the block cache, the WAL and the global
MemStore accounting, and counts requests. Splits it decides on are carried out by the master."""

from __future__ import annotations


class RegionServer:
    def __init__(self, index: int, config, master, start_code: int = 0):
        from hsim.engine.block_cache import BlockCache

        self.index = index
        self.hostname = f"rs{index + 1}.hsim"
        self.port = 16020
        self.start_code = start_code
        self.name = f"{self.hostname},{self.port},{start_code}"
        self.config = config
        self.master = master
        self.block_cache = BlockCache(config.block_cache_size)
        self.regions: dict[str, object] = {}  # encoded name -> Region
        self.memstore_heap = 0
        self.read_requests = 0
        self.write_requests = 0
        self.read_rpcs = 0
        self.global_flushes = 0
        # Store counters of regions that closed here (split parents): server totals keep them,
        # as a region server's metrics keep counting across its regions' lifetimes.
        from hsim.engine.store import StoreCounters

        self.retired = StoreCounters()
        from hsim.regions.wal import WAL

        self.wal = WAL(self.name, config, start_code)
        self.wal.on_roll = self._after_roll

    def __repr__(self) -> str:
        return f"RegionServer({self.name}, {len(self.regions)} regions)"

    # --- hosting -------------------------------------------------------------------------------
    def open_region(self, region) -> None:
        region.server = self
        region.opened_at = self.master.clock.now()  # hbase:meta's location timestamps
        region.open_seq_num = region.seq_id + 1  # seqnumDuringOpen
        region.set_block_cache(self.block_cache)
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
    def mutate(self, region, row: bytes, entries: list, now: int, durability: int = 0) -> list:
        """One row mutation (a Mutate RPC): applied by the region, counted here."""
        if region.server is not self:
            self._not_serving(region)
        log = self.master.request_log
        if log is None:
            cells = region.mutate(row, entries, now, durability)
        else:
            wal = self.wal.bytes_written
            cells = region.mutate(row, entries, now, durability)
            log.write(self.name, self.wal.bytes_written - wal)
        self.write_requests += 1
        if self.memstore_heap > self.config.global_memstore_size:
            self.check_global_memstore(region)
        return cells

    def get(self, region, row: bytes, queries, now: int, io=None, filt=None,
            max_versions: int = 1, limits: tuple | None = None) -> list:
        """One Get RPC: the region reads, the server counts one read request."""
        if region.server is not self:
            self._not_serving(region)
        log = self.master.request_log
        if log is None:
            cells = region.get(row, queries, now, io, filt, max_versions, limits)
        else:
            before = log.before_read(region)
            cells = region.get(row, queries, now, io, filt, max_versions, limits)
            log.read(self.name, region, before, 1)
        self.read_rpcs += 1
        self.read_requests += 1
        return cells

    def open_scanner(self, region, *args, **options):
        """A RegionScanner on one of this server's regions (the openScanner RPC's first half;
        `scan` returns its batches)."""
        from hsim.regions.region_scanner import RegionScanner

        if region.server is not self:
            self._not_serving(region)
        return RegionScanner(region, *args, **options)

    def scan(self, scanner, want: int) -> list:
        """One scanner batch (a Scan RPC): up to `want` rows, each counted as a read request."""
        log = self.master.request_log
        if log is None:
            rows = scanner.next_rows(want)
        else:
            before = log.before_read(scanner.region)
            rows = scanner.next_rows(want)
            log.read(self.name, scanner.region, before, len(rows), scanner)
        self.read_rpcs += 1
        self.read_requests += len(rows)
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
            r.flush(now)  # MemStoreFlusher flushes a region selectively (its flush policy)

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
                    r.flush(now, force_all=True)
            wal.clean_old_logs(self._lowest_unflushed)

    def request_split(self, region, split_row: bytes, now: int) -> None:
        if len(self.regions) >= self.config.region_split_limit:
            return  # hbase.regionserver.regionSplitLimit
        self.master.split_region(region, split_row, now)
