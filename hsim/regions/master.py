"""Master (HMaster): tables, the meta table of regions, assignment, splits, the balancer and
the admin operations. Region servers live here too, as in a MiniHBaseCluster."""

from __future__ import annotations

import logging

from hsim.bytes import to_string
from hsim.configuration_keys import configured
from hsim.errors import (
    DiskIOError,
    DoNotRetryError,
    HsimError,
    InvalidArgumentError,
    TableDisabledError,
    TableExistsError,
    TableNotDisabledError,
    TableNotEnabledError,
    TableNotFoundError,
    UnknownRegionError,
)
from hsim.engine import store_cache
from hsim.metrics import ClusterMetrics, RegionMetrics, ServerMetrics, StoreMetrics
from hsim.regions import meta
from hsim.regions.table_state import TableState
from hsim.regions.region import Region
from hsim.regions.region_server import RegionServer
from hsim.regions.router import RegionLocator
from hsim.regions.master_lifecycle import Lifecycle
from hsim.schema import ColumnFamily, TableDescriptor, validate_family_name

log = logging.getLogger("hsim.regions")


class Master(Lifecycle):
    """The HMaster: owns the region servers, the table map (TableState per table), namespaces,
    the balancer and normalizer switches and chores, and the procedures a data directory
    journals. Admin calls come here; it is the only writer of the table map and assignments."""

    def __init__(self, region_servers: int, config, clock):
        if region_servers < 1:
            raise InvalidArgumentError("a cluster needs at least one region server")
        self.config = config
        self.clock = clock
        start = clock.now()
        self.servers = [RegionServer(i, config, self, start) for i in range(region_servers)]
        self.dead_servers: list = []  # aborted servers (their names, as the master's DeadServer)
        self._server_index = region_servers
        self.tables: dict[str, TableState] = {}
        self._next_server = 0
        self.splits = 0
        self.request_log = None  # a RequestLog while one is recorded (Cluster.record_requests)
        self.namespaces = {"default", "hbase"}  # the namespace table (user tables: default)
        self.snapshots: dict = {}  # name -> SnapshotDescription (hsim.regions.snapshot)
        self.moves = 0
        self.init_lifecycle(start)
        from hsim.regions.log_cleaner import LogCleaner

        self.log_cleaner = LogCleaner(config.wal_archive_ttl_ms)  # oldWALs

        # With a data directory: the DDL and splits done since its last checkpoint, in order,
        # as (procedure, table name, regions...) for its procedure journal (hsim.storage
        # .procedures); None without one (nothing to journal).
        self.procedures: list | None = None
        self._region_ids: dict[str, int] = {}  # table name -> the highest region id it had

    def note_region_id(self, table: str, region_id: int) -> None:
        """A region of `table` has this id: a later create under the name uses a higher one."""
        self._region_ids[table] = max(self._region_ids.get(table, -1), region_id)

    def _record(self, *procedure) -> None:
        if self.procedures is not None:
            self.procedures.append(procedure)

    # --- tables ----------------------------------------------------------------------------------
    def table_state(self, name: str) -> TableState:
        st = self.tables.get(name)
        if st is None:
            if meta.is_meta(name):
                return meta.state(self)  # built now from the region map
            raise TableNotFoundError(name)
        return st

    def enabled_table(self, name: str) -> TableState:
        st = self.table_state(name)
        if not st.enabled:
            raise TableDisabledError(f"{name} is disabled.")
        return st

    def create_table(self, desc: TableDescriptor, split_keys: list | None = None) -> None:
        if desc.name in self.tables or meta.is_meta(desc.name):
            raise TableExistsError(desc.name)
        for family, cf in desc.families.items():
            self._check_compaction_policy(family, cf, desc)
        self._create(desc, split_keys)
        self._record("CreateTable", desc.name, list(self.tables[desc.name].locator.regions))

    def _create(self, desc: TableDescriptor, split_keys: list | None) -> None:
        keys = _check_split_keys(split_keys or [])
        now = self.clock.now()
        # A table made again under the same name (truncate, drop and create) at the same time
        # still gets new region names, or a crash would replay the old regions' WAL edits into
        # the new ones.
        rid = max(now, self._region_ids.get(desc.name, -1) + 1)
        self.note_region_id(desc.name, rid)
        bounds = [b""] + keys + [b""]
        regions = [Region(desc, bounds[i], bounds[i + 1], rid, self.config)
                   for i in range(len(bounds) - 1)]
        for r in regions:
            self._assign(r)
        self.tables[desc.name] = TableState(desc, True, RegionLocator(regions), keys, now)

    def _check_compaction_policy(self, family: bytes, cf: ColumnFamily,
                                 desc: TableDescriptor) -> None:
        """TableDescriptorChecker.checkCompactionPolicy: a FIFO store (by the cluster's, the
        table's or the family's settings) needs a TTL, MIN_VERSIONS 0 and at least 1,000
        blocking store files."""
        settings = configured(self.config, cf.configuration, desc.configuration)
        if settings.compaction_policy == "fifo":
            from hsim.engine.fifo_compaction_policy import check_family

            check_family(family.decode("utf-8", "replace"), cf.ttl_ms, cf.min_versions,
                         settings.blocking_store_files)

    def _assign(self, region):
        """Round-robin assignment (as the balancer's roundRobinAssignment at create)."""
        server = self.servers[self._next_server % len(self.servers)]
        self._next_server += 1
        server.open_region(region)
        return server

    def delete_table(self, name: str) -> None:
        meta.refuse(name)
        st = self.table_state(name)
        if st.enabled:
            raise TableNotDisabledError(name)
        self._drop(st)
        self._record("DeleteTable", name)

    def _drop(self, st: TableState) -> None:
        for r in st.locator.regions:
            if r.server is not None:
                for s in r.stores.values():
                    for sf in s.files:
                        r.server.block_cache.evict_file(sf.reader.name)
                r.server.close_region(r, retire=True)
        del self.tables[st.descriptor.name]

    def disable_table(self, name: str) -> None:
        meta.refuse(name, "disable")
        st = self.table_state(name)
        if not st.enabled:
            raise TableNotEnabledError(name)
        now = self.clock.now()
        st.state_time = now
        for r in st.locator.regions:  # a region flushes its memstore when it closes
            r.flush(now, force_all=True)
            for s in r.stores.values():
                store_cache.closed(s)
        st.enabled = False

    def enable_table(self, name: str) -> None:
        st = self.table_state(name)
        if st.enabled:
            raise TableNotDisabledError(name)
        st.enabled = True
        st.state_time = self.clock.now()
        for r in st.locator.regions:  # enabling reopens the regions where they were
            r.opened_at = st.state_time
            for s in r.stores.values():
                store_cache.opened(s, st.state_time)

    def truncate_table(self, name: str, preserve_splits: bool = True) -> None:
        meta.refuse(name)
        st = self.table_state(name)
        if st.enabled:
            raise TableNotDisabledError(name)
        keys = [r.start_key for r in st.locator.regions][1:] if preserve_splits else []
        old = list(st.locator.regions)
        self._drop(st)
        self._create(st.descriptor, keys)
        self._record("TruncateTable", name, list(self.tables[name].locator.regions), old)

    # --- schema changes (online in 2.x) -----------------------------------------------------------
    def add_family(self, name: str, family: bytes, cf: ColumnFamily) -> None:
        meta.refuse(name)
        st = self.table_state(name)
        family = validate_family_name(family)
        self._check_compaction_policy(family, cf, st.descriptor)
        if family in st.descriptor.families:
            raise InvalidArgumentError(
                f"Family '{to_string(family)}' already exists so cannot be added"
            )
        st.descriptor.families[family] = cf
        self._reopen(st)

    def alter_family(self, name: str, family: bytes, cf: ColumnFamily) -> None:
        meta.refuse(name)
        st = self.table_state(name)
        if family not in st.descriptor.families:
            from hsim.errors import NoSuchColumnFamilyError

            raise NoSuchColumnFamilyError(
                f"Column family '{to_string(family)}' does not exist in table {name}"
            )
        self._check_compaction_policy(family, cf, st.descriptor)
        # HBase applies a schema change by reopening the regions, and closing a region flushes
        # its MemStore under the old schema; then reads see the change at once, stored data at
        # the next major compaction.
        now = self.clock.now()
        for r in st.locator.regions:
            if not r.closed:
                r.flush(now, force_all=True)
        st.descriptor.families[family] = cf
        for r in st.locator.regions:
            r.stores[family].family = cf
        self._reopen(st)

    def delete_family(self, name: str, family: bytes) -> None:
        meta.refuse(name)
        st = self.table_state(name)
        fams = st.descriptor.families
        if family not in fams:
            from hsim.errors import NoSuchColumnFamilyError

            raise NoSuchColumnFamilyError(
                f"Family '{to_string(family)}' does not exist, so it cannot be deleted"
            )
        if len(fams) == 1:
            raise InvalidArgumentError(
                "Family '" + to_string(family) + "' is the only column family in the table, so it"
                " cannot be deleted"
            )
        del fams[family]
        for r in st.locator.regions:
            store = r.stores.pop(family)
            r.memstore_changed(-store.memstore.heap_size)
            if r.server is not None:
                for sf in store.files:
                    r.server.block_cache.evict_file(sf.reader.name)

    def _reopen(self, st: TableState) -> None:
        for r in st.locator.regions:
            r.set_block_cache(r.block_cache)

    # --- region servers (MiniHBaseCluster.abortRegionServer / startRegionServer) ---------------
    def abort_server(self, index: int):
        """Kill live server `index` (its MemStores and block cache die with it) and run the
        ServerCrashProcedure; returns its CrashReport."""
        from hsim.regions.recovery import recover

        if not isinstance(index, int) or not 0 <= index < len(self.servers):
            raise InvalidArgumentError(
                f"no live region server {index!r}: there are {len(self.servers)}")
        if len(self.servers) == 1:
            raise InvalidArgumentError(
                "cannot abort the last live region server: its regions would have nowhere to go")
        dead = self.servers.pop(index)
        self.dead_servers.append(dead.name)
        now = self.clock.now()
        report = recover(dead, self._assign, now)
        self.log_cleaner.collect(dead.wal, now)  # its split WALs are archived
        return report

    def start_server(self):
        """A new region server (a fresh start code); it gets regions from the balancer."""
        srv = RegionServer(self._server_index, self.config, self, self.clock.now())
        self._server_index += 1
        self.servers.append(srv)
        return srv

    # --- region operations --------------------------------------------------------------------
    def region_by_name(self, name: str):
        for st in self.tables.values():
            for r in st.locator.regions:
                if name in (r.name, r.encoded_name):
                    return r
        raise UnknownRegionError(name)

    def split_refusal(self, region):
        """The error HBase gives a split of `region` that the master's SPLIT switch
        (HMaster.splitRegion) or the table's SPLIT_ENABLED (SplitTableRegionProcedure's
        prepare) forbids; None when it may split."""
        if not self.switches["SPLIT"]:
            return DoNotRetryError(f"Split region {region.name} failed due to split switch off")
        if not region.table.split_enabled:
            return HsimError(f"Split region {region.name} failed as region split is disabled "
                             "for the table")
        return None

    def split_region(self, region, split_row: bytes, now: int) -> tuple | None:
        """Split `region` at `split_row` (a row boundary): daughters on the parent's server
        (as HBase opens them), each compacting its reference files away. None when it cannot
        split, or the split switch or the table forbids it (split_refusal: a region server's
        request turned down, logged)."""
        if region.closed or region.splitting or not region.valid_split_row(split_row):
            return None
        refused = self.split_refusal(region)
        if refused is not None:
            log.info("%s", refused.message)
            return None
        st = self.tables[region.table.name]
        server = region.server
        region.splitting = True
        a, b = region.daughters(split_row, now)
        server.close_region(region, retire=True)
        for s in region.stores.values():  # the parent's files close (HStore.close)
            store_cache.closed(s)
        server.open_region(a)
        server.open_region(b)
        regions = [r for r in st.locator.regions if r is not region] + [a, b]
        st.locator.set(regions)
        self.splits += 1
        self._record("SplitTableRegion", st.descriptor.name, [a, b], region)
        self.note_region_id(st.descriptor.name, a.region_id)
        for d in (a, b):
            for s in d.stores.values():
                if s.has_references():
                    d.compact_store(s, now)
        for d in (a, b):
            if not d.closed:
                d.check_split(now)
        return a, b

    def simple_balance(self) -> list:
        """SimpleLoadBalancer: even out region counts so every server holds floor(avg) or
        ceil(avg) regions. Moves are chosen deterministically (regions by name)."""
        servers = self.servers
        total = sum(len(s.regions) for s in servers)
        n = len(servers)
        floor_, ceil_ = total // n, -(-total // n)
        moves = []
        donors = []
        for s in servers:
            keep = ceil_ if len(s.regions) > ceil_ else None
            if keep is not None:
                extra = sorted(s.regions.values(), key=lambda r: r.name)[keep:]
                donors.extend((r, s) for r in extra)
        # Servers at ceil may also give one region each if someone is still below floor.
        def below(limit):
            return [s for s in servers if len(s.regions) < limit]
        for r, src in donors:
            targets = below(floor_) or below(ceil_)
            if not targets:
                break
            dst = min(targets, key=lambda s: (len(s.regions), s.index))
            self._move(r, src, dst)
            moves.append((r.name, src.name, dst.name))
        while below(floor_):
            dst = min(below(floor_), key=lambda s: (len(s.regions), s.index))
            src = max(servers, key=lambda s: (len(s.regions), -s.index))
            if len(src.regions) <= floor_:
                break
            r = sorted(src.regions.values(), key=lambda r: r.name)[-1]
            self._move(r, src, dst)
            moves.append((r.name, src.name, dst.name))
        return moves

    def _move(self, region, src, dst) -> None:
        # Closing a region flushes its MemStore (HRegion.close), so its edits in src's WAL are
        # no longer needed: dst's WAL starts with the region's next edit. Flushed once closed,
        # so the flush asks for no split in the middle of a move.
        src.close_region(region)
        try:
            region.flush(self.clock.now(), force_all=True)
        except DiskIOError:  # the disk refused the flush: the move is abandoned, region stays
            src.open_region(region)
            raise
        for s in region.stores.values():  # evicted only with evict-on-close (HStore.close)
            store_cache.closed(s)
        dst.open_region(region)
        self.moves += 1

    # --- metrics ---------------------------------------------------------------------------------
    def metrics(self) -> ClusterMetrics:
        servers, regions = [], []
        for srv in self.servers:
            agg = _store_totals(srv.retired)  # stores of regions that moved or split away
            agg.update(store_files=0, store_file_bytes=0, index_bytes=0, bloom_bytes=0)
            for r in sorted(srv.regions.values(), key=lambda r: (r.table.name, r.start_key)):
                stores = [_store_metrics(f, s) for f, s in r.stores.items()]
                regions.append(RegionMetrics(
                    name=r.name, table=r.table.name, start_key=r.start_key, end_key=r.end_key,
                    server=srv.name, read_requests=r.read_requests,
                    filtered_read_requests=r.filtered_read_requests,
                    write_requests=r.write_requests, memstore_heap_bytes=r.memstore_heap,
                    store_files=sum(m.store_files for m in stores),
                    store_file_bytes=sum(m.store_file_bytes for m in stores), stores=stores))
                for s in r.stores.values():
                    for name, value in _store_totals(s.counters).items():
                        agg[name] += value
                    agg["store_files"] += len(s.files)
                    agg["store_file_bytes"] += s.size
                    agg["index_bytes"] += s.index_size
                    agg["bloom_bytes"] += s.bloom_size
            bc, wal = srv.block_cache, srv.wal
            servers.append(ServerMetrics(
                name=srv.name, regions=len(srv.regions), read_requests=srv.read_requests,
                filtered_read_requests=srv.filtered_read_requests,
                write_requests=srv.write_requests, check_mutate_passed=srv.check_mutate_passed,
                check_mutate_failed=srv.check_mutate_failed, memstore_heap_bytes=srv.memstore_heap,
                block_cache_hits=bc.hits, block_cache_misses=bc.misses,
                block_cache_evictions=bc.evictions, block_cache_size=bc.size,
                read_rpcs=srv.read_rpcs, wal_files=len(wal.files), wal_bytes=wal.size,
                wal_bytes_written=wal.bytes_written, wal_syncs=wal.syncs,
                wal_fsyncs=wal.fsyncs, wal_rolls=wal.rolls, wal_archived=len(wal.archived),
                wal_forced_flushes=wal.forced_flushes, wal_sync_failures=wal.sync_failures,
                **_queue_metrics(srv.compactions), **agg))
        return ClusterMetrics(servers=servers, regions=regions)


def _queue_metrics(q) -> dict:
    """The ServerMetrics fields of a server's CompactSplit (its queues and the updates they
    blocked)."""
    return dict(updates_blocked_ms=q.updates_blocked_ms, blocked_requests=q.blocked_requests,
                compaction_queue_length=q.small_queue_length + q.large_queue_length,
                small_compaction_queue_length=q.small_queue_length,
                large_compaction_queue_length=q.large_queue_length)


def _store_totals(c) -> dict:
    """The ServerMetrics fields that add up a store's counters (StoreCounters)."""
    io = c.io
    return dict(flushes=c.flushes, bytes_flushed=c.bytes_flushed,
                compactions=c.minor_compactions + c.major_compactions,
                compaction_bytes_read=c.compaction_bytes_read,
                compaction_bytes_written=c.compaction_bytes_written,
                blocks_read=io.blocks_read, bytes_read=io.bytes_read,
                bloom_checks=io.bloom_checks, bloom_negatives=io.bloom_negatives,
                chunk_cache_hits=io.chunk_hits, flush_failures=c.flush_failures,
                compaction_failures=c.compaction_failures)


def _store_metrics(family: bytes, s) -> StoreMetrics:
    c = s.counters
    return StoreMetrics(
        family=family.decode("utf-8", "replace"),
        memstore_data_bytes=s.memstore.data_size, memstore_heap_bytes=s.memstore.heap_size,
        store_files=len(s.files), store_file_bytes=s.size, index_bytes=s.index_size,
        bloom_bytes=s.bloom_size, flushes=c.flushes, bytes_flushed=c.bytes_flushed,
        cells_flushed=c.cells_flushed, minor_compactions=c.minor_compactions,
        major_compactions=c.major_compactions, compaction_files_read=c.compaction_files_read,
        compaction_bytes_read=c.compaction_bytes_read,
        compaction_bytes_written=c.compaction_bytes_written,
        cells_dropped_deleted=c.cells_dropped_deleted,
        cells_dropped_expired=c.cells_dropped_expired,
        cells_dropped_versions=c.cells_dropped_versions, markers_dropped=c.markers_dropped,
        expired_files_dropped=c.expired_files_dropped, flush_failures=c.flush_failures,
        compaction_failures=c.compaction_failures, blocks_read=c.io.blocks_read,
        cache_hits=c.io.cache_hits, cache_misses=c.io.cache_misses,
        bloom_checks=c.io.bloom_checks, bloom_negatives=c.io.bloom_negatives)


def _check_split_keys(keys: list) -> list:
    """HBase's createTable checks: no empty key, no duplicates; keys are sorted."""
    out = []
    for k in keys:
        if isinstance(k, str):
            k = k.encode("utf-8")
        if not k:
            raise InvalidArgumentError("Empty split key must not be passed in the split keys.")
        out.append(bytes(k))
    out.sort()
    for a, b in zip(out, out[1:]):
        if a == b:
            raise InvalidArgumentError(f"Split keys must be unique: {a!r}")
    return out
