"""StochasticLoadBalancer, HBase 2's default balancer (org.apache.hadoop.hbase.master.balancer).

A cluster state's cost is the weighted sum of cost functions, each scaled to [0, 1]:
RegionCountSkewCostFunction (multiplier 500), TableSkewCostFunction (35), MoveCostFunction (7),
ReadRequestCostFunction, WriteRequestCostFunction, MemStoreSizeCostFunction (rates, 5 each)
and StoreFileCostFunction (5). A skew is DoubleArrayCost: the root of the summed squared
distances of the per-server figures from their mean, scaled between the best and the worst
possible spread. The balancer walks: each step a candidate generator (RandomCandidateGenerator
or LoadCandidateGenerator, chosen with the weights the cost functions give them) proposes a
move or a swap; it is kept if the cost falls, undone otherwise. Steps: regions x servers x 800,
at most `balancer_max_steps`. The walk draws from a Random seeded from the cluster's seed and
the run's number, so the same seed gives the same plans.

Not modelled: HDFS locality (LocalityBasedCostFunction, RackLocalityCostFunction; hsim has no
datanodes, so they are left out of the sum and of its multipliers) and region replicas. HBase
stops a walk after 30 s of wall time (maxRunningTime); hsim reads no wall clock, so only the
step bound stops it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

STEPS_PER_REGION = 800  # hbase.master.balancer.stochastic.stepsPerRegion
MIN_COST_NEED_BALANCE = 0.025  # hbase.master.balancer.stochastic.minCostNeedBalance
LOADS_TO_REMEMBER = 15  # hbase.master.balancer.stochastic.numRegionLoadsToRemember
MAX_MOVES, MAX_MOVE_PERCENT = 600, 0.25  # MoveCostFunction
COST_EPSILON = 0.0001
MB = 1 << 20
# name, multiplier, how a region's loads give its figure ("rate" over the remembered loads,
# "mean" of them), the load's field
LOAD_FUNCTIONS = (("ReadRequestCostFunction", 5.0, "rate", 0),
                  ("WriteRequestCostFunction", 5.0, "rate", 1),
                  ("MemStoreSizeCostFunction", 5.0, "rate", 2),
                  ("StoreFileCostFunction", 5.0, "mean", 3))
REGION_COUNT, TABLE_SKEW, MOVE = 500.0, 35.0, 7.0


@dataclass
class BalancerDecision:
    """What get_balancer_decisions shows of one run (HBase's BalancerDecision)."""

    initial_function_costs: str
    final_function_costs: str
    init_total_cost: float
    computed_total_cost: float
    computed_steps: int
    region_plans: list = field(default_factory=list)  # (region name, from server, to server)


def scale(lo: float, hi: float, value: float) -> float:
    """CostFunction.scale: `value` between `lo` and `hi` as 0..1."""
    if hi <= lo or value <= lo or abs(hi - lo) <= COST_EPSILON or abs(value - lo) <= COST_EPSILON:
        return 0.0
    return max(0.0, min(1.0, (value - lo) / (hi - lo)))


class Spread:
    """One DoubleArrayCost kept current as the walk moves regions: a move keeps the total, so
    the min and max skew are fixed for the walk, and the squared distances from the mean
    follow from the sum of squares, updated per move (HBase updates its costs per action too,
    CostFunction.postAction)."""

    __slots__ = ("values", "n", "total", "sumsq", "lo", "hi")

    def __init__(self, values: list):
        self.values = list(values)
        self.n = n = len(values)
        self.total = total = sum(values)
        self.sumsq = sum(v * v for v in values)
        self.lo = self.hi = 0.0
        if n:
            mean = total / n
            if n > total:
                lo = (n - total) * mean * mean + (1 - mean) * (1 - mean) * total
            else:
                high = int(total - math.floor(mean) * n)
                lo = high * (math.ceil(mean) - mean) ** 2 + \
                    (n - high) * (mean - math.floor(mean)) ** 2
            self.lo = math.sqrt(lo)
            self.hi = math.sqrt((total - mean) * (total - mean) + (n - 1) * mean * mean)

    def add(self, i: int, d: float) -> None:
        v = self.values[i]
        self.sumsq += d * (2 * v + d)
        self.values[i] = v + d

    def cost(self) -> float:
        if not self.n:
            return 0.0
        var = self.sumsq - self.total * self.total / self.n
        return scale(self.lo, self.hi, math.sqrt(var) if var > 0 else 0.0)


def array_cost(stats: list) -> float:
    """DoubleArrayCost.computeCost: the spread of `stats` scaled between its min and max skew."""
    return Spread(stats).cost()


def region_figure(loads: list, how: str, i: int) -> float:
    """CostFromRegionLoadFunction (the mean of the remembered loads) or its AsRate form (the
    mean step between them; one load has no rate)."""
    if how == "mean":
        return sum(ld[i] for ld in loads) / len(loads)
    if len(loads) < 2:
        return 0.0
    return max(0.0, (loads[-1][i] - loads[0][i]) / (len(loads) - 1))


class ClusterState:
    """BalancerClusterState: regions, their servers and tables, and per-server figures kept
    current as the walk moves regions (each cost recomputed only where a move changed it)."""

    def __init__(self, servers: list, regions: list, tables: list, figures: list):
        self.servers = servers  # names
        self.regions = regions  # names
        self.table_of = tables  # region index -> table index
        self.figures = figures  # region index -> [figure per load function]
        self.initial = [0] * len(regions)
        self.num_tables = max(tables, default=-1) + 1
        # the load functions some region has a figure for (the others cost 0 throughout)
        self.live = [k for k in range(len(LOAD_FUNCTIONS)) if any(f[k] for f in figures)]

    def assign(self, assignment: list) -> None:
        self.initial = list(assignment)
        self.server_of = list(assignment)
        n = len(self.servers)
        self.per_server = [[] for _ in range(n)]
        self.slot = [0] * len(assignment)  # region index -> its place in per_server
        table_counts = [[0] * n for _ in range(self.num_tables)]
        sums = [[0.0] * n for _ in LOAD_FUNCTIONS]
        self.moved = 0
        for r, s in enumerate(assignment):
            self.slot[r] = len(self.per_server[s])
            self.per_server[s].append(r)
            table_counts[self.table_of[r]][s] += 1
            for k in self.live:
                sums[k][s] += self.figures[r][k]
        self.counts = Spread([len(p) for p in self.per_server])
        self.tables = [Spread(t) for t in table_counts]
        self.table_costs = [t.cost() for t in self.tables]
        self.loads = [(k, Spread(sums[k])) for k in self.live]
        max_moves = max(int(len(self.regions) * MAX_MOVE_PERCENT), MAX_MOVES)
        self.max_moves, self.move_range = max_moves, min(len(self.regions), max_moves)

    def move(self, r: int, to: int) -> None:
        frm = self.server_of[r]
        lst = self.per_server[frm]
        last = lst.pop()
        if last != r:  # the last region takes r's place
            lst[self.slot[r]] = last
            self.slot[last] = self.slot[r]
        self.slot[r] = len(self.per_server[to])
        self.per_server[to].append(r)
        self.server_of[r] = to
        self.moved += (to == self.initial[r]) * -1 + (frm == self.initial[r])
        self.counts.add(frm, -1)
        self.counts.add(to, 1)
        t = self.table_of[r]
        table = self.tables[t]
        table.add(frm, -1)
        table.add(to, 1)
        self.table_costs[t] = table.cost()
        fig = self.figures[r]
        for k, spread in self.loads:
            f = fig[k]
            if f:
                spread.add(frm, -f)
                spread.add(to, f)

    def _move_cost(self) -> float:
        return 1_000_000.0 if self.moved > self.max_moves else \
            scale(0, self.move_range, self.moved)

    def total(self) -> float:
        """total(self.costs()), without the list: what each step of the walk compares."""
        t = (REGION_COUNT * self.counts.cost() + TABLE_SKEW * sum(self.table_costs)
             + MOVE * self._move_cost())
        for k, spread in self.loads:
            t += LOAD_FUNCTIONS[k][1] * spread.cost()
        return t

    def costs(self) -> list:
        """Each cost function's scaled cost, in the order of `names()`."""
        load = dict((k, spread.cost()) for k, spread in self.loads)
        return [self.counts.cost(), sum(self.table_costs), self._move_cost()] + \
            [load.get(k, 0.0) for k in range(len(LOAD_FUNCTIONS))]


def names() -> list:
    return ["RegionCountSkewCostFunction", "TableSkewCostFunction", "MoveCostFunction"] + \
        [f[0] for f in LOAD_FUNCTIONS]


def multipliers() -> list:
    return [REGION_COUNT, TABLE_SKEW, MOVE] + [f[1] for f in LOAD_FUNCTIONS]


def total(costs: list) -> float:
    return sum(c * m for c, m in zip(costs, multipliers()))


def needs_balance(cs: ClusterState, costs: list) -> bool:
    """StochasticLoadBalancer.needsBalance: two servers at least; an idle server while another
    holds regions; else the weighted mean cost at least minCostNeedBalance."""
    if len(cs.servers) < 2:
        return False
    counts = [len(p) for p in cs.per_server]
    if min(counts) == 0 and max(counts) > 0:
        return True
    return total(costs) / sum(multipliers()) >= MIN_COST_NEED_BALANCE


def walk(cs: ClusterState, rng: random.Random, max_steps: int) -> tuple[list, int]:
    """The stochastic walk; returns the final costs and the steps taken."""
    costs = cs.costs()
    current = total(costs)
    n = len(cs.servers)
    steps = min(max_steps, len(cs.regions) * STEPS_PER_REGION * n)
    load_w, random_w = costs[0], sum(costs[1:])
    for _ in range(steps):
        action = _next_action(cs, rng, load_w, random_w)
        if action is None:
            continue
        undo = _apply(cs, action)
        cost = cs.total()
        if cost < current:
            current = cost
            costs = cs.costs()
            load_w, random_w = costs[0], sum(costs[1:])
        else:
            _apply(cs, undo)
    return costs, steps


def _next_action(cs: ClusterState, rng: random.Random, load_w: float, random_w: float):
    """A generator chosen by weight (RegionCountSkewCostFunction's cost weighs the
    LoadCandidateGenerator, the others the RandomCandidateGenerator), then its action."""
    pick_load = rng.random() * (load_w + random_w) < load_w if load_w + random_w > 0 else \
        rng.random() < 0.5
    n = len(cs.servers)
    if pick_load:  # LoadCandidateGenerator: most loaded server gives to the least loaded
        counts = cs.counts.values
        this = max(range(n), key=lambda s: (counts[s], -s))
        other = min(range(n), key=lambda s: (counts[s], s))
        if this == other:
            return None
    else:  # RandomCandidateGenerator
        this = rng.randrange(n)
        other = rng.randrange(n - 1)
        other += other >= this
    return _pick_regions(cs, rng, this, other)


def _pick_regions(cs: ClusterState, rng: random.Random, this: int, other: int):
    """CandidateGenerator.pickRandomRegions: a region of `this`, and (half the time, when
    it has one) a region of `other` to swap with it."""
    mine, theirs = cs.per_server[this], cs.per_server[other]
    a = mine[rng.randrange(len(mine))] if mine else None
    b = theirs[rng.randrange(len(theirs))] if theirs and rng.random() >= 0.5 else None
    if a is None and b is None:
        return None
    return (a, other, b, this)


def _apply(cs: ClusterState, action) -> tuple:
    """Move region a to server `to_a` and region b to `to_b` (either may be None); returns
    the action that undoes it."""
    a, to_a, b, to_b = action
    undo = (a, cs.server_of[a] if a is not None else None,
            b, cs.server_of[b] if b is not None else None)
    if a is not None:
        cs.move(a, to_a)
    if b is not None:
        cs.move(b, to_b)
    return undo


def cost_text(costs: list) -> str:
    """The functionCost() form: `Name : (multiplier=m, imbalance=c); ...`."""
    return "; ".join(f"{n} : (multiplier={m:g}, imbalance={c:g})"
                     for n, m, c in zip(names(), multipliers(), costs))


def sample_loads(master) -> None:
    """ClusterStatusChore: each online region's load joins its remembered ones (read and
    write request counts, MemStore and store file megabytes, as BalancerRegionLoad has them)."""
    seen = {}
    for srv in master.servers:
        for r in srv.regions.values():
            loads = master.region_loads.get(r.encoded_name, [])
            loads = (loads + [(r.read_requests, r.write_requests, r.memstore_heap // MB,
                               r.size // MB)])[-LOADS_TO_REMEMBER:]
            seen[r.encoded_name] = loads
    master.region_loads = seen


def plan(master, rng: random.Random) -> tuple[list, BalancerDecision | None]:
    """balanceCluster: the moves (region, from server, to server) the walk found, and its
    decision record; ([], None) when the cluster needs no balance."""
    sample_loads(master)
    servers = master.servers
    online = [(r, i) for i, srv in enumerate(servers) for r in srv.regions.values()
              if master.tables.get(r.table.name) is not None and
              master.tables[r.table.name].enabled]
    online.sort(key=lambda x: (x[0].table.name, x[0].start_key))
    tables = sorted({r.table.name for r, _ in online})
    cs = ClusterState([s.name for s in servers], [r.name for r, _ in online],
                      [tables.index(r.table.name) for r, _ in online],
                      [[region_figure(master.region_loads[r.encoded_name], how, i)
                        for _, _, how, i in LOAD_FUNCTIONS] for r, _ in online])
    cs.assign([i for _, i in online])
    initial = cs.costs()
    if not online or not needs_balance(cs, initial):
        return [], None
    final, steps = walk(cs, rng, master.config.balancer_max_steps)
    if total(final) >= total(initial):
        return [], None
    moves = [(online[k][0], servers[cs.initial[k]], servers[s])
             for k, s in enumerate(cs.server_of) if s != cs.initial[k]]
    decision = BalancerDecision(cost_text(initial), cost_text(final), total(initial),
                                total(final), steps,
                                [(r.name, a.name, b.name) for r, a, b in moves])
    return moves, decision
