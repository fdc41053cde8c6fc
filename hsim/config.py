"""Config: HBase's settings under snake_case names, defaulting to HBase 2.x's values
(hbase-default.xml and the classes that read them)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from typing import Any

MiB = 1 << 20
GiB = 1 << 30
LONG_MAX = (1 << 63) - 1
INT_MAX = (1 << 31) - 1

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
    "compaction_throughput_higher_bound",
    "compaction_throughput_lower_bound",
)


# The range of every numeric field: (lowest, highest, brackets: "[]" both bounds allowed, "(]"
# the lowest not, "()" neither).
# Java reads these settings with getInt or getLong (or getFloat: fractions), so an int field is
# at most INT_MAX or LONG_MAX; where HBase clamps a value (compaction min files: at least 2),
# any value it takes is accepted. NaN and infinities are refused everywhere.
_INT, _LONG = (0, INT_MAX, "[]"), (0, LONG_MAX, "[]")
_POSITIVE_INT, _POSITIVE_LONG = (1, INT_MAX, "[]"), (1, LONG_MAX, "[]")
_RANGES = {
    "memstore_flush_size": _POSITIVE_LONG,
    "flush_lower_bound_min": _LONG,
    "global_memstore_size": _POSITIVE_LONG,
    "global_memstore_lower_limit": (0.0, 1.0, "(]"),  # (0, 1]: a share of the upper limit
    "region_max_filesize": _POSITIVE_LONG,
    "max_filesize_jitter": (0.0, 1.0, "[]"),
    "increasing_policy_initial_size": _POSITIVE_LONG,
    "region_split_limit": _INT,
    "compaction_min_files": _INT,
    "compaction_max_files": _POSITIVE_INT,
    "compaction_ratio": (0.0, 1e9, "[]"),
    "compaction_ratio_offpeak": (0.0, 1e9, "[]"),
    "compaction_min_size": _LONG,
    "compaction_max_size": _LONG,
    "blocking_store_files": _POSITIVE_INT,
    "major_compaction_period_ms": _LONG,
    "major_compaction_jitter": (0.0, 1.0, "[]"),
    "time_to_purge_deletes_ms": _LONG,
    "bloom_error_rate": (0.0, 1.0, "()"),  # (0, 1): a false-positive probability
    "bloom_block_size": _POSITIVE_INT,
    "bloom_max_fold": (0, 30, "[]"),
    "index_chunk_size": _POSITIVE_INT,
    "index_min_entries": (2, INT_MAX, "[]"),  # HFileBlockIndex: at least 2 entries a block
    "bytes_per_checksum": _POSITIVE_INT,
    "block_cache_size": _LONG,
    "prefetch_delay_ms": _INT,
    "keyvalue_max_size": (-INT_MAX - 1, INT_MAX, "[]"),  # <= 0: no limit
    "scanner_timeout_ms": _POSITIVE_INT,
    "regex_budget_ms": _INT,
    "wal_block_size": _POSITIVE_LONG,
    "wal_roll_multiplier": (0.0, 1e9, "()"),
    "wal_roll_period_ms": _POSITIVE_LONG,
    "wal_max_logs": _POSITIVE_INT,
    "wal_async_flush_interval_ms": _POSITIVE_INT,
    "wal_archive_ttl_ms": _LONG,
    "storescanner_pread_max_bytes": _POSITIVE_LONG,
    "off_peak_start_hour": (-1, 23, "[]"),  # -1: no off-peak hours
    "off_peak_end_hour": (-1, 23, "[]"),
    "date_tiered_max_storefile_age_ms": _LONG,
    "date_tiered_incoming_window_min": _INT,
    "date_tiered_base_window_ms": _POSITIVE_LONG,
    "date_tiered_windows_per_tier": _POSITIVE_INT,
    "date_tiered_max_tier_age_ms": _LONG,
    "compaction_throttle": _LONG,
    "compaction_throughput_higher_bound": _POSITIVE_LONG,
    "compaction_throughput_lower_bound": _POSITIVE_LONG,
    "compaction_throughput_offpeak": _POSITIVE_LONG,
    "blocking_wait_ms": _LONG,
    "memstore_block_multiplier": _POSITIVE_LONG,
    "balancer_period_ms": _POSITIVE_LONG,
    "balancer_max_steps": _POSITIVE_LONG,
    "normalizer_period_ms": _POSITIVE_LONG,
    "normalizer_min_region_count": (-INT_MAX - 1, INT_MAX, "[]"),  # settled to >= 1
    "normalizer_merge_min_region_age_days": (-INT_MAX - 1, INT_MAX, "[]"),  # settled to >= 0
    "normalizer_merge_min_region_size_mb": (-LONG_MAX - 1, LONG_MAX, "[]"),  # settled to >= 0
}


def _check_range(name: str, value) -> None:
    """InvalidArgumentError unless `value` is finite and within the field's range."""
    from hsim.errors import InvalidArgumentError

    lo, hi, brackets = _RANGES[name]
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidArgumentError(f"Config field {name} must be a finite number, not {value}")
    above = lo <= value if brackets[0] == "[" else lo < value
    below = value <= hi if brackets[1] == "]" else value < hi
    if not (above and below):
        raise InvalidArgumentError(f"Config field {name} must be in {brackets[0]}{lo}, {hi}"
                                   f"{brackets[1]}, not {value}")


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
    # The store's compaction policy: "exploring" (ExploringCompactionPolicy, the default),
    # "ratio" (RatioBasedCompactionPolicy), "date_tiered" (DateTieredStoreEngine) or "fifo"
    # (FIFOCompactionPolicy); hsim.engine.compaction_policies.POLICIES
    compaction_policy: str = "exploring"
    off_peak_start_hour: int = -1  # hbase.offpeak.start.hour (-1: no off-peak hours)
    off_peak_end_hour: int = -1  # hbase.offpeak.end.hour (exclusive)
    # Date-tiered compaction (CompactionConfiguration, ExponentialCompactionWindowFactory):
    # hbase.hstore.compaction.date.tiered.* as snake_case
    date_tiered_max_storefile_age_ms: int = LONG_MAX  # ...max.storefile.age.millis
    date_tiered_incoming_window_min: int = 6  # ...incoming.window.min
    date_tiered_window_policy: str = "exploring"  # ...window.policy.class: "exploring"|"ratio"
    date_tiered_single_output_for_minor_compaction: bool = True  # ...single.output.for.minor...
    date_tiered_base_window_ms: int = 6 * 3600 * 1000  # ...base.window.millis
    date_tiered_windows_per_tier: int = 4  # ...windows.per.tier
    date_tiered_max_tier_age_ms: int | None = None  # ...max.tier.age.millis (None: max age)
    # The compaction queue (CompactSplit) and its throughput (PressureAwareCompactionThroughput
    # Controller), on cluster time: hsim.regions.compact_split. "no_limit"
    # (NoLimitThroughputController): a compaction takes no cluster time and runs inside the
    # write that asked for it; "pressure_aware" (HBase 2's default) limits it to
    # lower + (higher - lower) x compaction pressure bytes a second, shared by the running
    # compactions, and writes then wait on it (docs/engine.md, "Compaction queue").
    compaction_throughput_controller: str = "no_limit"  # hbase.regionserver.throughput.controller
    # hbase.hstore.compaction.throughput.higher.bound, .lower.bound, .offpeak (bytes/s)
    compaction_throughput_higher_bound: int = 100 * MiB
    compaction_throughput_lower_bound: int = 50 * MiB
    compaction_throughput_offpeak: int = LONG_MAX
    # hbase.regionserver.thread.compaction.throttle: compactions reading more go to the large
    # queue; None: 2 x compaction_max_files x the flush size (CompactionConfiguration)
    compaction_throttle: int | None = None
    blocking_wait_ms: int = 90_000  # hbase.hstore.blockingWaitTime
    memstore_block_multiplier: int = 4  # hbase.hregion.memstore.block.multiplier
    delete_expired_storefile: bool = True  # hbase.store.delete.expired.storefile
    time_to_purge_deletes_ms: int = 0  # hbase.hstore.time.to.purge.deletes
    # HFile format (HFileBlockIndex, BloomFilterFactory, ChecksumUtil)
    bloom_error_rate: float = 0.01  # io.storefile.bloom.error.rate
    bloom_block_size: int = 131072  # io.storefile.bloom.block.size
    bloom_max_fold: int = 7  # io.storefile.bloom.max.fold
    hash_type: str = "murmur"  # hbase.hash.type: "murmur" (MurmurHash) | "murmur3" (MurmurHash3)
    index_chunk_size: int = 131072  # hfile.index.block.max.size
    index_min_entries: int = 16  # hfile.index.block.min.entries
    bytes_per_checksum: int = 16384  # hbase.hstore.bytes.per.checksum
    # Block cache (LruBlockCache, CacheConfig)
    block_cache_size: int = 400 * MiB  # hfile.block.cache.size = 0.4 of a 1 GiB heap
    # The cluster-wide cache life cycle (CacheConfig); each is ORed with the family's own
    # CACHE_DATA_ON_WRITE, CACHE_INDEX_ON_WRITE, CACHE_BLOOMS_ON_WRITE, PREFETCH_BLOCKS_ON_OPEN
    # and EVICT_BLOCKS_ON_CLOSE (hsim.engine.cache_config)
    cache_blocks_on_write: bool = False  # hbase.rs.cacheblocksonwrite
    cache_index_on_write: bool = False  # hfile.block.index.cacheonwrite
    cache_blooms_on_write: bool = False  # hfile.block.bloom.cacheonwrite
    cache_compacted_blocks_on_write: bool = False  # hbase.rs.cachecompactedblocksonwrite
    prefetch_blocks_on_open: bool = False  # hbase.rs.prefetchblocksonopen
    evict_blocks_on_close: bool = False  # hbase.rs.evictblocksonclose
    prefetch_delay_ms: int = 1000  # hbase.hfile.prefetch.delay (PrefetchExecutor)
    # Scans (ScanInfo): switch a store scanner from pread to a streaming read past this many
    # bytes; None: 4 x the family's BLOCKSIZE, ScanInfo's default
    storescanner_pread_max_bytes: int | None = None  # hbase.storescanner.pread.max.bytes
    # Client and Thrift server limits (ConnectionUtils.validatePut, ThriftServerRunner)
    keyvalue_max_size: int = 10 * MiB  # hbase.client.keyvalue.maxsize (<= 0: no limit)
    scanner_timeout_ms: int = 60_000  # hbase.client.scanner.timeout.period
    # hsim only: regex matching CPU time per request, a tenth of it per match
    # (hsim.filters.regex_budget); 0: no budget
    regex_budget_ms: int = 1000
    # Write-ahead log (AbstractFSWAL, LogRoller)
    wal_block_size: int = 256 * MiB  # hbase.regionserver.hlog.blocksize (2 x the HDFS block)
    wal_roll_multiplier: float = 0.5  # hbase.regionserver.logroll.multiplier
    wal_roll_period_ms: int = 3600 * 1000  # hbase.regionserver.logroll.period
    wal_max_logs: int = 32  # hbase.regionserver.maxlogs
    wal_async_flush_interval_ms: int = 1000  # hbase.regionserver.optionallogflushinterval
    wal_archive_ttl_ms: int = 600_000  # hbase.master.logcleaner.ttl (TimeToLiveLogCleaner)
    # The region life cycle (hsim.regions.balancer, hsim.regions.normalizer): the master's
    # load balancer, "stochastic" (StochasticLoadBalancer, HBase 2's default) or "simple"
    # (SimpleLoadBalancer), run by its chore; the normalizer's chore and settings
    balancer: str = "stochastic"  # hbase.master.loadbalancer.class
    balancer_period_ms: int = 300_000  # hbase.balancer.period
    balancer_max_steps: int = 1_000_000  # hbase.master.balancer.stochastic.maxSteps
    normalizer_period_ms: int = 300_000  # hbase.normalizer.period
    normalizer_split_enabled: bool = True  # hbase.normalizer.split.enabled
    normalizer_merge_enabled: bool = True  # hbase.normalizer.merge.enabled
    normalizer_min_region_count: int = 3  # hbase.normalizer.min.region.count
    normalizer_merge_min_region_age_days: int = 3  # hbase.normalizer.merge.min_region_age.days
    normalizer_merge_min_region_size_mb: int = 1  # hbase.normalizer.merge.min_region_size.mb

    def __post_init__(self):
        from hsim.errors import InvalidArgumentError

        for name, allowed in (("flush_policy", ("large_stores", "all_stores")),
                              ("compaction_policy", ("exploring", "ratio", "date_tiered", "fifo")),
                              ("balancer", ("stochastic", "simple")),
                              ("date_tiered_window_policy", ("exploring", "ratio")),
                              ("hash_type", ("murmur", "murmur3")),
                              ("compaction_throughput_controller", ("no_limit", "pressure_aware"))):
            if getattr(self, name) not in allowed:
                raise InvalidArgumentError(f"unknown {name} {getattr(self, name)!r}; one of "
                                           f"{', '.join(allowed)}")
        for name in ("off_peak_start_hour", "off_peak_end_hour"):
            hour = getattr(self, name)
            if not isinstance(hour, int) or isinstance(hour, bool) or not -1 <= hour <= 23:
                raise InvalidArgumentError(f"Config field {name} must be an hour 0-23 (or -1: "
                                           f"none), not {hour!r}")
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
            if want in (int, float):
                _check_range(f.name, v)

    @property
    def compaction_throttle_point(self) -> int:
        """hbase.regionserver.thread.compaction.throttle, or 2 x compaction.max x flush size."""
        if self.compaction_throttle is not None:
            return self.compaction_throttle
        return 2 * self.compaction_max_files * self.memstore_flush_size

    def replace(self, **changes: Any) -> "Config":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def scaled(self, factor: float) -> "Config":
        """A copy with every region/server-scale size multiplied by `factor`, so a laptop run
        keeps HBase's ratios (flush size : region size : compaction thresholds : cache)."""
        from hsim.errors import InvalidArgumentError

        if (isinstance(factor, bool) or not isinstance(factor, (int, float))
                or not math.isfinite(factor) or factor <= 0):
            raise InvalidArgumentError(f"scale must be a positive finite number, not {factor!r}")
        changes = {}
        for name in _SCALED:
            v = getattr(self, name)
            if v is None or v == LONG_MAX:
                continue
            changes[name] = min(max(1, int(v * factor)), LONG_MAX)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        """Every field by name (JSON-ready)."""
        return dataclasses.asdict(self)
