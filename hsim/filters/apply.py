"""The region side of filtering: how a region scanner runs a filter over one row, and over a
region's rows (RegionScannerImpl.nextInternal, StoreScanner.next, UserScanQueryMatcher
.mergeFilterResponse, FilterWrapper).

Per row, in HBase's order:
  1. filter_all_remaining (FilterWrapper) and filter_row_key: drop the row unread.
  2. Each cell, after version/delete processing, goes to filter_cell; a scanner stops
     calling it once filter_all_remaining turns true (the matcher answers DONE_SCAN).
     The code is honoured as StoreScanner does:
       INCLUDE                    keep (transform_cell), subject to the version cap below
       SKIP                       next cell
       NEXT_COL                   skip the column's remaining versions
       INCLUDE_AND_NEXT_COL       keep, then skip the column
       NEXT_ROW                   skip the rest of this *family* in the row: each family is
                                  its own store scanner, the others still offer their cells
                                  (HBASE-18368; FamilyFilter relies on it)
       INCLUDE_AND_SEEK_NEXT_ROW  keep, then as NEXT_ROW
       SEEK_NEXT_USING_HINT       skip this family's cells that sort before the hint (no
                                  hint, or one not ahead: next cell)
     With a filter the matcher lets up to the family's VERSIONS through, and caps the cells
     kept with INCLUDE at the request's max_versions per column *after* the filter: the
     (max_versions + 1)th is seen by the filter, then the rest of the column is skipped.
  2b. Per family, Scan/Get setRowOffsetPerColumnFamily and setMaxResultsPerColumnFamily
     (StoreScanner's storeOffset and storeLimit) count the cells kept so far: the first
     `offset` are passed over, at most `limit` kept; before filter_row_cells, which sees
     only what the stores returned.
  3. A row with no kept cell is dropped without filter_row (filter_row_cells is still
     called when has_filter_row). Otherwise filter_row_cells edits the row and filter_row
     may veto it; an edit that leaves nothing drops the row too.
  4. The region's scan ends when filter_all_remaining is true after the row.

Each region gets its own filter copy (`fresh`), which is why PageFilter limits per region.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator

from hsim.cell import FAMILY, QUALIFIER
from hsim.filters.base import (
    Filter,
    HINT,
    INCLUDE,
    INCLUDE_AND_NEXT_COL,
    INCLUDE_AND_SEEK_NEXT_ROW,
    NEXT_COL,
    NEXT_ROW,
    SKIP,
)


def fresh(filt: Filter) -> Filter:
    """A copy with no state, as each region deserialises its own filter from the request."""
    return copy.deepcopy(filt)


def store_limits(cells: list, limits: tuple | None) -> list:
    """StoreScanner's storeOffset/storeLimit over one row's cells: in each family, pass over
    the first `offset` cells, then keep at most `limit`. `limits` is (limit or None, offset);
    None means neither."""
    if limits is None:
        return cells
    limit, offset = limits
    stop = None if limit is None else offset + limit
    out, family, n = [], None, 0
    for c in cells:
        if c[FAMILY] != family:
            family, n = c[FAMILY], 0
        if n >= offset and (stop is None or n < stop):
            out.append(c)
        n += 1
    return out


def next_row(filt: Filter, row: bytes, cells: list, max_versions: int | None = None,
             limits: tuple | None = None) -> tuple[list | None, bool]:
    """Run `filt` over one row. Returns (kept cells or None, more): `more` is False once
    the filter has ended this region's scan (HBase's moreValues). `limits`: the request's
    per-family (max results, offset), see `store_limits`."""
    kept, more, _seek_row = filter_row(filt, row, cells, max_versions, limits)
    return kept, more


def filter_row(filt: Filter, row: bytes, cells: list, max_versions: int | None = None,
               limits: tuple | None = None):
    """A whole row through `filt` at once (a RowRun fed once, without the object): (kept
    cells or None, more, the row every family was told to seek to or None)."""
    filt.reset()
    if filt.filter_all_remaining() or filt.filter_row_key(row) or not cells:
        return None, not filt.filter_all_remaining(), None
    return _filter_cells(filt, row, cells, [], max_versions, _START, limits, (cells,))


# What RowRun.feed tells the store scanner feeding it, beside a key to seek to (a cell prefix)
DONE = "done"  # this family is done in this row (NEXT_ROW), or the filter ended the scan


class RowRun:
    """One row through a filter, fed the row's cells in order a part at a time by the store
    scanners that read them (StoreScanner.next with the filter inside the matcher: HBase's
    UserScanQueryMatcher.mergeFilterResponse), so that a NEXT_ROW, NEXT_COL or hint stops or
    seeks the read. `feed` answers where the feeding store should go next; `finish` gives the
    row's kept cells."""

    __slots__ = ("filt", "row", "max_versions", "limits", "dropped", "results", "state", "fed")

    def __init__(self, filt: Filter, row: bytes, max_versions: int | None = None, limits=None):
        filt.reset()
        self.filt, self.row, self.max_versions, self.limits = filt, row, max_versions, limits
        self.dropped = filt.filter_all_remaining() or filt.filter_row_key(row)
        self.results = []
        # _filter_cells' state: what is passed over, the column INCLUDE counts are for and its
        # count, the families told to seek past the row, whether the filter ended the row;
        # a row its key drops starts ended
        self.state = (None, None, None, 0, None, self.dropped)
        self.fed = []  # the parts fed (their families decide a seek past the row)

    def feed(self, cells) -> object:
        """Filter the next `cells` of the row; returns None (read on), DONE, or a key to seek
        the feeding store to (the rest of a column, or a hint within the row)."""
        state = self.state
        if state[5]:
            return DONE
        self.state = state = _filter_cells(self.filt, self.row, cells, self.results,
                                           self.max_versions, state)
        self.fed.append(cells)
        skip = state[0]
        if state[5] or (skip is not None and len(skip) == 1):
            return DONE
        if skip is None:
            return None
        if len(skip) == 2:
            return (self.row, skip[0], skip[1] + b"\x00")  # first key of any later column
        return skip[1]

    def finish(self):
        """(kept cells or None, more, the row every family was told to seek to or None)."""
        if self.dropped:
            return None, not self.filt.filter_all_remaining(), None
        return _filter_cells(self.filt, self.row, (), self.results, self.max_versions,
                             self.state, self.limits, self.fed)


# _filter_cells' state at the start of a row
_START = (None, None, None, 0, None, False)


def _filter_cells(filt: Filter, row: bytes, cells, results: list, max_versions,
                  state: tuple, limits=None, fed=None) -> tuple:
    """The filter's answer for each of `cells` (the next cells of `row`), kept cells appended
    to `results`; returns the state to carry to the row's next part: (skip, column family,
    column qualifier, its INCLUDE count, seeks past the row, ended). `skip` is None,
    (family, qualifier) for the rest of a column, (family,) for the rest of a family, or
    (family, key, None) for the family's cells before key.

    With `fed` (the row's parts, all of them given) the row ends here instead: per-family
    `limits`, filter_row_cells and filter_row, and the answer is (kept cells or None, more,
    the row every family of the row was told to seek to, or None). One function for both,
    so that a whole row (a scan's) costs one call."""
    skip, col_family, col_qualifier, col_count, seeks, ended = state
    append = results.append
    filter_cell = filt.filter_cell
    all_remaining = filt.filter_all_remaining
    transform = filt.transform_cell if filt.may_transform() else None
    cap = max_versions if max_versions is not None else -1
    for c in cells:
        if skip is not None:
            if c[FAMILY] == skip[0]:
                k = len(skip)
                if k == 1 or (c[QUALIFIER] == skip[1] if k == 2 else c[:5] < skip[1]):
                    continue
            skip = None
        if all_remaining():
            ended = True
            break
        rc = filter_cell(c)
        if rc is INCLUDE:
            if cap >= 0:
                if c[QUALIFIER] != col_qualifier or c[FAMILY] != col_family:
                    col_family, col_qualifier, col_count = c[FAMILY], c[QUALIFIER], 0
                col_count += 1
                if col_count > cap:
                    skip = (c[FAMILY], c[QUALIFIER])
                    continue
            append(c if transform is None else transform(c))
        elif rc is SKIP:
            continue
        elif rc is NEXT_COL:
            skip = (c[FAMILY], c[QUALIFIER])
        elif rc is NEXT_ROW:
            skip = (c[FAMILY],)
        elif rc is INCLUDE_AND_NEXT_COL:
            append(c if transform is None else transform(c))
            skip = (c[FAMILY], c[QUALIFIER])
        elif rc is INCLUDE_AND_SEEK_NEXT_ROW:
            append(c if transform is None else transform(c))
            skip = (c[FAMILY],)
        elif rc is HINT:
            hint = filt.get_next_cell_hint(c)
            if hint is not None and (hint[0] < row if filt.reversed else hint[0] > row):
                # StoreScanner.reseek past this row: the rest of the family's cells here go
                if seeks is None:
                    seeks = {}
                seeks[c[FAMILY]] = hint[0]
                skip = (c[FAMILY],)
            elif hint is not None and hint[:5] > c[:5]:
                skip = (c[FAMILY], tuple(hint[:5]), None)
        else:
            raise ValueError(f"unknown return code {rc!r}")
    if fed is None:
        return skip, col_family, col_qualifier, col_count, seeks, ended
    if limits is not None:
        results = store_limits(results, limits)
    if filt.has_filter_row():
        results = filt.filter_row_cells(results)
        if results and filt.filter_row():
            results = []
    elif results and filt.filter_row():
        results = []
    seek_row = None
    if seeks is not None and len(seeks) == len({c[FAMILY] for part in fed for c in part}):
        # every family seeks: the region scanner skips ahead (or back, when reversed)
        seek_row = (max if filt.reversed else min)(seeks.values())
    return (results or None), not filt.filter_all_remaining(), seek_row


def apply_to_row(filt: Filter, row: bytes, cells: list, max_versions: int | None = None,
                 limits: tuple | None = None) -> list | None:
    """The cells of one row that `filt` keeps, or None when it drops the row. `cells` are
    the row's visible cells in HBase order (families, columns, newest version first), up
    to the family's VERSIONS; `max_versions` is the request's per-column cap."""
    return next_row(filt, row, cells, max_versions, limits)[0]


def scan_rows(
    filt_factory: Callable[[], Filter],
    rows: Iterable[tuple[bytes, list]],
    max_versions: int | None = None,
    reversed: bool = False,
    reseek: Callable[[bytes], Iterator[tuple[bytes, list]]] | None = None,
    limits: tuple | None = None,
) -> Iterator[tuple[bytes, list]]:
    """Filter one region's rows: yields (row, kept cells) and stops pulling rows as soon as
    the filter ends the scan. Call it once per region with a factory giving a fresh filter
    (e.g. `lambda: fresh(f)`), so that per-region state such as PageFilter's count starts
    over in every region. `reversed` tells the filter that rows come in descending order
    (Scan.setReversed: PrefixFilter and InclusiveStopFilter end the scan the other way).
    `reseek(row)`, when given, reopens the rows from `row` on: a filter's seek hint past the
    current row then skips the rows between unread, as HBase's StoreScanner.reseek does."""
    filt = filt_factory()
    if reversed:
        filt.set_reversed(True)
    rows = iter(rows)
    while True:
        for row, cells in rows:
            kept, more, seek_row = filter_row(filt, row, cells, max_versions, limits)
            if kept is not None:
                yield row, kept
            if not more:
                return
            if seek_row is not None and reseek is not None:
                close = getattr(rows, "close", None)
                if close is not None:
                    close()
                rows = reseek(seek_row)
                break
        else:
            return
