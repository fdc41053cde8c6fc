"""The CONFIGURATION keys hsim reads from a table or a column family, one line per key.

HBase lets a table descriptor and a family descriptor carry configuration entries
(`configuration=` here, the shell's CONFIGURATION => {...}); a store reads them through a
CompoundConfiguration that puts the family's entries over the table's over the cluster's
(HStore's constructor). hsim models only some keys: a key listed in KEYS is read; any other
key is refused with one line that lists the keys hsim reads, so a setting is never accepted
and ignored. To model a new key: add one `_key(...)` line here and read it with `lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass

from hsim.config import Config
from hsim.errors import InvalidArgumentError

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Callable, Mapping
    from typing import Any

TABLE, FAMILY = "table", "family"
_CLUSTER_DEFAULTS = Config()


@dataclass(frozen=True)
class Key:
    """One configuration key hsim reads: where it may be set, how its text is read, and what
    it sets in hsim (shown in the refusal and in docs)."""

    name: str
    scopes: tuple[str, ...]
    parse: Callable[[str], Any]
    what: str


KEYS: dict[str, Key] = {}


def _key(name: str, scopes: tuple[str, ...], parse: Callable[[str], Any], what: str) -> None:
    KEYS[name] = Key(name, scopes, parse, what)


def positive_int(text: str) -> int:
    """Integer.parseInt, then > 0."""
    try:
        value = int(text.strip())
    except ValueError:
        raise InvalidArgumentError(f"For input string: \"{text}\"") from None
    if value <= 0:
        raise InvalidArgumentError(f"must be positive, not {value}")
    return value


def non_empty(text: str) -> str:
    if not text:
        raise InvalidArgumentError("must not be empty")
    return text


def _long(text: str) -> int:
    """Long.parseLong (the range is Config's, checked in `validate`)."""
    try:
        return int(text.strip())
    except ValueError:
        raise InvalidArgumentError(f"For input string: \"{text}\"") from None


def _float(text: str) -> float:
    """Float.parseFloat."""
    try:
        return float(text.strip())
    except ValueError:
        raise InvalidArgumentError(f"For input string: \"{text}\"") from None


def _boolean(text: str) -> bool:
    """Configuration.getBoolean: true or false, any case."""
    if text.strip().lower() not in ("true", "false"):
        raise InvalidArgumentError(f"must be true or false, not {text!r}")
    return text.strip().lower() == "true"


def _class_of(classes: Mapping, what: str) -> Callable[[str], str]:
    """A parser of a class name HBase's key takes (full, as HBase needs it, or the simple name):
    hsim's name for it; any other class is refused, naming the ones hsim models."""
    def parse(text: str) -> str:
        name = text.strip()
        for full, ours in classes.items():
            if name in (full, full.rsplit(".", 1)[-1]):
                return ours
        raise InvalidArgumentError(f"{name!r} is not a {what} hsim models; one of "
                                   + ", ".join(sorted(classes)))
    return parse


_RS = "org.apache.hadoop.hbase.regionserver."
_COMPACTIONS = _RS + "compactions."
#: hbase.hstore.engine.class values hsim models, as hsim names them
STORE_ENGINE_CLASSES = {_RS + "DefaultStoreEngine": "default",
                        _RS + "DateTieredStoreEngine": "date_tiered"}
#: hbase.hstore.defaultengine.compactionpolicy.class values (Config.compaction_policy)
COMPACTION_POLICY_CLASSES = {_COMPACTIONS + "ExploringCompactionPolicy": "exploring",
                             _COMPACTIONS + "RatioBasedCompactionPolicy": "ratio",
                             _COMPACTIONS + "FIFOCompactionPolicy": "fifo"}
#: hbase.regionserver.flush.policy values (Config.flush_policy; hsim.regions.flush_policy)
FLUSH_POLICY_CLASSES = {_RS + "FlushAllLargeStoresPolicy": "large_stores",
                        _RS + "FlushAllStoresPolicy": "all_stores"}
#: hbase.regionserver.region.split.policy values (hsim.regions.split_policy.POLICIES)
SPLIT_POLICY_CLASSES = {_RS + n: n for n in (
    "ConstantSizeRegionSplitPolicy", "IncreasingToUpperBoundRegionSplitPolicy",
    "SteppingSplitPolicy", "DisabledRegionSplitPolicy", "KeyPrefixRegionSplitPolicy",
    "DelimitedKeyPrefixRegionSplitPolicy")}

#: the keys that set a Config field for one table's regions or one family's stores: key ->
#: the field (HStore and HRegion read them through a CompoundConfiguration)
SETTINGS: dict[str, str] = {}


def _setting(name: str, field: str, parse: Callable[[str], Any],
             scopes: tuple[str, ...] = (TABLE, FAMILY)) -> None:
    _key(name, scopes, parse, f"Config.{field}")
    SETTINGS[name] = field


# The store engine and its compaction policy (StoreEngine.create, DefaultStoreEngine): read by
# `compaction_policy`, family over table over Config.compaction_policy.
ENGINE_KEY = "hbase.hstore.engine.class"
POLICY_KEY = "hbase.hstore.defaultengine.compactionpolicy.class"
_key(ENGINE_KEY, (TABLE, FAMILY), _class_of(STORE_ENGINE_CLASSES, "store engine"),
     "the store engine (Config.compaction_policy date_tiered)")
_key(POLICY_KEY, (TABLE, FAMILY), _class_of(COMPACTION_POLICY_CLASSES, "compaction policy"),
     "the default engine's compaction policy (Config.compaction_policy)")
# CompactionConfiguration and the store's blocking file count (HStore)
_setting("hbase.hstore.blockingStoreFiles", "blocking_store_files", _long)
_setting("hbase.hstore.compaction.min", "compaction_min_files", _long)
_setting("hbase.hstore.compaction.max", "compaction_max_files", _long)
_setting("hbase.hstore.compaction.ratio", "compaction_ratio", _float)
_setting("hbase.hstore.compaction.ratio.offpeak", "compaction_ratio_offpeak", _float)
_setting("hbase.hstore.compaction.min.size", "compaction_min_size", _long)
_setting("hbase.hstore.compaction.max.size", "compaction_max_size", _long)
_setting("hbase.offpeak.start.hour", "off_peak_start_hour", _long)
_setting("hbase.offpeak.end.hour", "off_peak_end_hour", _long)
_setting("hbase.regionserver.thread.compaction.throttle", "compaction_throttle", _long)
_DT = "hbase.hstore.compaction.date.tiered."
_setting(_DT + "max.storefile.age.millis", "date_tiered_max_storefile_age_ms", _long)
_setting(_DT + "incoming.window.min", "date_tiered_incoming_window_min", _long)
_setting(_DT + "window.policy.class", "date_tiered_window_policy",
         _class_of({k: v for k, v in COMPACTION_POLICY_CLASSES.items() if v != "fifo"},
                   "date-tiered window policy"))
_setting(_DT + "single.output.for.minor.compaction",
         "date_tiered_single_output_for_minor_compaction", _boolean)
_setting(_DT + "base.window.millis", "date_tiered_base_window_ms", _long)
_setting(_DT + "windows.per.tier", "date_tiered_windows_per_tier", _long)
_setting(_DT + "max.tier.age.millis", "date_tiered_max_tier_age_ms", _long)
# The region's (HRegion, FlushPolicyFactory, RegionSplitPolicy): a table's regions
_setting("hbase.hregion.memstore.block.multiplier", "memstore_block_multiplier", _long, (TABLE,))
_setting("hbase.regionserver.flush.policy", "flush_policy",
         _class_of(FLUSH_POLICY_CLASSES, "flush policy"), (TABLE,))
_setting("hbase.regionserver.region.split.policy", "split_policy",
         _class_of(SPLIT_POLICY_CLASSES, "region split policy"), (TABLE,))

# The split policies' keys (KeyPrefixRegionSplitPolicy, DelimitedKeyPrefixRegionSplitPolicy).
_key("KeyPrefixRegionSplitPolicy.prefix_length", (TABLE,), positive_int,
     "the row-key prefix length KeyPrefixRegionSplitPolicy keeps together")
_key("DelimitedKeyPrefixRegionSplitPolicy.delimiter", (TABLE,), non_empty,
     "the delimiter DelimitedKeyPrefixRegionSplitPolicy splits on")
# BloomFilterUtil.PREFIX_LENGTH_KEY; checked, as TableDescriptorChecker checks it, only for a
# ROWPREFIX_FIXED_LENGTH family (hsim.schema.bloom_prefix_length)
_key("RowPrefixBloomFilter.prefix_length", (FAMILY,), str,
     "the row prefix length of a ROWPREFIX_FIXED_LENGTH bloom")


def validate(entries: Mapping | None, scope: str) -> dict[str, str]:
    """The entries as HBase stores them (text to text), each key one hsim reads at `scope` and
    each value one its reader accepts; anything else is refused (InvalidArgumentError)."""
    if entries is None:
        return {}
    if not hasattr(entries, "items"):
        raise InvalidArgumentError(f"CONFIGURATION must be a map of key to value, not "
                                   f"{entries!r}")
    out = {}
    for k, v in entries.items():
        key, text = _text(k, "key"), _text(v, "value")
        spec = KEYS.get(key)
        if spec is None or scope not in spec.scopes:
            readable = sorted(n for n, s in KEYS.items() if scope in s.scopes)
            raise InvalidArgumentError(
                f"{scope} CONFIGURATION key {key!r} is not modelled by hsim; hsim reads "
                + (", ".join(readable) if readable else "no key") + f" at the {scope} level")
        try:
            value = spec.parse(text)
            if key in SETTINGS:  # within the Config field's range
                _CLUSTER_DEFAULTS.replace(**{SETTINGS[key]: value})
        except InvalidArgumentError as e:
            raise InvalidArgumentError(f"CONFIGURATION {key} = {text!r}: {e.message}") from None
        out[key] = text
    return out


def _text(x, what: str) -> str:
    """A key or value as the text HBase's Configuration holds (Booleans as true/false)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (str, int, float)):
        return str(x)
    if isinstance(x, bytes):
        try:
            return x.decode("utf-8")
        except UnicodeDecodeError:
            pass
    raise InvalidArgumentError(f"a CONFIGURATION {what} must be text, not {x!r}")


def lookup(key: str, *levels: Mapping | None, default: Any = None) -> Any:
    """The parsed value of `key` from the first level that sets it (pass the family's entries
    before the table's, as CompoundConfiguration orders them), else `default`."""
    spec = KEYS[key]
    for entries in levels:
        if entries and key in entries:
            return spec.parse(entries[key])
    return default


def compaction_policy(default: str, *levels: Mapping | None) -> str:
    """The compaction policy a store runs (Config.compaction_policy's names): a
    DateTieredStoreEngine runs date_tiered; the DefaultStoreEngine runs the policy its key
    names, else `default` (the cluster's), or exploring where the cluster's engine is the
    date-tiered one the family or table set aside."""
    engine = lookup(ENGINE_KEY, *levels)
    if engine == "date_tiered":
        return engine
    policy = lookup(POLICY_KEY, *levels)
    if policy is not None:
        return policy
    return "exploring" if engine is not None and default == "date_tiered" else default


def configured(config: Config, *levels: Mapping | None) -> Config:
    """`config` with the settings `levels` make (the family's entries before the table's):
    what a store or a region runs under. `config` itself when they make none."""
    changes = {}
    for key, field in SETTINGS.items():
        value = lookup(key, *levels)
        if value is not None:
            changes[field] = value
    policy = compaction_policy(config.compaction_policy, *levels)
    if policy != config.compaction_policy:
        changes["compaction_policy"] = policy
    return config.replace(**changes) if changes else config
