"""Merging a store's sources (MemStore, snapshot, store files) into one sorted stream, HBase's
KeyValueHeap, forward and reversed, and cutting it into rows.

Forward: every source yields cells in HBase order; `heapq.merge` compares the cell tuples in C.
Reversed (ReversedKeyValueHeap): every source yields (row, cells) with rows descending and the
cells of a row in normal order, as HBase's reversed scanners return them.
"""

from __future__ import annotations

import heapq
from itertools import groupby
from operator import itemgetter

_row_of = itemgetter(0)


def merge_forward(sources: list):
    if not sources:
        return iter(())
    if len(sources) == 1:
        return iter(sources[0])
    return heapq.merge(*sources)


def rows_forward(sources: list, stop_row: bytes | None):
    """(row, cells) for each row of the merged sources, rows ascending, up to stop_row (excl.)."""
    for row, group in groupby(merge_forward(sources), _row_of):
        if stop_row is not None and row >= stop_row:
            return
        yield row, list(group)


def rows_reversed(sources: list):
    """(row, cells) with rows descending; the cells of one row from several sources merged."""
    if not sources:
        return
    if len(sources) == 1:
        yield from sources[0]
        return
    merged = heapq.merge(*sources, key=_row_of, reverse=True)
    for row, group in groupby(merged, _row_of):
        parts = [cells for _, cells in group]
        if len(parts) == 1:
            yield row, parts[0]
        else:
            yield row, sorted([c for p in parts for c in p])


def memstore_rows_reversed(cells_desc, stop_row: bytes | None):
    """Turn memstore cells in descending order into (row, ascending cells) rows, down to
    stop_row (exclusive)."""
    for row, group in groupby(cells_desc, _row_of):
        if stop_row is not None and row <= stop_row:  # the exclusive lower bound
            return
        cells = list(group)
        cells.reverse()
        yield row, cells
