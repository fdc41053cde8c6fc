"""LruBlockCache behaviour: priorities, promotion, the in-memory tier, eviction order, counters."""

from __future__ import annotations

import pytest

from hsim.engine.block_cache import BlockCache


def test_hits_misses_size_and_count():
    c = BlockCache(1000)
    assert c.get(("f", 0)) is None
    c.put(("f", 0), "block0", 10)
    c.put(("f", 10), "block1", 20)
    assert c.get(("f", 0)) == "block0"
    assert (c.hits, c.misses, c.size, c.block_count) == (1, 1, 30, 2)


def test_second_access_promotes_single_to_multi():
    c = BlockCache(1000)
    c.put("a", 1, 10)
    c.put("b", 2, 10)
    assert c.bucket_sizes() == {"single": 20, "multi": 0, "memory": 0}
    c.get("a")
    assert c.bucket_sizes() == {"single": 10, "multi": 10, "memory": 0}
    c.get("a")  # stays MULTI
    assert c.bucket_sizes() == {"single": 10, "multi": 10, "memory": 0}


def test_in_memory_blocks_go_to_the_memory_bucket_and_stay_there():
    c = BlockCache(1000)
    c.put("m", 1, 10, in_memory=True)
    c.get("m")
    c.get("m")
    assert c.bucket_sizes() == {"single": 0, "multi": 0, "memory": 10}


def test_caching_a_cached_key_again_changes_nothing():
    c = BlockCache(1000)
    c.put("a", 1, 10)
    c.put("a", 2, 99)
    assert (c.size, c.get("a")) == (10, 1)


def test_eviction_frees_single_blocks_first_and_keeps_multi_blocks():
    # capacity 1000: eviction above 990, down to 950; bucket targets 237 / 475 / 237
    c = BlockCache(1000)
    for i in range(50):
        c.put(i, i, 10)
    for i in range(30):
        c.get(i)  # blocks 0..29 become MULTI (300 bytes)
    for i in range(50, 99):
        c.put(i, i, 10)
    assert c.size == 990 and c.evictions == 0  # not above the acceptable size yet
    c.put(99, 99, 10)  # 1000 > 990: free 50 bytes from the most overflowing bucket
    assert c.size == 950 and c.evictions == 5 and c.eviction_runs == 1
    evicted = [k for k in range(100) if k not in c]
    assert evicted == [30, 31, 32, 33, 34]  # the least recently used SINGLE blocks
    assert c.bucket_sizes() == {"single": 650, "multi": 300, "memory": 0}


def test_lru_order_within_a_bucket_follows_access():
    c = BlockCache(1000)
    for i in range(40):
        c.put(i, i, 10)
        c.get(i)  # all MULTI, accessed in order 0..39
    c.get(0)  # 0 is now the most recently used
    for i in range(40, 99):
        c.put(i, i, 10)
    c.put(99, 99, 10)
    assert 0 in c
    # multi (400) is under its target (475): every byte comes from the single bucket
    assert [k for k in range(100) if k not in c] == [40, 41, 42, 43, 44]


def test_overflowing_buckets_share_the_eviction():
    c = BlockCache(1000)
    for i in range(60):
        c.put(("m", i), i, 10, in_memory=True)  # memory: 600, target 237
    for i in range(40):
        c.put(("s", i), i, 10)  # single: 400, target 237
    # to free 50: buckets by overflow: multi (-475), single (+163), memory (+363);
    # single frees min(163, 50 // 2) = 25 -> 3 blocks (30 bytes), memory frees the remaining 20
    assert c.evictions == 5 and c.size == 950
    assert [k for k in [("s", i) for i in range(3)] if k not in c] == [("s", 0), ("s", 1),
                                                                       ("s", 2)]
    assert ("m", 0) not in c and ("m", 1) not in c and ("m", 2) in c


def test_evict_file_drops_only_that_files_blocks():
    c = BlockCache(1000)
    for off in range(0, 50, 10):
        c.put(("a", off), off, 10)
        c.put(("b", off), off, 10)
    assert c.evict_file("a") == 5
    assert c.block_count == 5 and c.size == 50
    assert all(k[0] == "b" for k in c._priority)


def test_factors_are_validated():
    with pytest.raises(ValueError):
        BlockCache(100, single_factor=0.5, multi_factor=0.5, memory_factor=0.5)
    with pytest.raises(ValueError):
        BlockCache(100, acceptable_factor=0.9, min_factor=0.95)
