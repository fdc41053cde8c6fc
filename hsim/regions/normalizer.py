"""SimpleRegionNormalizer: the plans that even out a table's region sizes (HBase 2.4+'s
org.apache.hadoop.hbase.master.normalizer.SimpleRegionNormalizer).

A region more than twice the table's average size is split; a run of adjacent regions (in
start-key order) whose sizes add up to at most the average is merged into one. Merges skip a
region younger than `normalizer_merge_min_region_age_days` (its region id is its creation time)
or smaller than `normalizer_merge_min_region_size_mb`, and a table with fewer than
`normalizer_min_region_count` regions gets none; sizes are whole megabytes, as RegionMetrics
reports them. A table's values map may override each setting under HBase's key
(`hbase.normalizer.split.enabled`, ...) and set NORMALIZER_TARGET_REGION_SIZE_MB or
NORMALIZER_TARGET_REGION_COUNT, which replace the average.
"""

from __future__ import annotations

from dataclasses import dataclass

DAY_MS = 24 * 3600 * 1000
SPLIT_ENABLED_KEY = "hbase.normalizer.split.enabled"
MERGE_ENABLED_KEY = "hbase.normalizer.merge.enabled"
MIN_REGION_COUNT_KEY = "hbase.normalizer.min.region.count"
MERGE_MIN_REGION_AGE_DAYS_KEY = "hbase.normalizer.merge.min_region_age.days"
MERGE_MIN_REGION_SIZE_MB_KEY = "hbase.normalizer.merge.min_region_size.mb"


@dataclass(frozen=True)
class NormalizationPlan:
    """SplitNormalizationPlan (`type` "SPLIT", one region) or MergeNormalizationPlan ("MERGE",
    two or more adjacent regions, in key order); `sizes_mb` as the plan's targets carry them."""

    type: str
    regions: tuple
    sizes_mb: tuple

    def __repr__(self) -> str:
        names = ", ".join(getattr(r, "name", str(r)) for r in self.regions)
        return f"{self.type}[{names}]"


class SimpleRegionNormalizer:
    """compute_plans(regions, now) for one table; `config` an hsim Config (its normalizer_*
    fields; out-of-range values settle as NormalizerConfiguration settles them)."""

    def __init__(self, config):
        self.split_enabled = bool(config.normalizer_split_enabled)
        self.merge_enabled = bool(config.normalizer_merge_enabled)
        self.min_region_count = max(1, config.normalizer_min_region_count)
        self.merge_min_region_age_days = max(0, config.normalizer_merge_min_region_age_days)
        self.merge_min_region_size_mb = max(0, config.normalizer_merge_min_region_size_mb)

    def compute_plans(self, regions, now: int | None = None, values: dict | None = None,
                      switches: dict | None = None) -> list[NormalizationPlan]:
        """computePlansForTable: split plans first, then merge plans. Each region has `.name`,
        `.start_key`, `.end_key`, `.size_mb`, `.created_ms` (and `.state`, "OPEN" unless
        said); `now` (ms) for the merge age check, default: no region is too young;
        `values`: the table descriptor's values map; `switches`: the master's SPLIT and MERGE
        switches (splitormerge_switch), default on."""
        values = values or {}
        switches = switches or {}
        split = _flag(values, SPLIT_ENABLED_KEY, self.split_enabled) and \
            switches.get("SPLIT", True)
        merge = _flag(values, MERGE_ENABLED_KEY, self.merge_enabled) and \
            switches.get("MERGE", True)
        regions = sorted(regions, key=lambda r: r.start_key)  # RegionInfo.COMPARATOR
        if not regions or not (split or merge):
            return []
        avg = _average_mb(regions, values)
        plans = []
        if split:
            plans += [NormalizationPlan("SPLIT", (r,), (r.size_mb,)) for r in regions
                      if _open(r) and r.size_mb > 2 * avg]
        if merge:
            plans += self._merge_plans(regions, int(avg), now, values)
        return plans

    def _merge_plans(self, regions, avg_mb: int, now, values) -> list:
        """computeMergeNormalizationPlans: one walk of the chain, each run of regions that
        fits in the average becoming one plan."""
        min_count = _int(values, MIN_REGION_COUNT_KEY, 0)
        if len(regions) < (min_count if min_count > 0 else self.min_region_count):
            return []
        min_size = _int(values, MERGE_MIN_REGION_SIZE_MB_KEY, -1)
        min_size = self.merge_min_region_size_mb if min_size < 0 else min_size
        age = _int(values, MERGE_MIN_REGION_AGE_DAYS_KEY, -1)
        age_ms = (self.merge_min_region_age_days if age < 0 else age) * DAY_MS
        if avg_mb < min_size:
            return []

        def skip(r) -> bool:
            too_young = now is not None and not now > r.created_ms + age_ms
            return not _open(r) or too_young or r.size_mb < min_size

        plans, n = [], len(regions)
        start = current = 0
        while start < n - 1 and current < n:
            members, total = [], 0
            current = start
            while current < n:
                r = regions[current]
                if skip(r):
                    start = max(current, start + 1)
                    break
                size = r.size_mb
                if not members or (len(members) == 1 and total == 0) or size == 0 \
                        or size + total <= avg_mb:
                    members.append(r)
                    total += size
                    current += 1
                    continue
                start = max(current, start + 1)
                break
            if len(members) > 1:
                plans.append(NormalizationPlan("MERGE", tuple(members),
                                               tuple(m.size_mb for m in members)))
        return plans


def _open(region) -> bool:
    return getattr(region, "state", "OPEN") == "OPEN"


def _flag(values: dict, key: str, default: bool) -> bool:
    v = values.get(key)
    return default if v is None else str(v).lower() == "true"  # Boolean.parseBoolean


def _int(values: dict, key: str, default: int) -> int:
    v = values.get(key)
    return default if v is None else int(v)


def _average_mb(regions, values: dict) -> float:
    """getAverageRegionSizeMb: the target size if set, else total / target count, else the
    mean."""
    target_size = _int(values, "NORMALIZER_TARGET_REGION_SIZE_MB",
                       _int(values, "NORMALIZER_TARGET_REGION_SIZE", 0))
    if target_size > 0:
        return float(target_size)
    total = sum(r.size_mb for r in regions)
    count = _int(values, "NORMALIZER_TARGET_REGION_COUNT", 0)
    return total / (count if count > 0 else len(regions))
