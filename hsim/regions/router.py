"""The client-side region locator: a table's regions sorted by start key, found by bisection
(HBase clients cache hbase:meta the same way)."""

from __future__ import annotations

from bisect import bisect_right


class RegionLocator:
    """Regions of one table, sorted by start key; kept current by the master."""

    __slots__ = ("regions", "start_keys")

    def __init__(self, regions: list):
        self.set(regions)

    def set(self, regions: list) -> None:
        self.regions = sorted(regions, key=lambda r: r.start_key)
        self.start_keys = [r.start_key for r in self.regions]

    def locate(self, row: bytes):
        """The region whose [start, end) holds `row`."""
        return self.regions[bisect_right(self.start_keys, row) - 1]

    def regions_for_scan(self, start_row: bytes | None, stop_row: bytes | None,
                         reversed: bool = False) -> list:
        """The regions a scan visits, in visiting order."""
        if reversed:
            hi, lo = start_row, stop_row
        else:
            lo, hi = start_row, stop_row
        i = 0 if not lo else bisect_right(self.start_keys, lo) - 1
        if not hi:
            j = len(self.regions)
        elif reversed:
            j = bisect_right(self.start_keys, hi)  # start row inclusive
        else:
            j = bisect_right(self.start_keys, hi)
            # a forward stop row equal to a region's start key excludes that region
            if j > 0 and self.start_keys[j - 1] == hi and j - 1 > i:
                j -= 1
        out = self.regions[max(i, 0):j]
        if reversed:
            out = out[::-1]
        return out
