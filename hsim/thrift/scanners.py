"""The Thrift-1 server's open scanners (ThriftHBaseServiceHandler.scannerMap): ids handed out
from 0 up, each mapping to a native scan that is read as the client asks for rows.

As in HBase, a scanner lives until scannerClose: the server does not know which connection
opened it, so a client that goes away without closing leaves it behind.
"""

from __future__ import annotations

import itertools
import threading

from hsim.cell import ROW
from hsim.thrift.idl import ttypes
from hsim.thrift.results import row_result


class _Scanner:
    __slots__ = ("lock", "results")

    def __init__(self, results):
        self.lock = threading.Lock()  # one reader at a time; a generator cannot be re-entered
        self.results = results


def _results(rows, sort_columns: bool):
    """Native rows (or a batched scan's partial rows) -> TRowResults."""
    for cells in rows:
        yield row_result(cells[0][ROW], cells, sort_columns)


class Scanners:
    def __init__(self):
        self._lock = threading.Lock()
        self._next_id = 0
        self._open: dict[int, _Scanner] = {}

    def __len__(self) -> int:
        return len(self._open)

    def add(self, rows, sort_columns: bool = False) -> int:
        with self._lock:
            sid = self._next_id
            self._next_id += 1
            self._open[sid] = _Scanner(_results(rows, sort_columns))
            return sid

    def _get(self, sid: int) -> _Scanner:
        scanner = self._open.get(sid)
        if scanner is None:
            raise ttypes.IllegalArgument(message="scanner ID is invalid")
        return scanner

    def next(self, sid: int, n: int) -> list:
        """ResultScanner.next(n): up to n results; an empty list once the scan is done."""
        scanner = self._get(sid)
        with scanner.lock:
            return list(itertools.islice(scanner.results, n))

    def close(self, sid: int) -> None:
        with self._lock:
            scanner = self._get(sid)
            del self._open[sid]
        scanner.results.close()
