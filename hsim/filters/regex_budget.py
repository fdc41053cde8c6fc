"""How long one request may spend matching regular expressions (RegexStringComparator).

A backtracking pattern such as `^(a|a)+$` takes time doubling with each character of the value
it fails on. On HBase such a filter ties up one RPC handler thread; in hsim every request runs
under the cluster's lock, so it would stall every client. The matching therefore runs within
a budget per request (`Config.regex_budget_ms`, 1 s; 0: none): one match may take at most a
tenth of it, all the matches of a request at most all of it. The region server's Get and each
Scan RPC open a budget, and a Thrift call or shell statement one around all of its RPCs (the
outermost scope owns it). Each match gets what is left as the `regex` library's timeout; a
request that runs out raises TimeoutIOError and returns nothing. So a runaway pattern holds the
lock about a tenth of the budget, while a legitimate scan may run hundreds of thousands of
quick matches. A match outside any request (a comparator used directly) gets the default.

A request is charged the CPU time of its own thread; the `regex` library's timeout reads the
process's CPU time, so a match may trip early while other threads are busy (on a loaded machine
a match runs longer than its share by the wall clock). The library releases the GIL while it
matches, so the server's other threads keep reading and parsing their requests. Whether a
pathological pattern trips the budget can depend on the machine; a pattern that finishes
within it gives the same result anywhere.
"""

from __future__ import annotations

import math
import threading
import time

from hsim.errors import TimeoutIOError

DEFAULT_BUDGET_MS = 1000
_SHARE_PER_MATCH = 10  # one match may take 1/10 of the budget
_local = threading.local()  # .left: CPU seconds left in the current request (None: no request)


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
            _local.per_match = self.seconds / _SHARE_PER_MATCH
        return self

    def __exit__(self, *exc):
        if self.owner:
            _local.left = None
        return False


def search(search, text: str):
    """`search(text)` (a compiled `regex` pattern's bound search) within the budget left."""
    left = getattr(_local, "left", None)
    scoped = left is not None
    if scoped:
        per_match = _local.per_match
    else:
        left = DEFAULT_BUDGET_MS / 1000
        per_match = left / _SHARE_PER_MATCH
    if left == math.inf:
        return search(text)
    if left <= 0:
        raise _spent()
    start = time.thread_time()  # the CPU this thread spends matching
    try:
        found = search(text, timeout=min(left, per_match))
    except TimeoutError:
        if scoped:
            _local.left = 0.0  # every later match of this request fails at once
        raise _spent() from None
    if scoped:
        _local.left = left - (time.thread_time() - start)
    return found


def _spent() -> TimeoutIOError:
    return TimeoutIOError(
        "Regular expression matching ran past this request's budget "
        "(Config.regex_budget_ms: a tenth of it per match, all of it per request); the "
        "pattern backtracks too much for these values")
