"""Failure injection for application tests: the next N Thrift calls fail the way a real
client sees a sick cluster, so retry logic written for happybase can be tested offline.

- "ioerror": the call answers the Thrift IOError HBase's handler sends for an IOException
  (here java.io.IOException naming the injected fault);
- "disconnect": the connection drops mid-call (the client reads end of file: thriftpy2's
  TTransportException, as when a Thrift server dies or a proxy resets the socket).

An injected failure happens before the call runs, so it changes nothing in the cluster.
"""

from __future__ import annotations

import threading

from thriftpy2.transport import TTransportException

from hsim.errors import InvalidArgumentError

KINDS = ("ioerror", "disconnect")


class DroppedConnection(TTransportException):
    """The server hangs up on this call (over a socket: the connection is closed)."""


class Faults:
    def __init__(self):
        self._lock = threading.Lock()
        self._queue: list[str] = []
        self.injected = 0

    def fail_next(self, n: int = 1, kind: str = "ioerror") -> None:
        """Make the next `n` calls fail with `kind` (added after failures already queued)."""
        if kind not in KINDS:
            raise InvalidArgumentError(f"fault kind must be ioerror or disconnect, not {kind!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InvalidArgumentError(f"number of calls to fail must be >= 0, not {n!r}")
        with self._lock:
            self._queue.extend([kind] * n)

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()

    @property
    def pending(self) -> int:
        return len(self._queue)

    def check(self, api: str) -> None:
        """Called at the start of every call: raise the next queued failure, if any."""
        if not self._queue:
            return
        with self._lock:
            if not self._queue:
                return
            kind = self._queue.pop(0)
            self.injected += 1
        if kind == "disconnect":
            raise DroppedConnection(TTransportException.END_OF_FILE,
                                    f"TSocket read 0 bytes (hsim injected a dropped connection "
                                    f"in {api})")
        from hsim.thrift.idl import ttypes

        raise ttypes.IOError(message=f"java.io.IOException: hsim injected a failure in {api}")
