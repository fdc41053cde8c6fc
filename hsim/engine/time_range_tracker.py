"""TimeRangeTracker: the rule for the timestamps a cell covers, which a MemStore segment and
an HFile track as their [min, max] so that a read whose time range misses it skips it whole.

A cell covers its own timestamp; a DeleteColumn or DeleteFamily marker also covers every
timestamp down to 0, the versions it masks (HBase's TimeRangeTracker.includeTimestamp(Cell)
includes the cell's timestamp, then 0 for those two types). A Delete or DeleteFamilyVersion
masks one timestamp and covers only it. Without the rule a read of an older time range would
skip the segment or file that holds the marker, and return the cells the marker masks.
"""

from __future__ import annotations

from hsim.cell import DELETE_COLUMN, DELETE_FAMILY


def lowest_covered(code: int, ts: int) -> int:
    """The oldest timestamp a cell of type `code` at `ts` covers: the smaller of `ts` and 0
    for a DeleteColumn or DeleteFamily marker, else `ts`. The MemStore and the HFile writer
    call it for every cell that is not a Put (a Put covers its own timestamp)."""
    if (code == DELETE_COLUMN or code == DELETE_FAMILY) and ts > 0:
        return 0
    return ts
