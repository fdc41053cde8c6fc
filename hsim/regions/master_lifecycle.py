"""The master's share of the region life cycle (a mixin of Master): merges, moves, the
balancer and the normalizer, their switches, and the chores that run them on cluster time
(BalancerChore every `balancer_period_ms`, RegionNormalizerChore every `normalizer_period_ms`).

The SPLIT and MERGE switches (Admin.splitSwitch / mergeSwitch, the shell's
`splitormerge_switch`) are read where HBase reads them: off, a requested split or merge is
refused (HMaster.splitRegion / mergeRegions), a region server's own split request is turned
down (AssignmentManager), and the normalizer plans none of that kind. A table's SPLIT_ENABLED
or MERGE_ENABLED false fails the procedure itself (SplitTableRegionProcedure /
MergeTableRegionsProcedure.prepare): the user's request is refused, the normalizer's plan fails
alone.

A chore runs when a request's tick reaches its due time (Cluster.tick), before the request
finds its region; a disk that refuses a flush on the way abandons that move or merge, logged,
as a failed procedure is in HBase.
"""

from __future__ import annotations

import logging
import random

from hsim.errors import DiskIOError, DoNotRetryError, HsimError, InvalidArgumentError

log = logging.getLogger("hsim.regions")
DECISIONS_KEPT = 250  # hbase.master.balancer.decision.queue.size
MB = 1 << 20


class Lifecycle:
    """The Master's merges, moves, balancer and normalizer runs and their switches, kept apart
    from master.py so that the table and split bookkeeping stays readable on its own."""

    def init_lifecycle(self, start: int) -> None:
        self.merges = 0
        self.seed = 0  # the cluster's seed (Cluster sets it): the balancer's walks draw from it
        self.balancer_runs = 0
        self.region_loads: dict = {}  # encoded name -> its remembered loads (balancer)
        self.balancer_decisions: list = []  # BalancerDecision, newest last
        # the balancer, normalizer, split and merge switches (a fresh HBase 2 cluster has all
        # on; SPLIT and MERGE are MasterSwitchType's names)
        self.switches = {"balancer": True, "normalizer": True, "SPLIT": True, "MERGE": True}
        self.next_balance = start + self.config.balancer_period_ms
        self.next_normalize = start + self.config.normalizer_period_ms
        self.chores_due = min(self.next_balance, self.next_normalize)

    # --- switches ----------------------------------------------------------------------------
    def switch(self, name: str, on: bool | None = None) -> bool:
        """The switch's state before `on` is set (its state, with no `on`)."""
        prev = self.switches[name]
        if on is not None:
            self.switches[name] = bool(on)
        return prev

    # --- chores ------------------------------------------------------------------------------
    def run_chores(self, now: int) -> None:
        """Run the balancer and normalizer chores whose time has come (call with `now` at or
        past `chores_due`)."""
        if now >= self.next_balance:
            self.next_balance = now + self.config.balancer_period_ms
            if self.switches["balancer"]:
                self._chore(self.balance)
        if now >= self.next_normalize:
            self.next_normalize = now + self.config.normalizer_period_ms
            if self.switches["normalizer"]:
                self._chore(self.normalize)
        self.chores_due = min(self.next_balance, self.next_normalize)

    @staticmethod
    def _chore(run) -> None:
        try:
            run()
        except (DiskIOError, HsimError) as e:  # a failed procedure; the next run retries
            log.warning("chore %s: %s", run.__name__, e)

    # --- merges and moves --------------------------------------------------------------------
    def merge_regions(self, regions: list, forcible: bool = False):
        """Merge adjacent regions of one table (hsim.regions.merge); returns the merged region,
        which holds references to its parents until a compaction rewrites them."""
        from hsim.regions import merge

        if not self.switches["MERGE"]:  # HMaster.mergeRegions, before the procedure
            listed = ", ".join(merge.info(r) for r in regions)
            raise DoNotRetryError(f"Merge of [{listed}] failed because merge switch is off")
        chain = merge.check(self, regions, forcible)
        st = self.tables[chain[0].table.name]
        m = merge.merge(self, chain, self.clock.now())
        st.locator.set([r for r in st.locator.regions if r not in chain] + [m])
        self.merges += 1
        self._record("MergeTableRegions", st.descriptor.name, m, chain)
        self.note_region_id(st.descriptor.name, m.region_id)
        return m

    def move_region(self, region, server_name: str | None = None):
        """HMaster.move: to the named live server, or (None) one chosen at random from the
        others; a move to the region's own server is skipped. Returns the destination."""
        st = self.tables.get(region.table.name)
        if region.closed or region.server is None or st is None or not st.enabled:
            raise DoNotRetryError(f"{region.encoded_name} is not OPEN")
        if server_name is None:
            others = [s for s in self.servers if s is not region.server]
            if not others:
                return region.server  # no plan: the region stays
            dst = others[self._rng("move").randrange(len(others))]
        else:
            dst = next((s for s in self.servers if s.name == server_name), None)
            if dst is None:
                raise InvalidArgumentError(f"Destination server {server_name} is not online")
        if dst is not region.server:
            self._move(region, region.server, dst)
        return dst

    def _rng(self, what: str) -> random.Random:
        """A Random for one run of `what`, from the cluster's seed and the run's number."""
        self.balancer_runs += 1
        return random.Random(f"{self.seed}/{what}/{self.balancer_runs}")

    # --- the balancer ------------------------------------------------------------------------
    def balance(self) -> list:
        """Run the configured balancer (Config.balancer) and carry out its plan; returns the
        moves as (region name, from server, to server)."""
        if self.config.balancer == "simple":
            return self.simple_balance()
        from hsim.regions import balancer

        moves, decision = balancer.plan(self, self._rng("balance"))
        done = []
        for r, src, dst in moves:
            self._move(r, src, dst)
            done.append((r.name, src.name, dst.name))
        if decision is not None:
            self.balancer_decisions = (self.balancer_decisions + [decision])[-DECISIONS_KEPT:]
        return done

    # --- the normalizer ----------------------------------------------------------------------
    def normalize(self, table: str | None = None) -> list:
        """RegionNormalizerManager: plan and carry out the splits and merges of every table
        with NORMALIZATION_ENABLED (or of `table` alone); returns the plans carried out."""
        from hsim.regions.normalizer import SimpleRegionNormalizer

        normalizer = SimpleRegionNormalizer(self.config)
        now = self.clock.now()
        names = [table] if table is not None else sorted(self.tables)
        done = []
        for name in names:
            st = self.tables[name]
            if not st.enabled or st.descriptor.values.get(
                    "NORMALIZATION_ENABLED", "false").lower() != "true":
                continue
            views = [_RegionView(r) for r in st.locator.regions]
            for plan in normalizer.compute_plans(views, now, st.descriptor.values,
                                                 self.switches):
                regions = [v.region for v in plan.regions]
                if any(r.closed for r in regions):
                    continue  # an earlier plan of this run changed it
                if plan.type == "SPLIT":
                    r = regions[0]
                    r.flush(now, force_all=True)
                    point = None if r.closed else r.split_point()
                    if point is None or self.split_region(r, point, now) is None:
                        continue
                else:
                    try:
                        self.merge_regions(regions)
                    except HsimError as e:  # a refused merge fails alone, as its procedure
                        log.info("normalizer: %s", e)
                        continue
                done.append(plan)
        return done


class _RegionView:
    """What the normalizer reads of a region (its RegionInfo and RegionMetrics)."""

    __slots__ = ("region", "name", "start_key", "end_key", "size_mb", "created_ms", "state")

    def __init__(self, r):
        self.region, self.name = r, r.name
        self.start_key, self.end_key = r.start_key, r.end_key
        self.size_mb = r.size // MB  # RegionMetrics.getStoreFileSize in whole megabytes
        self.created_ms = r.region_id
        self.state = "OPEN" if r.server is not None and not r.closed else "CLOSED"
