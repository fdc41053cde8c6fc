"""Store-level benchmarks: memstore insert vs the SortedDict floor, gets over 1/4/10
store files, scan through the matcher, compaction throughput.

    pytest benchmarks/bench_engine.py --benchmark-only
"""

import random

import pytest
from sortedcontainers import SortedDict

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine.block_cache import BlockCache
from hsim.engine.memstore import MemStore
from hsim.engine.query_matcher import ScanQuery
from hsim.engine.store import Store
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily

N = 20_000
VALUE = b"x" * 100


def _cells(n=N, seed=1):
    rnd = random.Random(seed)
    return [Cell.make(b"%016x" % rnd.getrandbits(64), b"f", b"q", 1000 + i, 4, VALUE, i + 1)
            for i in range(n)]


def _keys_of(cells):
    return [c[:6] for c in cells]


def test_floor_sorteddict_insert(benchmark):
    keys = _keys_of(_cells())

    def run():
        d = SortedDict()
        for k in keys:
            d[k] = VALUE
    benchmark(run)


def test_memstore_insert(benchmark):
    cells = _cells()

    def run():
        ms = MemStore()
        add = ms.add
        for c in cells:
            add(c)
    benchmark(run)


def test_floor_dict_lookup(benchmark):
    keys = [c[0] for c in _cells()]
    d = {k: VALUE for k in keys}

    def run():
        for k in keys[:5000]:
            d[k]
    benchmark(run)


def _store_with_files(nfiles: int, rows: int = 5000) -> tuple[Store, list]:
    cfg = Config()
    store = Store(b"f", ColumnFamily(max_versions=3), cfg, BlockCache(cfg.block_cache_size),
                  owner="bench")
    row_keys = [b"row%06d" % i for i in range(rows)]
    seq = 0
    for f in range(nfiles):
        for i, r in enumerate(row_keys):
            if i % nfiles == f or f == 0:
                seq += 1
                store.add(Cell.make(r, b"f", b"q%d" % f, 1000 + f, 4, VALUE, seq))
        store.flush(now=10_000, max_seq_id=seq)
    return store, row_keys


@pytest.mark.parametrize("nfiles", [1, 4, 10])
def test_get_row_over_store_files(benchmark, nfiles):
    store, rows = _store_with_files(nfiles)
    assert len(store.files) == nfiles
    q = ScanQuery(max_versions=3)
    sample = rows[::10]
    io = IOCounters()
    for r in sample:  # warm the block cache: this measures the merge + matcher, not decoding
        store.get(r, q, 20_000, io)

    def run():
        for r in sample:
            store.get(r, q, 20_000, io)
    benchmark(run)
    benchmark.extra_info["gets_per_round"] = len(sample)


def test_scan_through_matcher(benchmark):
    store, rows = _store_with_files(1, rows=20_000)
    q = ScanQuery()
    io = IOCounters()

    def run():
        n = 0
        for _row, cells in store.scan(None, None, q, 20_000, io):
            n += len(cells)
        return n
    assert benchmark(run) == 20_000
    benchmark.extra_info["cells_per_round"] = 20_000


def test_major_compaction_throughput(benchmark):
    cfg = Config()

    def setup():
        store = Store(b"f", ColumnFamily(max_versions=1), cfg, None, owner="bench")
        seq = 0
        rnd = random.Random(3)
        for _f in range(4):
            for _ in range(10_000):
                seq += 1
                store.add(Cell.make(b"%012x" % rnd.getrandbits(40), b"f", b"q", seq, 4, VALUE,
                                    seq))
            store.flush(now=1, max_seq_id=seq)
        return (store,), {}

    def run(store):
        store.compact(now=2, major=True, user_requested=True)
        return store.counters.compaction_kv_bytes_read

    kv = benchmark.pedantic(run, setup=setup, rounds=5)
    benchmark.extra_info["kv_bytes_per_round"] = kv
