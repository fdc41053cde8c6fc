"""Which stores of a region a flush writes (hbase-server regionserver/FlushPolicy.java), chosen
as HBase's FlushPolicyFactory chooses: the table's `hbase.regionserver.flush.policy` entry over
the cluster's (Config.flush_policy); the class names it takes are in
hsim.configuration_keys.FLUSH_POLICY_CLASSES, one line each beside one line in POLICIES here.

- "all_stores": FlushAllStoresPolicy, HBase before 1.1: every family is flushed together, so a
  small family is written out as tiny files whenever a big one fills the MemStore (the seed
  documents' warning about many column families).
- "large_stores": FlushAllLargeStoresPolicy (the default since HBASE-10201): only stores whose
  MemStore exceeds the lower bound max(flush size / families, 16 MiB) are flushed; if none does,
  all are.
"""

from __future__ import annotations

from hsim.configuration_keys import FLUSH_POLICY_CLASSES


def lower_bound(flush_size: int, num_families: int, config) -> int:
    return max(flush_size // num_families, config.flush_lower_bound_min)


class FlushAllStoresPolicy:
    """FlushAllStoresPolicy: a flush writes every store of the region."""
    @staticmethod
    def select(stores: list, flush_size: int, config) -> list:
        return list(stores)


class FlushAllLargeStoresPolicy:
    """FlushAllLargeStoresPolicy (HBase 2's default): a flush writes the stores over the lower
    bound, or all of them when none is."""
    @staticmethod
    def select(stores: list, flush_size: int, config) -> list:
        if len(stores) == 1:
            return list(stores)
        bound = lower_bound(flush_size, len(stores), config)
        large = [s for s in stores if s.memstore.heap_size > bound]
        return large if large else list(stores)


POLICIES = {"large_stores": FlushAllLargeStoresPolicy, "all_stores": FlushAllStoresPolicy}


def stores_to_flush(stores: list, flush_size: int, config, table_policy: str | None = None
                    ) -> list:
    """The stores the flush policy picks: the table attribute FLUSH_POLICY (a class name) when
    set, else `config.flush_policy` (FlushPolicyFactory.getFlushPolicyClass: the descriptor's,
    then the region's configuration)."""
    policy = FLUSH_POLICY_CLASSES[table_policy] if table_policy else config.flush_policy
    return POLICIES[policy].select(stores, flush_size, config)
