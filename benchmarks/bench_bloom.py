"""Blooms on the write and read paths: an HFile write (a flush's work) with no bloom, a ROW and a
ROWCOL bloom, and Gets of absent rows that a ROW bloom turns away. Only APIs the tree had before
its blooms used HBase's MurmurHash, so the same file measures both trees side by side
(BENCHMARKS.md, "Blooms in HBase's bits").

    pytest benchmarks/bench_bloom.py --benchmark-only
"""

import random

import pytest

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine.block_cache import BlockCache
from hsim.engine.hfile import HFileReader, HFileWriter
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily

N = 50_000
GETS = 2_000
CONFIG = Config()


def _cells(n=N, seed=1, cols=1):
    rnd = random.Random(seed)
    rows = sorted({b"%016x" % rnd.getrandbits(64) for _ in range(n // cols)})
    return [Cell.make(row, b"f", b"q%d" % c, 1000, 4, b"x" * 100, 10_000 + i)
            for i, row in enumerate(rows) for c in range(cols)]


CELLS = _cells()
WIDE = _cells(cols=5)  # five columns a row: ROWCOL keys are five times ROW's


def _write(cells, family):
    w = HFileWriter(family, CONFIG)
    w.append_all(cells)
    return w.finish(len(cells), False, 0)


@pytest.mark.parametrize("bloom", ["NONE", "ROW", "ROWCOL"])
def test_flush_write(benchmark, bloom):
    family = ColumnFamily(bloom_filter=bloom)
    benchmark(_write, WIDE, family)


def test_bloom_negative_gets(benchmark):
    family = ColumnFamily()
    r = HFileReader(_write(CELLS, family), "bench-file", family, CONFIG, BlockCache(64 << 20))
    rnd = random.Random(2)
    absent = [b"%016x" % rnd.getrandbits(64) for _ in range(GETS)]
    io = IOCounters()

    def run():
        for row in absent:
            r.passes_bloom(row, None, io)
    run()  # the bloom chunk into the cache
    benchmark(run)
