"""Read-modify-write requests and scan metrics through the native API.

    pytest benchmarks/bench_atomic.py --benchmark-only

Increments of existing counters (one Mutate request each, read and written inside the region)
and a filtered scan with and without `scan_metrics=True`, on a one-server cluster whose rows are
in one flushed file.
"""

import pytest

import hsim
from hsim.filters import BinaryComparator, SingleColumnValueFilter

ROWS = 20_000


@pytest.fixture(scope="module")
def table():
    c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(1000))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for i in range(ROWS):
        t.put(b"r%06d" % i, {b"f:k": b"keep" if i % 50 == 0 else b"drop",
                             b"f:n": (0).to_bytes(8, "big")})
    c.admin.flush("t")
    return t


def test_increment(benchmark, table):
    keys = [b"r%06d" % i for i in range(0, ROWS, 20)]

    def run():
        for k in keys:
            table.increment(k, b"f:n")

    benchmark(run)
    benchmark.extra_info["increments/s"] = len(keys) / benchmark.stats["mean"]


@pytest.mark.parametrize("metrics", [False, True])
def test_filtered_scan(benchmark, table, metrics):
    keep = SingleColumnValueFilter(b"f", b"k", "=", BinaryComparator(b"keep"))

    def run():
        return sum(1 for _ in table.scan(filter=keep, scan_metrics=metrics))

    assert benchmark(run) == ROWS // 50
    benchmark.extra_info["rows examined/s"] = ROWS / benchmark.stats["mean"]
