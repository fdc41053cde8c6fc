"""Reads the store scanner (issue 34) makes stop or seek: a page of a wide row, the latest of
many versions, one column of a wide row, a reversed fuzzy scan; beside them the plain tall-table
Get and scan, which must not get slower. Public API only, so the same file times the code
before the change (run it from the other checkout; BENCHMARKS.md, "The store scanner").

    pytest benchmarks/bench_store_scanner.py --benchmark-only
"""

import pytest

import hsim
from hsim.filters import ColumnPaginationFilter, FuzzyRowFilter


def _cluster(**family):
    c = hsim.Cluster(clock=hsim.ManualClock(1000))
    opts = dict(block_size=4096, block_cache=False)
    opts.update(family)
    c.admin.create_table("t", {"f": hsim.ColumnFamily(**opts)})
    return c, c.table("t")


@pytest.fixture(scope="module")
def wide():
    c, t = _cluster()
    for r in range(20):
        t.put(b"wide%02d" % r, {b"f:q%05d" % i: b"v" * 20 for i in range(2000)})
    c.admin.flush("t")
    return t


@pytest.fixture(scope="module")
def versions():
    c, t = _cluster(max_versions=1000)
    for i in range(500):
        c.clock.advance(1)
        for r in range(20):
            t.put(b"row%02d" % r, {b"f:q": b"v%04d" % i + b"x" * 40})
    c.admin.flush("t")
    return t


@pytest.fixture(scope="module")
def tall():
    c, t = _cluster(block_cache=True, block_size=65536)
    for i in range(50_000):
        t.put(b"r%07d" % (i * 7919 % 50_000), {b"f:q": b"x" * 100})
    c.admin.flush("t")
    return t


def test_wide_row_column_page(benchmark, wide):
    def run():
        return sum(len(wide.get(b"wide%02d" % r, filter=ColumnPaginationFilter(10, 0)))
                   for r in range(20))
    assert benchmark(run) == 200


def test_wide_row_one_column(benchmark, wide):
    def run():
        return sum(len(wide.get(b"wide%02d" % r, columns=[b"f:q01500"])) for r in range(20))
    assert benchmark(run) == 20


def test_latest_of_500_versions(benchmark, versions):
    def run():
        return sum(len(versions.get(b"row%02d" % r)) for r in range(20))
    assert benchmark(run) == 20


def test_reversed_fuzzy_scan(benchmark, tall):
    fuzzy = [(b"r??000", b"\x00\x01\x01\x00\x00\x00")]  # rows r00000xx: 100 of 50,000

    def run():
        return len(list(tall.scan(filter=FuzzyRowFilter(fuzzy), reversed=True)))
    assert benchmark(run) == 100


def test_tall_gets(benchmark, tall):
    keys = [b"r%07d" % (i * 37 % 50_000) for i in range(5000)]

    def run():
        get = tall.get
        return sum(len(get(k)) for k in keys)
    assert benchmark(run) == 5000


def test_tall_scan(benchmark, tall):
    def run():
        return sum(1 for _ in tall.scan(caching=1000))
    assert benchmark(run) == 50_000
