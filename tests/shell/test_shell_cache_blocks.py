"""The shell's CACHE_BLOCKS (Scan.setCacheBlocks): `scan` caches unless told not to, `count`
does not unless told to (count.rb), and a value other than true or false is refused."""

TOOK = "Took 0.0000 seconds\n"


def _setup(sh):
    sh("create 't', {NAME => 'f', BLOCKSIZE => 1024, BLOOMFILTER => 'NONE'}")
    for i in range(60):
        sh(f"put 't', 'r{i:03d}', 'f:q', '{'v' * 200}'")
    sh("flush 't'")
    return sh.shell.cluster.region_servers[0].block_cache


def test_scan_with_cache_blocks_false_adds_nothing_and_count_adds_nothing_by_default(sh):
    cache = _setup(sh)
    assert "60 row(s)" in sh("scan 't', {CACHE_BLOCKS => false}")
    assert cache.block_count == 0 and cache.misses > 0
    assert "60 row(s)" in sh("count 't'")
    assert cache.block_count == 0
    sh("count 't', CACHE_BLOCKS => true")
    cached = cache.block_count
    assert cached > 5
    hits = cache.hits
    sh("scan 't', {CACHE_BLOCKS => false}")
    assert cache.hits > hits and cache.block_count == cached  # cached blocks still hit


def test_scan_caches_by_default(sh):
    cache = _setup(sh)
    sh("scan 't'")
    assert cache.block_count > 5


def test_cache_blocks_must_be_a_boolean(sh):
    cache = _setup(sh)
    out = sh("scan 't', {CACHE_BLOCKS => 'no'}")
    assert "CACHE_BLOCKS must be true or false, not \"no\"" in out and "row(s)" not in out
    out = sh("count 't', CACHE_BLOCKS => 1")
    assert "CACHE_BLOCKS must be true or false, not 1" in out
    assert cache.misses == 0
