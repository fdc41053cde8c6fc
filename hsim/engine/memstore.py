"""MemStore: the sorted in-memory buffer of one Store, with the snapshot a flush writes out.

Cells sort by plain tuple comparison (see hsim.cell). HBase's ConcurrentSkipListMap of cells is
held as a `SortedList` of the rows plus a dict from each row to its cell (or, once a row has
several, to their sorted list): cells sort by row first, and ordering rows compares bytes where
ordering cells would compare tuples, so most puts (a new row each) cost a third less. Two writes
of the same key keep both cells (their sequence ids differ); reads and flushes keep the newest,
as HBase does.

The cells are held as plain tuples (hsim.cell.fields), which the cyclic collector stops
tracking, and leave as Cells: reads and `all_cells` build them. The snapshot a flush takes stays
plain tuples too (the flush and the HFile writer read fields by position).

Sizes are accounted as HBase's Segment.updateMetaInfo does: `data_size` sums KeyValue lengths,
`heap_size` adds the JVM overhead of a cell in a ConcurrentSkipListMap with MSLAB copies
(align(40 + align(32 + len)) bytes per cell, compressed oops). HBase 2.3+ compares heap size with
the flush size, so the region's flush check uses `heap_size`.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from itertools import chain
from operator import itemgetter

from sortedcontainers import SortedList

from hsim.cell import (FAMILY, NEG_SEQ, NEG_TS, NEG_TYPE, NO_TTL, PUT, QUALIFIER, ROW, TTL, VALUE,
                       from_fields)
from hsim.engine.time_range_tracker import lowest_covered

_NEG_SEQ = itemgetter(NEG_SEQ)
_NEG_PUT = -int(PUT)
_WIDE_ROW = 1000  # cells of a row held in a plain list; beyond, in a SortedList
CSLM_ENTRY = 40  # ClassSize.CONCURRENT_SKIPLISTMAP_ENTRY with compressed oops
KV_FIXED_OVERHEAD = 32  # KeyValue.FIXED_OVERHEAD
TTL_TAGS_BYTES = 13


def cell_heap_size(data_len: int) -> int:
    """Heap bytes HBase charges for one MSLAB-copied cell in the CSLM. MemStore.add inlines
    this formula (it runs once per put); tests/engine/test_memstore_cells.py pins the two."""
    return (CSLM_ENTRY + ((KV_FIXED_OVERHEAD + data_len + 7) & ~7) + 7) & ~7


class MemStore:
    """Active cells plus an optional snapshot being flushed. Not thread-safe: the Region's row
    locks and single-threaded cluster serialise writers."""

    __slots__ = ("rows", "by_row", "snapshot", "data_size", "heap_size", "cells_count",
                 "snapshot_data_size", "snapshot_heap_size", "min_ts", "max_ts", "has_tags",
                 "shared_rows", "snapshot_one_cell_rows")

    def __init__(self):
        self.rows = SortedList()  # the active set's rows
        self.by_row: dict = {}  # row -> its one cell, or its cells' sorted list (SortedList)
        self.snapshot: list = []
        self.data_size = 0
        self.heap_size = 0
        self.cells_count = 0
        self.snapshot_data_size = 0
        self.snapshot_heap_size = 0
        self.min_ts = None  # time range of the active segment (Segment.shouldSeek)
        self.max_ts = None
        self.has_tags = False
        self.shared_rows = False  # some active row holds more than one cell
        self.snapshot_one_cell_rows = False  # known: no snapshot row holds two cells

    def add(self, cell: tuple) -> int:
        """Add one cell (a plain tuple of its fields; a Cell is stored as one); returns the
        heap bytes it added."""
        if type(cell) is not tuple:
            cell = tuple(cell)
        row = cell[ROW]
        held = self.by_row.get(row)
        if held is None:
            self.rows.add(row)
            self.by_row[row] = cell
        elif type(held) is tuple:
            self.by_row[row] = [held, cell] if held <= cell else [cell, held]
            self.shared_rows = True
        elif type(held) is list and len(held) < _WIDE_ROW:
            insort(held, cell)
        else:
            if type(held) is list:  # a wide row: a SortedList keeps its inserts O(log n)
                held = self.by_row[row] = SortedList(held)
            held.add(cell)
        n = 20 + len(row) + len(cell[FAMILY]) + len(cell[QUALIFIER]) + len(cell[VALUE])
        if cell[TTL] != NO_TTL:
            n += TTL_TAGS_BYTES
            self.has_tags = True
        h = (CSLM_ENTRY + ((KV_FIXED_OVERHEAD + n + 7) & ~7) + 7) & ~7
        self.data_size += n
        self.heap_size += h
        self.cells_count += 1
        ts = -cell[NEG_TS]
        if cell[NEG_TYPE] != _NEG_PUT:  # a marker: the time range it covers (time_range_tracker)
            low = lowest_covered(-cell[NEG_TYPE], ts)
            if self.min_ts is None:
                self.min_ts, self.max_ts = low, ts
            else:
                if low < self.min_ts:
                    self.min_ts = low
                if ts > self.max_ts:
                    self.max_ts = ts
        elif self.min_ts is None:
            self.min_ts = self.max_ts = ts
        elif ts < self.min_ts:
            self.min_ts = ts
        elif ts > self.max_ts:
            self.max_ts = ts
        return h

    def take_snapshot(self) -> list:
        """Move the active cells into the snapshot (MemStore.snapshot) and start empty."""
        if self.snapshot:
            raise RuntimeError("snapshot already taken and not yet cleared")
        self.snapshot = self.active
        self.snapshot_data_size = self.data_size
        self.snapshot_heap_size = self.heap_size
        self.snapshot_one_cell_rows = not self.shared_rows
        self.shared_rows = False
        self.rows = SortedList()
        self.by_row = {}
        self.data_size = self.heap_size = self.cells_count = 0
        self.min_ts = self.max_ts = None
        self.has_tags = False
        return self.snapshot

    def restore_snapshot(self) -> None:
        """A flush that could not write its file gives its snapshot back to the active set, so
        the next flush writes those cells again (HBase keeps a failed flush's snapshot)."""
        snap = self.snapshot
        self.clear_snapshot()
        for cell in snap:
            self.add(cell)

    def clear_snapshot(self) -> None:
        self.snapshot = []
        self.snapshot_data_size = self.snapshot_heap_size = 0
        self.snapshot_one_cell_rows = False

    def problems(self) -> list[str]:
        """Whether the running sizes equal the cells' own (for Cluster.check_invariants): the
        cells are added again to a fresh MemStore, so the size formula stays in `add` alone."""
        fresh = MemStore()
        for c in self.active:
            fresh.add(c)
        if list(self.rows) != sorted(self.by_row):
            return ["memstore rows and cells disagree"]
        out = []
        if ((fresh.data_size, fresh.heap_size, fresh.cells_count)
                != (self.data_size, self.heap_size, self.cells_count)):
            out.append(f"memstore sizes {(self.data_size, self.heap_size, self.cells_count)} "
                       f"!= its cells' {(fresh.data_size, fresh.heap_size, fresh.cells_count)}")
        return out

    def is_empty(self) -> bool:
        return not self.by_row and not self.snapshot

    @property
    def active(self) -> list:
        """The active set's cells in order, as one new list (for flushes, checks and tests)."""
        if not self.shared_rows:  # one cell per row: no row's cells to unpack
            return list(map(self.by_row.__getitem__, self.rows))
        return list(self._cells(self.rows))

    def _cells(self, rows, reverse: bool = False):
        """The active cells of `rows` (an iterable of rows held), row by row in that order;
        each row's cells descending when `reverse`."""
        by_row = self.by_row
        for held in map(by_row.__getitem__, rows):
            if type(held) is tuple:
                yield held
            else:
                yield from (reversed(held) if reverse else held)

    # --- reads ----------------------------------------------------------------------------
    def row_cells(self, row: bytes) -> list:
        """All cells of one row, from the active set and the snapshot, in order."""
        held = self.by_row.get(row)
        out = [] if held is None else [held] if type(held) is tuple else list(held)
        if self.snapshot:
            snap = self.snapshot
            i = bisect_left(snap, (row,))
            j = i
            n = len(snap)
            while j < n and snap[j][ROW] == row:
                j += 1
            if j > i:
                out = sorted(out + snap[i:j])
        return list(map(from_fields, out))

    def scan_sources(self, start_row: bytes | None):
        """Sorted iterators over the active set and the snapshot from `start_row`."""
        sources = []
        if self.by_row:
            sources.append(map(from_fields, self._cells(self.rows.irange(start_row))))
        if self.snapshot:
            i = 0 if start_row is None else bisect_left(self.snapshot, (start_row,))
            sources.append(map(from_fields, self.snapshot[i:]))
        return sources

    def scan_sources_reversed(self, start_row: bytes | None):
        """Iterators over the active set and the snapshot in *descending* cell order, from the
        last cell of `start_row` (inclusive) downwards."""
        sources = []
        bound = None if start_row is None else (start_row + b"\x00",)
        if self.by_row:
            sources.append(map(from_fields, self._cells(
                self.rows.irange(None, start_row, reverse=True), reverse=True)))
        if self.snapshot:
            snap = self.snapshot
            j = len(snap) if bound is None else bisect_left(snap, bound)
            sources.append(map(from_fields, reversed(snap[:j])))
        return sources

    def oldest_seq_id(self) -> int | None:
        """The lowest sequence id held (active set or snapshot), None when empty: what the WAL
        must keep (SequenceIdAccounting). Read off the tuples, no Cells built: every WAL roll
        asks it of every region."""
        active = self._cells(self.rows) if self.shared_rows else self.by_row.values()
        neg = max(map(_NEG_SEQ, chain(active, self.snapshot)), default=None)
        return None if neg is None else -neg

    def all_cells(self) -> list:
        """Every cell of the active set and the snapshot, in order, as Cells."""
        cells = sorted(self.active + self.snapshot) if self.snapshot else self._cells(self.rows)
        return list(map(from_fields, cells))

