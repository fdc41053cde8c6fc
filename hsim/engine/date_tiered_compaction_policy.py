"""Date-tiered compaction (HBASE-15181): store files arranged in time windows that grow with age,
so a time-range read touches few files and old data is rarely rewritten. HBase 2's answer for
time series, as pure functions of a list of store-file records.

HBase's classes (regionserver/compactions): DateTieredCompactionPolicy (which windows to compact,
minor and major, and where the compactor cuts its output), ExponentialCompactionWindowFactory
(the windows: `base` ms wide, `windows_per_tier` of them per tier, each tier `windows_per_tier`
times wider than the last) and CompactionConfiguration's date-tiered settings, which hsim.Config
names as the snake_case of their key tails (`date_tiered_base_window_ms`, ...).

A record needs what RatioBasedCompactionPolicy reads, plus `.min_timestamp` and `.max_timestamp`
(None for a file with no cells: TimeRangeTracker's absent range). Arithmetic is Java's: longs
divide towards zero, and overflow saturates where HBase uses LongMath.checked*.
"""

from __future__ import annotations

import bisect

from hsim.config import LONG_MAX, Config
from hsim.engine.compaction_policy import (
    FOREVER,
    CompactionSelection,
    ExploringCompactionPolicy,
    RatioBasedCompactionPolicy,
)
from hsim.errors import InvalidArgumentError

LONG_MIN = -(1 << 63)


def _div(a: int, b: int) -> int:
    """Java's long division: truncated towards zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _wrap(x: int) -> int:
    """A long result as Java computes it without a check: wrapped to 64 bits."""
    return (x - LONG_MIN) % (1 << 64) + LONG_MIN


def _checked(x: int, overflow: int) -> int:
    """LongMath.checked*: the exact result, or HBase's fallback when it does not fit a long."""
    return x if LONG_MIN <= x <= LONG_MAX else overflow


class CompactionWindow:
    """ExponentialCompactionWindowFactory.Window: timestamps t with t / size == div (Java's
    division, negative timestamps first moved down a window less one ms)."""

    __slots__ = ("size", "div", "cutoff", "per_tier")

    def __init__(self, size: int, div: int, cutoff: int, per_tier: int):
        self.size, self.div, self.cutoff, self.per_tier = size, div, cutoff, per_tier

    def compare_to_timestamp(self, ts: int) -> int:
        """0 if `ts` is in the window, 1 if the window is later (ts older), -1 if earlier."""
        if ts < 0:
            ts = _checked(ts - (self.size - 1), LONG_MIN)
        pos = _div(ts, self.size)
        return 0 if self.div == pos else (-1 if self.div < pos else 1)

    def next_earlier_window(self) -> "CompactionWindow":
        """The window before this one: the same width until a tier is full and the next
        window would still start after the max tier age, then windows_per_tier times wider."""
        per = self.per_tier
        java_mod = self.div - per * _div(self.div, per)
        if java_mod > 0 or _wrap(self.start_millis() - _wrap(self.size * per)) < self.cutoff:
            return CompactionWindow(self.size, self.div - 1, self.cutoff, per)
        return CompactionWindow(self.size * per, _div(self.div, per) - 1, self.cutoff, per)

    def start_millis(self) -> int:
        return _checked(self.size * self.div, LONG_MIN)

    def end_millis(self) -> int:
        return _checked(self.size * (self.div + 1), LONG_MAX)

    def __repr__(self) -> str:
        return f"CompactionWindow[{self.start_millis()}, {self.end_millis()})"


class ExponentialCompactionWindowFactory:
    """The windows of a store at time `now`: the incoming window holds `now`."""

    def __init__(self, config: Config):
        self.base = config.date_tiered_base_window_ms
        self.per_tier = config.date_tiered_windows_per_tier
        if self.base < 1 or self.per_tier < 1:
            raise InvalidArgumentError("date_tiered_base_window_ms and "
                                       "date_tiered_windows_per_tier must be at least 1")
        max_tier_age = config.date_tiered_max_tier_age_ms
        self.max_tier_age = (config.date_tiered_max_storefile_age_ms if max_tier_age is None
                             else max_tier_age)

    def new_incoming_window(self, now: int) -> CompactionWindow:
        cutoff = _checked(now - self.max_tier_age, LONG_MIN)
        return CompactionWindow(self.base, _div(now, self.base), cutoff, self.per_tier)


class DateTieredCompactionPolicy(RatioBasedCompactionPolicy):
    """DateTieredCompactionPolicy on a Config: SortedCompactionPolicy's pipeline (the base
    class's `select`) with date-tiered minor and major requests. `select(...)` needs `now`.

    Minor: from the newest file back, files are grouped by the window of their max timestamp
    (a file older than one after it counts as that one's, so out-of-order data stays with its
    sequence-id neighbours); the first window holding enough files (the incoming window
    `date_tiered_incoming_window_min`, older ones `compaction_min_files`) is compacted by the
    in-window policy (`date_tiered_window_policy`), windows older than
    `date_tiered_max_storefile_age_ms` never. Major: every file, cut at every window start
    since the oldest cell (`boundaries`), one output file per window."""

    def __init__(self, config: Config | None = None):
        super().__init__(config)
        c = self.config
        window_policy = (ExploringCompactionPolicy if c.date_tiered_window_policy == "exploring"
                         else RatioBasedCompactionPolicy)
        self.window_policy = window_policy(c)
        self.windows = ExponentialCompactionWindowFactory(c)
        self.max_age = c.date_tiered_max_storefile_age_ms
        self.incoming_window_min = c.date_tiered_incoming_window_min
        self.single_output = c.date_tiered_single_output_for_minor_compaction

    # -- the pipeline's hooks ------------------------------------------------------------------

    def create_compaction_request(self, candidates: list, trying_major: bool, off_peak: bool,
                                  may_be_stuck: bool, now: int | None) -> tuple[list, tuple]:
        now = _need_now(now)
        if trying_major:
            return list(candidates), self.major_boundaries(candidates, now)
        sel = self.select_minor_compaction(candidates, off_peak, may_be_stuck, now)
        return list(sel.files), sel.boundaries

    def needs_compaction(self, files, files_compacting=(), now: int | None = None,
                         ttl_ms: int | None = None, min_versions: int = 0) -> bool:
        """A minor selection that may treat the store as stuck finds something."""
        return bool(self.select_minor_compaction(list(files), False, True, _need_now(now)))

    def should_perform_major_compaction(self, files, now: int | None, ttl_ms: int | None = None,
                                        min_versions: int = 0) -> bool:
        """DateTieredCompactionPolicy.shouldPerformMajorCompaction: past the major period, a
        major compaction is due when a file holds cells past the TTL, is not a major
        compaction's output, spans two windows, or shares its window with another file."""
        files = list(files)
        if not self.past_major_period(files, now):
            return False
        ttl = ttl_ms if ttl_ms is not None and min_versions == 0 else FOREVER
        boundaries = self.major_boundaries(files, now)
        in_window = [False] * len(boundaries)
        for f in files:
            oldest = LONG_MIN if f.min_timestamp is None else now - f.min_timestamp
            if ttl != FOREVER and oldest >= ttl:
                return True
            if not getattr(f, "is_major", False):
                return True
            low = _window_index(boundaries, _or(f.min_timestamp, LONG_MAX))
            high = _window_index(boundaries, _or(f.max_timestamp, LONG_MAX))
            if low != high or in_window[high]:
                return True
            in_window[high] = True
        return False  # HDFS block locality, which could also force it, is taken as perfect

    # -- the requests --------------------------------------------------------------------------

    def select_major_compaction(self, files, now: int) -> CompactionSelection:
        files = tuple(files)
        return CompactionSelection(files=files, is_major=bool(files), tried_major=True,
                                   boundaries=self.major_boundaries(files, now))

    def major_boundaries(self, files, now: int) -> tuple:
        """getCompactBoundariesForMajor: Long.MIN_VALUE, then the start of every window from
        the one holding the oldest cell up to the incoming window."""
        oldest = min((_or(f.min_timestamp, LONG_MAX) for f in files), default=LONG_MAX)
        starts = []
        window = self.windows.new_incoming_window(now)
        while window.compare_to_timestamp(oldest) > 0:
            starts.append(window.start_millis())
            window = window.next_earlier_window()
        return (LONG_MIN, *reversed(starts))

    def select_minor_compaction(self, files, off_peak: bool, may_be_stuck: bool,
                                now: int) -> CompactionSelection:
        """selectMinorCompaction: the files of the newest window that has enough of them."""
        oldest_to_compact = _checked(now - self.max_age, LONG_MIN)
        pairs, seen = [], LONG_MIN
        for f in files:  # oldest first: a file older than one before it joins that one
            seen = max(seen, _or(f.max_timestamp, LONG_MIN))
            pairs.append((f, seen))
        pairs.reverse()
        window = self.windows.new_incoming_window(now)
        threshold = self.incoming_window_min
        i = 0
        while i < len(pairs):
            if window.compare_to_timestamp(oldest_to_compact) < 0:
                break
            if window.compare_to_timestamp(pairs[i][1]) > 0:
                window = window.next_earlier_window()
                threshold = self.min_files
                continue
            in_window = []
            while i < len(pairs) and window.compare_to_timestamp(pairs[i][1]) <= 0:
                in_window.append(pairs[i][0])
                i += 1
            if len(in_window) >= threshold:
                sel = self._window_request(in_window, window, off_peak, may_be_stuck, threshold)
                if sel:
                    return sel
        return CompactionSelection()

    def _window_request(self, newest_first: list, window: CompactionWindow, off_peak: bool,
                        may_be_stuck: bool, threshold: int) -> CompactionSelection:
        """generateCompactionRequest: the in-window policy's choice (every file of the window
        for a stuck store); one output file when it leaves a file out or single output is on,
        else two, cut at the window's start."""
        files = newest_first[::-1]
        self.window_policy.min_files = threshold  # setMinThreshold
        chosen = files if may_be_stuck else \
            self.window_policy.apply_compaction_policy(files, off_peak, False)
        if not chosen:
            return CompactionSelection()
        single = len(chosen) != len(files) or self.single_output
        boundaries = (LONG_MIN,) if single else (LONG_MIN, window.start_millis())
        return CompactionSelection(files=tuple(chosen), is_off_peak=off_peak,
                                   boundaries=boundaries)


def _or(value: int | None, absent: int) -> int:
    """An Optional timestamp's orElse."""
    return absent if value is None else value


def _window_index(boundaries: tuple, ts: int) -> int:
    """The window holding `ts`: Collections.binarySearch's index when found, else the insertion
    point less one (boundaries start at Long.MIN_VALUE, so every ts has one)."""
    return bisect.bisect_right(boundaries, ts) - 1


def _need_now(now: int | None) -> int:
    if now is None:
        raise InvalidArgumentError("a date-tiered selection needs now (the cluster clock, ms)")
    return now
