"""StoreFile: an HFile as a Store holds it, or a *reference* to half of a parent's HFile.

After a split HBase does not rewrite data: each daughter gets reference files that point at the
top or bottom half of the parent's files (Reference / HalfStoreFileReader), and the daughters'
first compactions rewrite them into real files. A reference forces a compaction and blocks
further splits until it is gone, which is what `is_reference` tells the compaction policy and
the split policy.
"""

from __future__ import annotations

from bisect import bisect_right

from hsim.engine.store_file_scanner import RowCursor, reversed_rows
from hsim.rowrange import RowRange

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.hfile_reader import HFileReader


def _from_reader(name: str, doc: str) -> property:
    """A StoreFile attribute that is its HFile reader's."""
    return property(lambda self: getattr(self.reader, name), doc=doc)


class StoreFile:
    """A store-file record: what compaction selection reads (`size`, `is_reference`,
    `max_timestamp`, `name`, `create_time`, `is_major`) and the read entry points."""

    __slots__ = ("reader", "name", "lo", "hi", "rows", "is_reference", "size", "create_time",
                 "cells")

    def __init__(self, reader, lo: bytes | None = None, hi: bytes | None = None,
                 name: str | None = None):
        self.reader: HFileReader = reader  # the file's bytes, shared by its references
        self.lo = lo  # a reference covers rows [lo, hi); None = unbounded
        self.hi = hi
        self.rows: RowRange = RowRange.half_open(lo, hi)  # the rows this file (or half) holds
        self.is_reference = lo is not None or hi is not None
        self.name = name or reader.name
        self.size = reader.size
        self.create_time = reader.create_time
        # The cells a small file was just written from, kept for its first compaction so that
        # the rewrite need not decode blocks it has in hand. A CPU shortcut only: compaction
        # I/O is counted from the file either way.
        self.cells: list | None = None

    # --- metadata the policies read ----------------------------------------------------------
    max_timestamp = _from_reader("max_timestamp", "the newest cell's timestamp (file info)")
    min_timestamp = _from_reader("min_timestamp", "the oldest cell's timestamp (file info)")
    max_seq_id = _from_reader("max_seq_id", "MAX_SEQ_ID_KEY: the newest edit the file holds")
    earliest_put_ts = _from_reader("earliest_put_ts", "EARLIEST_PUT_TS (file info)")
    last_row = _from_reader("last_row", "the file's last row (LASTKEY)")
    entry_count = _from_reader("entry_count", "cells in the file (the trailer's entryCount)")
    bulk_loaded = _from_reader("bulk_loaded", "the file came in by a bulk load")
    exclude_from_minor = _from_reader("exclude_from_minor",
                                      "EXCLUDE_FROM_MINOR_COMPACTION: minor compactions skip it")

    @property
    def is_major(self) -> bool:
        return self.reader.is_major and not self.is_reference

    @property
    def first_row(self) -> bytes | None:
        r = self.reader.first_row
        if r is not None and self.lo is not None and r < self.lo:
            return self.lo
        return r

    def __repr__(self) -> str:
        ref = f", ref=[{self.lo!r}, {self.hi!r})" if self.is_reference else ""
        return f"StoreFile({self.name}, {self.size} bytes, seq={self.max_seq_id}{ref})"

    # --- file skipping (StoreFileScanner.shouldUseScanner) --------------------------------------
    def in_row_range(self, row: bytes) -> bool:
        if self.is_reference and not self.rows.contains(row):
            return False
        first, last = self.reader.first_row, self.reader.last_row
        return first is not None and first <= row <= last

    def overlaps(self, start: bytes | None, stop: bytes | None) -> bool:
        """Does [start, stop) overlap the rows this file holds? (passesKeyRangeFilter)"""
        first, last = self.reader.first_row, self.reader.last_row
        if first is None:
            return False
        if self.lo is not None and (first < self.lo):
            first = self.lo
        if self.hi is not None and last >= self.hi:
            if first >= self.hi:
                return False
        if start is not None and last < start:
            return False
        if stop is not None and first >= stop:
            return False
        return True

    def passes_time_range(self, tr_min: int, tr_max: int, expired_cutoff: int) -> bool:
        """passesTimerangeFilter: the file's [minTs, maxTs] meets [tr_min, tr_max) and is not
        wholly older than the TTL cutoff."""
        r = self.reader
        return (r.min_timestamp < tr_max and r.max_timestamp >= tr_min
                and r.max_timestamp >= expired_cutoff)

    # --- reads ------------------------------------------------------------------------------------
    def get_row(self, row: bytes, io, columns=None) -> list:
        """The cells of `row` a Get reads here (the whole row: raw Gets, tests): all of them,
        or with explicit `columns` (a set of qualifiers) those columns, seeking column to
        column, and the family markers when the file may hold one for the row."""
        wanted = None if columns is None else sorted(columns)
        cur = RowCursor(self.reader, row, io, self.name, wanted)
        out = []
        while True:
            cur.fill()
            held = cur.held
            if not held:
                return out
            if wanted is None:
                out.extend(held)
                cur.held = []
                continue
            q = held[0][2]
            if q and q not in columns:  # ExplicitColumnTracker: on to the next wanted column
                j = bisect_right(wanted, q)
                if j == len(wanted):
                    return out
                cur.seek_column(wanted, j)
                continue
            k = 1
            while k < len(held) and held[k][2] == q:
                k += 1
            out.extend(held[:k])
            cur.held = held[k:]

    def scan(self, start_row: bytes | None, io, cursor: list | None = None):
        lo = self.lo
        if lo is not None and (start_row is None or start_row < lo):
            start_row = lo
        it = self.reader.scan(None if start_row is None else (start_row,), io, cursor)
        return self.rows.clip(it) if self.hi is not None else it

    def scan_reversed_rows(self, start_row: bytes | None, stop_row: bytes | None, io,
                           cursor: list | None = None):
        """Rows descending from start_row (inclusive) down to stop_row (exclusive), within the
        rows this file holds (a top half keeps its split row: its lower bound is inclusive).
        `cursor`: as for `scan`, the block held from an earlier opening (a seek back)."""
        rows = reversed_rows(self.reader, start_row, stop_row, io, cursor)
        if not self.is_reference:
            return rows
        return self.rows.clip(rows, reversed=True)

    def all_cells(self):
        """Every cell of this file (or of its half), for compactions: no cache, no counters;
        plain field tuples, as the MemStore and `cells` hold them."""
        if self.cells is not None:
            return iter(self.cells)
        it = self.reader.cells(plain=True)
        return self.rows.clip(it) if self.is_reference else it
