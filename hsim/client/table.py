"""Table: the native data API (HBase's Table interface). One call = one request to the region
server holding the row (or, for scans, to each region in turn, one request per batch of rows).
Each request reads the time once (`Cluster.tick()`), so all cells of one request share one
timestamp and the next request sees a later one under the default TickingClock."""

from __future__ import annotations

import struct

from hsim.cell import NO_TTL
from hsim.client import requests as rq
from hsim.client import scan_options as so
from hsim.client.requests import b
from hsim.errors import DoNotRetryError, InvalidArgumentError

_PUT, _DEL, _DEL_COL, _DEL_FAM, _DEL_FAM_VER = 4, 8, 12, 14, 10
_LONG = struct.Struct(">q")


def _ttl(ttl_ms) -> int:
    if ttl_ms is None:
        return NO_TTL
    if ttl_ms < 0:
        raise InvalidArgumentError("TTL must be non-negative")
    return int(ttl_ms)


def _ts(timestamp) -> int | None:
    if timestamp is None:
        return None
    if not isinstance(timestamp, int) or isinstance(timestamp, bool):
        raise InvalidArgumentError(f"timestamp must be an int, not {type(timestamp).__name__}")
    if timestamp < 0:
        raise InvalidArgumentError(f"Timestamp cannot be negative. ts={timestamp}")
    return timestamp


class Table:
    def __init__(self, cluster, name: str):
        self.cluster = cluster
        self.name = name
        self._columns: dict = {}  # column spec -> (family, qualifier), parsed once
        self._tables = cluster.master.tables  # the master's table states, looked up per call

    def __repr__(self) -> str:
        return f"Table({self.name!r})"

    # --- plumbing ------------------------------------------------------------------------------
    def _state(self):
        st = self._tables.get(self.name)
        if st is None or not st.enabled:
            return self.cluster.master.enabled_table(self.name)  # raises the precise error
        return st

    def _families(self):
        return self._state().descriptor.families

    def _region(self, row: bytes):
        return self._state().locator.locate(row)

    def _apply(self, row: bytes, entries: list, now: int) -> list:
        """Send one row mutation to its region (atomic across families) at the request's time
        `now`; the region validates everything before applying anything."""
        if type(row) is not bytes:
            row = b(row)
        region = self._state().locator.locate(row)
        server = region.server  # taken first: the write may split the region
        cells = region.mutate(row, entries, now)
        if server is not None:
            server.note_write(region)
        return cells

    def _column(self, col) -> tuple[bytes, bytes]:
        fq = self._columns.get(col)
        if fq is None:
            fq = rq.split_column(col)
            if len(self._columns) < 10_000:
                self._columns[col] = fq
        return fq

    def _put_entries(self, data: dict, timestamp, ttl_ms) -> list:
        if not data:
            raise InvalidArgumentError("No columns to put")
        ts = None if timestamp is None else _ts(timestamp)
        ttl = NO_TTL if ttl_ms is None else _ttl(ttl_ms)
        column = self._column
        entries = []
        for col, value in data.items():
            fam, q = column(col)
            entries.append((fam, q, ts, _PUT, value if type(value) is bytes else b(value), ttl))
        return entries

    # --- writes --------------------------------------------------------------------------------
    def put(self, row, data: dict, timestamp: int | None = None, ttl_ms: int | None = None):
        """Put {b"f:q": value, ...} in one row; cells without timestamp get the server's now."""
        with self.cluster.lock:
            self._apply(row if type(row) is bytes else b(row),
                        self._put_entries(data, timestamp, ttl_ms), self.cluster.tick())

    def delete_row(self, row, timestamp: int | None = None) -> None:
        """new Delete(row[, ts]): a DeleteFamily marker on every family."""
        with self.cluster.lock:
            ts = _ts(timestamp)
            self._apply(b(row), [(f, b"", ts, _DEL_FAM, b"", NO_TTL) for f in self._families()],
                        self.cluster.tick())

    def delete_family(self, row, family, timestamp: int | None = None) -> None:
        with self.cluster.lock:
            self._apply(b(row), [(b(family), b"", _ts(timestamp), _DEL_FAM, b"", NO_TTL)],
                        self.cluster.tick())

    def delete_family_version(self, row, family, timestamp: int | None = None) -> None:
        """Delete.addFamilyVersion: the family's cells at exactly `timestamp` (None: the
        request's time, as LATEST_TIMESTAMP becomes the server's now)."""
        with self.cluster.lock:
            self._apply(b(row), [(b(family), b"", _ts(timestamp), _DEL_FAM_VER, b"", NO_TTL)],
                        self.cluster.tick())

    def delete_columns(self, row, column, timestamp: int | None = None) -> None:
        """Delete.addColumns: every version of the column with ts <= timestamp (now)."""
        with self.cluster.lock:
            fam, q = rq.split_column(column)
            self._apply(b(row), [(fam, q, _ts(timestamp), _DEL_COL, b"", NO_TTL)],
                        self.cluster.tick())

    def delete_column(self, row, column, timestamp: int | None = None) -> None:
        """Delete.addColumn: one version; without a timestamp the latest visible version,
        looked up at delete time (HRegion.prepareDeleteTimestamps)."""
        with self.cluster.lock:
            fam, q = rq.split_column(column)
            self._apply(b(row), [(fam, q, _ts(timestamp), _DEL, b"", NO_TTL)],
                        self.cluster.tick())

    def increment(self, row, column, amount: int = 1, ttl_ms: int | None = None) -> int:
        """Add `amount` to an 8-byte big-endian counter (missing counts as 0); returns the new
        value. The new cell's timestamp is max(now, old ts + 1) (HRegion.reckonDeltas)."""
        return self.increment_columns(row, {column: amount}, ttl_ms=ttl_ms)[b(column)]

    def increment_columns(self, row, amounts: dict, ttl_ms: int | None = None) -> dict:
        if not amounts:
            raise InvalidArgumentError("No columns to increment")
        with self.cluster.lock:
            row = b(row)
            now = self.cluster.tick()
            entries, result = [], {}
            current = self._current_cells(row, list(amounts), now)
            for col, amount in amounts.items():
                fam, q = rq.split_column(col)
                if not isinstance(amount, int):
                    raise InvalidArgumentError("increment amount must be an int")
                old = current.get((fam, q))
                if old is None:
                    value, ts = amount, now
                else:
                    if len(old.value) != 8:
                        raise DoNotRetryError(
                            f"Field is not a long, it's {len(old.value)} bytes wide")
                    value = _LONG.unpack(old.value)[0] + amount
                    ts = max(old.timestamp + 1, now)
                value = (value + (1 << 63)) % (1 << 64) - (1 << 63)  # Java long overflow
                entries.append((fam, q, ts, _PUT, _LONG.pack(value), _ttl(ttl_ms)))
                result[b(col)] = value
            self._apply(row, entries, now)
            return result

    def append(self, row, data: dict, ttl_ms: int | None = None) -> dict:
        """Append bytes to cells (a missing cell becomes the appended bytes); returns new values."""
        if not data:
            raise InvalidArgumentError("No columns to append")
        with self.cluster.lock:
            row = b(row)
            now = self.cluster.tick()
            current = self._current_cells(row, list(data), now)
            entries, result = [], {}
            for col, delta in data.items():
                fam, q = rq.split_column(col)
                old = current.get((fam, q))
                value = b(delta) if old is None else old.value + b(delta)
                ts = now if old is None else max(old.timestamp + 1, now)
                entries.append((fam, q, ts, _PUT, value, _ttl(ttl_ms)))
                result[b(col)] = value
            self._apply(row, entries, now)
            return result

    def _current_cells(self, row: bytes, columns: list, now: int) -> dict:
        cells = self._get(row, columns, 1, None, None, False, None, now=now)
        return {(c.family, c.qualifier): c for c in cells}

    def check_and_put(self, row, column, value, data: dict, timestamp: int | None = None,
                      ttl_ms: int | None = None) -> bool:
        """checkAndMutate(EQUAL): put `data` if the column's latest value equals `value`
        (None or b"": if the column is absent or empty). Returns whether the put was applied."""
        with self.cluster.lock:
            row = b(row)
            entries = self._put_entries(data, timestamp, ttl_ms)
            now = self.cluster.tick()
            if not self._check(row, column, value, now):
                return False
            self._apply(row, entries, now)
            return True

    def check_and_delete(self, row, column, value, columns=None,
                         timestamp: int | None = None) -> bool:
        """Delete `columns` (all versions; None = the whole row) if the check passes."""
        with self.cluster.lock:
            row = b(row)
            now = self.cluster.tick()
            if not self._check(row, column, value, now):
                return False
            ts = _ts(timestamp)
            if columns is None:
                entries = [(f, b"", ts, _DEL_FAM, b"", NO_TTL) for f in self._families()]
            else:
                entries = []
                for col in columns:
                    fam, q = rq.split_column(col)
                    entries.append((fam, q, ts, _DEL_COL, b"", NO_TTL))
            self._apply(row, entries, now)
            return True

    def _check(self, row: bytes, column, value, now: int) -> bool:
        fam, q = rq.split_column(column)
        cur = self._current_cells(row, [column], now).get((fam, q))
        if value is None or value == b"":
            # HRegion.checkAndMutate: a null or empty expected value matches a missing cell
            # or an empty one
            return cur is None or cur.value == b""
        return cur is not None and cur.value == b(value)

    def batch(self) -> Batch:
        return Batch(self)

    def mutate_rows(self, mutations: list) -> None:
        """Apply a list of Mutation records, as one request; each row's mutations as one atomic
        row mutation."""
        with self.cluster.lock:
            now = self.cluster.tick()
            by_row: dict[bytes, list] = {}
            for m in mutations:
                by_row.setdefault(b(m.row), []).extend(self._entries_of(m))
            for row, entries in by_row.items():
                if entries:
                    self._apply(row, entries, now)

    def _entries_of(self, m) -> list:
        if m.kind == "put":
            return self._put_entries(m.data, m.timestamp, m.ttl_ms)
        ts = _ts(m.timestamp)
        if m.kind == "delete_row":
            return [(f, b"", ts, _DEL_FAM, b"", NO_TTL) for f in self._families()]
        if m.kind == "delete_family":
            return [(b(m.column), b"", ts, _DEL_FAM, b"", NO_TTL)]
        if m.kind == "delete_family_version":
            return [(b(m.column), b"", ts, _DEL_FAM_VER, b"", NO_TTL)]
        fam, q = rq.split_column(m.column)
        code = _DEL_COL if m.kind == "delete_columns" else _DEL
        return [(fam, q, ts, code, b"", NO_TTL)]

    # --- reads ---------------------------------------------------------------------------------
    def get(self, row, columns=None, max_versions: int | None = None, time_range=None,
            timestamp: int | None = None, raw: bool = False, filter=None,
            max_results_per_family: int | None = None,
            row_offset_per_family: int | None = None) -> list:
        """The row's cells in HBase order (families, qualifiers, newest version first)."""
        so.check_per_family(max_results_per_family, row_offset_per_family)
        with self.cluster.lock:
            cells = self._get(b(row), columns, max_versions, time_range, timestamp, raw, filter,
                              now=self.cluster.tick())
        return so.per_family(cells, max_results_per_family, row_offset_per_family)

    def _get(self, row, columns, max_versions, time_range, timestamp, raw, filt, io=None,
             now=None):
        """`now`: the request's time; None for a look that is no request (explain)."""
        from hsim.regions.region import check_row

        check_row(row)
        filt = _filter(filt)
        tr = rq.time_range(time_range, timestamp)
        queries = rq.queries(self._families(), columns, max_versions, tr, raw, filt is not None)
        region = self._region(row)
        if now is None:
            now = self.cluster.clock.now()
        cells = region.get(row, queries, now, io, filt=filt, max_versions=max_versions or 1)
        if region.server is not None:
            region.server.note_read()
        return cells

    def exists(self, row, columns=None) -> bool:
        return bool(self.get(row, columns=columns))

    def scan(self, start_row=None, stop_row=None, row_prefix=None, columns=None,
             max_versions: int | None = None, time_range=None, timestamp: int | None = None,
             raw: bool = False, reversed: bool = False, limit: int | None = None, filter=None,
             caching: int = 1000, batch: int | None = None,
             max_results_per_family: int | None = None,
             row_offset_per_family: int | None = None):
        """Rows as lists of cells, region by region (descending rows when reversed). The start
        row is inclusive, the stop row exclusive; `row_prefix` sets both. `batch` returns a
        wide row as consecutive lists of at most that many cells (`limit` counts rows)."""
        start = None if start_row in (None, b"", "") else b(start_row)
        stop = None if stop_row in (None, b"", "") else b(stop_row)
        prefix = None
        if row_prefix is not None:
            if start is not None or stop is not None:
                raise InvalidArgumentError("row_prefix cannot be combined with start/stop rows")
            prefix = b(row_prefix)
            if reversed:
                start = rq.prefix_stop(prefix)
            else:
                start, stop = prefix or None, rq.prefix_stop(prefix)
        if limit is not None and limit <= 0:
            raise InvalidArgumentError("limit must be positive")
        filt = _filter(filter)
        so.check_batch(batch, filt)
        so.check_per_family(max_results_per_family, row_offset_per_family)
        tr = rq.time_range(time_range, timestamp)
        with self.cluster.lock:
            queries = rq.queries(self._families(), columns, max_versions, tr, raw,
                                 filt is not None)
            regions = self._state().locator.regions_for_scan(start, stop, reversed)
        rows = self._scan_gen(regions, start, stop, prefix, reversed, queries, filt,
                              max_versions or 1, limit, caching)
        if batch is None and max_results_per_family is None and not row_offset_per_family:
            return rows
        return (part for cells in rows
                for part in so.split_row(
                    so.per_family(cells, max_results_per_family, row_offset_per_family), batch)
                if part)

    def _scan_gen(self, regions, start, stop, prefix, reversed, queries, filt, max_versions,
                  limit, caching):
        lock = self.cluster.lock
        returned = 0
        for region in regions:
            # HBase ships a filter's arguments to each region: a fresh copy per region, which is
            # why PageFilter counts rows per region (a region that runs out before the page is
            # full leaves the next region a fresh count).
            region_filter = None if filt is None else fresh_filter(filt)
            with lock:
                # opening the region's scanner is the request that also returns its first batch
                now = self.cluster.tick()
                rows = region.scan(start, stop, queries, now, None, reversed=reversed,
                                   filt=region_filter, max_versions=max_versions)
            first = True
            while True:
                batch = []
                want = caching if limit is None else min(caching, limit - returned)
                with lock:
                    if not first:
                        self.cluster.tick()  # each further batch is one more request
                    first = False
                    for row, cells in rows:
                        if prefix is not None and not row.startswith(prefix):
                            if reversed and row > prefix:
                                continue
                            batch.append(None)
                            break
                        batch.append(cells)
                        if len(batch) >= want:
                            break
                    if region.server is not None:
                        region.server.note_read(len(batch))
                for cells in batch:
                    if cells is None:
                        return
                    yield cells
                    returned += 1
                    if limit is not None and returned >= limit:
                        return
                if len(batch) < want:
                    break
            # RSRpcServices.scan: a region whose filter is done (filterAllRemaining) answers
            # moreResults=false, and the client scanner ends the whole scan there.
            if region_filter is not None and region_filter.filter_all_remaining():
                return

    def count(self, **scan_args) -> int:
        return sum(1 for _ in self.scan(**scan_args))


class Mutation:
    """One mutation in a batch: kind is put, delete_row, delete_family, delete_family_version,
    delete_columns or delete_column."""

    __slots__ = ("column", "data", "kind", "row", "timestamp", "ttl_ms")

    def __init__(self, kind, row, data=None, column=None, timestamp=None, ttl_ms=None):
        self.kind, self.row, self.data, self.column = kind, row, data, column
        self.timestamp, self.ttl_ms = timestamp, ttl_ms


class Batch:
    """Collects mutations and applies them with `send()` (or on leaving a `with` block without
    an exception): each row's mutations atomically, as HBase's Table.batch of RowMutations."""

    def __init__(self, table: Table):
        self.table = table
        self.mutations: list[Mutation] = []

    def put(self, row, data, timestamp=None, ttl_ms=None):
        self.mutations.append(Mutation("put", row, data=data, timestamp=timestamp, ttl_ms=ttl_ms))

    def delete_row(self, row, timestamp=None):
        self.mutations.append(Mutation("delete_row", row, timestamp=timestamp))

    def delete_family(self, row, family, timestamp=None):
        self.mutations.append(Mutation("delete_family", row, column=family, timestamp=timestamp))

    def delete_columns(self, row, column, timestamp=None):
        self.mutations.append(Mutation("delete_columns", row, column=column, timestamp=timestamp))

    def delete_column(self, row, column, timestamp=None):
        self.mutations.append(Mutation("delete_column", row, column=column, timestamp=timestamp))

    def send(self) -> None:
        muts, self.mutations = self.mutations, []
        self.table.mutate_rows(muts)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.send()
        return False


def fresh_filter(f):
    from hsim.filters import fresh

    return fresh(f)


def _filter(f):
    """Accept a filter object or a filter-language string."""
    if f is None:
        return None
    if isinstance(f, (str, bytes)):
        from hsim.filters import parse_filter

        return parse_filter(f)
    return f

