"""ScanDeleteTracker: which of a row's delete markers mask which of its puts.

One row of one store is read newest first per column; the matchers (reads, flushes,
compactions) add each marker they decide to track and ask about each put. Which markers are
tracked is each matcher's own rule (time range, KEEP_DELETED_CELLS, read points); what a tracked
marker masks is this one. Source: hbase-server regionserver/querymatcher/ScanDeleteTracker
(add, isDeleted) and DeleteTracker.DeleteResult.

A matcher makes a tracker only when its row holds a marker it tracks, so the usual row (puts
only) pays one `is None` test per cell and no call.
"""

from __future__ import annotations

from hsim.cell import DELETE_COLUMN, DELETE_FAMILY, DELETE_FAMILY_VERSION

# DeleteTracker.DeleteResult. The matcher skips this one version for the first two and the
# rest of the column (SEEK_NEXT_COL) from COLUMN_DELETED up.
NOT_DELETED = 0
VERSION_DELETED = 1  # a Delete of exactly this timestamp
FAMILY_VERSION_DELETED = 2  # a DeleteFamilyVersion of exactly this timestamp
COLUMN_DELETED = 3  # a DeleteColumn: this version and every older one of the column
FAMILY_DELETED = 4  # a DeleteFamily: every version at or below its timestamp


class ScanDeleteTracker:
    """The markers seen so far in one row: a family stamp, the DeleteFamilyVersion stamps,
    and the one column marker (Delete or DeleteColumn) of the current column."""

    __slots__ = ("has_family_stamp", "family_stamp", "family_versions", "qualifier", "type", "ts")

    def __init__(self):
        self.has_family_stamp = False
        self.family_stamp = 0
        self.family_versions = None
        self.qualifier = None
        self.type = 0
        self.ts = 0

    def add(self, code: int, qualifier: bytes, ts: int) -> None:
        """Track a marker of type `code` (cell.py's codes). Markers at or below the family
        stamp add nothing: the DeleteFamily masks all they would."""
        if self.has_family_stamp and ts <= self.family_stamp:
            return
        if code == DELETE_FAMILY:
            self.has_family_stamp = True
            self.family_stamp = ts
        elif code == DELETE_FAMILY_VERSION:
            if self.family_versions is None:
                self.family_versions = set()
            self.family_versions.add(ts)
        elif not (self.qualifier is not None and code < self.type and qualifier == self.qualifier):
            # a new column, or a more general marker than the one held for this column
            self.qualifier = qualifier
            self.type = code
            self.ts = ts

    def is_deleted(self, qualifier: bytes, ts: int) -> int:
        """The DeleteResult for a put of `qualifier` at `ts`, asked in HBase order. Passing
        the held column marker's column (or its version) forgets it, as HBase does."""
        if self.has_family_stamp and ts <= self.family_stamp:
            return FAMILY_DELETED
        if self.family_versions is not None and ts in self.family_versions:
            return FAMILY_VERSION_DELETED
        if self.qualifier is not None:
            if qualifier == self.qualifier:
                if self.type == DELETE_COLUMN:
                    return COLUMN_DELETED
                if ts == self.ts:
                    return VERSION_DELETED
            self.qualifier = None
        return NOT_DELETED
