"""BlockCache: HBase's LruBlockCache, with its three priority buckets.

A block enters as SINGLE (or MEMORY for an IN_MEMORY family); a second access promotes a
SINGLE block to MULTI (LruCachedBlock.access). When the cache grows past `acceptable` (0.99 of
capacity) an eviction frees down to `min` (0.95): buckets are visited in order of increasing
overflow over their share (single 0.25, multi 0.50, memory 0.25, each times the min factor) and
each frees `min(its overflow, what is left to free / buckets left)` of its least recently used
blocks (LruBlockCache.evict). So a scan that reads each block once churns through the SINGLE
bucket and leaves the blocks that are read again (MULTI) and IN_MEMORY families alone.

HBase evicts in a background thread; here the eviction runs synchronously inside `put`, as
LruBlockCache does when it has no eviction thread. Sizes are what callers account (hsim uses
the block's uncompressed size with header); the fixed overhead of the map is left out.
"""

from __future__ import annotations

from collections import OrderedDict

from hsim.engine.prefetch import PrefetchExecutor

SINGLE, MULTI, MEMORY = 0, 1, 2
PRIORITY_NAMES = ("single", "multi", "memory")


class BlockCache:
    """One region server's LruBlockCache: owns the cached blocks in three priority buckets
    (single, multi, in-memory) and the hit, miss and eviction counters. HFile readers put and
    get blocks keyed by (file name, offset); nothing else changes it."""

    def __init__(self, capacity_bytes: int, *, single_factor: float = 0.25,
                 multi_factor: float = 0.50, memory_factor: float = 0.25,
                 acceptable_factor: float = 0.99, min_factor: float = 0.95):
        if abs(single_factor + multi_factor + memory_factor - 1.0) > 1e-9:
            raise ValueError("Single, multi, and memory factors should total 1.0")
        if min_factor >= acceptable_factor:
            raise ValueError("minFactor must be smaller than acceptableFactor")
        self.capacity = capacity_bytes
        self.acceptable_size = int(capacity_bytes * acceptable_factor)
        self.min_size = int(capacity_bytes * min_factor)
        self.bucket_targets = (
            int(capacity_bytes * single_factor * min_factor),
            int(capacity_bytes * multi_factor * min_factor),
            int(capacity_bytes * memory_factor * min_factor),
        )
        # One LRU-ordered map per priority: key -> (value, size). Oldest first.
        self._buckets = (OrderedDict(), OrderedDict(), OrderedDict())
        self._bucket_sizes = [0, 0, 0]
        self._priority: dict = {}  # key -> priority
        self.size = 0
        self.hits = 0
        self.misses = 0
        self.evictions = 0  # blocks evicted
        self.eviction_runs = 0
        self.prefetches = PrefetchExecutor()  # files opened with prefetch-on-open, not yet read

    def problems(self) -> list[str]:
        """What does not add up in the cache's own bookkeeping (for Cluster.check_invariants)."""
        out = []
        for prio, bucket in enumerate(self._buckets):
            if sum(size for _, size in bucket.values()) != self._bucket_sizes[prio]:
                out.append(f"block cache bucket {prio}: sizes do not add up")
        if sum(self._bucket_sizes) != self.size:
            out.append(f"block cache size {self.size} != sum of its buckets")
        if sum(len(b) for b in self._buckets) != len(self._priority):
            out.append("block cache: blocks and priorities disagree")
        return out

    @property
    def block_count(self) -> int:
        return len(self._priority)

    def __contains__(self, key) -> bool:
        return key in self._priority

    def get(self, key):
        """The cached value, or None. A hit on a SINGLE block promotes it to MULTI."""
        prio = self._priority.get(key)
        if prio is None:
            self.misses += 1
            return None
        self.hits += 1
        bucket = self._buckets[prio]
        if prio == SINGLE:
            entry = bucket.pop(key)
            self._bucket_sizes[SINGLE] -= entry[1]
            self._buckets[MULTI][key] = entry
            self._bucket_sizes[MULTI] += entry[1]
            self._priority[key] = MULTI
            return entry[0]
        bucket.move_to_end(key)
        return bucket[key][0]

    def put(self, key, value, size: int, in_memory: bool = False) -> None:
        """cacheBlock: caching an already cached key is a no-op (HBASE-8547)."""
        if key in self._priority:
            return
        prio = MEMORY if in_memory else SINGLE
        self._buckets[prio][key] = (value, size)
        self._bucket_sizes[prio] += size
        self._priority[key] = prio
        self.size += size
        if self.size > self.acceptable_size:
            self.evict()

    def replace(self, key, value) -> None:
        """Swap a cached block's value for an equivalent form (its decoded cells), keeping
        its size, priority and place in the LRU order: no hit, no miss, no eviction. A block
        no longer cached (the put that cached it also evicted it) is left out."""
        prio = self._priority.get(key)
        if prio is None:
            return
        bucket = self._buckets[prio]
        bucket[key] = (value, bucket[key][1])

    def evict_block(self, key) -> bool:
        prio = self._priority.pop(key, None)
        if prio is None:
            return False
        _, size = self._buckets[prio].pop(key)
        self._bucket_sizes[prio] -= size
        self.size -= size
        return True

    def evict_file(self, name) -> int:
        """evictBlocksByHfileName: drop every block whose key is (name, offset)."""
        keys = [k for k in self._priority if k[0] == name]
        for k in keys:
            self.evict_block(k)
        return len(keys)

    def evict(self) -> None:
        """LruBlockCache.evict: free down to the min size, bucket by bucket."""
        to_free = self.size - self.min_size
        if to_free <= 0:
            return
        self.eviction_runs += 1
        sizes = self._bucket_sizes
        targets = self.bucket_targets
        order = sorted(range(3), key=lambda p: sizes[p] - targets[p])
        freed = 0
        remaining_buckets = 3
        for prio in order:
            overflow = sizes[prio] - targets[prio]
            if overflow > 0:
                freed += self._free(prio, min(overflow, (to_free - freed) // remaining_buckets))
            remaining_buckets -= 1

    def _free(self, prio: int, amount: int) -> int:
        """BlockBucket.free: evict least recently used blocks until `amount` bytes are freed."""
        bucket = self._buckets[prio]
        freed = 0
        while bucket:
            key, (_, size) = bucket.popitem(last=False)
            del self._priority[key]
            self._bucket_sizes[prio] -= size
            self.size -= size
            self.evictions += 1
            freed += size
            if freed >= amount:
                break
        return freed

    def bucket_sizes(self) -> dict:
        return dict(zip(PRIORITY_NAMES, self._bucket_sizes))

    def stats(self) -> dict:
        return {"hits": self.hits, "misses": self.misses, "evictions": self.evictions,
                "eviction_runs": self.eviction_runs, "size": self.size,
                "block_count": self.block_count, "capacity": self.capacity,
                **{f"{k}_size": v for k, v in self.bucket_sizes().items()}}

    def __repr__(self) -> str:
        return (f"BlockCache(size={self.size}/{self.capacity}, blocks={self.block_count}, "
                f"hits={self.hits}, misses={self.misses}, evictions={self.evictions})")
