"""ClientScanner: a scan as HBase's client runs it, one RegionScanner per region in turn.

Opening the scan opens the first region's scanner and fetches its first batch in the same
request (HBase 2's openScanner RPC returns rows), so the scan's read point is taken when
`Table.scan` is called, not when the first row is read. Each further batch of `caching` rows is
one request. When a region is done the scan opens the next region's scanner (with a new read
point, as HBase does); when a region closes under it (a split), the scan goes on in the region
that now holds the rows after the last one returned (before it, when reversed).
"""

from __future__ import annotations

from hsim.errors import TableNotFoundError


class ClientScanner:
    def __init__(self, table, start, stop, reversed, queries, filt, max_versions, caching,
                 fresh_filter, limits=None):
        self.table = table
        self.limits = limits  # per-family (max results, offset), applied in each store
        self.stop, self.reversed = stop, reversed
        self.queries, self.filt, self.max_versions = queries, filt, max_versions
        self.caching = caching
        self.fresh_filter = fresh_filter
        # Where the next region scanner opens: forward, rows from `pos` on (inclusive);
        # reversed, rows from `pos` down, or only rows under `below` once some were returned.
        self.pos, self.below = start, None
        self.scanner = self.region = None
        self.done = False
        # the table as the scan found it: dropped or truncated (a new table state) under the
        # scan, the next batch ends the scan with TableNotFoundException
        # (None for hbase:meta, built afresh on every read)
        self.state = table._tables.get(table.name)

    def next_batch(self, want: int) -> list:
        """Up to `want` rows, each its list of cells: one request (call with the cluster's lock
        held). An empty list only when the scan is over."""
        while not self.done:
            now = self.table.cluster.tick()
            if self.table._tables.get(self.table.name) is not self.state:
                self.close()
                raise TableNotFoundError(self.table.name)
            if self.scanner is None or self.scanner.closed_under_it:
                self._open(now)
            rows = self.region.server.scan(self.scanner, want)
            if rows:
                last = rows[-1][0][0]
                if self.reversed:
                    self.below = last
                else:
                    self.pos = last + b"\x00"  # the first row after the last returned
            if self.scanner.exhausted:
                self._next_region()
            if rows:
                return rows
        return []

    def _open(self, now: int) -> None:
        locator = self.table._state().locator
        if not self.reversed:
            region = locator.locate(self.pos or b"")
        elif self.below is not None:
            region = locator.region_before(self.below)
        else:
            region = locator.regions[-1] if self.pos is None else locator.locate(self.pos)
        self.region = region
        # HBase ships the scan's filter to each region: a fresh copy per region scanner, which
        # is why PageFilter limits rows per region
        self.scanner = region.server.open_scanner(
            region, self.pos, self.stop, self.queries, now, reversed=self.reversed,
            filt=None if self.filt is None else self.fresh_filter(self.filt),
            max_versions=self.max_versions, below=self.below, limits=self.limits)

    def _next_region(self) -> None:
        region, stop = self.region, self.stop
        filt, self.scanner = self.scanner.filt, None
        if filt is not None and filt.filter_all_remaining():
            # RSRpcServices.scan: a region whose filter is done (filterAllRemaining) answers
            # moreResults=false, and the client scanner ends the whole scan there
            self.done = True
            return
        if self.reversed:
            edge = region.start_key
            if not edge or (stop is not None and edge <= stop):
                self.done = True
            self.below = edge
        else:
            edge = region.end_key
            if not edge or (stop is not None and edge >= stop):
                self.done = True
            self.pos = edge

    def close(self) -> None:
        self.done = True
        if self.scanner is not None:
            self.scanner.close()
            self.scanner = None
