"""StochasticLoadBalancer (its costs, a hand-checked plan, determinism, its chore) and the
normalizer as the master runs it (Admin.normalize, the switch, the chore)."""

from __future__ import annotations

import math

import pytest

import hsim
from hsim.regions import balancer

T0 = 1_767_225_600_000
MB = 1 << 20


def _cluster(servers=2, seed=0, **config) -> hsim.Cluster:
    return hsim.Cluster(region_servers=servers, clock=hsim.ManualClock(T0), seed=seed,
                        config=hsim.Config(**config))


def _counts(c) -> list:
    return [len(s.regions) for s in c.region_servers]


def test_double_array_cost_is_hbases():
    # DoubleArrayCost on [4, 0]: mean 2, spread sqrt(2^2 + 2^2) = sqrt(8); the best spread
    # [2, 2] is 0, the worst (all on one) sqrt((4-2)^2 + 1*2^2) = sqrt(8): scaled, 1.0
    assert balancer.array_cost([4, 0]) == 1.0
    # [3, 1]: spread sqrt(1 + 1) = sqrt(2), scaled sqrt(2)/sqrt(8) = 0.5
    assert balancer.array_cost([3, 1]) == pytest.approx(0.5)
    assert balancer.array_cost([2, 2]) == 0.0
    # [3, 0] (odd): mean 1.5; best [2, 1] has sqrt(0.25 + 0.25) = sqrt(0.5); worst and actual
    # sqrt(1.5^2 + 1.5^2) = sqrt(4.5): scaled (sqrt(4.5) - sqrt(.5)) / (sqrt(4.5) - sqrt(.5))
    assert balancer.array_cost([3, 0]) == 1.0
    assert balancer.array_cost([2, 1]) == 0.0
    # fewer regions than servers: [1, 0, 0] is as good as it gets
    assert balancer.array_cost([1, 0, 0]) == 0.0
    assert balancer.scale(0, 4, 2) == 0.5 and balancer.scale(0, 4, 0) == 0.0


def test_costs_kept_per_move_equal_costs_computed_afresh():
    """The walk's Spread costs, updated per move, against array_cost over the state as it
    stands: the fast path and the rule agree after every move and undo."""
    import random

    rng = random.Random(3)
    regions, servers = 40, 5
    figures = [[rng.random() * 50, rng.random() * 50, 0.0, rng.random() * 9]
               for _ in range(regions)]
    cs = balancer.ClusterState([f"s{i}" for i in range(servers)],
                               [f"r{i}" for i in range(regions)],
                               [i % 3 for i in range(regions)], figures)
    cs.assign([rng.randrange(servers) for _ in range(regions)])
    for _ in range(300):
        cs.move(rng.randrange(regions), rng.randrange(servers))
        counts = [len(p) for p in cs.per_server]
        assert cs.costs()[0] == pytest.approx(balancer.array_cost(counts), abs=1e-9)
        for t, spread in enumerate(cs.tables):
            per = [sum(1 for r in p if cs.table_of[r] == t) for p in cs.per_server]
            assert spread.cost() == pytest.approx(balancer.array_cost(per), abs=1e-9)
        for k, spread in cs.loads:
            sums = [sum(figures[r][k] for r in p) for p in cs.per_server]
            assert spread.cost() == pytest.approx(balancer.array_cost(sums), abs=1e-9)
        assert cs.total() == pytest.approx(balancer.total(cs.costs()), abs=1e-9)


def test_the_plan_on_a_hand_checked_case_is_hbases():
    """Two servers, one table of four regions, all on the first (the second started late).

    Initial: regions per server [4, 0]. RegionCountSkewCostFunction: array cost 1.0 (see
    above), x 500 = 500. TableSkewCostFunction: the one table's [4, 0], 1.0 x 35 = 35. Move
    cost 0; the load functions 0 (one load sample gives no rate; no store file reaches 1 MB).
    Total 535; an idle server means needsBalance.
    One move, [3, 1]: 0.5 x 500 + 0.5 x 35 + scale(0, min(4, 600), 1) = 0.25 x 7 = 269.25.
    Two moves, [2, 2]: 0 + 0 + scale(0, 4, 2) = 0.5 x 7 = 3.5 -- the least cost there is:
    three moves give [1, 3] (269.25 + 7 x 0.75 - 1.75 = 272.75) and swaps change no count.
    So HBase's plan: two regions move from the first server to the second."""
    c = _cluster(servers=1)
    c.admin.create_table("t", ["f"], split_keys=[b"b", b"c", b"d"])
    c.start_region_server()
    moves = c.admin.balance()
    assert len(moves) == 2
    first, second = (s.name for s in c.region_servers)
    assert all(src == first and dst == second for _, src, dst in moves)
    assert _counts(c) == [2, 2]
    d = c.admin.get_balancer_decisions()[0]
    assert d.init_total_cost == 535.0
    assert d.computed_total_cost == pytest.approx(3.5)
    assert d.computed_steps == 4 * 800 * 2  # regions x stepsPerRegion x servers
    assert "RegionCountSkewCostFunction : (multiplier=500, imbalance=1)" in \
        d.initial_function_costs
    assert "MoveCostFunction : (multiplier=7, imbalance=0.5)" in d.final_function_costs
    assert [p[0] for p in d.region_plans] == [m[0] for m in moves]
    c.check_invariants()
    assert c.admin.balance() == []  # balanced: needsBalance says no


def _plan(seed: int) -> list:
    c = _cluster(servers=1, seed=seed)
    for name in ("t", "u"):
        c.admin.create_table(name, ["f"], split_keys=[b"%d" % i for i in range(1, 7)])
    c.start_region_server()
    c.start_region_server()
    return c.admin.balance()


def test_the_plan_is_deterministic_for_a_seed():
    a, b = _plan(7), _plan(7)
    assert a == b and a
    assert any(_plan(s) != a for s in (8, 9, 10))  # the seed is what the walk draws from


def test_the_walk_lowers_table_skew_as_well_as_region_counts():
    c = _cluster(servers=1, seed=3)
    for name in ("t", "u"):
        c.admin.create_table(name, ["f"], split_keys=[b"%d" % i for i in range(1, 4)])
    c.start_region_server()
    c.admin.balance()
    assert _counts(c) == [4, 4]
    for name in ("t", "u"):  # each table spread too: TableSkewCostFunction
        servers = [r.server for r in c.admin.regions(name)]
        assert sorted(servers.count(s.name) for s in c.region_servers) == [2, 2]


def _busiest_write_share(c, before: dict) -> float:
    """The busiest server's share of the writes since `before` (server -> write count)."""
    now = {s.name: s.write_requests for s in c.region_servers}
    delta = {k: now[k] - before.get(k, 0) for k in now}
    return max(delta.values()) / sum(delta.values())


def test_the_balancer_spreads_regions_but_one_hot_region_stays_hot():
    """Eight regions on one server of four: the balancer spreads them two a server, but
    timestamp-led writes all land in the last region, so the busiest server's share of the
    writes is 1.0 before balancing and still 1.0 after: balancing moves regions, it cannot
    split one region's load."""
    c = _cluster(servers=1, seed=1)
    c.admin.create_table("t", ["f"], split_keys=[b"%d" % i for i in range(1, 8)])
    for _ in range(3):
        c.start_region_server()
    t = c.table("t")
    writes = {s.name: s.write_requests for s in c.region_servers}
    for i in range(200):
        t.put(b"9%06d" % i, {b"f:q": b"v"})  # the hot last region
    assert _busiest_write_share(c, writes) == 1.0
    moves = c.admin.balance()
    assert moves and _counts(c) == [2, 2, 2, 2]
    writes = {s.name: s.write_requests for s in c.region_servers}
    for i in range(200, 400):
        t.put(b"9%06d" % i, {b"f:q": b"v"})
    assert _busiest_write_share(c, writes) == 1.0
    c.check_invariants()


def test_the_balancer_chore_runs_every_period_on_cluster_time():
    c = _cluster(servers=1, balancer_period_ms=60_000)
    c.admin.create_table("t", ["f"], split_keys=[b"b", b"c", b"d"])
    c.start_region_server()
    t = c.table("t")
    c.clock.advance(59_000)
    t.put(b"a", {b"f:q": b"v"})
    assert _counts(c) == [4, 0]
    c.clock.advance(1_000)
    t.put(b"a", {b"f:q": b"v"})  # the request at the period's end runs the chore first
    assert _counts(c) == [2, 2]
    c.check_invariants()


def test_balance_switch_stops_the_chore_and_balance():
    c = _cluster(servers=1, balancer_period_ms=1_000)
    c.admin.create_table("t", ["f"], split_keys=[b"b", b"c", b"d"])
    c.start_region_server()
    assert c.admin.balance_switch(False) is True
    assert c.admin.balance_switch(False) is False  # the previous state
    assert c.admin.balancer_enabled() is False
    c.clock.advance(5_000)
    c.table("t").put(b"a", {b"f:q": b"v"})
    assert c.admin.balance() == [] and _counts(c) == [4, 0]
    c.admin.balance_switch(True)
    assert len(c.admin.balance()) == 2


def test_the_simple_balancer_is_still_there():
    c = _cluster(servers=1, balancer="simple")
    c.admin.create_table("t", ["f"], split_keys=[b"b", b"c", b"d"])
    c.start_region_server()
    assert len(c.admin.balance()) == 2 and _counts(c) == [2, 2]
    assert c.admin.get_balancer_decisions() == []  # SimpleLoadBalancer keeps none


def test_config_refuses_an_unknown_balancer():
    with pytest.raises(hsim.errors.InvalidArgumentError, match="unknown balancer 'random'"):
        hsim.Config(balancer="random")


# --- the normalizer on a cluster --------------------------------------------------------------
def _presplit(c, n=6, **kw) -> None:
    c.admin.create_table("t", ["f"], split_keys=[b"%02d" % i for i in range(1, n)], **kw)


def test_normalize_merges_a_too_finely_presplit_table():
    c = _cluster(normalizer_merge_min_region_size_mb=0, normalizer_merge_min_region_age_days=0)
    _presplit(c)
    t = c.table("t")
    for i in range(60):
        t.put(b"%02d-%03d" % (i % 6, i), {b"f:q": b"v"})
    c.clock.advance(1)
    assert c.admin.normalize() is True
    assert len(c.admin.regions("t")) == 6  # NORMALIZATION_ENABLED is off: nothing
    c.admin.alter_table("t", normalization_enabled=True)
    assert c.admin.describe("t").values["NORMALIZATION_ENABLED"] == "true"
    assert c.admin.normalize("t") is True
    regions = c.admin.regions("t")
    # every region 0 MB: the average is 0 and empty regions always join a run -- one merge
    assert [(r.start_key, r.end_key) for r in regions] == [(b"", b"")]
    assert len(list(t.scan())) == 60
    c.check_invariants()


def test_normalizer_respects_region_age_and_size():
    c = _cluster()  # defaults: 3 days old, 1 MB at least
    _presplit(c)
    c.admin.alter_table("t", normalization_enabled=True)
    c.clock.advance(4 * 24 * 3600 * 1000)
    c.admin.normalize()
    assert len(c.admin.regions("t")) == 6  # 0 MB regions are not large enough to merge


def test_normalizer_switch_and_chore():
    c = _cluster(normalizer_merge_min_region_size_mb=0, normalizer_merge_min_region_age_days=0,
                 normalizer_period_ms=10_000)
    _presplit(c)
    c.admin.alter_table("t", normalization_enabled=True)
    assert c.admin.normalizer_enabled() is True  # HBase's default: on
    assert c.admin.normalizer_switch(False) is True
    c.clock.advance(10_000)
    c.table("t").put(b"00", {b"f:q": b"v"})
    assert len(c.admin.regions("t")) == 6 and c.admin.normalize() is False
    assert c.admin.normalizer_switch(True) is False
    c.clock.advance(10_000)
    c.table("t").put(b"00", {b"f:q": b"v"})  # the chore runs at this request's tick
    assert len(c.admin.regions("t")) == 1
    c.check_invariants()


def test_normalize_refusals():
    c = _cluster()
    with pytest.raises(hsim.errors.TableNotFoundError):
        c.admin.normalize("nope")
    with pytest.raises(hsim.errors.CatalogError):
        c.admin.alter_table("hbase:meta", normalization_enabled=True)
    _presplit(c)
    with pytest.raises(TypeError, match="normalization_enabled must be a bool"):
        c.admin.alter_table("t", normalization_enabled="yes")
    assert "NORMALIZATION_ENABLED" not in c.admin.describe("t").values
    assert c.admin.normalize("hbase:meta") is True  # system tables are never normalized


def test_normalize_splits_a_region_twice_the_average():
    c = _cluster(normalizer_merge_enabled=False)
    _presplit(c, n=3)
    c.admin.alter_table("t", normalization_enabled=True)
    t = c.table("t")
    value = b"x" * 4096
    for i in range(1200):  # ~5 MB into region [01, 02)
        t.put(b"01-%05d" % i, {b"f:q": value})
    c.admin.flush("t")
    sizes = [r.size // MB for r in c.admin.regions("t")]
    assert sizes[1] > 2 * sum(sizes) / 3
    assert c.admin.normalize() is True
    assert len(c.admin.regions("t")) == 4
    assert len(list(t.scan())) == 1200
    c.check_invariants()


def test_shell_normalizer_commands():
    from tests.shell.conftest import TOOK, Session

    s = Session()
    assert s("normalizer_enabled") == "true\n" + TOOK + "=> true\n"
    assert s("normalizer_switch false") == "Previous normalizer state : true\n" + TOOK + \
        "=> true\n"
    assert s("normalize") == "false\n" + TOOK + "=> false\n"
    s("normalizer_switch true")
    s("create 't', 'f', SPLITS => ['1', '2', '3']")
    assert s("alter 't', NORMALIZATION_ENABLED => true").endswith(TOOK)
    assert s.shell.admin.describe("t").values["NORMALIZATION_ENABLED"] == "true"
    assert s("normalize 'TABLE_NAME' => 't'") == "true\n" + TOOK + "=> true\n"
    assert "Unknown table nope!" in s("normalize 'TABLE_NAME' => 'nope'")
    out = s("get_balancer_decisions")
    assert out.startswith("Retrieved BalancerDecision Responses\n")


def test_region_load_rates_are_what_the_cost_functions_read():
    # CostFromRegionLoadAsRateFunction: the mean step between remembered loads
    loads = [(10, 0, 0, 0), (30, 5, 0, 0), (70, 5, 0, 0)]
    assert balancer.region_figure(loads, "rate", 0) == 30.0
    assert balancer.region_figure(loads, "rate", 1) == 2.5
    assert balancer.region_figure(loads[:1], "rate", 0) == 0.0
    # CostFromRegionLoadFunction: the mean of them
    assert balancer.region_figure([(0, 0, 0, 3), (0, 0, 0, 5)], "mean", 3) == 4.0
    assert math.isclose(sum(balancer.multipliers()), 500 + 35 + 7 + 4 * 5)
