"""The Thrift-1 server's open scanners (ThriftHBaseServiceHandler.scannerMap): ids handed out
from 0 up, each mapping to a native scan that is read as the client asks for rows.

The server does not know which connection opened a scanner, so a client that goes away
without closing leaves it behind; as HBase's scanner leases do, a scanner idle for longer than
hbase.client.scanner.timeout.period (Config.scanner_timeout_ms, 60 s) is expired and its id
becomes invalid. Idleness is measured on a monotonic server clock, not the cluster's clock: a
lease is the server process's resource, and a cluster on a ManualClock would otherwise never
expire one.
"""

from __future__ import annotations

import itertools
import threading
import time

from hsim.cell import ROW
from hsim.thrift.idl import ttypes
from hsim.thrift.results import row_result


class _Scanner:
    __slots__ = ("last_used", "lock", "results")

    def __init__(self, results, now: float):
        self.lock = threading.Lock()  # one reader at a time; a generator cannot be re-entered
        self.results = results
        self.last_used = now


def _results(rows, sort_columns: bool):
    """Native rows (or a batched scan's partial rows) -> TRowResults."""
    for cells in rows:
        yield row_result(cells[0][ROW], cells, sort_columns)


class Scanners:
    def __init__(self, timeout_ms: int = 60_000, monotonic=time.monotonic):
        self._lock = threading.Lock()
        self._next_id = 0
        self._open: dict[int, _Scanner] = {}
        self.timeout_s = timeout_ms / 1000
        self._monotonic = monotonic
        self.expired = 0

    def __len__(self) -> int:
        return len(self._open)

    def add(self, rows, sort_columns: bool = False) -> int:
        with self._lock:
            now = self._expire()
            sid = self._next_id
            self._next_id += 1
            self._open[sid] = _Scanner(_results(rows, sort_columns), now)
            return sid

    def _expire(self) -> float:
        """Drop the scanners whose lease ran out (the caller holds the lock); returns now."""
        now = self._monotonic()
        for sid in [s for s, sc in self._open.items() if now - sc.last_used > self.timeout_s]:
            del self._open[sid]  # not closed here: a reader may hold it; GC closes it
            self.expired += 1
        return now

    def _get(self, sid: int) -> _Scanner:
        with self._lock:
            now = self._expire()
            scanner = self._open.get(sid)
            if scanner is not None:
                scanner.last_used = now
        if scanner is None:
            raise ttypes.IllegalArgument(message="scanner ID is invalid")
        return scanner

    def next(self, sid: int, n: int) -> list:
        """ResultScanner.next(n): up to n results; an empty list once the scan is done."""
        scanner = self._get(sid)
        with scanner.lock:
            return list(itertools.islice(scanner.results, n))

    def close(self, sid: int) -> None:
        scanner = self._get(sid)
        with self._lock:
            self._open.pop(sid, None)
        scanner.results.close()
