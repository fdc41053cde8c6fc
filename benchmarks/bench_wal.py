"""The WAL on the put path: one SYNC_WAL append of a single-cell row mutation, and the same
put workload as bench_cluster's under each durability (HSIM_BENCH_ROWS puts, default 200,000).

    pytest benchmarks/bench_wal.py --benchmark-only
"""

import os
import random

import pytest

import hsim
from hsim.regions.wal import WAL

ROWS = int(os.environ.get("HSIM_BENCH_ROWS", "200000"))
VALUE = b"x" * 100


def test_wal_append(benchmark):
    wal = WAL("rs1.hsim,16020,1", hsim.Config().scaled(1 / 128), 0)
    wal.on_roll = lambda w, now: w.clean_old_logs(lambda region: 1 << 62)
    cells = [hsim.Cell.make(b"%016x" % 5, b"f", b"q", 123, 4, VALUE, 9, -1)]
    region = "0123456789abcdef0123456789abcdef"
    benchmark(wal.append, region, 9, 77, cells, hsim.Durability.SYNC_WAL)


@pytest.mark.parametrize("durability", ["SKIP_WAL", "ASYNC_WAL", "SYNC_WAL", "FSYNC_WAL"])
def test_puts_by_durability(benchmark, durability):
    rnd = random.Random(2)
    keys = [b"%016x" % rnd.getrandbits(64) for _ in range(ROWS)]
    config = hsim.Config().scaled(1 / 128).replace(block_cache_size=hsim.Config().block_cache_size)

    def setup():
        c = hsim.Cluster(region_servers=3, config=config, clock=hsim.ManualClock(1))
        c.admin.create_table("t", ["f"], durability=durability)
        return (c.table("t"),), {}

    def run(t):
        put = t.put
        for k in keys:
            put(k, {b"f:q": VALUE})

    benchmark.pedantic(run, setup=setup, rounds=1, iterations=1)
