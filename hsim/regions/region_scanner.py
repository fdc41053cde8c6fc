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
"""

from __future__ import annotations

from itertools import islice

from hsim.engine.gc_pause import gc_paused


class RegionScanner:
    """A scan of one region at the read point it opened with (RegionScannerImpl): the store
    files it pinned, where it stopped, and the filter and limits it applies; one batch per
    request, asked by the ClientScanner through the region server."""

    __slots__ = ("region", "read_point", "files", "start", "stop", "queries", "now", "reversed",
                 "filt", "max_versions", "limits", "last_row", "exhausted", "cursors",
                 "__weakref__")

    def __init__(self, region, start: bytes | None, stop: bytes | None, queries: dict, now: int,
                 reversed: bool = False, filt=None, max_versions: int = 1,
                 below: bytes | None = None, limits: tuple | None = None):
        """`start`/`stop` as Region.scan takes them; `below`: going on backwards under a row
        already returned (after a split)."""
        for fam in queries:
            region.store(fam)  # NoSuchColumnFamilyError before anything opens
        self.region = region
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
        ScanMetrics, which Region.scan counts into."""
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
            rows = self.region.scan(start, self.stop, self.queries, self.now,
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
