"""A store's blocks entering and leaving the block cache as its files are written, opened and
closed (hsim.engine.cache_config decides which): cache-on-write after a flush or a compaction,
a prefetch requested as a file opens, eviction as the region closes."""

from __future__ import annotations

from hsim.engine.cache_config import CacheConfig


def written(store, sf, now: int, compaction: bool) -> None:
    """A new flush or compaction file the store has taken in: its blocks cached as written
    (HFileWriterImpl's cacheOnWrite), then opened (a prefetch requested)."""
    if store.block_cache is None:
        return
    cc = CacheConfig.of(store.family, store.config)
    data, index, blooms = cc.on_write(compaction)
    if data or index or blooms:
        # hsim caches no data block on write for a BLOCKCACHE => false family: its reads do
        # not look in the cache, so such blocks could only take room
        sf.reader.warm(data=data and store.family.block_cache, index=index, blooms=blooms)
    _prefetch(store, cc, [sf], now)


def opened(store, now: int) -> None:
    """The store's region opened on a server (assignment, a move, a split's daughter): a
    prefetch requested for each of its files."""
    if store.block_cache is not None:
        _prefetch(store, CacheConfig.of(store.family, store.config), store.files, now)


def _prefetch(store, cc: CacheConfig, files, now: int) -> None:
    if not cc.prefetch_on_open:
        return
    executor = store.block_cache.prefetches
    for sf in files:
        if not sf.is_reference:  # a daughter's half file reads its parent's blocks
            executor.request(sf.reader, now + store.config.prefetch_delay_ms)


def closed(store) -> int:
    """The store's region closed (a move, a split, a disable): HStore.close closes each file
    with evictOnClose = CacheConfig.shouldEvictOnClose, and cancels its pending prefetch.
    Without evict-on-close the blocks stay until the LRU ages them out. Returns the blocks
    evicted."""
    cache = store.block_cache
    if cache is None:
        return 0
    evict = CacheConfig.of(store.family, store.config).evict_on_close
    n = 0
    for sf in store.files:
        if not sf.is_reference:
            cache.prefetches.cancel(sf.reader.name)
            if evict:
                n += cache.evict_file(sf.reader.name)
    return n
