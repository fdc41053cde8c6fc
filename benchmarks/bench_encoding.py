"""Data block encodings at the store level: a flush's write, warm Gets and a scan, per encoding.

    pytest benchmarks/bench_encoding.py --benchmark-only

Each encoding writes the same 20,000 cells (16-hex row keys, one 100-byte value) into one
store file; the figures sit beside NONE's in BENCHMARKS.md ("Data block encodings").
"""

import random

import pytest

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine.block_cache import BlockCache
from hsim.engine.query_matcher import ScanQuery
from hsim.engine.store import Store
from hsim.metrics import IOCounters
from hsim.schema import DATA_BLOCK_ENCODINGS, ColumnFamily

N = 20_000
VALUE = b"x" * 100


def _cells(n=N, seed=1):
    rnd = random.Random(seed)
    return [Cell.make(b"%016x" % rnd.getrandbits(64), b"f", b"q", 1000 + i, 4, VALUE, i + 1)
            for i in range(n)]


def _store(encoding: str) -> Store:
    cfg = Config()
    return Store(b"f", ColumnFamily(data_block_encoding=encoding), cfg,
                 BlockCache(cfg.block_cache_size), owner="bench")


@pytest.mark.parametrize("encoding", DATA_BLOCK_ENCODINGS)
def test_flush(benchmark, encoding):
    cells = _cells()

    def setup():
        store = _store(encoding)
        for c in cells:
            store.add(c)
        return (store,), {}

    def run(store):
        store.flush(now=10_000, max_seq_id=N)
    benchmark.pedantic(run, setup=setup, rounds=5)


def _flushed(encoding: str):
    store = _store(encoding)
    cells = _cells()
    for c in cells:
        store.add(c)
    store.flush(now=10_000, max_seq_id=N)
    return store, sorted(c[0] for c in cells)


@pytest.mark.parametrize("encoding", DATA_BLOCK_ENCODINGS)
def test_get_warm(benchmark, encoding):
    store, rows = _flushed(encoding)
    q = ScanQuery()
    sample = rows[::10]
    io = IOCounters()
    for r in sample:
        store.get(r, q, 20_000, io)

    def run():
        for r in sample:
            store.get(r, q, 20_000, io)
    benchmark(run)
    benchmark.extra_info["gets_per_round"] = len(sample)


@pytest.mark.parametrize("encoding", DATA_BLOCK_ENCODINGS)
def test_scan(benchmark, encoding):
    store, _rows = _flushed(encoding)
    q = ScanQuery()
    io = IOCounters()

    def run():
        n = 0
        for _row, cells in store.scan(None, None, q, 20_000, io):
            n += len(cells)
        return n
    assert benchmark(run) == N
