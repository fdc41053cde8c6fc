"""Table: the native data API (HBase's Table interface). One call = one request to the region
server holding the row (or, for scans, to each region in turn, one request per batch of rows).
Each request reads the time once (`Cluster.tick()`), so all cells of one request share one
timestamp and the next request sees a later one under the default TickingClock."""

from __future__ import annotations

from hsim.cell import MAX_ROW_LENGTH, NO_TTL
from hsim.client import entries as en
from hsim.client import requests as rq
from hsim.client import validation as v
from hsim.client import scan_options as so
from hsim.client.batch import Batch, Mutation
from hsim.client.table_atomic import AtomicOperations
from hsim.client.validation import b
from hsim.durability import parse as parse_durability
from hsim.filters import fresh
from hsim.errors import (InvalidArgumentError, NoSuchColumnFamilyError,
                         RetriesExhaustedWithDetailsError, WrongRegionError)

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable, Iterator
    from hsim.cell import Cell, Entry
    from hsim.client.cluster import Cluster
    from hsim.durability import Durability
    from hsim.filters.base import Filter
    from hsim.regions.table_state import TableState
    from hsim.regions.router import RegionLocator
    from hsim.regions.region import Region
    from hsim.regions.region_server import RegionServer
    from typing import Any

_PUT, _DEL, _DEL_COL, _DEL_FAM, _DEL_FAM_VER = (
    en.PUT_CODE, en.DELETE_CODE, en.DELETE_COLUMN_CODE, en.DELETE_FAMILY_CODE,
    en.DELETE_FAMILY_VERSION_CODE)


_ttl, _ts = v.ttl_ms, v.timestamp


class Table(AtomicOperations):
    """HBase's Table: put, get, scan, delete and batches on one table; increment, append and
    check-and-mutate come from AtomicOperations (client/table_atomic.py)."""

    def __init__(self, cluster: Cluster, name: str):
        self.cluster: Cluster = cluster
        self.name = v.table_name(name)
        self._columns: dict = {}  # column spec -> (family, qualifier), parsed once
        self._tables: dict[str, TableState] = cluster.master.tables  # looked up per call
        self._max_size = cluster.config.keyvalue_max_size  # read per put (Config is frozen)
        # The bytes a put's row, family, qualifier and value may take together within that
        # limit (v.cell_size's bound, for checks inline on the put path).
        self._kv_room = self._max_size - v.KV_OVERHEAD if self._max_size > 0 else 1 << 62

    def __repr__(self) -> str:
        return f"Table({self.name!r})"

    # --- plumbing ------------------------------------------------------------------------------
    def _state(self) -> TableState:
        st = self._tables.get(self.name)
        if st is None or not st.enabled:
            return self.cluster.master.enabled_table(self.name)  # raises the precise error
        return st

    def _families(self):
        return self._state().descriptor.families

    def _region(self, row: bytes) -> Region:
        locator: RegionLocator = self._state().locator
        return locator.locate(row)

    def _apply(self, row: bytes, entries: list[Entry], now: int, durability=None) -> list:
        """Send one row mutation to its region (atomic across families) at the request's time
        `now`; the region validates everything before applying anything. `durability` is the
        mutation's own (hsim.Durability; None = USE_DEFAULT, the table's)."""
        if type(row) is not bytes:
            row = b(row)
        region = self._region(row)
        server: RegionServer = region.server
        return server.mutate(region, row, entries, now,
                             0 if durability is None else parse_durability(durability))

    def _column(self, col) -> tuple[bytes, bytes]:
        fq = self._columns.get(col) if type(col) is bytes else None
        if fq is None:
            fq = v.split_column(v.to_bytes(col, "column"))
            if len(self._columns) < 10_000:
                self._columns[col] = fq
        return fq

    def _put_entries(self, row: bytes, data: dict, timestamp, ttl_ms) -> list:
        if type(data) is not dict or not data:
            if not v.mapping(data, "data"):
                raise InvalidArgumentError("No columns to put")
        ts = None if timestamp is None else _ts(timestamp)
        ttl = NO_TTL if ttl_ms is None else _ttl(ttl_ms)
        columns, max_size = self._columns, self._max_size
        limit = self._kv_room - len(row)
        entries = []
        for col, value in data.items():
            fq = columns.get(col) if type(col) is bytes else None
            fam, q = fq or self._column(col)
            if type(value) is not bytes:
                value = v.to_bytes(value, "value")
            if len(fam) + len(q) + len(value) > limit:  # v.cell_size's bound, checked inline
                v.cell_size(row, fam, q, value, max_size)  # raises its precise error
            entries.append((fam, q, ts, _PUT, value, ttl))
        return entries

    # --- writes --------------------------------------------------------------------------------
    def put(self, row: bytes | str, data: dict, timestamp: int | None = None,
            ttl_ms: int | None = None,
            durability: Durability | str | None = None) -> None:
        """Put {b"f:q": value, ...} in one row; cells without timestamp get the server's now."""
        if type(row) is not bytes or not row or len(row) > MAX_ROW_LENGTH:
            row = v.row(row)  # converts a str, or raises the precise error
        # Fast path (most puts): one already parsed column, a bytes value within the size
        # limit, no timestamp or TTL. Anything else, every bad input included, goes through
        # _put_entries (tests/validation/test_put_fast_path.py compares the two).
        entries = None
        if type(data) is dict and len(data) == 1 and timestamp is None and ttl_ms is None:
            for col, value in data.items():
                fq = self._columns.get(col) if type(col) is bytes else None
                if fq is not None and type(value) is bytes and (
                        len(value) + len(fq[0]) + len(fq[1]) + len(row) <= self._kv_room):
                    entries = [(fq[0], fq[1], None, _PUT, value, NO_TTL)]
        if entries is None:
            entries = self._put_entries(row, data, timestamp, ttl_ms)
        cluster = self.cluster
        lock = cluster.lock
        lock.acquire()  # `with lock:` as acquire/finally-release: cheaper on this hot path
        try:
            self._apply(row, entries, cluster.tick(), durability)
        finally:
            lock.release()

    def delete_row(self, row: bytes | str, timestamp: int | None = None,
                   durability: Durability | str | None = None) -> None:
        """new Delete(row[, ts]): a DeleteFamily marker on every family."""
        with self.cluster.lock:
            ts = _ts(timestamp)
            self._apply(v.row(row), en.row_delete(self._families(), ts),
                        self.cluster.tick(), durability)

    def delete_family(self, row: bytes | str, family: bytes | str, timestamp: int | None = None,
                      durability: Durability | str | None = None) -> None:
        """Delete every cell of one family in a row (a DeleteFamily marker)."""
        with self.cluster.lock:
            self._delete_family(row, family, timestamp, _DEL_FAM, durability)

    def delete_family_version(self, row: bytes | str, family: bytes | str,
                              timestamp: int | None = None,
                              durability: Durability | str | None = None) -> None:
        """Delete.addFamilyVersion: the family's cells at exactly `timestamp` (None: the
        request's time, as LATEST_TIMESTAMP becomes the server's now)."""
        with self.cluster.lock:
            self._delete_family(row, family, timestamp, _DEL_FAM_VER, durability)

    def _delete_family(self, row, family, timestamp, code, durability) -> None:
        entry = (v.to_bytes(family, "family"), b"", _ts(timestamp), code, b"", NO_TTL)
        self._apply(v.row(row), [entry], self.cluster.tick(), durability)

    def delete_columns(self, row: bytes | str, column: bytes | str, timestamp: int | None = None,
                       durability: Durability | str | None = None) -> None:
        """Delete.addColumns: every version of the column with ts <= timestamp (now)."""
        with self.cluster.lock:
            fam, q = self._column(column)
            self._apply(v.row(row), [(fam, q, _ts(timestamp), _DEL_COL, b"", NO_TTL)],
                        self.cluster.tick(), durability)

    def delete_column(self, row: bytes | str, column: bytes | str, timestamp: int | None = None,
                      durability: Durability | str | None = None) -> None:
        """Delete.addColumn: one version; without a timestamp the latest visible version,
        looked up at delete time (HRegion.prepareDeleteTimestamps)."""
        with self.cluster.lock:
            fam, q = self._column(column)
            self._apply(v.row(row), [(fam, q, _ts(timestamp), _DEL, b"", NO_TTL)],
                        self.cluster.tick(), durability)

    def batch(self, durability: Durability | str | None = None) -> Batch:
        """A Batch that collects mutations and sends them together (`durability`: for every
        mutation that names none itself)."""
        return Batch(self, durability)

    def mutate_rows(self, mutations: list, durability: Durability | str | None = None) -> None:
        """Apply a list of Mutation records, as one request; each row's mutations as one atomic
        row mutation, with the strongest durability among them (a mutation's own, else
        `durability`), as HRegion.doMiniBatchMutate syncs a batch once at its strongest."""
        if (not isinstance(mutations, (list, tuple))
                or not all(isinstance(m, Mutation) for m in mutations)):
            raise v.type_error("mutations", "a list of Mutation", mutations)
        by_row: dict[bytes, list] = {}
        strongest: dict[bytes, int] = {}
        default = parse_durability(durability)
        for m in mutations:  # client-side checks of every mutation before anything is sent
            row = v.row(m.row)
            by_row.setdefault(row, []).extend(self._entries_of(row, m))
            d = default if m.durability is None else parse_durability(m.durability)
            strongest[row] = max(strongest.get(row, 0), d)
        failures = []
        with self.cluster.lock:
            now = self.cluster.tick()
            for row, entries in by_row.items():
                if entries:
                    try:
                        self._apply(row, entries, now, strongest[row])
                    except (NoSuchColumnFamilyError, WrongRegionError) as e:
                        failures.append((row, e))  # a server-side per-row failure
        if failures:
            raise RetriesExhaustedWithDetailsError(failures)

    def _entries_of(self, row: bytes, m) -> list:
        if m.kind == "put":
            return self._put_entries(row, m.data, m.timestamp, m.ttl_ms)
        ts = _ts(m.timestamp)
        if m.kind == "delete_row":
            return en.row_delete(self._families(), ts)
        if m.kind == "delete_family":
            return [(v.to_bytes(m.column, "family"), b"", ts, _DEL_FAM, b"", NO_TTL)]
        if m.kind == "delete_family_version":
            return [(v.to_bytes(m.column, "family"), b"", ts, _DEL_FAM_VER, b"", NO_TTL)]
        fam, q = self._column(m.column)
        code = _DEL_COL if m.kind == "delete_columns" else _DEL
        return [(fam, q, ts, code, b"", NO_TTL)]

    # --- reads ---------------------------------------------------------------------------------
    def get(self, row: bytes | str, columns: Iterable[bytes | str] | bytes | str | None = None,
            max_versions: int | None = None, time_range: tuple[int, int] | None = None,
            timestamp: int | None = None, raw: bool = False, filter: Filter | str | None = None,
            max_results_per_family: int | None = None,
            row_offset_per_family: int | None = None, cache_blocks: bool = True) -> list:
        """The row's cells in HBase order (families, qualifiers, newest version first).
        `cache_blocks=False` (Get.setCacheBlocks): data blocks it reads from files are not
        added to the block cache; blocks already there still hit."""
        request = self._checked_get(row, columns, max_versions, time_range, timestamp, raw, filter,
                                    max_results_per_family, row_offset_per_family, cache_blocks)
        with self.cluster.lock:
            return self._get(request, now=self.cluster.tick())

    def _checked_get(self, row, columns, max_versions, time_range, timestamp, raw, filter,
                     max_results=None, offset=None, cache_blocks=True) -> tuple:
        """A Get's checks, each once (hsim.client.validation), before the request is sent; the
        filter parsed before the lock, as by a handler. The checked request, for `_get`."""
        row = v.row(row)
        tr = v.time_range(time_range, timestamp)
        max_versions = v.read_options(max_versions, cache_blocks)
        cols = v.read_columns(columns)
        v.check_per_family(max_results, offset)
        filt = _filter(filter, self.cluster.seed)
        return (row, cols, max_versions, tr, raw, filt, so.limits(max_results, offset),
                cache_blocks)

    def _get(self, request: tuple, io=None, now=None):
        """A checked Get sent to its region; `now` None: a look that is no request (explain)."""
        row, cols, max_versions, tr, raw, filt, limits, cache_blocks = request
        families = self._families()
        v.raw_columns(raw, cols)
        queries = rq.build(families, cols, max_versions, tr, raw, filt is not None,
                           cache_blocks)
        region = self._region(row)
        if now is None:
            now = self.cluster.clock.now()
        server: RegionServer = region.server
        return server.get(region, row, queries, now, io, filt=filt,
                                 max_versions=max_versions, limits=limits)

    def exists(self, row: bytes | str,
               columns: Iterable[bytes | str] | bytes | str | None = None) -> bool:
        """Whether a get of the row (and columns) would return anything."""
        return bool(self.get(row, columns=columns))

    def scan(self, start_row: bytes | str | None = None, stop_row: bytes | str | None = None,
             row_prefix: bytes | str | None = None,
             columns: Iterable[bytes | str] | bytes | str | None = None,
             max_versions: int | None = None, time_range: tuple[int, int] | None = None,
             timestamp: int | None = None,
             raw: bool = False, reversed: bool = False, limit: int | None = None,
             filter: Filter | str | None = None,
             caching: int = 1000, batch: int | None = None,
             max_results_per_family: int | None = None,
             row_offset_per_family: int | None = None, lazy: bool = False,
             scan_metrics: bool = False, cache_blocks: bool = True) -> Iterator[list[Cell]]:
        """Rows as lists of cells, region by region (descending rows when reversed). The start
        row is inclusive, the stop row exclusive; `row_prefix` sets both. `batch` returns a
        wide row as consecutive lists of at most that many cells (`limit` counts rows).
        The call checks everything and, unless `lazy`, reads the first batch (the read point
        is taken then); `lazy=True` reads it with the first row asked for, as HBase 2's
        ClientScanner does (the Thrift server's scanners: an open scanner holds no rows).
        `scan_metrics` (Scan.setScanMetricsEnabled): the rows come in a ResultScanner whose
        `.scan_metrics` is HBase's ScanMetrics map (docs/metrics.md). `cache_blocks=False`
        (Scan.setCacheBlocks, what a full scan sets so as not to churn the block cache): data
        blocks read from files are not added to the cache; blocks already there still hit."""
        start = None if start_row in (None, b"", "") else v.to_bytes(start_row, "start_row")
        stop = None if stop_row in (None, b"", "") else v.to_bytes(stop_row, "stop_row")
        prefix = None
        if row_prefix is not None:
            if start is not None or stop is not None:
                raise InvalidArgumentError("row_prefix cannot be combined with start/stop rows")
            prefix = v.to_bytes(row_prefix, "row_prefix")
            if reversed:
                start = rq.prefix_stop(prefix)
            else:
                start, stop = prefix or None, rq.prefix_stop(prefix)
        limit, caching = v.limit(limit), v.caching(caching)
        filt = _filter(filter, self.cluster.seed)
        v.check_batch(batch, filt)
        v.check_per_family(max_results_per_family, row_offset_per_family)
        tr = v.time_range(time_range, timestamp)
        if type(scan_metrics) is not bool:
            raise v.type_error("scan_metrics", "a bool", scan_metrics)
        from hsim.client.client_scanner import ClientScanner, ResultScanner
        from hsim.regions.scan_metrics import ScanMetrics

        metrics = ScanMetrics() if scan_metrics else None
        with self.cluster.lock:
            queries = rq.queries(self._families(), columns, max_versions, tr, raw,
                                 filt is not None, cache_blocks)
            cs = ClientScanner(self, start, stop, reversed, queries, filt, max_versions or 1,
                               caching, fresh,
                               so.limits(max_results_per_family, row_offset_per_family),
                               metrics)
            # opening the scan is a request that returns the first batch: the read point is
            # taken now, when the scan is asked for
            try:
                first = None if lazy else cs.next_batch(
                    caching if limit is None else min(caching, limit))
            except BaseException:  # a failed open (a regex over budget) leaves no scanner
                cs.close()
                raise
        rows = self._scan_gen(cs, first, prefix, reversed, limit, caching)
        if batch is not None:
            rows = (part for cells in rows for part in so.split_row(cells, batch))
        return rows if metrics is None else ResultScanner(rows, metrics)

    def _scan_gen(self, cs, batch, prefix, reversed, limit, caching):
        """Rows as lists of cells from a ClientScanner, batch by batch."""
        lock = self.cluster.lock
        returned = 0
        limited = False  # the scan's limit reached: the server closed its scanner (Scan.setLimit)
        try:
            if batch is None:  # lazy: the first batch comes with the first row asked for
                with lock:
                    batch = cs.next_batch(caching if limit is None else min(caching, limit))
            while batch:
                for cells in batch:
                    if prefix is not None and not cells[0][0].startswith(prefix):
                        if reversed and cells[0][0] > prefix:
                            continue
                        return
                    yield cells
                    returned += 1
                    if limit is not None and returned >= limit:
                        limited = True
                        return
                want = caching if limit is None else min(caching, limit - returned)
                with self.cluster.lock:  # refused once the cluster is closed
                    batch = cs.next_batch(want)
        finally:
            with lock:
                cs.close(rpc=not limited)

    def count(self, **scan_args: Any) -> int:
        """How many rows a scan with these arguments returns."""
        return sum(1 for _ in self.scan(**scan_args))


def _filter(f, seed: int = 0):
    """Accept a filter object or a filter-language string; a RandomRowFilter without a seed
    of its own draws from the cluster's `seed`."""
    from hsim.filters.base import Filter

    if f is None:
        return None
    if isinstance(f, (str, bytes)):
        from hsim.filters import parse_filter

        f = parse_filter(f)
    if not isinstance(f, Filter):
        raise TypeError(f"filter must be a Filter or a filter string, not {type(f).__name__}")
    from hsim.filters.row_selection import with_cluster_seed

    return with_cluster_seed(f, seed)

