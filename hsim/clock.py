"""Clocks. Every cluster reads time only through its clock, so a ManualClock makes TTL expiry,
periodic major compactions and timestamps deterministic."""

import time


class ManualClock:
    """A clock that moves only when told to (milliseconds since the epoch)."""

    __slots__ = ("_now",)

    def __init__(self, now_ms: int = 0):
        self._now = int(now_ms)

    def now(self) -> int:
        return self._now

    def set(self, now_ms: int) -> None:
        self._now = int(now_ms)

    def advance(self, delta_ms: int) -> int:
        self._now += int(delta_ms)
        return self._now

    def __repr__(self) -> str:
        return f"ManualClock({self._now})"


class SystemClock:
    """Wall-clock time in milliseconds, as HBase's EnvironmentEdgeManager gives it."""

    def now(self) -> int:
        return time.time_ns() // 1_000_000

    def __repr__(self) -> str:
        return "SystemClock()"
