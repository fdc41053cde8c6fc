"""Storage-core benchmarks (the physical layer): HFile write per codec, point reads through
the block cache (hit and miss), bloom-negative reads, full-file scans, and the pure-Python
floors measured in the same run (bare SortedDict insert, bare dict lookup).

    pytest benchmarks/bench_storage.py --benchmark-only

Throughputs are in each benchmark's extra_info (MB/s of KeyValue bytes, cells/s, reads/s).
"""

import random

import pytest
from sortedcontainers import SortedDict

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine.block_cache import BlockCache
from hsim.engine.hfile import HFileReader, HFileWriter
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily

N = 50_000
VALUE = b"x" * 100
CONFIG = Config()


def _cells(n=N, seed=1):
    rnd = random.Random(seed)
    rows = sorted({b"%016x" % rnd.getrandbits(64) for _ in range(n)})
    return [Cell.make(row, b"f", b"q", 1000 + i, 4, VALUE, 10_000 + i) for i, row in
            enumerate(rows)]


CELLS = _cells()
KV_BYTES = sum(c.serialized_size for c in CELLS)
FAMILY = ColumnFamily()


def _write(cells, family):
    w = HFileWriter(family, CONFIG)
    append = w.append
    for c in cells:
        append(c)
    return w.finish(len(cells), False, 0)


DATA = _write(CELLS, FAMILY)


def _rate(benchmark, name, count, scale=1.0):
    """Record count/mean-time in extra_info (skipped when benchmarks are disabled)."""
    if benchmark.stats is not None:
        benchmark.extra_info[name] = round(count / benchmark.stats.stats.mean / scale, 1)


def _reader(cache):
    return HFileReader(DATA, "bench-file", FAMILY, CONFIG, cache)


@pytest.mark.parametrize("codec", ["NONE", "SNAPPY", "LZ4", "GZ"])
def test_hfile_write(benchmark, codec):
    family = ColumnFamily(compression=codec)
    data = benchmark(_write, CELLS, family)
    _rate(benchmark, "MB_per_s_keyvalue", KV_BYTES, 1e6)
    _rate(benchmark, "cells_per_s", N)
    benchmark.extra_info["file_bytes"] = len(data)


def test_full_scan_cold(benchmark):
    """A freshly flushed file and an empty cache: every block is read, decoded and cached."""

    def setup():
        return (_reader(BlockCache(1 << 30)),), {}

    def run(r):
        return sum(1 for _ in r.scan(None, IOCounters()))

    n = benchmark.pedantic(run, setup=setup, rounds=10)
    assert n == N
    _rate(benchmark, "cells_per_s", N)


def test_full_scan_warm(benchmark):
    """Every data block already in the cache (decoded)."""
    r = _reader(BlockCache(1 << 30))
    assert sum(1 for _ in r.scan(None, IOCounters())) == N
    n = benchmark(lambda: sum(1 for _ in r.scan(None, IOCounters())))
    assert n == N
    _rate(benchmark, "cells_per_s", N)


GETS = 2_000
_rnd = random.Random(5)
GET_ROWS = [c[0] for c in _rnd.sample(CELLS, GETS)]


def test_point_read_cache_hit(benchmark):
    r = _reader(BlockCache(1 << 30))
    io = IOCounters()
    for row in GET_ROWS:
        list(r.seek_row(row, io))

    def run():
        io = IOCounters()
        seek = r.seek_row
        for row in GET_ROWS:
            for _ in seek(row, io):
                pass
        return io

    io = benchmark(run)
    assert io.blocks_read == 0 and io.cache_hits >= GETS
    _rate(benchmark, "reads_per_s", GETS)


def test_point_read_cache_miss(benchmark):
    """One get per data block into an empty cache: each decodes its block."""
    r = _reader(None)
    rows = [b.first_cell[0] for b in r.blocks()]

    def setup():
        return (_reader(BlockCache(1 << 30)),), {}

    def run(r):
        io = IOCounters()
        for row in rows:
            for _ in r.seek_row(row, io):
                pass
        return io

    io = benchmark.pedantic(run, setup=setup, rounds=10)
    assert io.cache_misses >= len(rows)
    _rate(benchmark, "reads_per_s", len(rows))
    benchmark.extra_info["gets_per_round"] = len(rows)


def test_bloom_negative_read(benchmark):
    """Gets of absent rows that the ROW bloom turns away before any data block is touched."""
    r = _reader(BlockCache(1 << 30))
    present = {c[0] for c in CELLS}
    rnd = random.Random(9)
    absent = [row for row in (b"%016x" % rnd.getrandbits(64) for _ in range(GETS + 10))
              if row not in present][:GETS]

    def run():
        io = IOCounters()
        for row in absent:
            if r.passes_bloom(row, None, io):
                for _ in r.seek_row(row, io):
                    pass
        return io

    run()  # load the bloom chunk (and the blocks false positives touch) into the cache
    io = benchmark(run)
    assert io.bloom_checks == GETS and io.bloom_negatives >= GETS * 0.97
    assert io.blocks_read == 0
    _rate(benchmark, "reads_per_s", GETS)


# --- floors -------------------------------------------------------------------------------------


def test_floor_sorteddict_insert(benchmark):
    keys = [c[:6] for c in CELLS]
    random.Random(3).shuffle(keys)

    def run():
        d = SortedDict()
        for k in keys:
            d[k] = VALUE
        return d

    benchmark(run)
    _rate(benchmark, "inserts_per_s", N)


def test_floor_dict_lookup(benchmark):
    d = {c[0]: c for c in CELLS}

    def run():
        get = d.get
        for row in GET_ROWS:
            get(row)

    benchmark(run)
    _rate(benchmark, "lookups_per_s", GETS)
