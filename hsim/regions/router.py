"""The client-side region locator: a table's regions sorted by start key, found by bisection
(HBase clients cache hbase:meta the same way)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.regions.region import Region


class RegionLocator:
    """Regions of one table, sorted by start key; kept current by the master."""

    __slots__ = ("regions", "start_keys")

    def __init__(self, regions: list):
        self.set(regions)

    def set(self, regions: list) -> None:
        self.regions: list[Region] = sorted(regions, key=lambda r: r.start_key)
        self.start_keys = [r.start_key for r in self.regions]

    def locate(self, row: bytes) -> Region:
        """The region whose [start, end) holds `row`."""
        return self.regions[bisect_right(self.start_keys, row) - 1]

    def region_before(self, row: bytes) -> Region:
        """The region holding the rows just below `row` (a reversed scan's next region)."""
        return self.regions[max(0, bisect_left(self.start_keys, row) - 1)]
