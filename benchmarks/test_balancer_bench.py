"""StochasticLoadBalancer's walk: every step is a move, a cost and (mostly) an undo, and a walk
runs up to hbase.master.balancer.stochastic.maxSteps of them, so the step is the hot path
(BENCHMARKS.md, "The balancer's walk")."""

import random

from hsim.regions import balancer


def _state(regions=344, servers=16):
    rng = random.Random(1)
    cs = balancer.ClusterState([f"s{i}" for i in range(servers)],
                               [f"r{i}" for i in range(regions)], [0] * regions,
                               [[rng.random() * 100, rng.random() * 100, rng.random() * 5,
                                 rng.random() * 10] for _ in range(regions)])
    cs.assign([rng.randrange(servers) for _ in range(regions)])
    return cs


def test_walk_20k_steps(benchmark):
    def walk():
        cs = _state()
        return balancer.walk(cs, random.Random(2), 20_000), cs.moved

    (costs, steps), moved = benchmark.pedantic(walk, rounds=3, iterations=1)
    assert steps == 20_000 and moved > 0 and balancer.total(costs) > 0
