"""A gateway's open scanners (the Thrift servers' scannerMap, the REST server's scanner
resources): ids handed out from 0 up, each mapping to a native scan that is read as the client
asks for rows, converted to the protocol's results by the function given to `add`.

The server does not know which connection opened a scanner, so a client that goes away
without closing leaves it behind; as HBase's scanner leases do, a scanner idle for longer than
hbase.client.scanner.timeout.period (Config.scanner_timeout_ms, 60 s) is expired and its id
becomes invalid. Idleness is measured on a monotonic server clock, not the cluster's clock: a
lease is the server process's resource, and a cluster on a ManualClock would otherwise never
expire one.

Open scanners are capped, per server (`max_open`) and per client connection (`per_connection`):
HBase's Thrift-1 handler keeps every scanner until it is closed or its lease runs out, so a
client opening scanners without closing them grows the server without bound. Past a cap,
opening answers TooManyScannersError (DoNotRetryIOException) before anything is read; a
connection's scanners are closed when it goes away. An unknown or expired id is
UnknownScannerError, which each protocol turns into its own answer. See docs/limits.md.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time

from hsim.errors import TooManyScannersError, UnknownScannerError


MAX_SCANNERS = 1000  # open scanners per server (hsim serve --max-scanners)
MAX_SCANNERS_PER_CONNECTION = 100  # per client connection (--max-scanners-per-connection)


class _Scanner:
    """One open scanner: its native rows, their protocol conversion, its lease's last use and the
    connection that owns it; its lock keeps one reader at a time."""

    __slots__ = ("last_used", "lock", "rows", "results", "owner")

    def __init__(self, rows, results, now: float, owner):
        self.lock = threading.Lock()  # one reader at a time; a generator cannot be re-entered
        self.rows, self.results = rows, results
        self.last_used = now
        self.owner = owner  # the connection that opened it (None: no connection, in-process)

    def close(self) -> None:
        for it in (self.results, self.rows):
            close = getattr(it, "close", None)
            if close is not None:
                close()


class Scanners:
    """The open scanners of one gateway server by id, with their leases and the per-server and per-
    connection caps."""
    def __init__(self, timeout_ms: int = 60_000, max_open: int = MAX_SCANNERS,
                 per_connection: int = MAX_SCANNERS_PER_CONNECTION, monotonic=time.monotonic):
        self._lock = threading.Lock()
        self._next_id = 0
        self._open: dict[int, _Scanner] = {}
        self.timeout_s = timeout_ms / 1000
        self.max_open, self.per_connection = max_open, per_connection
        self._monotonic = monotonic
        self.expired = 0
        self.refused = 0
        self._owners: dict[object, int] = {}  # open scanners per connection
        self._connection = threading.local()  # the connection the current thread serves
        self._connections = itertools.count()

    def __len__(self) -> int:
        return len(self._open)

    @contextlib.contextmanager
    def connection(self):
        """The calls of one client connection, in the thread serving it; on leaving, the
        scanners it left open are closed."""
        me = self._connection.id = next(self._connections)
        try:
            yield
        finally:
            self._connection.id = None
            with self._lock:
                mine = [sid for sid, sc in self._open.items() if sc.owner == me]
                gone = [self._drop(sid) for sid in mine]
            for scanner in gone:
                with scanner.lock:
                    scanner.close()

    def check_room(self) -> None:
        """TooManyScannersError when a scanner opened now would pass a cap."""
        with self._lock:
            self._check_room(getattr(self._connection, "id", None))

    def _check_room(self, owner) -> None:
        self._expire()
        if len(self._open) >= self.max_open:
            self.refused += 1
            raise TooManyScannersError(
                f"Too many open scanners on this server: {len(self._open)} (max "
                f"{self.max_open}); close scanners or wait for idle ones to expire")
        if owner is not None and self._owners.get(owner, 0) >= self.per_connection:
            self.refused += 1
            raise TooManyScannersError(
                f"Too many open scanners on this connection: {self._owners[owner]} (max "
                f"{self.per_connection}); close scanners or wait for idle ones to expire")

    def add(self, rows, convert=None) -> int:
        """Register the native scan `rows` (a lazy scan); what next() returns is
        `convert(rows)`'s items (the rows themselves without `convert`)."""
        owner = getattr(self._connection, "id", None)
        with self._lock:
            try:
                self._check_room(owner)
            except TooManyScannersError:
                close = getattr(rows, "close", None)
                if close is not None:
                    close()
                raise
            sid = self._next_id
            self._next_id += 1
            results = convert(rows) if convert is not None else iter(rows)
            self._open[sid] = _Scanner(rows, results, self._monotonic(), owner)
            if owner is not None:
                self._owners[owner] = self._owners.get(owner, 0) + 1
            return sid

    def _drop(self, sid: int) -> _Scanner:
        """Forget scanner `sid` (the caller holds the lock); returns it."""
        scanner = self._open.pop(sid)
        if scanner.owner is not None:
            left = self._owners[scanner.owner] - 1
            if left:
                self._owners[scanner.owner] = left
            else:
                del self._owners[scanner.owner]
        return scanner

    def _expire(self) -> float:
        """Drop the scanners whose lease ran out (the caller holds the lock); returns now."""
        now = self._monotonic()
        for sid in [s for s, sc in self._open.items() if now - sc.last_used > self.timeout_s]:
            self._drop(sid)  # not closed here: a reader may hold it; GC closes it
            self.expired += 1
        return now

    def _get(self, sid: int) -> _Scanner:
        with self._lock:
            now = self._expire()
            scanner = self._open.get(sid)
            if scanner is not None:
                scanner.last_used = now
        if scanner is None:
            raise UnknownScannerError("scanner ID is invalid")
        return scanner

    def __contains__(self, sid: int) -> bool:
        with self._lock:
            self._expire()
            return sid in self._open

    def next(self, sid: int, n: int) -> list:
        """ResultScanner.next(n): up to n results; an empty list once the scan is done."""
        with self.use(sid) as results:
            return list(itertools.islice(results, n))

    @contextlib.contextmanager
    def use(self, sid: int):
        """`with scanners.use(sid) as results:` the scanner's results, read by this thread
        alone, its lease renewed (a protocol that reads them its own way: REST's cells)."""
        scanner = self._get(sid)
        with scanner.lock:
            yield scanner.results

    def close(self, sid: int) -> None:
        scanner = self._get(sid)
        with self._lock:
            if sid in self._open:
                self._drop(sid)
        with scanner.lock:
            scanner.close()
