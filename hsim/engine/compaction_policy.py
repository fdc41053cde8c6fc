"""Which store files a compaction takes: HBase's default selection, as pure functions of a list
of store-file records.

HBase splits it in three classes (hbase-server, regionserver/compactions):
- SortedCompactionPolicy.selectCompaction, the pipeline: skip files older than one being
  compacted, note whether the store "might be stuck" at blocking_store_files, skip leading
  files above the max compact size, decide whether to try a major compaction (forced, or the
  periodic one), treat references (a split's half-files) as a reason to take every file, cap
  the selection at compaction_max_files;
- RatioBasedCompactionPolicy (the pre-0.96 default): the periodic major compaction and the
  ratio walk that picks the minor selection;
- ExploringCompactionPolicy (the default since 0.96): replaces only the minor selection by a
  search over every contiguous window of files.

A record needs `.size` (bytes), `.is_reference` and `.max_timestamp`; the periodic major
compaction also reads `.name`, `.create_time` (ms: HBase's file modification time),
`.is_major` (the file is a major compaction's output) and `.min_timestamp`, where present;
`.exclude_from_minor` (a bulk-loaded file flagged out of minor compactions) and `.entry_count`
(an empty file never expires), where present.
Files are given oldest first (by sequence id), as DefaultStoreFileManager keeps them.

Sizes compare as HBase compares them: ratios are Java floats (conf.getFloat) widened to double,
and `long * double` products are truncated as Java's `(long)` cast does.
"""

from __future__ import annotations

from hsim.bytes import java_float

import math
from dataclasses import dataclass

from hsim.config import LONG_MAX, Config
from hsim.errors import InvalidArgumentError

FOREVER = LONG_MAX  # HConstants.FOREVER: no TTL
_LONG_MIN = -(1 << 63)
# isBetterSelection replaces the best window of a stuck store only when better by 5%.
_REPLACE_IF_BETTER_BY = 1.05


def java_round(x: float) -> int:
    """Math.round(double): the nearest long, halves rounded up."""
    r = math.floor(x)
    return r + 1 if x - r >= 0.5 else r


def java_string_hash(s: str) -> int:
    """String.hashCode: s[0]*31^(n-1) + ... + s[n-1] over UTF-16 code units, as a signed int."""
    h = 0
    units = s.encode("utf-16-be")
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def java_random_next_double(seed: int) -> float:
    """new Random(seed).nextDouble(): the first double of Java's 48-bit linear congruential
    generator, so the major-compaction jitter is the one HBase computes for the same seed."""
    mult, mask = 0x5DEECE66D, (1 << 48) - 1
    state = (seed ^ mult) & mask
    state = (state * mult + 0xB) & mask
    hi = state >> (48 - 26)
    state = (state * mult + 0xB) & mask
    lo = state >> (48 - 27)
    return ((hi << 27) + lo) * 2.0**-53


@dataclass(frozen=True)
class CompactionSelection:
    """The outcome of a selection (HBase's CompactionRequestImpl).

    `is_major`: the selection holds every store file, so the compaction runs as a major one:
    the compactor drops deletes and expired cells (ScanType.COMPACT_DROP_DELETES) and marks its
    output major-compacted. HBase 2 gives that effect to any all-files selection (it used to
    "promote" such a minor compaction to major). `tried_major`: the policy set out to do a
    major compaction (forced or periodic); HBase's request.isMajor() is
    `tried_major and is_major`, the figure its major-compaction metrics count.
    """

    files: tuple = ()
    is_major: bool = False
    tried_major: bool = False
    is_off_peak: bool = False
    after_split: bool = False  # a reference was among the candidates
    # DateTieredCompactionRequest: where the compactor cuts its output, ascending (the first is
    # Long.MIN_VALUE); None: one output file, as every other policy writes
    boundaries: tuple | None = None

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    def __bool__(self) -> bool:
        return bool(self.files)


class RatioBasedCompactionPolicy:
    """SortedCompactionPolicy + RatioBasedCompactionPolicy, on a Config's compaction settings
    (CompactionConfiguration)."""

    def __init__(self, config: Config | None = None):
        c = config or Config()
        self.config = c
        # CompactionConfiguration: hbase.hstore.compaction.min is floored at 2.
        self.min_files = max(2, c.compaction_min_files)
        self.max_files = c.compaction_max_files
        self.ratio = java_float(c.compaction_ratio)
        self.ratio_offpeak = java_float(c.compaction_ratio_offpeak)
        self.min_size = c.compaction_min_size
        # hbase.hstore.compaction.max.size.offpeak defaults to the max size; hsim has one knob.
        self.max_size = c.compaction_max_size
        self.blocking_files = c.blocking_store_files
        self.major_period = c.major_compaction_period_ms
        self.major_jitter = java_float(c.major_compaction_jitter)

    # -- the pipeline (SortedCompactionPolicy.selectCompaction) --------------------------------

    def select(self, files, force_major: bool = False, off_peak: bool = False, *,
               files_compacting=(), user_requested: bool = False, now: int | None = None,
               ttl_ms: int | None = None, min_versions: int = 0) -> CompactionSelection:
        """Choose the files of the next compaction of a store holding `files` (oldest first).

        `files_compacting`: files already in a running compaction (a sublist of `files`);
        `user_requested`: an Admin request (a forced major then ignores compaction_max_files);
        `now`: the cluster clock in ms, needed for the periodic major compaction (None: no
        periodic major); `ttl_ms` and `min_versions`: the family's, for the periodic major
        compaction of a single file. HStore only forces a major compaction when nothing is
        compacting; that is the caller's rule, as in HBase.
        """
        files = list(files)
        compacting = list(files_compacting)
        # Stuck: at the blocking count, counting a running compaction's output as one file.
        may_be_stuck = len(files) - len(compacting) + (1 if compacting else 0) \
            >= self.blocking_files
        candidates = self._eligible(files, compacting)
        all_files = len(candidates) == len(files)
        if not (force_major and all_files):
            candidates = self._skip_large_files(candidates)
            all_files = len(candidates) == len(files)

        forced = force_major and all_files
        tried_major = (forced and user_requested) or (
            (forced or self.should_perform_major_compaction(candidates, now, ttl_ms,
                                                            min_versions))
            and len(candidates) < self.max_files)
        # After a split the daughters hold references, which only a compaction of every file
        # removes: take them all, as a major compaction would.
        after_split = any(f.is_reference for f in candidates)
        candidates, boundaries = self.create_compaction_request(
            candidates, tried_major or after_split, off_peak, may_be_stuck, now)
        if len(candidates) > self.max_files and not (tried_major and user_requested):
            candidates = candidates[:self.max_files]

        selected = bool(candidates)
        all_files = len(candidates) == len(files)
        return CompactionSelection(
            files=tuple(candidates),
            is_major=selected and all_files,
            tried_major=tried_major,
            is_off_peak=selected and not all_files and off_peak,
            after_split=after_split,
            boundaries=boundaries,
        )

    def create_compaction_request(self, candidates: list, trying_major: bool, off_peak: bool,
                                  may_be_stuck: bool, now: int | None) -> tuple[list, None]:
        """RatioBasedCompactionPolicy.createCompactionRequest: a major compaction takes every
        candidate; a minor one the policy's choice, if it has at least min_files. One output."""
        if not trying_major:
            # SortedCompactionPolicy.filterBulk: bulk-loaded files written with
            # hbase.mapreduce.hfileoutputformat.compaction.exclude stay out of minor ones.
            candidates = [f for f in candidates if not getattr(f, "exclude_from_minor", False)]
            candidates = self.apply_compaction_policy(candidates, off_peak, may_be_stuck)
            if len(candidates) < self.min_files:
                candidates = []
        return candidates, None

    def needs_compaction(self, files, files_compacting=(), now: int | None = None,
                         ttl_ms: int | None = None, min_versions: int = 0) -> bool:
        """RatioBasedCompactionPolicy.needsCompaction: enough files not already compacting.
        (`now`, `ttl_ms`, `min_versions`: what the date-tiered and FIFO policies also read.)"""
        return len(files) - len(files_compacting) >= self.min_files

    def select_expired_files(self, files, now: int, ttl_ms: int | None, min_versions: int = 0,
                             files_compacting=()) -> list:
        """HStore.removeUnneededFiles (DefaultStoreFileManager.getUnneededFiles): the files whose
        every cell has expired, dropped without being read. Never the newest file; only with
        delete_expired_storefile, a family TTL and MIN_VERSIONS 0. Never an empty file either:
        HBase reads its max timestamp as Long.MAX_VALUE (TimeRangeTracker.toTimeRange turns the
        unset -1 into TimeRange.INITIAL_MAX_TIMESTAMP), so it never expires here; only a
        compaction that takes it removes it (HBASE-21504)."""
        if not self.config.delete_expired_storefile or min_versions > 0 or ttl_ms is None \
                or ttl_ms >= FOREVER:
            return []
        cutoff = now - ttl_ms
        files = list(files)
        return [f for f in files[:-1] if f.max_timestamp < cutoff
                and getattr(f, "entry_count", 1) and f not in files_compacting]

    # -- the periodic major compaction (RatioBasedCompactionPolicy) ----------------------------

    def next_major_compaction_ms(self, files) -> int:
        """SortedCompactionPolicy.getNextMajorCompactTime: the period, moved by a jitter in
        [-period*jitter, +period*jitter] drawn from a Random seeded with the hash of the first
        file's name, so every store has its own but stable interval. 0: no major compaction."""
        period = self.major_period
        if period <= 0 or self.major_jitter <= 0:
            return period
        files = list(files)
        if not files:
            return 0
        seed = java_string_hash(getattr(files[0], "name", ""))
        jitter = java_round(period * self.major_jitter)
        return period + jitter - java_round(2 * jitter * java_random_next_double(seed))

    def past_major_period(self, files: list, now: int | None) -> bool:
        """The oldest file (by its create time: HBase's modification time) is older than the
        next major-compaction time (StoreUtils.getLowestTimestamp against now - mcTime)."""
        if now is None or not files:
            return False
        interval = self.next_major_compaction_ms(files)
        if interval == 0:
            return False
        lowest = min(getattr(f, "create_time", 0) for f in files)
        return 0 < lowest < now - interval

    def should_perform_major_compaction(self, files, now: int | None, ttl_ms: int | None = None,
                                        min_versions: int = 0) -> bool:
        """RatioBasedCompactionPolicy.shouldPerformMajorCompaction: the oldest file (by its
        create time) is older than the next major-compaction time. A single file that is
        already a major compaction's output is left alone unless its data is past the TTL (HDFS
        block locality, which could also force it, is taken as perfect)."""
        files = list(files)
        if not self.past_major_period(files, now):
            return False
        if len(files) > 1:
            return True
        # HStore.getStoreFileTtl: with MIN_VERSIONS > 0 files never expire as a whole.
        ttl = ttl_ms if ttl_ms is not None and min_versions == 0 else FOREVER
        f = files[0]
        min_ts = getattr(f, "min_timestamp", None)
        oldest = _LONG_MIN if min_ts is None else now - min_ts
        if getattr(f, "is_major", False) and (ttl == FOREVER or oldest < ttl):
            return False
        return ttl != FOREVER and oldest > ttl

    # -- the minor selection -------------------------------------------------------------------

    def apply_compaction_policy(self, candidates: list, off_peak: bool,
                                may_be_stuck: bool) -> list:
        """RatioBasedCompactionPolicy.applyCompactionPolicy: from the oldest file, skip every
        file bigger than both min_size and ratio x the sum of the max_files - 1 files after it,
        stopping min_files short of the end; take the rest. (HBase's fallback for a stuck store
        here, "take the newest min_files files", needs the walk to pass the last file, which it
        never does, so `may_be_stuck` changes nothing in this policy.)"""
        n = len(candidates)
        if not n:
            return candidates
        ratio = self.ratio_offpeak if off_peak else self.ratio
        sizes = [f.size for f in candidates]
        # window[i] = sizes[i] + ... + sizes[i + max_files - 2]
        window = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            too_far = i + self.max_files - 1
            window[i] = sizes[i] + window[i + 1] - (sizes[too_far] if too_far < n else 0)
        start = 0
        while n - start >= self.min_files and \
                sizes[start] > max(self.min_size, int(window[start + 1] * ratio)):
            start += 1
        return candidates[start:]

    # -- pipeline helpers ----------------------------------------------------------------------

    @staticmethod
    def _eligible(files: list, compacting: list) -> list:
        """getCurrentEligibleFiles: only files newer than the newest one being compacted, so a
        compaction always takes a contiguous run of files (HBASE-2856)."""
        if not compacting:
            return files
        try:
            newest = files.index(compacting[-1])
        except ValueError:
            raise InvalidArgumentError("a compacting file is not among the store files") from None
        return files[newest + 1:]

    def _skip_large_files(self, candidates: list) -> list:
        """skipLargeFiles: drop leading files above max_size, stopping at a reference."""
        pos = 0
        while pos < len(candidates) and not candidates[pos].is_reference \
                and candidates[pos].size > self.max_size:
            pos += 1
        return candidates[pos:]


class ExploringCompactionPolicy(RatioBasedCompactionPolicy):
    """HBase's default: the minor selection explores every contiguous window of min_files ..
    max_files files and keeps the best one within the size limits and in ratio."""

    def apply_compaction_policy(self, candidates: list, off_peak: bool,
                                may_be_stuck: bool) -> list:
        """ExploringCompactionPolicy.applyCompactionPolicy.

        A window is admissible when its total is at most max_size and, if at least min_size,
        every file in it is at most ratio x the rest of the window (filesInRatio). The best
        has the most files, then the smallest total; a stuck store instead keeps the best
        files-per-byte, replacing the best only when better by 5%, and when nothing is
        admissible takes the smallest window of all. Windows that cannot win are not visited
        (fewer files than the best, or past max_files or max_size), the pruning HBase's later
        versions do; TestExploringCompactionPolicy checks it selects the same files.
        """
        n = len(candidates)
        ratio = self.ratio_offpeak if off_peak else self.ratio
        min_files, max_files = self.min_files, self.max_files
        min_size, max_size = self.min_size, self.max_size
        sizes = [f.size for f in candidates]
        prefix = [0]
        for s in sizes:
            prefix.append(prefix[-1] + s)

        best, best_size, best_count = None, 0, min_files
        smallest, smallest_size = None, LONG_MAX
        for start in range(n):
            width = min_files if may_be_stuck else best_count
            for end in range(start + width, n + 1):  # window = [start, end)
                count = end - start
                if count > max_files:
                    break
                total = prefix[end] - prefix[start]
                if may_be_stuck and total < smallest_size:
                    smallest, smallest_size = (start, end), total
                if total > max_size:
                    break
                # filesInRatio: no file above ratio x the rest of the window. The test grows
                # with the file's size, so the largest file decides (min_files >= 2, so every
                # window has two files or more). Java compares the long as a double.
                if total >= min_size:
                    largest = max(sizes[start:end])
                    if float(largest) > (total - largest) * ratio:
                        continue
                if best is None:
                    better = True
                elif may_be_stuck and best_size > 0 and total > 0:
                    better = (best[1] - best[0]) / best_size * _REPLACE_IF_BETTER_BY \
                        < count / total
                else:
                    best_count_now = best[1] - best[0]
                    better = count > best_count_now or \
                        (count == best_count_now and total < best_size)
                if better:
                    best, best_size, best_count = (start, end), total, count
        if best is None:
            if may_be_stuck and smallest is not None:
                return candidates[smallest[0]:smallest[1]]
            return []
        return candidates[best[0]:best[1]]
