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

Asking for a timeout costs the `regex` library a few microseconds a match, several times a
plain `re` match, so a pattern that cannot backtrack badly (at most one repetition, no
alternation or back-reference under it) runs on `re` without a budget over values up to
SAFE_TEXT characters: there its worst case is quadratic in a short value (BENCHMARKS.md,
"Hostile requests").

A request is charged the wall time of its matches; the `regex` library's timeout reads the
process's CPU time, so a match may trip early while other threads are busy, and on a loaded
machine it runs longer than its share by the wall clock. The library releases the GIL while it
matches, so the server's other threads keep reading and parsing their requests. Whether a
pathological pattern trips the budget can depend on the machine; a pattern that finishes
within it gives the same result anywhere.
"""

from __future__ import annotations

import math
import re
import threading
import time

import regex

from hsim.errors import TimeoutIOError

try:  # the parser of Python's re: Python 3.11+ names it re._parser, 3.10 sre_parse
    from re import _parser as _sre
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _sre

DEFAULT_BUDGET_MS = 1000
_SHARE_PER_MATCH = 10  # one match may take 1/10 of the budget
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
            _local.per_match = self.seconds / _SHARE_PER_MATCH
        return self

    def __exit__(self, *exc):
        if self.owner:
            _local.left = None
        return False


def search(search, text: str):
    """`search(text)` (a compiled `regex` pattern's bound search) within the budget left."""
    left = getattr(_local, "left", None)
    if left is None:  # no request: the default share for this one match
        try:
            return search(text, timeout=DEFAULT_BUDGET_MS / 1000 / _SHARE_PER_MATCH)
        except TimeoutError:
            raise _spent() from None
    if left == math.inf:
        return search(text)
    if left <= 0:
        raise _spent()
    start = time.monotonic()
    try:
        found = search(text, timeout=min(left, _local.per_match))
    except TimeoutError:
        _local.left = 0.0  # every later match of this request fails at once
        raise _spent() from None
    _local.left = left - (time.monotonic() - start)
    return found


def left() -> float | None:
    """Seconds left in the current request's budget (None outside a request)."""
    return getattr(_local, "left", None)


def _spent() -> TimeoutIOError:
    return TimeoutIOError(
        "Regular expression matching ran past this request's budget "
        "(Config.regex_budget_ms: a tenth of it per match, all of it per request); the "
        "pattern backtracks too much for these values")


SAFE_TEXT = 1024  # the longest value a pattern that cannot backtrack badly runs on plain re
_REPEATS = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}
_BACKREFS = {"GROUPREF", "GROUPREF_EXISTS", "GROUPREF_IGNORE", "GROUPREF_LOC_IGNORE",
             "GROUPREF_UNI_IGNORE"}
_RE_TO_REGEX = ((re.IGNORECASE, regex.IGNORECASE), (re.LOCALE, regex.LOCALE),
                (re.MULTILINE, regex.MULTILINE), (re.DOTALL, regex.DOTALL),
                (re.UNICODE, regex.UNICODE), (re.VERBOSE, regex.VERBOSE),
                (re.ASCII, regex.ASCII))


class Matcher:
    """`Matcher(pattern, flags, sets=False)(text)`: Python `re` syntax and flags, searched
    within the request's budget (`regex.error` for a bad pattern). `sets`: the pattern uses
    set operations (nested classes, `&&`), which `regex` reads in its VERSION1 mode only;
    a pattern `re` cannot read (`\\p{L}`) is also left to `regex`, always with a budget."""

    __slots__ = ("pattern", "flags", "sets", "_re", "_regex", "_safe")

    def __init__(self, pattern: str, flags: int, sets: bool = False):
        self.pattern, self.flags, self.sets = pattern, flags, sets
        self._re = None
        if not sets:
            try:
                self._re = re.compile(pattern, flags)
            except re.error:
                pass  # what only `regex` reads; its own compile below says if it is bad
        self._regex = regex.compile(pattern, _regex_flags(flags, sets)).search
        self._safe = self._re is not None and not _may_backtrack(pattern, flags)

    def __call__(self, text: str):
        if self._safe and len(text) <= SAFE_TEXT:
            return self._re.search(text)
        return search(self._regex, text)

    def __reduce__(self):
        return Matcher, (self.pattern, self.flags, self.sets)

    def __deepcopy__(self, memo):
        return self  # immutable


def _regex_flags(flags: int, version1: bool = False) -> int:
    """`re` flag bits as the `regex` library's (its ASCII bit differs; V0: re's syntax, V1:
    set operations in classes)."""
    out = regex.VERSION1 if version1 else regex.VERSION0
    for re_flag, regex_flag in _RE_TO_REGEX:
        if flags & re_flag:
            out |= regex_flag
    return out


def _may_backtrack(pattern: str, flags: int) -> bool:
    """Whether matching may take more than quadratic time: two or more repetitions, an
    alternation or back-reference under a repetition, or a back-reference anywhere."""
    try:
        tree = _sre.parse(pattern, flags)
    except Exception:  # what re's own parser cannot read is matched with a budget
        return True
    repeats = 0

    def walk(items, under_repeat: bool) -> bool:
        nonlocal repeats
        for op, av in items:
            name = str(op)
            if name in _BACKREFS:
                return True
            if name == "BRANCH" and under_repeat:
                return True
            if name in _REPEATS:
                _lo, hi, body = av
                if hi > 1:
                    repeats += 1
                    if repeats > 1 or walk(body, True):
                        return True
                elif walk(body, under_repeat):
                    return True
                continue
            for sub in _children(name, av):
                if walk(sub, under_repeat):
                    return True
        return False

    return walk(tree, False)


def _children(name: str, av) -> list:
    """The sub-patterns inside one parsed item."""
    if name == "SUBPATTERN":
        return [av[-1]]
    if name == "BRANCH":
        return list(av[1])
    if name in ("ASSERT", "ASSERT_NOT"):
        return [av[1]]
    if name == "ATOMIC_GROUP":
        return [av]
    return []
