"""Which stores of a region a flush writes (hbase-server regionserver/FlushPolicy.java).

- "all_stores": FlushAllStoresPolicy, HBase before 1.1: every family is flushed together, so a
  small family is written out as tiny files whenever a big one fills the MemStore (the seed
  documents' warning about many column families).
- "large_stores": FlushAllLargeStoresPolicy (the default since HBASE-10201): only stores whose
  MemStore exceeds the lower bound max(flush size / families, 16 MiB) are flushed; if none does,
  all are.
"""

from __future__ import annotations


def lower_bound(flush_size: int, num_families: int, config) -> int:
    return max(flush_size // num_families, config.flush_lower_bound_min)


# The table attribute FLUSH_POLICY (a class name) -> the policy it names; it overrides the
# cluster's (FlushPolicyFactory.getFlushPolicyClass: the table's, else the configuration's).
TABLE_POLICIES = {"flushallstorespolicy": "all_stores",
                  "flushalllargestorespolicy": "large_stores"}


def stores_to_flush(stores: list, flush_size: int, config, table_policy: str | None = None
                    ) -> list:
    policy = config.flush_policy
    if table_policy:
        policy = TABLE_POLICIES[table_policy.rsplit(".", 1)[-1].lower()]
    if policy == "all_stores" or len(stores) == 1:
        return list(stores)
    bound = lower_bound(flush_size, len(stores), config)
    large = [s for s in stores if s.memstore.heap_size > bound]
    return large if large else list(stores)
