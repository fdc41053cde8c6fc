"""Compaction selection cost: it runs after every flush, so it must stay small next to a flush."""

import random
from dataclasses import dataclass

import pytest

from hsim.config import Config
from hsim.engine.compaction_policy import ExploringCompactionPolicy, RatioBasedCompactionPolicy
from hsim.engine.compaction_sim import simulate


@dataclass(eq=False)
class _File:
    size: int
    is_reference: bool = False
    max_timestamp: int = 0
    name: str = "f"
    create_time: int = 1


def _files(n):
    rng = random.Random(n)
    return [_File(rng.randint(1, 1 << 28)) for _ in range(n)]


@pytest.mark.parametrize("n", [10, 16, 40])
def test_exploring_select(benchmark, n):
    policy, files = ExploringCompactionPolicy(Config()), _files(n)
    benchmark(policy.select, files)


def test_ratio_based_select_16(benchmark):
    policy, files = RatioBasedCompactionPolicy(Config()), _files(16)
    benchmark(policy.select, files)


def test_simulate_1000_flushes(benchmark):
    policy = ExploringCompactionPolicy(Config(compaction_min_size=1))
    result = benchmark(simulate, policy, [100] * 1000)
    assert result.bytes_flushed == 100_000
