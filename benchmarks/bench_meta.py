"""hbase:meta reads (built from the region map at each read): a full catalog scan and one get
over 1,000 regions (10 tables pre-split 100 ways on 3 servers).

    pytest benchmarks/bench_meta.py --benchmark-only
"""

import pytest

import hsim


@pytest.fixture(scope="module")
def meta():
    c = hsim.Cluster(region_servers=3, clock=hsim.ManualClock(1000))
    for i in range(10):
        c.admin.create_table(f"t{i}", ["f"], presplit=("HexStringSplit", 100))
    return c, c.table("hbase:meta")


def test_meta_full_scan(benchmark, meta):
    _, m = meta
    assert benchmark(m.count) == 1000


def test_meta_get(benchmark, meta):
    c, m = meta
    row = c.admin.regions("t5")[50].name
    assert len(benchmark(m.get, row)) == 6
