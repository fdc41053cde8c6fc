"""CacheConfig: when a store's blocks enter and leave the block cache besides reads.

HBase's CacheConfig ORs each cluster setting with the family's own attribute: blocks cached as
a flush writes them (cache-on-write: data, leaf/intermediate index, bloom chunks), every block
of a file cached when it opens (prefetch-on-open, PrefetchExecutor, only for a family whose
data blocks are cached on read), and a closing region's blocks evicted (evict-on-close).
A compaction's output caches no data on write (HStore.createWriter: `setCacheDataOnWrite(false)`)
unless hbase.rs.cachecompactedblocksonwrite is set, which turns on all three kinds; its index
and bloom blocks follow the settings as a flush's do. Files a compaction replaced are evicted
whatever the setting (HStore.closeAndArchiveCompactedFiles evicts them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CacheConfig:
    """One store's cache settings, the cluster's ORed with its family's (CacheConfig.of): read by
    the flush, compaction, open and close paths instead of each ORing them again."""

    cache_data_on_write: bool = False
    cache_index_on_write: bool = False
    cache_blooms_on_write: bool = False
    prefetch_on_open: bool = False
    evict_on_close: bool = False
    cache_compacted_on_write: bool = False

    @classmethod
    def of(cls, family, config) -> "CacheConfig":
        return cls(
            cache_data_on_write=config.cache_blocks_on_write or family.cache_data_on_write,
            cache_index_on_write=config.cache_index_on_write or family.cache_index_on_write,
            cache_blooms_on_write=config.cache_blooms_on_write or family.cache_blooms_on_write,
            # shouldPrefetchOnOpen: prefetchOnOpen && cacheDataOnRead (the family's BLOCKCACHE)
            prefetch_on_open=(config.prefetch_blocks_on_open or family.prefetch_blocks_on_open)
            and family.block_cache,
            evict_on_close=config.evict_blocks_on_close or family.evict_blocks_on_close,
            cache_compacted_on_write=config.cache_compacted_blocks_on_write,
        )

    def on_write(self, compaction: bool) -> tuple[bool, bool, bool]:
        """(data, index, blooms) cached as a file is written: a flush's, or a compaction's."""
        if compaction:
            if self.cache_compacted_on_write:
                return True, True, True  # CacheConfig.enableCacheOnWrite
            return False, self.cache_index_on_write, self.cache_blooms_on_write
        return self.cache_data_on_write, self.cache_index_on_write, self.cache_blooms_on_write
