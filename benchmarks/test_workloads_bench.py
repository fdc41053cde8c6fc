"""Workload generation cost: a scenario makes one op per client call, so generating an op
must stay small next to serving it."""

import collections
import random

import pytest

from hsim.workloads.costmodel import CostModel, ServerLoad
from hsim.workloads.distributions import ScrambledZipfian, SkewedLatest, Counter, Zipfian
from hsim.workloads.keys import KEY_DESIGNS, key_design
from hsim.workloads.ycsb import CoreWorkload

N = 10_000


def test_ycsb_load_10k_records(benchmark):
    w = CoreWorkload("A", record_count=N)
    ops = benchmark(lambda: collections.deque(w.load(), maxlen=0))
    assert ops is not None


@pytest.mark.parametrize("name", ["A", "D", "E"])
def test_ycsb_run_10k_ops(benchmark, name):
    w = CoreWorkload(name, record_count=N, operation_count=N)
    benchmark(lambda: collections.deque(w.run(), maxlen=0))


@pytest.mark.parametrize("make", [
    lambda r: Zipfian(0, N - 1, r),
    lambda r: ScrambledZipfian(0, N - 1, r),
    lambda r: SkewedLatest(Counter(N), r),
], ids=["zipfian", "scrambled", "latest"])
def test_distribution_10k_draws(benchmark, make):
    gen = make(random.Random(1))
    nxt = gen.next
    benchmark(lambda: [nxt() for _ in range(N)])


@pytest.mark.parametrize("name", sorted(KEY_DESIGNS))
def test_row_keys_10k(benchmark, name):
    d = key_design(name)
    row_key = d.row_key
    benchmark(lambda: [row_key(1_700_000_000_000 + i, b"host%03d" % (i % 50)) for i in range(N)])


def test_cost_model_100_servers(benchmark):
    loads = [ServerLoad(f"rs{i}", read_requests=1000 + i, write_requests=500, cache_hits=900,
                        blocks_read_from_disk=100 + i, wal_bytes=10**6) for i in range(100)]
    m = CostModel()
    r = benchmark(lambda: m.evaluate(loads))
    assert r.makespan_ms > 0
