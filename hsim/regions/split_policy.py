"""Region split policies (hbase-server regionserver/*RegionSplitPolicy.java), with HBase's
formulas. A policy answers two questions for a region: should it split now, and where.

Chosen as RegionSplitPolicy.create chooses: the table's SPLIT_POLICY, else its
`hbase.regionserver.region.split.policy` entry, else the cluster's (Config.split_policy); a new
policy is one class here, one line in POLICIES and one in
hsim.configuration_keys.SPLIT_POLICY_CLASSES."""

from __future__ import annotations

import random
import zlib


class RegionSplitPolicy:
    """Base: the split point is the mid key of the largest store that has one
    (RegionSplitPolicy.getSplitPoint)."""

    name = "RegionSplitPolicy"

    def __init__(self, region, config):
        self.region = region
        self.config = config

    def should_split(self) -> bool:
        raise NotImplementedError

    def split_point(self) -> bytes | None:
        explicit = self.region.explicit_split_point
        if explicit is not None:
            return explicit
        best, best_size = None, 0
        for store in self.region.stores.values():
            point = store.split_row()
            size = store.size
            if point is not None and best_size < size:
                best, best_size = point, size
        return best

    def _desired_max_size(self) -> int:
        t = self.region.table
        return t.max_filesize if t.max_filesize is not None else self.config.region_max_filesize

    def _any_store_over(self, size: int) -> bool:
        stores = self.region.stores.values()
        if any(s.has_references() for s in stores):
            return False  # a region with references cannot split yet
        return any(s.size > size for s in stores)


class ConstantSizeRegionSplitPolicy(RegionSplitPolicy):
    """Split when a store exceeds MAX_FILESIZE, with +-jitter/2 (hbase.hregion.max.filesize.jitter).
    HBase draws the jitter from an unseeded Random; hsim seeds it by the region's name so the
    same run gives the same split points."""

    name = "ConstantSizeRegionSplitPolicy"

    def __init__(self, region, config):
        super().__init__(region, config)
        desired = self._desired_max_size()
        rnd = random.Random(zlib.crc32(region.encoded_name.encode())).random()
        self.desired_max_size = desired + int(desired * (rnd - 0.5) * config.max_filesize_jitter)

    def should_split(self) -> bool:
        return self._any_store_over(self.desired_max_size)


class IncreasingToUpperBoundRegionSplitPolicy(ConstantSizeRegionSplitPolicy):
    """sizeToCheck = min(desired, initialSize x c^3), c = this table's regions on this server
    (desired when c == 0 or c > 100); initialSize = 2 x flush size by default."""

    name = "IncreasingToUpperBoundRegionSplitPolicy"

    def _initial_size(self) -> int:
        t = self.region.table
        if self.config.increasing_policy_initial_size is not None:
            return self.config.increasing_policy_initial_size
        flush = t.memstore_flush_size or self.config.memstore_flush_size
        return 2 * flush

    def size_to_check(self, table_regions_on_server: int) -> int:
        c = table_regions_on_server
        desired = self.desired_max_size
        if c == 0 or c > 100:
            return desired
        return min(desired, self._initial_size() * c * c * c)

    def should_split(self) -> bool:
        return self._any_store_over(self.size_to_check(self.region.table_regions_on_server()))


class SteppingSplitPolicy(IncreasingToUpperBoundRegionSplitPolicy):
    """The default: the first region of a table on a server splits at initialSize, the others
    at the desired max size."""

    name = "SteppingSplitPolicy"

    def size_to_check(self, table_regions_on_server: int) -> int:
        return self._initial_size() if table_regions_on_server == 1 else self.desired_max_size


class DisabledRegionSplitPolicy(RegionSplitPolicy):
    """DisabledRegionSplitPolicy: the region never asks to split (admin splits still run)."""

    name = "DisabledRegionSplitPolicy"

    def should_split(self) -> bool:
        return False


class KeyPrefixRegionSplitPolicy(IncreasingToUpperBoundRegionSplitPolicy):
    """Split points are cut to the first `prefix_length` bytes so rows sharing a prefix stay in
    one region (KeyPrefixRegionSplitPolicy.prefix_length)."""

    name = "KeyPrefixRegionSplitPolicy"

    def split_point(self) -> bytes | None:
        point = super().split_point()
        n = self.region.table.key_prefix_length
        if point is None or not n or n <= 0:
            return point
        return point[: min(n, len(point))]


class DelimitedKeyPrefixRegionSplitPolicy(IncreasingToUpperBoundRegionSplitPolicy):
    """Split points are cut at the first delimiter (DelimitedKeyPrefixRegionSplitPolicy
    .delimiter)."""

    name = "DelimitedKeyPrefixRegionSplitPolicy"

    def split_point(self) -> bytes | None:
        point = super().split_point()
        d = self.region.table.key_prefix_delimiter
        if point is None or not d:
            return point
        i = point.find(d)
        return point if i < 0 else point[:i]


POLICIES = {
    cls.name: cls
    for cls in (ConstantSizeRegionSplitPolicy, IncreasingToUpperBoundRegionSplitPolicy,
                SteppingSplitPolicy, DisabledRegionSplitPolicy, KeyPrefixRegionSplitPolicy,
                DelimitedKeyPrefixRegionSplitPolicy)
}


def create(name: str, region, config) -> RegionSplitPolicy:
    short = name.rsplit(".", 1)[-1]
    try:
        return POLICIES[short](region, config)
    except KeyError:
        from hsim.errors import InvalidArgumentError

        raise InvalidArgumentError(
            f"unknown split policy {name!r}; one of {sorted(POLICIES)}") from None
