"""ClientScanner: a scan as HBase's client runs it, one RegionScanner per region in turn.

Opening the scan opens the first region's scanner and fetches its first batch in the same
request (HBase 2's openScanner RPC returns rows), so the scan's read point is taken when
`Table.scan` is called, not when the first row is read. Each further batch of `caching` rows is
one request. When a region is done the scan opens the next region's scanner (with a new read
point, as HBase does); when a region closes under it (a split), the scan goes on in the region
that now holds the rows after the last one returned (before it, when reversed).

With `metrics` (a ScanMetrics, `Table.scan(scan_metrics=True)`) it counts what HBase's client
counts (ScannerCallable, ClientScanner, ConnectionUtils): each RPC (an open that returns the
first batch, each further batch, the one a split answers with NotServingRegionException, a
close the client sends for a region scanner the server has not closed), each region opened,
the bytes of the cells returned (PrivateCellUtil.estimatedSerializedSizeOf: the KeyValue's
length plus a 4-byte length prefix; no tags, which the client's codec does not carry) and the
clock's milliseconds from the scanner's creation to each batch. Every region server counts as
remote (none runs on the client's host), so the REMOTE_ counts equal the others. hsim's client
never retries a scan RPC (HBase does not retry the NotServingRegionException either, it
reopens the scanner), so RPC_RETRIES stay 0.
"""

from __future__ import annotations

from hsim.errors import TableNotFoundError
from hsim.cell import FAMILY, QUALIFIER, ROW, VALUE
from hsim.client.validation import KV_OVERHEAD

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.client.table import Table
    from hsim.regions.region import Region
    from hsim.regions.region_scanner import RegionScanner

_CELL_BYTES = KV_OVERHEAD + 4  # estimatedSerializedSizeOf beyond row, family, qualifier, value


class ClientScanner:
    """A client's scan of a table (ClientScanner): walks the table's regions in order (or in
    reverse), opening a RegionScanner on each through its server, and hands out batches of
    rows. It owns only its position, its metrics and the table state it started on."""

    def __init__(self, table, start, stop, reversed, queries, filt, max_versions, caching,
                 fresh_filter, limits=None, metrics=None):
        self.table: Table = table
        self.metrics = metrics
        self.last_next = table.cluster.clock.now()  # ClientScanner.lastNext
        self.limits = limits  # per-family (max results, offset), applied in each store
        self.stop, self.reversed = stop, reversed
        self.queries, self.filt, self.max_versions = queries, filt, max_versions
        self.caching = caching
        self.fresh_filter = fresh_filter
        # Where the next region scanner opens: forward, rows from `pos` on (inclusive);
        # reversed, rows from `pos` down, or only rows under `below` once some were returned.
        self.pos, self.below = start, None
        self.scanner: RegionScanner | None = None  # the open region's, on its server
        self.region: Region | None = None
        self.done = False
        # the table as the scan found it: dropped or truncated (a new table state) under the
        # scan, the next batch ends the scan with TableNotFoundException
        # (None for hbase:meta, built afresh on every read)
        self.state = table._tables.get(table.name)

    def next_batch(self, want: int) -> list:
        """Up to `want` rows, each its list of cells: one request (call with the cluster's lock
        held). An empty list only when the scan is over."""
        m = self.metrics
        while not self.done:
            now = self.table.cluster.tick()
            if self.table._tables.get(self.table.name) is not self.state:
                self.close()
                raise TableNotFoundError(self.table.name)
            if self.scanner is None or self.scanner.closed_under_it:
                if m is not None and self.scanner is not None:
                    m.not_serving_region_exception += 1  # the next RPC's answer (a split)
                    self._count_rpc()
                self._open(now)
            rows = self.region.server.scan(self.scanner, want, m)
            if m is not None:
                self._count_rpc()
                m.bytes_in_results += _result_bytes(rows)
                m.bytes_in_remote_results = m.bytes_in_results
                t = self.table.cluster.clock.now()
                m.millis_between_nexts += t - self.last_next
                self.last_next = t
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
        if self.metrics is not None:
            self.metrics.regions_scanned += 1
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

    def _count_rpc(self) -> None:
        self.metrics.rpc_calls += 1
        self.metrics.remote_rpc_calls += 1

    def close(self, rpc: bool = True) -> None:
        """End the scan; a region scanner still open is closed by a close RPC (`rpc`), or, when
        the scan's limit was reached, by the server itself (Scan.setLimit)."""
        self.done = True
        if self.scanner is not None:
            if rpc and self.metrics is not None and not self.scanner.exhausted:
                self._count_rpc()
            self.scanner.close()
            self.scanner = None


def _result_bytes(rows: list) -> int:
    """BYTES_IN_RESULTS of a batch: each cell's estimatedSerializedSizeOf."""
    return sum(_CELL_BYTES + len(c[ROW]) + len(c[FAMILY]) + len(c[QUALIFIER]) + len(c[VALUE])
               for cells in rows for c in cells)


class ResultScanner:
    """What `Table.scan(scan_metrics=True)` returns: the rows, as the plain scan gives them,
    and `scan_metrics`, HBase's ResultScanner.getScanMetrics().getMetricsMap() (so far; final
    once the rows are all read or the scanner is closed)."""

    def __init__(self, rows, metrics):
        self._rows, self._metrics = rows, metrics

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._rows)

    def close(self) -> None:
        """Stop the scan (a close RPC for a region scanner still open)."""
        self._rows.close()

    @property
    def scan_metrics(self) -> dict[str, int]:
        """Every counter by HBase's key string (ROWS_SCANNED, RPC_CALLS, ...)."""
        return self._metrics.to_dict()
