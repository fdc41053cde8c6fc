"""Cluster-level benchmarks: single-cell puts through the native API with flush,
compaction and split on; random gets (bloom hit and bloom miss); a full-table scan.

    pytest benchmarks/bench_cluster.py --benchmark-only
    HSIM_BENCH_ROWS=200000 pytest benchmarks/bench_cluster.py --benchmark-only   # quicker

The put benchmark runs once over HSIM_BENCH_ROWS puts (default 1,000,000) so that every flush,
compaction and split it causes is inside the measurement. Config.scaled(1/128) gives a 1 MiB
flush size and an 80 MiB max region size (a 2 MiB first split under SteppingSplitPolicy), so a
million 100-byte puts cause hundreds of flushes, dozens of compactions and several splits.
"""

import os
import random

import pytest

import hsim

ROWS = int(os.environ.get("HSIM_BENCH_ROWS", "1000000"))
VALUE = b"x" * 100


def _keys(n, seed=1):
    rnd = random.Random(seed)
    return [b"%016x" % rnd.getrandbits(64) for _ in range(n)]


def _config():
    # Scale flush/region/compaction sizes, keep the block cache at its default so a read
    # benchmark measures the read path rather than a deliberately tiny cache.
    return hsim.Config().scaled(1 / 128).replace(block_cache_size=hsim.Config().block_cache_size)


def put_all(c, t, keys):
    """The put workload: one single-cell put per key (returns the cluster for the caller)."""
    put = t.put
    for k in keys:
        put(k, {b"f:q": VALUE})
    return c


@pytest.fixture(scope="module")
def loaded():
    c = hsim.Cluster(region_servers=3, config=_config(), clock=hsim.ManualClock(1))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    keys = _keys(ROWS)
    for k in keys:
        t.put(k, {b"f:q": VALUE})
    c.admin.flush("t")
    return c, t, keys


def test_puts_with_flush_compaction_split(benchmark):
    keys = _keys(ROWS, seed=2)

    def setup():
        c = hsim.Cluster(region_servers=3, config=_config(), clock=hsim.ManualClock(1))
        c.admin.create_table("t", ["f"])
        return (c, c.table("t")), {}

    c = benchmark.pedantic(lambda c, t: put_all(c, t, keys), setup=setup, rounds=1,
                           iterations=1)
    m = c.metrics()
    benchmark.extra_info.update(
        puts=ROWS, regions=len(m.regions), flushes=sum(s.flushes for s in m.servers),
        compactions=sum(s.compactions for s in m.servers), splits=c.master.splits,
        puts_per_s=ROWS / benchmark.stats.stats.mean)


def test_gets_bloom_hit(benchmark, loaded):
    c, t, keys = loaded
    sample = random.Random(5).sample(keys, 20_000)
    for k in sample:  # warm the cache
        t.get(k)

    def run():
        get = t.get
        for k in sample:
            get(k)
    benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["gets_per_s"] = len(sample) / benchmark.stats.stats.mean


def test_gets_bloom_miss(benchmark, loaded):
    c, t, keys = loaded
    missing = _keys(20_000, seed=99)

    def run():
        get = t.get
        n = 0
        for k in missing:
            n += len(get(k))
        return n
    assert benchmark.pedantic(run, rounds=3, iterations=1) == 0
    benchmark.extra_info["gets_per_s"] = len(missing) / benchmark.stats.stats.mean


def test_full_table_scan(benchmark, loaded):
    c, t, keys = loaded

    def run():
        n = 0
        for cells in t.scan():
            n += len(cells)
        return n
    assert benchmark.pedantic(run, rounds=2, iterations=1) == len(keys)
    benchmark.extra_info["cells_per_s"] = len(keys) / benchmark.stats.stats.mean


def test_filtered_full_table_scan(benchmark, loaded):
    """Issue 5: a full-table scan through a filter that keeps almost nothing: every cell is
    still read and examined inside its region."""
    c, t, keys = loaded
    f = "SingleColumnValueFilter('f', 'q', =, 'binary:nothing', true, true)"

    def run():
        return sum(len(cells) for cells in t.scan(filter=f))
    assert benchmark.pedantic(run, rounds=2, iterations=1) == 0
    benchmark.extra_info["cells_examined_per_s"] = len(keys) / benchmark.stats.stats.mean
