"""Clocks. Every cluster reads time only through its clock, so runs are deterministic and tests
control TTL expiry, periodic major compactions and timestamps.

A clock answers two questions: `now()` (what time is it; reading it moves nothing) and `tick()`
(a client request starts: move as this clock moves per request and return the request's time,
which every cell of the request then shares). The cluster calls `tick()` once per request, the
way HBase's region server reads EnvironmentEdgeManager.currentTime() once per RPC.

- TickingClock (the default): from 2026-01-01T00:00:00Z, +step_ms per request; behaves as on a
  cluster, with identical timestamps in every process.
- ManualClock: stands still, "all requests within one millisecond" (a delete masks the later
  puts of its millisecond).
- SystemClock: wall time, never repeating a millisecond (`hsim serve`, real-time clients).

None goes backwards: `advance(negative)` and `set(earlier)` raise InvalidArgumentError, unless
`set(t, backwards=True)` asks for it on purpose. After a backwards set, new cells get older
timestamps than cells already written, so HBase's rules hide them behind newer versions and
delete markers, exactly as on a cluster whose clock was set back.
"""

import time

from hsim.errors import InvalidArgumentError

#: 2026-01-01T00:00:00Z, where a TickingClock starts unless told otherwise.
DEFAULT_START_MS = 1_767_225_600_000
#: Java's Long.MAX_VALUE: no HBase time (EnvironmentEdge.currentTime(), a cell's timestamp)
#: can be later.
LONG_MAX = (1 << 63) - 1


def _ms(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{what} must be an int of milliseconds, "
                                   f"not {type(value).__name__}")
    return value


def _time(value, what: str) -> int:
    """A time in ms: an int in 0 .. Long.MAX_VALUE."""
    value = _ms(value, what)
    if value < 0:
        raise InvalidArgumentError(f"time cannot be negative: {what} {value}")
    if value > LONG_MAX:
        raise InvalidArgumentError(f"{what} {value} is past Long.MAX_VALUE ({LONG_MAX}): "
                                   "a time must fit a Java long")
    return value


class _SettableClock:
    """What every clock shares: moving forward on request, never backwards by accident."""

    __slots__ = ("_now",)

    def now(self) -> int:
        return self._now

    def advance(self, delta_ms: int) -> int:
        """Move time on by delta_ms (>= 0); returns the new now."""
        delta_ms = _ms(delta_ms, "advance")
        if delta_ms < 0:
            raise InvalidArgumentError(
                f"the clock does not go backwards (advance({delta_ms})); "
                "use set(t, backwards=True) to do it on purpose")
        self._moved_to(_time(self._now + delta_ms, f"advance({delta_ms}) to"))
        return self._now

    def set(self, now_ms: int, backwards: bool = False) -> int:
        """Set the time; an earlier time only with backwards=True. Returns the new now."""
        now_ms = _time(now_ms, "set")
        if now_ms < self._now and not backwards:
            raise InvalidArgumentError(
                f"the clock does not go backwards ({self._now} -> {now_ms}); "
                "pass backwards=True to do it on purpose")
        self._moved_to(now_ms)
        return self._now

    def _moved_to(self, now_ms: int) -> None:
        self._now = now_ms


class ManualClock(_SettableClock):
    """Time stands still until told to move: every request lands in the same millisecond.

    That is HBase's rule for requests within one millisecond: a delete without a timestamp
    masks every later put of the same millisecond, consecutive puts of one column overwrite
    each other instead of making versions. Use it to pin timestamps; use TickingClock to
    behave like a cluster."""

    __slots__ = ()

    def __init__(self, now_ms: int = 0):
        self._now = _time(now_ms, "ManualClock start")

    def tick(self) -> int:
        """The time a request reads: the set time (the clock moves only when told)."""
        return self._now

    def __repr__(self) -> str:
        return f"ManualClock({self._now})"


class TickingClock(_SettableClock):
    """Deterministic time as HBase's own tests get it with IncrementingEnvironmentEdge: a fixed,
    realistic start, and `step_ms` more for every client request. The first request gets
    `start_ms`; after `advance(d)` or `set(t)` the next request gets exactly the new time."""

    __slots__ = ("step_ms", "_used")

    def __init__(self, start_ms: int = DEFAULT_START_MS, step_ms: int = 1):
        self._now = _time(start_ms, "TickingClock start")
        self.step_ms = _ms(step_ms, "step_ms")
        if self.step_ms < 0:
            raise InvalidArgumentError("TickingClock start_ms and step_ms must be >= 0")
        _time(self.step_ms, "step_ms")
        self._used = False  # whether a request already got self._now

    def tick(self) -> int:
        """The time a request reads: each request after the first moves the clock by step_ms."""
        if self._used:
            if self._now + self.step_ms > LONG_MAX:
                raise InvalidArgumentError(f"the clock would pass Long.MAX_VALUE ({LONG_MAX})")
            self._now += self.step_ms
        self._used = True
        return self._now

    def _moved_to(self, now_ms: int) -> None:
        if now_ms != self._now:
            self._now = now_ms
            self._used = False

    def __repr__(self) -> str:
        return f"TickingClock({self._now}, step_ms={self.step_ms})"


class SystemClock(_SettableClock):
    """Wall-clock time in milliseconds (HBase's EnvironmentEdgeManager), except that no two
    requests share a millisecond: a request gets max(wall clock, previous request + 1), as
    a real cluster's network latency would give fast clients. `advance`/`set` shift it by an
    offset from the wall clock."""

    __slots__ = ("_offset", "_last")

    def __init__(self):
        self._offset = 0
        self._last = -1

    def now(self) -> int:
        """Wall time in ms (plus any advance), never behind a time already handed out."""
        return max(time.time_ns() // 1_000_000 + self._offset, self._last)

    @property
    def _now(self) -> int:  # what _SettableClock compares against
        return self.now()

    def tick(self) -> int:
        """The time a request reads: wall time, never the same ms twice."""
        t = max(time.time_ns() // 1_000_000 + self._offset, self._last + 1)
        if t > LONG_MAX:
            raise InvalidArgumentError(f"the clock would pass Long.MAX_VALUE ({LONG_MAX})")
        self._last = t
        return t

    def _moved_to(self, now_ms: int) -> None:
        wall = time.time_ns() // 1_000_000
        self._offset = now_ms - wall
        if now_ms < self._last:  # a deliberate move back
            self._last = now_ms - 1

    def __repr__(self) -> str:
        return "SystemClock()"


#: what `--clock NAME` means on `hsim serve` and `hsim shell`
CLOCKS = {"tick": TickingClock, "system": SystemClock, "manual": ManualClock}
