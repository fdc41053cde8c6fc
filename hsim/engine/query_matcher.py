"""The query matchers: which cells of one row of one store a read returns, and which a flush or
compaction keeps. One function per HBase matcher, each a single pass over the row's cells in
HBase order, emulating HBase's match codes:

- SKIP                -> `continue`
- SEEK_NEXT_COL       -> the rest of this column is skipped: `skip_col = reason; continue`
                         in the read and compaction matchers' flat loops, `break` out of the
                         column's loop in the raw matcher, which walks the row column by column
- INCLUDE             -> append

The state mirrors HBase's classes: the delete tracker is ScanDeleteTracker (a family stamp, the
set of DeleteFamilyVersion stamps, and one buffered column/version marker), the version counting
is ScanWildcardColumnTracker.checkVersion. Sources: hbase-server regionserver/querymatcher/
ScanQueryMatcher.preCheck, NormalUserScanQueryMatcher.match, UserScanQueryMatcher.matchColumn,
RawScanQueryMatcher, MinorCompactionScanQueryMatcher, MajorCompactionScanQueryMatcher,
DropDeletesCompactionScanQueryMatcher.tryDropDelete, ScanDeleteTracker, ScanWildcardColumnTracker.

The delete tracker is one object (hsim.engine.delete_tracker), made only for a row that holds a
tracked marker. The version counter stays inline in each matcher's loop: it runs once per cell
on every read, flush and compaction, where a method call per cell would cost more than the rest
of the loop. For the same reason the read and compaction matchers each keep their column state
(ScanWildcardColumnTracker's current column and count) in one flat loop: walking the row column
by column with groupby, as the raw matcher does, costs more per cell (BENCHMARKS.md, "MemStore
by row, compactions of plain tuples, the matcher's rules"). tests/engine/test_query_matcher.py
pins both loops to one table of cases.

Explicit columns are handled as the wildcard tracker plus a qualifier test, except in the one
corner where HBase's ExplicitColumnTracker.checkVersions differs (MIN_VERSIONS > 0 with expired
versions): it includes the first expired version whose count reaches MIN_VERSIONS, then moves to
the next column, where the wildcard tracker drops that version.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, count, groupby, islice
from operator import eq, itemgetter

from hsim.cell import (LATEST_TIMESTAMP, NEG_SEQ, NEG_TS, NEG_TYPE, NO_TTL, PUT, QUALIFIER, ROW,
                       TTL)
from hsim.engine.delete_tracker import COLUMN_DELETED, ScanDeleteTracker
from hsim.keep_deleted_cells import KeepDeletedCells

_KDC_FALSE, _KDC_TRUE, _KDC_TTL = (KeepDeletedCells.FALSE, KeepDeletedCells.TRUE,
                                  KeepDeletedCells.TTL)

_NEG_INF = -(1 << 63)
_ROW = itemgetter(ROW)
_QUALIFIER = itemgetter(QUALIFIER)
_NEG_TS = itemgetter(NEG_TS)
_TYPE = itemgetter(NEG_TYPE)
_TTL = itemgetter(TTL)
_PUTS = {-PUT}
_NO_TTLS = {NO_TTL}


@dataclass(frozen=True)
class ScanQuery:
    """What a Get or Scan asks of a store (the parts of HBase's Scan the matcher reads)."""

    time_range: tuple[int, int] = (0, LATEST_TIMESTAMP)  # [min, max)
    max_versions: int = 1
    columns: frozenset | None = None  # qualifiers of this family, None = all
    raw: bool = False
    has_filter: bool = False  # a filter runs after the matcher (versions cap = family VERSIONS)
    cache_blocks: bool = True  # Scan/Get.setCacheBlocks: False adds no data block it reads


def oldest_unexpired(ttl_ms: int | None, now: int) -> int:
    """ScanInfo's oldestUnexpiredTS: cells with ts below it are expired (strictly)."""
    return _NEG_INF if ttl_ms is None else now - ttl_ms


# Why a read's matcher drops a cell, in the order its rules apply (what `explain` shows).
MARKER = "delete markers (never returned)"
EXPIRED = "expired (family TTL)"
CELL_EXPIRED = "expired (cell TTL)"
DELETED = "deleted by a marker"
TIME_RANGE = "outside the time range"
COLUMN = "column not asked for"
OVERWRITTEN = "overwritten (same timestamp)"
VERSIONS = "beyond VERSIONS"


class UserMatcher:
    """NormalUserScanQueryMatcher (or RawScanQueryMatcher) for one store and one request.

    `match(cells, why)` also tallies, when given a Counter, the rule that dropped each cell
    it does not return: the one place those rules are written, so `explain` tells what reads
    do."""

    __slots__ = ("rules", "raw", "lone_put")

    def __init__(self, family, query: ScanQuery, now: int):
        self.raw = query.raw
        if query.raw:
            # Raw scans: no delete masking, CF TTL ignored, versions capped by the scan only.
            oldest, min_versions, limit = _NEG_INF, 0, query.max_versions
        else:
            oldest = oldest_unexpired(family.ttl_ms, now)
            min_versions = family.min_versions
            fam_versions = family.max_versions
            limit = fam_versions if query.has_filter else min(query.max_versions, fam_versions)
        see_past = family.keep_deleted_cells is not KeepDeletedCells.FALSE
        tr_min, tr_max = query.time_range
        # One tuple, unpacked in one step by `match`: it runs once per row, and rows are often
        # one or two cells.
        self.rules = (now, oldest, min_versions, limit, tr_min, tr_max, see_past, query.columns)
        # A row of one put without a cell TTL (tall tables) is returned iff its timestamp is
        # in [lo, hi) and its column was asked for: the time range, and the TTL unless
        # MIN_VERSIONS keeps it. The loop below gives the same answer, slower.
        lo = max(tr_min, oldest) if min_versions == 0 else tr_min
        self.lone_put = (lo, tr_max, query.columns)

    def match(self, cells, why=None, state=None) -> list:
        """The row's cells to return, in order. `state`, for a row matched a part at a time
        (hsim.engine.store_scanner), is the list [delete tracker, column, count, previous ts,
        skip_col] carried from one part to the next; `state[4]` set after a part means the
        matcher is done with column `state[1]` (SEEK_NEXT_COL: the reader may seek past it)."""
        if self.raw:
            return self._match_raw(cells, why)
        if len(cells) == 1 and why is None and state is None:
            c = cells[0]
            if c[NEG_TYPE] == -PUT and c[TTL] == NO_TTL:
                lo, hi, cols = self.lone_put
                if lo <= -c[NEG_TS] < hi and (cols is None or c[QUALIFIER] in cols):
                    return cells
                return []
        now, oldest, minv, limit, tr_min, tr_max, see_past, cols = self.rules
        out = []
        if state is None:
            deletes = None  # a ScanDeleteTracker from the row's first tracked marker
            cur_q = None
            count = 0
            prev_ts = None
            skip_col = None  # or the reason the rest of the column is dropped
        else:
            deletes, cur_q, count, prev_ts, skip_col = state
        for c in cells:
            q = c[QUALIFIER]
            if q != cur_q:
                cur_q = q
                count = 0
                prev_ts = None
                skip_col = None
            elif skip_col:  # the rest of the column goes, for the reason it started going
                if why is not None:
                    why[skip_col] += 1
                continue
            ts = -c[NEG_TS]
            if ts < oldest and minv == 0:  # columns.isDone(ts): expired, no MIN_VERSIONS
                skip_col = _drop(why, EXPIRED)
                continue
            ttl = c[TTL]
            if ttl != NO_TTL and ts + ttl < now:  # isCellTTLExpired
                _drop(why, CELL_EXPIRED)
                continue
            code = -c[NEG_TYPE]
            if code != PUT:
                _drop(why, MARKER)
                # A delete marker: tracked if in (or, without KEEP_DELETED_CELLS, after) the range.
                if (tr_min <= ts < tr_max) if see_past else (ts >= tr_min):
                    if deletes is None:
                        deletes = ScanDeleteTracker()
                    deletes.add(code, q, ts)
                continue
            if deletes is not None:
                deleted = deletes.is_deleted(q, ts)
                if deleted:
                    reason = _drop(why, DELETED)
                    if deleted >= COLUMN_DELETED:
                        skip_col = reason
                    continue
            # UserScanQueryMatcher.matchColumn: time range, then column, then versions
            if ts >= tr_max:
                _drop(why, TIME_RANGE)
                continue
            if ts < tr_min:
                skip_col = _drop(why, TIME_RANGE)
                continue
            if cols is not None and q not in cols:
                skip_col = _drop(why, COLUMN)
                continue
            if ts == prev_ts:  # sameAsPreviousTSAndType: an overwritten put
                _drop(why, OVERWRITTEN)
                continue
            count += 1
            if count > limit:
                skip_col = _drop(why, VERSIONS)
                continue
            if cols is not None:
                # ExplicitColumnTracker.checkVersions: include, and done with the column once
                # count >= minVersions and the version is expired (INCLUDE_AND_SEEK_NEXT_COL)
                prev_ts = ts
                out.append(c)
                if count >= minv and ts < oldest:
                    skip_col = EXPIRED  # the older versions: past MIN_VERSIONS
            elif count <= minv or ts >= oldest:
                prev_ts = ts
                out.append(c)
            else:
                skip_col = _drop(why, EXPIRED)  # past MIN_VERSIONS
        if state is not None:
            state[:] = deletes, cur_q, count, prev_ts, skip_col
        return out

    def _match_raw(self, cells, why=None) -> list:
        """RawScanQueryMatcher: markers and puts, time range, versions counted on puts only.

        Raw scans are a diagnostic path (shell RAW => true, explain), so this walks the row
        column by column rather than with the read matcher's inline column state."""
        limit, tr_min, tr_max = self.rules[3:6]
        out = []
        for _q, rest in groupby(cells, _QUALIFIER):  # `rest`: the column's cells not yet seen
            puts = 0
            prev = None
            for c in rest:
                ts = -c[NEG_TS]
                if ts >= tr_max:
                    _drop(why, TIME_RANGE)
                    continue
                if ts < tr_min:
                    _drop_column(why, TIME_RANGE, rest)
                    break
                code = -c[NEG_TYPE]
                if (ts, code) == prev:
                    _drop(why, OVERWRITTEN)
                    continue
                if code == PUT:
                    if puts == limit:
                        _drop_column(why, VERSIONS, rest)
                        break
                    puts += 1
                prev = (ts, code)
                out.append(c)
        return out


def _drop_column(why, reason: str, rest) -> None:
    """SEEK_NEXT_COL: the current cell and the `rest` of its column go, for one reason.

    `rest` is the column's groupby group, part consumed: the caller breaks out of its loop
    over it right after (ruff's B031, a group used twice, is that deliberate reuse)."""
    if why is not None:
        why[reason] += 1 + len(list(rest))


def _drop(why, reason: str) -> str:
    """Tally `reason` when the caller asked why (explain); return it for `skip_col`."""
    if why is not None:
        why[reason] += 1
    return reason


class CompactionMatcher:
    """The matcher of flushes and compactions for one store.

    `drop_deletes=False` is ScanType.COMPACT_RETAIN_DELETES (flush, minor compaction:
    MinorCompactionScanQueryMatcher); `drop_deletes=True` is COMPACT_DROP_DELETES (a compaction
    of all the store's files: MajorCompactionScanQueryMatcher). Dropped cells are tallied by
    cause in `dropped` (deleted, expired, versions, markers).

    `max_read_point`: the smallest read point of the scanners open on the region (None: none
    open). A cell written after it may still be invisible to one of them, so, as HBase's
    matchers do with maxReadPointToTrackVersions, a delete marker above it masks nothing yet and
    a put above it is not counted against VERSIONS: what an open scanner still needs survives.
    """

    __slots__ = ("rules", "dropped")

    def __init__(self, family, now: int, drop_deletes: bool, earliest_put_ts: int = _NEG_INF,
                 time_to_purge_deletes_ms: int = 0, max_read_point: int | None = None):
        # a cell whose -seq is below `unseen` was written after the smallest open read point
        unseen = _NEG_INF if max_read_point is None else -max_read_point
        # One tuple, unpacked in one step by `match`, which runs once per row.
        self.rules = (now, oldest_unexpired(family.ttl_ms, now), family.min_versions,
                      family.max_versions, family.keep_deleted_cells, drop_deletes,
                      earliest_put_ts, time_to_purge_deletes_ms, unseen)
        self.dropped = {"deleted": 0, "expired": 0, "versions": 0, "markers": 0}

    def match_all(self, cells: list, one_cell_rows: bool = False) -> list:
        """The kept cells of many rows (`cells` in HBase order, as a flush or compaction
        streams them). Puts only, no cell TTLs, none expired and one version per column: the
        matcher would keep every cell, so that is checked list-wide instead of row by row.
        Anything else goes through `match`, one row at a time. `one_cell_rows`: the caller
        already knows no row has two cells (so no column has two versions)."""
        if not cells:
            return []
        oldest, min_versions = self.rules[1:3]
        if (set(map(_TYPE, cells)) == _PUTS and set(map(_TTL, cells)) == _NO_TTLS
                and (min_versions or oldest == _NEG_INF or -max(map(_NEG_TS, cells)) >= oldest)
                and (one_cell_rows or one_version_per_column(cells))):
            return cells
        out = []
        keep = out.extend
        match = self.match
        for _row, group in groupby(cells, _ROW):
            keep(match(list(group)))
        return out

    def match(self, cells) -> list:
        if len(cells) == 1:
            # One put without a cell TTL: kept unless expired with no MIN_VERSIONS to keep it.
            c = cells[0]
            if c[NEG_TYPE] == -PUT and c[TTL] == NO_TTL:
                if -c[NEG_TS] >= self.rules[1] or self.rules[2]:
                    return cells
                self.dropped["expired"] += 1
                return []
        now, oldest, minv, maxv, kdc, major, earliest, purge, unseen = self.rules
        dropped = self.dropped
        out = []
        deletes = None  # a ScanDeleteTracker from the row's first tracked marker
        cur_q = None
        count = 0
        prev = None
        skip_col = None  # None, or the cause tallied for the rest of the column
        for c in cells:
            q = c[QUALIFIER]
            if q != cur_q:
                cur_q = q
                count = 0
                prev = None
                skip_col = None
            elif skip_col is not None:
                dropped[skip_col] += 1
                continue
            ts = -c[NEG_TS]
            code = -c[NEG_TYPE]
            if ts < oldest and minv == 0:
                skip_col = "expired"
                dropped["expired"] += 1
                continue
            ttl = c[TTL]
            if ttl != NO_TTL and ts + ttl < now:
                dropped["expired"] += 1
                continue
            if code != PUT:
                if c[NEG_SEQ] < unseen:  # "we should not use this delete marker to mask any
                    # cell yet" (written after the smallest open read point)
                    out.append(c)
                    continue
                # CompactionScanQueryMatcher.trackDelete
                if kdc is _KDC_FALSE or (kdc is _KDC_TTL and ts < oldest):
                    if deletes is None:
                        deletes = ScanDeleteTracker()
                    deletes.add(code, q, ts)
                if not major:
                    out.append(c)  # minor compactions and flushes keep every marker
                    continue
                # DropDeletesCompactionScanQueryMatcher.tryDropDelete
                if purge > 0 and now - ts <= purge:
                    out.append(c)
                    continue
                if kdc is _KDC_TRUE or (kdc is _KDC_TTL and ts >= oldest):
                    if ts < earliest:
                        skip_col = "markers"
                        dropped["markers"] += 1
                        continue
                    # falls through to version counting
                else:
                    dropped["markers"] += 1
                    continue
            elif deletes is not None:
                deleted = deletes.is_deleted(q, ts)
                if deleted:
                    dropped["deleted"] += 1
                    if deleted >= COLUMN_DELETED:
                        skip_col = "deleted"
                    continue
            # ScanWildcardColumnTracker.checkVersions (ignoreCount above the read point)
            if c[NEG_SEQ] < unseen:
                out.append(c)
                continue
            if prev is not None and prev[0] == ts and prev[1] == code:
                dropped["versions"] += 1
                continue
            if code == PUT:
                count += 1
            if count > maxv:
                skip_col = "versions"
                dropped["versions"] += 1
                continue
            if count <= minv or ts >= oldest:
                prev = (ts, code)
                out.append(c)
            else:
                skip_col = "expired"
                dropped["expired"] += 1
        return out


def one_version_per_column(cells: list) -> bool:
    """No two cells of `cells` (one store's, in HBase order) share row and qualifier."""
    same_row = map(eq, map(_ROW, islice(cells, 1, None)), map(_ROW, cells))
    for i in compress(count(1), same_row):
        if cells[i][QUALIFIER] == cells[i - 1][QUALIFIER]:
            return False
    return True
