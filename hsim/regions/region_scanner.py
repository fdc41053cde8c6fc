"""RegionScanner (HBase's RegionScannerImpl): a scan of one region at one read point, read in
batches, each batch one request.

It takes the region's MVCC read point when it opens (the sequence id of the last applied
mutation, MultiVersionConcurrencyControl.getReadPoint) and sees only cells written at or before
it, however many puts and deletes land while it is open. It holds the store files it opened on
(StoreScanner's scanners): a compaction does not take them away (the compacted files live on
until the scanner closes), and a flush hands it the new file in place of the MemStore cells it
wrote (StoreScanner.updateReaders, through ChangedReadersObserver). Each batch reads on from
just after the last row it returned, so what it returns does not depend on how the store
changed in between. A split closes the region; the client then opens a scanner on the daughter
after the last row it got (ClientScanner on NotServingRegionException), at a new read point.

The rows themselves come from `region_rows`: each family's Store scan merged in family order,
clipped to the region, run through the filter, and counted as RegionScannerImpl counts them
(a row returned is a read request; a row examined and not returned, the filter's or one with
no visible cell, a filtered one). A Get with a filter runs the same way (`get_filtered`).
"""

from __future__ import annotations

import heapq
from itertools import groupby, islice
from operator import itemgetter

from hsim.engine.gc_pause import gc_paused
from hsim.regions.scan_metrics import ScanMetrics
from hsim.rowrange import RowRange

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.store import Store
    from hsim.metrics import IOCounters
    from hsim.regions.region import Region

_row_of = itemgetter(0)


class RegionScanner:
    """A scan of one region at the read point it opened with (RegionScannerImpl): the store
    files it pinned, where it stopped, and the filter and limits it applies; one batch per
    request, asked by the ClientScanner through the region server."""

    __slots__ = ("region", "read_point", "files", "start", "stop", "queries", "now", "reversed",
                 "filt", "max_versions", "limits", "last_row", "exhausted", "cursors",
                 "__weakref__")

    def __init__(self, region: Region, start: bytes | None, stop: bytes | None, queries: dict,
                 now: int, reversed: bool = False, filt=None, max_versions: int = 1,
                 below: bytes | None = None, limits: tuple | None = None):
        """`start`/`stop` as region_rows takes them; `below`: going on backwards under a row
        already returned (after a split)."""
        for fam in queries:
            region.store(fam)  # NoSuchColumnFamilyError before anything opens
        self.region: Region = region
        self.read_point = region.seq_id
        self.files = {f: list(region.stores[f].files) for f in queries}
        self.start, self.stop = start, stop
        self.queries, self.now = queries, now
        self.reversed, self.filt, self.max_versions = reversed, filt, max_versions
        self.limits = limits  # per-family (max results, offset), StoreScanner's limits
        self.last_row = below  # forward: None until a row is returned
        # per family, per store file: the block its scan holds (HFileReader.scan's cursor),
        # kept from batch to batch, so a batch goes on inside the block the last one ended in
        # with no index lookup and no block fetch (StoreScanner keeps its scanners open)
        self.cursors = {f: {} for f in queries}
        self.exhausted = False
        region.scanners.add(self)

    @property
    def closed_under_it(self) -> bool:
        """The region closed (split, merged, unassigned) while this scanner was open."""
        return self.region.closed

    def flushed(self, family: bytes, store_file) -> None:
        if family in self.files:
            self.files[family].append(store_file)

    def next_rows(self, n: int, metrics=None) -> list:
        """Up to `n` rows (each its list of cells) after the last row returned; fewer means the
        region is done. Only the cell lists are kept: a (row, cells) pair per row would double
        the objects the GC has to track while the batch is read. `metrics`: the batch's
        ScanMetrics, which region_rows counts into."""
        if self.exhausted:
            return []
        last = self.last_row
        if self.reversed:
            start, below = (self.start if last is None else last), last
        else:
            start, below = (self.start if last is None else last + b"\x00"), None
        # A batch is thousands of short-lived acyclic tuples and lists: the cyclic GC would
        # otherwise run full collections over the whole heap while it is built (BENCHMARKS.md,
        # "Clock ticks and MVCC read points")
        with gc_paused():
            rows = region_rows(self.region, start, self.stop, self.queries, self.now,
                               reversed=self.reversed, filt=self.filt,
                               max_versions=self.max_versions, read_point=self.read_point,
                               files=self.files, below=below, limits=self.limits,
                               cursors=self.cursors, metrics=metrics)
            out = [cells for _row, cells in islice(rows, n)]
            rows.close()  # the generator chain ends here; nothing stays open between batches
        if out:
            self.last_row = out[-1][0][0]
        if len(out) < n:
            self.close()
        return out

    def close(self) -> None:
        self.exhausted = True
        self.region.scanners.discard(self)


def region_rows(region: Region, start_row: bytes | None, stop_row: bytes | None, queries: dict,
                now: int, io: IOCounters | None = None, reversed: bool = False, filt=None,
                max_versions: int = 1, read_point: int | None = None, files: dict | None = None,
                below: bytes | None = None, limits: tuple | None = None,
                cursors: dict | None = None, metrics=None):
    """(row, cells) for the region's rows within the scan's bounds, clipped to the region,
    in row order (descending when reversed). Every row returned counts as a read request,
    every row examined and not returned as a filtered one (RegionScannerImpl's
    readRequestsCount and filteredReadRequestsCount); `metrics`, a ScanMetrics
    (regions/scan_metrics.py), gets the same as ROWS_SCANNED and ROWS_FILTERED.
    A RegionScanner passes its `read_point`, its pinned `files` per family, and, going on
    backwards, `below`: only rows under it (the last row it returned), and its `cursors`
    (per family, the block each file's scan holds), kept from one batch to the next."""
    if metrics is None:
        metrics = ScanMetrics()
    if read_point is not None and read_point >= region.seq_id:
        read_point = None  # nothing written since: no cell to hide
    for fam in queries:
        region.store(fam)
    if cursors is None and filt is not None:
        cursors = {f: {} for f in queries}  # a filter's seeks reseek within this batch
    elif cursors is not None:
        for held in cursors.values():
            held.pop(None, None)  # a new batch: its file skips are counted again

    def rows_from(first: bytes | None):
        """The merged rows from the scan's start, or (a filter's seek) from `first` on."""
        if reversed:
            upper = start_row if first is None else first  # a hint: rows at or below it
            if region.end_key and (upper is None or upper >= region.end_key):
                upper = None  # from the store's last row; the region's range clips it below
            lower = stop_row
            if region.start_key and (lower is None or lower < region.start_key):
                lower = None
            sources = [s.scan(upper, lower, q, now, s.counters.io if io is None else io,
                              reversed=True, read_point=read_point,
                              files=None if files is None else files[f],
                              cursors=None if cursors is None else cursors[f])
                       for f, s, q in ((f, region.stores[f], q) for f, q in queries.items())]
            rows = region.keys.clip(_merge_rows(sources, reversed=True), reversed=True)
            if below is not None:
                rows = RowRange(None, True, below, False).clip(rows, reversed=True)
            return rows
        start = start_row if first is None else first
        if start is None or start < region.start_key:
            start = region.start_key or None
        stop = stop_row
        if region.end_key and (stop is None or stop > region.end_key):
            stop = region.end_key
        if first is not None and stop is not None and start >= stop:
            return iter(())
        sources = [s.scan(start, stop, q, now, s.counters.io if io is None else io,
                          read_point=read_point, files=None if files is None else files[f],
                          cursors=None if cursors is None else cursors[f])
                   for f, s, q in ((f, region.stores[f], q) for f, q in queries.items())]
        return _merge_rows(sources, reversed=False)

    if filt is not None:
        from hsim.filters.apply import scan_rows

        for kept in scan_rows(lambda: filt, _counted(region, rows_from(None), metrics),
                              max_versions, reversed=reversed,
                              reseek=lambda row: _counted(region, rows_from(row), metrics),
                              limits=limits):
            metrics.rows_filtered -= 1  # _counted counted it filtered; the filter kept it
            region.filtered_read_requests -= 1
            region.read_requests += 1
            yield kept
        return
    if limits is not None:
        from hsim.filters.apply import store_limits
    for row, cells in rows_from(None):
        metrics.rows_scanned += 1
        if limits is not None and cells:
            cells = store_limits(cells, limits)
        if not cells:  # nothing visible, or nothing past the limits: examined, not returned
            metrics.rows_filtered += 1
            region.filtered_read_requests += 1
            continue
        region.read_requests += 1
        yield row, cells


def _counted(region: Region, rows, metrics):
    """The rows a filter examines (ROWS_SCANNED), each counted filtered until the filter
    keeps it (region_rows' filter loop then moves it to the read requests)."""
    for row, cells in rows:
        metrics.rows_scanned += 1
        metrics.rows_filtered += 1
        region.filtered_read_requests += 1
        yield row, cells


def get_filtered(region: Region, row: bytes, queries: dict, now: int, io, filt, max_versions: int,
                 limits) -> list:
    """Region.get with a filter (HRegion.get runs a Get through a RegionScannerImpl). A store
    whose row runs past a block reads it with the filter inside its loop (StoreScanner:
    NEXT_ROW stops the family's read, NEXT_COL and hints seek it), fed through a RowRun made
    when the first such store asks for it; the rows read whole (most) are filtered at once
    after, as before."""
    from hsim.filters.apply import RowRun, filter_row

    out = []
    run = None

    def sink():
        nonlocal run
        if run is None:
            run = RowRun(filt, row, max_versions, limits)
            run.feed(out)  # the families read before, in order
        return run

    scanned = 0  # the row's raw cells the stores' matchers saw
    for fam, q in queries.items():
        s: Store = region.store(fam)
        sio = s.counters.io if io is None else io
        before = sio.cells_scanned
        cells = s.get(row, q, now, sio, sink)
        scanned += sio.cells_scanned - before
        if run is None:
            out.extend(cells)
        elif cells:
            run.feed(cells)
    kept = filter_row(filt, row, out, max_versions, limits) if run is None else run.finish()
    if not kept[0] and (out or run is not None or scanned):
        # RegionScannerImpl: the filter dropped the row, or none of its cells is visible
        # (isEmptyRow): a filtered read
        region.filtered_read_requests += 1
    return kept[0] or []

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
