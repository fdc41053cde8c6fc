"""Off-peak hours (HBase's OffPeakHours): hours of the day in which a compaction selection may
use the off-peak ratio (`compaction_ratio_offpeak`, 5.0 by default), so more and bigger files
are compacted while clients are quiet. The hour is cluster time's, in UTC: hsim has no time zone.
"""

from __future__ import annotations

from hsim.errors import InvalidArgumentError

HOUR_MS = 3600 * 1000


class OffPeakHours:
    """`start` inclusive, `end` exclusive, wrapping past midnight when start > end. (-1, -1), or
    start == end, means no off-peak hours (OffPeakHours.DISABLED). An hour outside 0-23, which
    HBase ignores with a warning, is refused."""

    def __init__(self, start: int = -1, end: int = -1):
        for name, hour in (("start", start), ("end", end)):
            if not isinstance(hour, int) or isinstance(hour, bool) or not -1 <= hour <= 23:
                raise InvalidArgumentError(f"off-peak {name} hour must be 0-23 (or -1: none), "
                                           f"not {hour!r}")
        if (start == -1) != (end == -1):
            raise InvalidArgumentError("off-peak hours need both a start and an end hour")
        self.start, self.end = start, end
        self.enabled = start != end

    @classmethod
    def from_config(cls, config) -> "OffPeakHours":
        """OffPeakHours.getInstance(conf): hbase.offpeak.start.hour / hbase.offpeak.end.hour."""
        return cls(config.off_peak_start_hour, config.off_peak_end_hour)

    def is_off_peak(self, hour: int) -> bool:
        """isOffPeakHour(targetHour)."""
        if not self.enabled:
            return False
        if self.start <= self.end:
            return self.start <= hour < self.end
        return hour < self.end or self.start <= hour

    def is_off_peak_at(self, now_ms: int) -> bool:
        """isOffPeakHour() at a cluster time: its hour of the day (UTC)."""
        return self.is_off_peak(now_ms // HOUR_MS % 24)

    def __repr__(self) -> str:
        if not self.enabled:
            return "OffPeakHours.DISABLED"
        return f"OffPeakHours({self.start}, {self.end})"
