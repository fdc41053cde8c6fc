"""Failure injection for application tests: the next N gateway calls fail the way a real
client sees a sick cluster, so retry logic can be tested offline.

- "ioerror": the call answers the error the gateway sends for an IOException (Thrift: IOError
  or TIOError naming the injected fault; REST: 500 Internal Server Error);
- "disconnect": the connection drops mid-call (the client reads end of file, as when a gateway
  dies or a proxy resets the socket).

An injected failure happens before the call runs, so it changes nothing in the cluster. Each
protocol turns the `InjectedFault` that `check` raises into its own answer.
"""

from __future__ import annotations

import threading

from hsim.errors import HsimError, InvalidArgumentError

KINDS = ("ioerror", "disconnect")


class InjectedFault(HsimError):
    """The failure `check` raises: `kind` is "ioerror" or "disconnect"."""

    def __init__(self, kind: str, api: str):
        super().__init__(f"hsim injected a failure in {api}")
        self.kind, self.api = kind, api


class Faults:
    """A gateway's queue of failures to inject: `fail_next` adds them, each call's `check` takes
    the next; shared by the server's handler threads, hence the lock."""
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
        raise InjectedFault(kind, api)
