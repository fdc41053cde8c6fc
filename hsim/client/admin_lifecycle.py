"""Admin's region life cycle calls (a mixin of Admin): merge_regions, move, the split and
merge switches, the balancer's and the normalizer's switches, runs and decisions (HBase's
Admin interface)."""

from __future__ import annotations

from hsim.client import validation as v
from hsim.errors import InvalidArgumentError
from hsim.regions import meta


class AdminLifecycle:
    """Admin's region life cycle calls, a mixin kept apart so admin.py stays one concept per file;
    Admin provides `master` and the cluster's lock."""
    def _region(self, name):
        """A region by its full or encoded name (UnknownRegionError if there is none)."""
        text = v.to_bytes(name, "region name").decode("utf-8", "replace")
        return self.master.region_by_name(text)

    def merge_regions(self, a: str | bytes, b: str | bytes, forcible: bool = False) -> str:
        """Admin.mergeRegionsAsync: merge two regions (encoded or full names) of one table,
        adjacent unless `forcible`; returns the merged region's name. The merged region holds
        reference files to both until a compaction rewrites them."""
        forcible = v.boolean(forcible, "forcible")
        with self.cluster.lock:
            return self.master.merge_regions([self._region(a), self._region(b)], forcible).name

    def move(self, encoded_name: str | bytes, server_name: str | bytes | None = None) -> str:
        """Admin.move: close the region (flushing it) and open it on `server_name` (a live
        server's full name), or on a server chosen at random; its blocks are not in the new
        server's cache. Returns the server it is on."""
        server = None if server_name is None else \
            v.to_bytes(server_name, "server name").decode("utf-8", "replace")
        with self.cluster.lock:
            return self.master.move_region(self._region(encoded_name), server).name

    # --- the split and merge switches (MasterSwitchType SPLIT, MERGE) ----------------------
    def split_switch(self, on: bool) -> bool:
        """Admin.splitSwitch: turn region splits on or off cluster-wide (requested splits are
        refused, a region server's own are turned down, the normalizer plans none); returns
        the previous state."""
        with self.cluster.lock:
            return self.master.switch("SPLIT", v.boolean(on, "on"))

    def merge_switch(self, on: bool) -> bool:
        """Admin.mergeSwitch: turn region merges on or off cluster-wide (merge_regions is
        refused, the normalizer plans none); returns the previous state."""
        with self.cluster.lock:
            return self.master.switch("MERGE", v.boolean(on, "on"))

    def split_enabled(self) -> bool:
        """Admin.isSplitEnabled: the SPLIT switch."""
        return self.master.switch("SPLIT")

    def merge_enabled(self) -> bool:
        """Admin.isMergeEnabled: the MERGE switch."""
        return self.master.switch("MERGE")

    # --- the balancer ----------------------------------------------------------------------
    def balance_switch(self, on: bool) -> bool:
        """Admin.balancerSwitch: turn the balancer (its chore and `balance`) on or off;
        returns the previous state."""
        with self.cluster.lock:
            return self.master.switch("balancer", v.boolean(on, "on"))

    def balancer_enabled(self) -> bool:
        """Admin.isBalancerEnabled."""
        return self.master.switch("balancer")

    def get_balancer_decisions(self, limit: int = 250) -> list:
        """Admin.getLogEntries(BALANCER_DECISION): the latest balancer runs that moved
        regions, newest first (BalancerDecision records)."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise InvalidArgumentError(f"limit must be an int >= 0, not {limit!r}")
        return list(reversed(self.master.balancer_decisions))[:limit]

    # --- the normalizer --------------------------------------------------------------------
    def normalize(self, table: str | bytes | None = None) -> bool:
        """Admin.normalize: run the normalizer now over every NORMALIZATION_ENABLED table (or
        the one named); False when its switch is off."""
        name = None if table is None else v.table_name(table)
        with self.cluster.lock:
            if name is not None:
                if meta.is_meta(name):
                    return self.master.switch("normalizer")  # system tables: never normalized
                self.master.table_state(name)  # TableNotFoundError
            if not self.master.switch("normalizer"):
                return False
            self.master.normalize(name)
            return True

    def normalizer_switch(self, on: bool) -> bool:
        """Admin.normalizerSwitch: turn the normalizer (its chore and `normalize`) on or off;
        returns the previous state."""
        with self.cluster.lock:
            return self.master.switch("normalizer", v.boolean(on, "on"))

    def normalizer_enabled(self) -> bool:
        """Admin.isNormalizerEnabled."""
        return self.master.switch("normalizer")
