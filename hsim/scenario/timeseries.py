"""Time-series helpers shared by the row-key scenarios: records whose value starts with their
timestamp, the sample a designer pre-splits from, and a time-range read through a KeyDesign."""

from __future__ import annotations

from hsim.scenario.measure import read_ranges

DAY_MS = 86_400_000


def record_value(ts: int, pad: bytes) -> bytes:
    """A record's value: its timestamp (8 bytes), then the payload, so any reader can tell
    whether a row it scanned falls in a time range whatever the key layout."""
    return ts.to_bytes(8, "big") + pad


def value_ts(cells) -> int:
    return int.from_bytes(cells[0].value[:8], "big")


def history_sample(design, entities, now: int, span_ms: int = DAY_MS, points: int = 1000):
    """Row keys of the `span_ms` before `now` (16 entities' worth): what a designer who splits
    at the quantiles of existing keys would look at."""
    step = max(1, span_ms // points)
    every = max(1, len(entities) // 16)
    return [design.row_key(now - span_ms + i * step, e)
            for i in range(points) for e in entities[::every]]


def time_range_read(table, design, lo: int, hi: int, entities) -> dict:
    """Read every record with lo <= ts < hi the way the design allows: its scans, or a full
    scan it must filter. Returns scans, rows read and rows wanted."""
    ranges = design.time_range_scans(lo, hi, entities)
    read, wanted = read_ranges(table, ranges, keep=lambda cells: lo <= value_ts(cells) < hi)
    return {"scans": len(ranges), "rows_read": read, "rows_wanted": wanted}
