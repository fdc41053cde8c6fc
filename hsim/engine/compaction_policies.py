"""The compaction policies a store can run, chosen by name (`Config.compaction_policy`) or by
HBase's configuration values, as HBase chooses a store engine and its policy by class name: a
family's or table's `hbase.hstore.engine.class` / `hbase.hstore.defaultengine.compactionpolicy
.class` (hsim.configuration_keys.compaction_policy) over the cluster's.

A new policy is one file in hsim/engine/ (a class with RatioBasedCompactionPolicy's `select`,
`needs_compaction`, `select_expired_files`) and one line in POLICIES.
"""

from __future__ import annotations

from hsim.engine.compaction_policy import ExploringCompactionPolicy, RatioBasedCompactionPolicy
from hsim.engine.date_tiered_compaction_policy import DateTieredCompactionPolicy
from hsim.engine.fifo_compaction_policy import FIFOCompactionPolicy
from hsim.configuration_keys import COMPACTION_POLICY_CLASSES, STORE_ENGINE_CLASSES
from hsim.errors import InvalidArgumentError

POLICIES = {
    "exploring": ExploringCompactionPolicy,
    "ratio": RatioBasedCompactionPolicy,
    "date_tiered": DateTieredCompactionPolicy,
    "fifo": FIFOCompactionPolicy,
}

#: hbase.hstore.engine.class and hbase.hstore.defaultengine.compactionpolicy.class values, as
#: the policy they run (the key tables live in hsim.configuration_keys, which reads them)
HBASE_CLASSES = {
    **{cls: ("exploring" if name == "default" else name)
       for cls, name in STORE_ENGINE_CLASSES.items()},
    **COMPACTION_POLICY_CLASSES,
}


def policy_for(config):
    """The policy `config.compaction_policy` names, on that config."""
    return POLICIES[config.compaction_policy](config)


def name_of_hbase_class(class_name: str) -> str:
    """A store engine or compaction policy class HBase's configuration names, as hsim's policy
    name; one hsim does not model is refused, naming the ones it does."""
    try:
        return HBASE_CLASSES[class_name]
    except KeyError:
        raise InvalidArgumentError(
            f"{class_name!r} is not a store engine or compaction policy hsim models; one of "
            f"{', '.join(sorted(HBASE_CLASSES))}") from None
