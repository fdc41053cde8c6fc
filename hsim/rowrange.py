"""RowRange: a range of rows as one typed value (start, start inclusive, stop, stop inclusive),
so that bounds are written once instead of as per-site arithmetic.

HBase spells the same idea several ways (Scan's start/stop rows and their inclusiveness, a
region's [startKey, endKey), a Reference's top or bottom half around a split key,
MultiRowRangeFilter.RowRange); here each is a RowRange, and `clip` is the one adapter that
reads a stream of rows in either direction: forward, rows before the range are skipped and
the first row past it ends the stream; reversed (rows descending), the same with the ends
swapped.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RowRange:
    """Rows between `start` and `stop`; None (or b"") is unbounded on that side."""

    start: bytes | None = None
    start_inclusive: bool = True
    stop: bytes | None = None
    stop_inclusive: bool = False

    def __post_init__(self):
        if self.start == b"":
            object.__setattr__(self, "start", None)
        if self.stop == b"":
            object.__setattr__(self, "stop", None)

    @classmethod
    def half_open(cls, start: bytes | None, stop: bytes | None) -> "RowRange":
        """[start, stop): a region's keys, a scan's default bounds, a reference half."""
        return cls(start, True, stop, False)

    def below(self, row: bytes) -> bool:
        """Is `row` before the range's start?"""
        s = self.start
        return s is not None and (row < s if self.start_inclusive else row <= s)

    def above(self, row: bytes) -> bool:
        """Is `row` past the range's stop?"""
        s = self.stop
        return s is not None and (row > s if self.stop_inclusive else row >= s)

    def contains(self, row: bytes) -> bool:
        return not self.below(row) and not self.above(row)

    def clip(self, rows, reversed: bool = False):
        """(row, cells) of `rows` inside the range. `rows` is in row order (descending when
        reversed); the stream ends at the first row past the far end, so a reader is not read
        further than the range."""
        before, past = (self.above, self.below) if reversed else (self.below, self.above)
        for item in rows:
            row = item[0]
            if past(row):
                return
            if not before(row):
                yield item

    def __repr__(self) -> str:
        left = "[" if self.start_inclusive else "("
        right = "]" if self.stop_inclusive else ")"
        return f"RowRange{left}{self.start!r}, {self.stop!r}{right}"
