"""Config: HBase's settings under snake_case names, defaulting to HBase 2.x's values
(hbase-default.xml and the classes that read them)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from typing import Any

MiB = 1 << 20
GiB = 1 << 30
LONG_MAX = (1 << 63) - 1

# Fields that are region/server-scale sizes. `Config.scaled` multiplies these and only these;
# on-disk format sizes (index chunk, bloom chunk, checksum chunk) stay as HBase writes them.
_SCALED = (
    "memstore_flush_size",
    "flush_lower_bound_min",
    "region_max_filesize",
    "increasing_policy_initial_size",
    "compaction_min_size",
    "compaction_max_size",
    "block_cache_size",
    "global_memstore_size",
    "wal_block_size",
)


@dataclass(frozen=True)
class Config:
    """The HBase settings hsim honours, by their hbase-site.xml names (in comments); `scaled()`
    shrinks the sizes for small runs."""

    # MemStore and flush (HRegion, FlushLargeStoresPolicy, MemStoreFlusher)
    memstore_flush_size: int = 128 * MiB  # hbase.hregion.memstore.flush.size
    flush_policy: str = "large_stores"  # "large_stores" (FlushAllLargeStoresPolicy) | "all_stores"
    flush_lower_bound_min: int = 16 * MiB  # hbase.hregion.percolumnfamilyflush.size.lower.bound.min
    global_memstore_size: int = 400 * MiB  # hbase.regionserver.global.memstore.size (0.4 of 1 GiB)
    global_memstore_lower_limit: float = 0.95
    # Regions and splits (RegionSplitPolicy and subclasses)
    region_max_filesize: int = 10 * GiB  # hbase.hregion.max.filesize
    max_filesize_jitter: float = 0.25  # hbase.hregion.max.filesize.jitter
    split_policy: str = "SteppingSplitPolicy"  # hbase.regionserver.region.split.policy
    increasing_policy_initial_size: int | None = None  # None -> 2 x memstore_flush_size
    region_split_limit: int = 1000  # hbase.regionserver.regionSplitLimit
    # Compaction (CompactionConfiguration)
    compaction_min_files: int = 3  # hbase.hstore.compaction.min
    compaction_max_files: int = 10  # hbase.hstore.compaction.max
    compaction_ratio: float = 1.2  # hbase.hstore.compaction.ratio
    compaction_ratio_offpeak: float = 5.0  # hbase.hstore.compaction.ratio.offpeak
    compaction_min_size: int = 128 * MiB  # hbase.hstore.compaction.min.size (= flush size)
    compaction_max_size: int = LONG_MAX  # hbase.hstore.compaction.max.size
    blocking_store_files: int = 16  # hbase.hstore.blockingStoreFiles
    major_compaction_period_ms: int = 7 * 24 * 3600 * 1000  # hbase.hregion.majorcompaction
    major_compaction_jitter: float = 0.5  # hbase.hregion.majorcompaction.jitter
    delete_expired_storefile: bool = True  # hbase.store.delete.expired.storefile
    time_to_purge_deletes_ms: int = 0  # hbase.hstore.time.to.purge.deletes
    # HFile format (HFileBlockIndex, BloomFilterFactory, ChecksumUtil)
    bloom_error_rate: float = 0.01  # io.storefile.bloom.error.rate
    bloom_block_size: int = 131072  # io.storefile.bloom.block.size
    bloom_max_fold: int = 7  # io.storefile.bloom.max.fold
    index_chunk_size: int = 131072  # hfile.index.block.max.size
    index_min_entries: int = 16  # hfile.index.block.min.entries
    bytes_per_checksum: int = 16384  # hbase.hstore.bytes.per.checksum
    # Block cache (LruBlockCache, CacheConfig)
    block_cache_size: int = 400 * MiB  # hfile.block.cache.size = 0.4 of a 1 GiB heap
    # Scans (ScanInfo): switch a store scanner from pread to a streaming read past this many
    # bytes; None: 4 x the family's BLOCKSIZE, ScanInfo's default
    storescanner_pread_max_bytes: int | None = None  # hbase.storescanner.pread.max.bytes
    # Client and Thrift server limits (ConnectionUtils.validatePut, ThriftServerRunner)
    keyvalue_max_size: int = 10 * MiB  # hbase.client.keyvalue.maxsize (<= 0: no limit)
    scanner_timeout_ms: int = 60_000  # hbase.client.scanner.timeout.period
    # Write-ahead log (AbstractFSWAL, LogRoller)
    wal_block_size: int = 256 * MiB  # hbase.regionserver.hlog.blocksize (2 x the HDFS block)
    wal_roll_multiplier: float = 0.5  # hbase.regionserver.logroll.multiplier
    wal_roll_period_ms: int = 3600 * 1000  # hbase.regionserver.logroll.period
    wal_max_logs: int = 32  # hbase.regionserver.maxlogs
    wal_async_flush_interval_ms: int = 1000  # hbase.regionserver.optionallogflushinterval

    def __post_init__(self):
        from hsim.errors import InvalidArgumentError

        if self.flush_policy not in ("large_stores", "all_stores"):
            raise InvalidArgumentError(f"unknown flush_policy {self.flush_policy!r}")
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v is None and f.default is None:
                continue
            want = int if f.default is None else type(f.default)
            ok = (isinstance(v, bool) if want is bool else
                  isinstance(v, (int, float)) and not isinstance(v, bool) if want is float else
                  isinstance(v, want) and not isinstance(v, bool))
            if not ok:
                raise InvalidArgumentError(
                    f"Config field {f.name} must be {want.__name__}, not {type(v).__name__}")
            if want in (int, float) and v < 0 and f.name != "keyvalue_max_size":
                raise InvalidArgumentError(f"Config field {f.name} must not be negative: {v}")

    @property
    def initial_split_size(self) -> int:
        """hbase.increasing.policy.initial.size, or 2 x the flush size."""
        if self.increasing_policy_initial_size is not None:
            return self.increasing_policy_initial_size
        return 2 * self.memstore_flush_size

    def replace(self, **changes: Any) -> "Config":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def scaled(self, factor: float) -> "Config":
        """A copy with every region/server-scale size multiplied by `factor`, so a laptop run
        keeps HBase's ratios (flush size : region size : compaction thresholds : cache)."""
        changes = {}
        for name in _SCALED:
            v = getattr(self, name)
            if v is None or v == LONG_MAX:
                continue
            changes[name] = max(1, int(v * factor))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        """Every field by name (JSON-ready)."""
        return dataclasses.asdict(self)
