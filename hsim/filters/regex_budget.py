"""How long one request may spend matching regular expressions (RegexStringComparator).

A backtracking pattern such as `^(a+)+$` takes time doubling with each character of the value
it fails on. On HBase such a filter ties up one RPC handler thread; in hsim every request runs
under the cluster's lock, so it would stall every client. The matching therefore runs with a
time budget per request (`Config.regex_budget_ms`, 500 ms; 0: none): the region server's Get
and each Scan RPC open a budget (and a Thrift call or shell statement one around all of its
RPCs: the outermost scope owns the budget), each match gets what is left as the `regex`
library's timeout, and a request that runs out raises TimeoutIOError and returns nothing.
A match outside any request (a comparator used directly) gets the whole default budget.

The matching itself runs in the `regex` library, which releases the GIL while it matches, so
even a match within its budget does not stop the server's other threads from reading and
parsing their requests. A budget is wall-clock time, so whether a pathological pattern trips
it can depend on the machine; a pattern that finishes within it gives the same result anywhere.
"""

from __future__ import annotations

import math
import threading
import time

from hsim.errors import TimeoutIOError

DEFAULT_BUDGET_MS = 500
_local = threading.local()  # .left: seconds left in the current request (None: no request)


class scope:
    """`with scope(budget_ms):` one request's regex budget; inside an enclosing scope it
    changes nothing (the outer request's budget goes on)."""

    __slots__ = ("seconds", "owner")

    def __init__(self, budget_ms: int):
        self.seconds = budget_ms / 1000 if budget_ms else math.inf

    def __enter__(self):
        self.owner = getattr(_local, "left", None) is None
        if self.owner:
            _local.left = self.seconds
        return self

    def __exit__(self, *exc):
        if self.owner:
            _local.left = None
        return False


def search(search, text: str):
    """`search(text)` (a compiled `regex` pattern's bound search) within the budget left."""
    left = getattr(_local, "left", None)
    scoped = left is not None
    if not scoped:
        left = DEFAULT_BUDGET_MS / 1000
    if left == math.inf:
        return search(text)
    if left <= 0:
        raise _spent()
    start = time.monotonic()
    try:
        found = search(text, timeout=left)
    except TimeoutError:
        if scoped:
            _local.left = 0.0  # every later match of this request fails at once
        raise _spent() from None
    if scoped:
        _local.left = left - (time.monotonic() - start)
    return found


def _spent() -> TimeoutIOError:
    return TimeoutIOError(
        "Regular expression matching ran past this request's budget "
        "(Config.regex_budget_ms); the pattern backtracks too much for these values")
