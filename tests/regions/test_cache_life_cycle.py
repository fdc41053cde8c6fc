"""The block cache's life cycle beside reads (CacheConfig): cache-on-write after flushes and
compactions, prefetch-on-open on cluster time, evict-on-close, and reads with
cache_blocks=False (Scan/Get.setCacheBlocks)."""

import pytest

import hsim
from hsim.config import Config
from hsim.engine import block as blk
from hsim.errors import InvalidArgumentError
from hsim.schema import ColumnFamily


def _cluster(servers=1, **config):
    return hsim.Cluster(region_servers=servers, config=Config(**config))


def _load(cluster, family=None, rows=400, value=b"v" * 200, name="t", split_keys=None):
    cluster.admin.create_table(name, {"f": family or ColumnFamily(block_size=1024)},
                               split_keys=split_keys)
    t = cluster.table(name)
    for i in range(rows):
        t.put(b"r%05d" % i, {b"f:q": value})
    cluster.admin.flush(name)
    return t


def _regions(cluster, name="t"):
    return list(cluster.master.tables[name].locator.regions)


def _files(cluster, name="t"):
    return [sf for r in _regions(cluster, name) for sf in r.stores[b"f"].files]


def _cached(cluster, sf, magics=(blk.DATA,)):
    """The file's blocks of these kinds, and how many of them are in the cache."""
    cache = cluster.region_servers[0].block_cache
    offs = [b.offset for b in sf.reader.all_blocks() if b.block_type.encode("latin-1") in magics]
    return len(offs), sum((sf.reader.name, o) in cache for o in offs)


def test_by_default_a_flush_caches_nothing():
    c = _cluster()
    _load(c)
    (sf,) = _files(c)
    assert _cached(c, sf)[1] == 0
    assert c.region_servers[0].block_cache.block_count == 0


def test_cache_data_on_write_caches_every_data_block_of_a_flush_and_counts_no_miss():
    c = _cluster()
    _load(c, ColumnFamily(block_size=1024, cache_data_on_write=True, bloom_filter="NONE"))
    (sf,) = _files(c)
    total, cached = _cached(c, sf)
    assert total > 10 and cached == total
    cache = c.region_servers[0].block_cache
    assert (cache.hits, cache.misses) == (0, 0)
    assert _cached(c, sf, (blk.LEAF_INDEX, blk.BLOOM_CHUNK))[1] == 0
    hits = cache.hits
    c.table("t").get(b"r00007")
    assert cache.hits > hits and cache.misses == 0  # the first read already hits


def test_cluster_setting_caches_on_write_as_the_family_attribute_does():
    c = _cluster(cache_blocks_on_write=True, cache_blooms_on_write=True)
    _load(c)
    (sf,) = _files(c)
    total, cached = _cached(c, sf)
    assert cached == total
    chunks, cached_chunks = _cached(c, sf, (blk.BLOOM_CHUNK,))
    assert chunks >= 1 and cached_chunks == chunks


def test_index_on_write_caches_leaf_index_blocks_only():
    c = _cluster(index_chunk_size=256)
    _load(c, ColumnFamily(block_size=1024, cache_index_on_write=True))
    (sf,) = _files(c)
    leaves, cached = _cached(c, sf, (blk.LEAF_INDEX, blk.INTERMEDIATE_INDEX))
    assert leaves >= 2 and cached == leaves
    assert _cached(c, sf)[1] == 0


def test_compaction_output_caches_no_data_on_write_but_index_and_blooms():
    c = _cluster()
    fam = ColumnFamily(block_size=1024, cache_data_on_write=True, cache_blooms_on_write=True)
    t = _load(c, fam)
    for i in range(400):
        t.put(b"r%05d" % i, {b"f:q": b"w" * 200})
    c.admin.flush("t")
    c.admin.major_compact("t")
    (sf,) = _files(c)
    assert _cached(c, sf)[1] == 0  # HStore.createWriter: setCacheDataOnWrite(false)
    chunks, cached = _cached(c, sf, (blk.BLOOM_CHUNK,))
    assert cached == chunks >= 1
    # the compacted-away files' blocks are gone whatever the setting
    cache = c.region_servers[0].block_cache
    assert all(k[0] == sf.reader.name for k in cache._priority)


def test_cache_compacted_blocks_on_write_caches_all_of_a_compaction():
    c = _cluster(cache_compacted_blocks_on_write=True)
    t = _load(c)
    t.put(b"r00001", {b"f:q": b"x"})
    c.admin.flush("t")
    c.admin.major_compact("t")
    (sf,) = _files(c)
    total, cached = _cached(c, sf)
    assert cached == total


def test_prefetch_on_open_caches_the_file_once_the_delay_has_passed_on_cluster_time():
    from hsim.clock import ManualClock

    clock = ManualClock(1_000_000)
    c = hsim.Cluster(clock=clock)
    _load(c, ColumnFamily(block_size=1024, prefetch_blocks_on_open=True))
    (sf,) = _files(c)
    cache = c.region_servers[0].block_cache
    assert _cached(c, sf)[1] == 0 and len(cache.prefetches) == 1
    clock.advance(500)
    c.table("t").get(b"zzz")  # a request before the delay: nothing yet
    assert _cached(c, sf)[1] == 0
    clock.advance(600)
    misses = cache.misses
    c.table("t").get(b"r00003")
    total, cached = _cached(c, sf)
    assert cached == total and len(cache.prefetches) == 0
    assert cache.misses == misses  # the get found its block prefetched
    assert _cached(c, sf, (blk.BLOOM_CHUNK,))[1] >= 1


def test_prefetch_needs_blockcache_and_is_cancelled_when_the_file_goes():
    from hsim.clock import ManualClock

    clock = ManualClock(1_000_000)
    c = hsim.Cluster(clock=clock)
    _load(c, ColumnFamily(block_size=1024, prefetch_blocks_on_open=True, block_cache=False))
    assert len(c.region_servers[0].block_cache.prefetches) == 0
    c2 = hsim.Cluster(clock=ManualClock(1_000_000))
    t = _load(c2, ColumnFamily(block_size=1024, prefetch_blocks_on_open=True))
    t.put(b"a", {b"f:q": b"1"})
    c2.admin.flush("t")
    c2.admin.major_compact("t")  # both flushed files go before their prefetch ran
    cache = c2.region_servers[0].block_cache
    (sf,) = _files(c2)
    assert [e[2].name for e in cache.prefetches._queue] == [sf.reader.name]


def _move_one(cluster):
    """A second server, then the balancer moves one of the table's two regions to it."""
    src = cluster.region_servers[0]
    dst = cluster.start_region_server()
    cluster.admin.balance()
    (moved,) = [r for r in _regions(cluster) if r.server is dst]
    return src, dst, moved


def _blocks_of(cache, region):
    return sum(1 for k in cache._priority
               for sf in region.stores[b"f"].files if k[0] == sf.reader.name)


@pytest.mark.parametrize("evict", [False, True])
def test_a_move_keeps_the_blocks_on_the_old_server_unless_evict_on_close(evict):
    c = _cluster()
    t = _load(c, ColumnFamily(block_size=1024, evict_blocks_on_close=evict),
              split_keys=[b"r00200"])
    for i in range(0, 400, 7):
        t.get(b"r%05d" % i)
    src, dst, moved = _move_one(c)
    assert (_blocks_of(src.block_cache, moved) > 0) is not evict
    assert dst.block_cache.block_count == 0  # the cold cache after a move
    stayed = next(r for r in _regions(c) if r is not moved)
    assert _blocks_of(src.block_cache, stayed) > 0
    t.get(moved.start_key)  # the moved region now reads through its new server's cache
    assert _blocks_of(dst.block_cache, moved) > 0


def test_a_move_with_prefetch_warms_the_new_server_on_cluster_time():
    from hsim.clock import ManualClock

    clock = ManualClock(1_000_000)
    c = hsim.Cluster(clock=clock)
    _load(c, ColumnFamily(block_size=1024, prefetch_blocks_on_open=True),
          split_keys=[b"r00200"])
    clock.advance(2000)
    c.table("t").get(b"r00001")
    src, dst, moved = _move_one(c)
    assert _blocks_of(dst.block_cache, moved) == 0
    clock.advance(2000)
    c.table("t").get(b"r00001")
    (sf,) = moved.stores[b"f"].files
    total = len(sf.reader.blocks())
    assert sum((sf.reader.name, b.offset) in dst.block_cache for b in sf.reader.blocks()) == total


def test_cache_blocks_false_adds_no_data_block_but_hits_cached_ones():
    c = _cluster()
    t = _load(c, ColumnFamily(block_size=1024, bloom_filter="NONE"))
    cache = c.region_servers[0].block_cache
    assert sum(1 for _ in t.scan(cache_blocks=False)) == 400
    (sf,) = _files(c)
    assert _cached(c, sf)[1] == 0
    assert cache.misses > 0
    t.get(b"r00100")  # cached by an ordinary get
    assert _cached(c, sf)[1] == 1
    hits = cache.hits
    assert t.get(b"r00100", cache_blocks=False)
    assert cache.hits == hits + 1  # the block already cached still hits
    assert t.get(b"r00300", cache_blocks=False)
    assert _cached(c, sf)[1] == 1  # the one it read is not added
    assert sum(1 for _ in t.scan()) == 400
    total, cached = _cached(c, sf)
    assert cached == total


def test_cache_blocks_must_be_a_bool_and_a_refused_request_reads_nothing():
    c = _cluster()
    t = _load(c)
    cache = c.region_servers[0].block_cache
    before = (cache.hits, cache.misses)
    with pytest.raises(InvalidArgumentError, match="cache_blocks must be a bool"):
        t.get(b"r00001", cache_blocks="no")
    with pytest.raises(InvalidArgumentError, match="cache_blocks must be a bool"):
        t.scan(cache_blocks=0)
    assert (cache.hits, cache.misses) == before


def test_cache_attributes_must_be_booleans():
    for name in ("cache_data_on_write", "cache_index_on_write", "cache_blooms_on_write",
                 "prefetch_blocks_on_open", "evict_blocks_on_close"):
        with pytest.raises(InvalidArgumentError, match="must be true or false"):
            ColumnFamily(**{name: "yes"})
    c = _cluster()
    with pytest.raises(InvalidArgumentError):
        c.admin.create_table("t", {"f": {"PREFETCH_BLOCKS_ON_OPEN": 3}})
    assert not c.admin.table_exists("t")
