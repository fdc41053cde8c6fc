"""A region's reads (HRegion.get, RegionScannerImpl): each family's Store read for the row or
the range, merged in family order, the filter run over the merged rows, and the read requests
counted as HBase's region counts them (rows returned as readRequestsCount, rows examined and
dropped as filteredReadRequestsCount, and the same as ScanMetrics' ROWS_SCANNED and
ROWS_FILTERED). A mixin of Region, kept apart from the region's writes, flushes and splits."""

from __future__ import annotations

import heapq
from itertools import groupby
from operator import itemgetter

from hsim.metrics import IOCounters
from hsim.regions.scan_metrics import ScanMetrics
from hsim.rowrange import RowRange

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.store import Store

_row_of = itemgetter(0)


class RegionReads:
    """Region's Get and Scan; the region supplies stores, store(), keys, seq_id, the key
    bounds and the read counters."""

    def get(self, row: bytes, queries: dict, now: int, io: IOCounters | None = None,
            filt=None, max_versions: int = 1, limits: tuple | None = None) -> list:
        """The row's visible cells across the requested families (family order).
        `queries` maps family -> ScanQuery (families not named are not read). Reads are counted
        on each store's own counters, or on `io` when the caller traces one request. `limits`:
        the per-family (max results, offset) of hsim.filters.apply.store_limits."""
        self.check_row_in_range(row)
        self.read_requests += 1
        if filt is not None:
            return self._get_filtered(row, queries, now, io, filt, max_versions, limits)
        out = []
        for fam, q in queries.items():
            s: Store = self.store(fam)
            out.extend(s.get(row, q, now, s.counters.io if io is None else io))
        if limits is not None:
            from hsim.filters.apply import store_limits

            kept = store_limits(out, limits)
        else:
            return out
        if out and not kept:
            self.filtered_read_requests += 1  # RegionScannerImpl: a row the filter dropped
        return kept

    def _get_filtered(self, row, queries, now, io, filt, max_versions, limits) -> list:
        """A Get with a filter. A store whose row runs past a block reads it with the filter
        inside its loop (StoreScanner: NEXT_ROW stops the family's read, NEXT_COL and hints
        seek it), fed through a RowRun made when the first such store asks for it; the rows
        read whole (most) are filtered at once after, as before."""
        from hsim.filters.apply import RowRun, filter_row

        out = []
        run = None

        def sink():
            nonlocal run
            if run is None:
                run = RowRun(filt, row, max_versions, limits)
                run.feed(out)  # the families read before, in order
            return run

        for fam, q in queries.items():
            s: Store = self.store(fam)
            cells = s.get(row, q, now, s.counters.io if io is None else io, sink)
            if run is None:
                out.extend(cells)
            elif cells:
                run.feed(cells)
        kept = filter_row(filt, row, out, max_versions, limits) if run is None else run.finish()
        if not kept[0] and (out or run is not None):
            self.filtered_read_requests += 1  # RegionScannerImpl: a row the filter dropped
        return kept[0] or []

    def scan(self, start_row: bytes | None, stop_row: bytes | None, queries: dict, now: int,
             io: IOCounters | None = None, reversed: bool = False, filt=None,
             max_versions: int = 1, read_point: int | None = None, files: dict | None = None,
             below: bytes | None = None, limits: tuple | None = None,
             cursors: dict | None = None, metrics=None):
        """(row, cells) for this region's rows within the scan's bounds, clipped to the region,
        in row order (descending when reversed). Every row returned counts as a read request,
        every row examined and not returned as a filtered one (RegionScannerImpl's
        readRequestsCount and filteredReadRequestsCount); `metrics`, a ScanMetrics
        (regions/scan_metrics.py), gets the same as ROWS_SCANNED and ROWS_FILTERED.
        A RegionScanner passes its `read_point`, its pinned `files` per family, and, going on
        backwards, `below`: only rows under it (the last row it returned), and its `cursors`
        (per family, the block each file's scan holds), kept from one batch to the next."""
        if metrics is None:
            metrics = ScanMetrics()
        if read_point is not None and read_point >= self.seq_id:
            read_point = None  # nothing written since: no cell to hide
        for fam in queries:
            self.store(fam)
        if cursors is None and filt is not None:
            cursors = {f: {} for f in queries}  # a filter's seeks reseek within this batch
        elif cursors is not None:
            for held in cursors.values():
                held.pop(None, None)  # a new batch: its file skips are counted again

        def rows_from(first: bytes | None):
            """The merged rows from the scan's start, or (a filter's seek) from `first` on."""
            if reversed:
                upper = start_row if first is None else first  # a hint: rows at or below it
                if self.end_key and (upper is None or upper >= self.end_key):
                    upper = None  # from the store's last row; the region's range clips it below
                lower = stop_row
                if self.start_key and (lower is None or lower < self.start_key):
                    lower = None
                sources = [s.scan(upper, lower, q, now, s.counters.io if io is None else io,
                                  reversed=True, read_point=read_point,
                                  files=None if files is None else files[f],
                                  cursors=None if cursors is None else cursors[f])
                           for f, s, q in ((f, self.stores[f], q) for f, q in queries.items())]
                rows = self.keys.clip(_merge_rows(sources, reversed=True), reversed=True)
                if below is not None:
                    rows = RowRange(None, True, below, False).clip(rows, reversed=True)
                return rows
            start = start_row if first is None else first
            if start is None or start < self.start_key:
                start = self.start_key or None
            stop = stop_row
            if self.end_key and (stop is None or stop > self.end_key):
                stop = self.end_key
            if first is not None and stop is not None and start >= stop:
                return iter(())
            sources = [s.scan(start, stop, q, now, s.counters.io if io is None else io,
                              read_point=read_point, files=None if files is None else files[f],
                              cursors=None if cursors is None else cursors[f])
                       for f, s, q in ((f, self.stores[f], q) for f, q in queries.items())]
            return _merge_rows(sources, reversed=False)

        if filt is not None:
            from hsim.filters.apply import scan_rows

            for kept in scan_rows(lambda: filt, self._counted(rows_from(None), metrics),
                                  max_versions, reversed=reversed,
                                  reseek=lambda row: self._counted(rows_from(row), metrics),
                                  limits=limits):
                metrics.rows_filtered -= 1  # _counted counted it filtered; the filter kept it
                self.filtered_read_requests -= 1
                self.read_requests += 1
                yield kept
            return
        if limits is not None:
            from hsim.filters.apply import store_limits
        for row, cells in rows_from(None):
            metrics.rows_scanned += 1
            if limits is not None:
                cells = store_limits(cells, limits)
                if not cells:
                    metrics.rows_filtered += 1
                    self.filtered_read_requests += 1
                    continue
            self.read_requests += 1
            yield row, cells

    def _counted(self, rows, metrics):
        """The rows a filter examines (ROWS_SCANNED), each counted filtered until the filter
        keeps it (the scan loop above then moves it to the read requests)."""
        for row, cells in rows:
            metrics.rows_scanned += 1
            metrics.rows_filtered += 1
            self.filtered_read_requests += 1
            yield row, cells


def _merge_rows(sources: list, reversed: bool):
    """Merge per-family (row, cells) streams into one stream of rows, cells in family order."""
    if len(sources) == 1:
        return sources[0]
    merged = heapq.merge(*sources, key=_row_of, reverse=reversed)
    return _group_rows(merged)


def _group_rows(merged):
    for row, group in groupby(merged, _row_of):
        parts = [cells for _, cells in group]
        if len(parts) == 1:
            yield row, parts[0]
        else:
            yield row, [c for p in parts for c in p]
