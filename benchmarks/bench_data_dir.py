"""Put throughput with a data directory: the put workload of bench_cluster (random 16-hex-digit
keys, 100-byte values, flush/compaction/split on at Config.scaled(1/128)) with the WAL in
memory, and with a data directory under SYNC_WAL (each put's WAL bytes written to the OS before
it returns) and FSYNC_WAL (also fsynced: one fsync per put, so it gets fewer rows).

    pytest benchmarks/bench_data_dir.py --benchmark-only
    HSIM_BENCH_ROWS=20000 pytest benchmarks/bench_data_dir.py --benchmark-only
"""

import os
import shutil
import tempfile

import pytest
from bench_cluster import _config, _keys, put_all

import hsim

ROWS = int(os.environ.get("HSIM_BENCH_ROWS", "100000"))
CASES = {  # name -> (durability, on disk, rows)
    "memory-SYNC_WAL": ("SYNC_WAL", False, ROWS),
    "data_dir-SYNC_WAL": ("SYNC_WAL", True, ROWS),
    "data_dir-FSYNC_WAL": ("FSYNC_WAL", True, max(ROWS // 20, 1)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_puts_with_data_dir(benchmark, case):
    durability, on_disk, rows = CASES[case]
    keys = _keys(rows, seed=2)
    config = _config()
    roots = []

    def setup():
        root = tempfile.mkdtemp(prefix="hsim-bench-") if on_disk else None
        roots.append(root)
        c = hsim.Cluster(region_servers=3, config=config, clock=hsim.ManualClock(1),
                         data_dir=root)
        c.admin.create_table("t", ["f"], durability=durability)
        return (c, c.table("t")), {}

    c = benchmark.pedantic(lambda c, t: put_all(c, t, keys), setup=setup, rounds=1,
                           iterations=1)
    benchmark.extra_info["rows"] = rows
    benchmark.extra_info["puts_per_s"] = rows / benchmark.stats.stats.mean
    c.close()
    for root in roots:
        if root:
            shutil.rmtree(root, ignore_errors=True)
