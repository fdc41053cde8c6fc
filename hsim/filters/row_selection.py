"""Filters that pick rows by key pattern, key ranges or chance: FuzzyRowFilter,
MultiRowRangeFilter (with its RowRange), RandomRowFilter; and
FirstKeyValueMatchingQualifiersFilter. None of them has a filter-language form
(ParseFilter does not register them)."""

from __future__ import annotations

import copy
import hashlib

from hsim.cell import LATEST_TIMESTAMP, NO_TTL, Cell, CellType, to_bytes_arg
from hsim.errors import InvalidArgumentError
from hsim.filters.base import Filter, HINT, INCLUDE, NEXT_ROW, ReturnCode, RowKeyDecision

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable

_new = tuple.__new__


def _first_on_row(cell, row: bytes):
    """The first possible key of `row` in the cell's family (a seek hint)."""
    return _new(Cell, (row, cell[1], b"", -LATEST_TIMESTAMP, -CellType.MAXIMUM, 0, b"", NO_TTL))


class _RowSeekingFilter(Filter):
    """A filter that seeks past rows it cannot match to `_hint` (the next row that could),
    and ends the scan (`done`) once no later row can match."""

    _STATE = {"done": False, "_hint": None}

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        return None if self._hint is None else _first_on_row(cell, self._hint)

    def filter_all_remaining(self) -> bool:
        return self.done


class FuzzyRowFilter(_RowSeekingFilter):
    """Rows matching any (row_key, mask) pair: mask byte 0 means the row's byte there must
    equal row_key's, 1 means any byte; the row may be longer than the key. A row that
    matches no pair is skipped with a seek hint to the next row that could match (the
    previous one, in reversed scans); when no pair can match any later row the scan ends."""

    _STATE = {"done": False, "_row": None, "_code": INCLUDE, "_hint": None}

    def __init__(self, pairs: list[tuple[bytes, bytes]]):
        self.pairs = []
        for key, mask in pairs:
            key, mask = to_bytes_arg(key), to_bytes_arg(mask)
            if len(key) != len(mask):
                raise InvalidArgumentError("Fuzzy pair lengths do not match")
            if any(m not in (0, 1) for m in mask):
                raise InvalidArgumentError(f"Fuzzy mask {mask!r}: bytes must be 0 or 1")
            # bytes under a 1 are ignored (HBase zeroes them in preprocessing)
            self.pairs.append((bytes(k if m == 0 else 0 for k, m in zip(key, mask)), mask))

    def filter_cell(self, cell: Cell) -> ReturnCode:
        row = cell[0]
        if row != self._row:
            self._row, self._hint = row, None
            if any(_satisfies(row, k, m) for k, m in self.pairs):
                self._code = INCLUDE
            elif self.reversed:
                bounds = [b for b in (_prev_row(row, k, m) for k, m in self.pairs) if b]
                if not bounds:
                    self.done, self._code = True, NEXT_ROW
                elif max(bounds) < row:
                    self._hint = max(bounds)
                    self._code = HINT
                else:
                    self._code = NEXT_ROW
            else:
                nexts = [n for n in (_next_row(row, k, m) for k, m in self.pairs) if n]
                if nexts:
                    self._hint = min(nexts)
                    self._code = HINT
                else:
                    self.done, self._code = True, NEXT_ROW
        return self._code

    def __repr__(self) -> str:
        return f"FuzzyRowFilter({self.pairs!r})"


def _satisfies(row: bytes, key: bytes, mask: bytes) -> bool:
    if len(row) < len(key):
        return False
    return all(m or r == k for r, k, m in zip(row, key, mask))


def _next_row(row: bytes, key: bytes, mask: bytes):
    """FuzzyRowFilter.getNextForFuzzyRule: the smallest row after `row` that matches the
    pair, or None when there is none (or `row` matches)."""
    n = len(key)
    c = 0  # length of row's prefix that agrees with the pair
    while c < min(len(row), n) and (mask[c] or row[c] == key[c]):
        c += 1
    if c == n:
        return None
    if c == len(row):  # row is a consistent prefix: extend it with the smallest fill
        return row + key[c:]
    for i in range(c, -1, -1):  # raise the deepest byte that can go up, then fill
        if mask[i] == 0:
            if i == c and key[i] > row[i]:
                return row[:i] + key[i:]
        elif row[i] < 255:
            return row[:i] + bytes([row[i] + 1]) + key[i + 1 :]
    return None


def _prev_row(row: bytes, key: bytes, mask: bytes):
    """The reversed scan's hint (FuzzyRowFilter.getNextForFuzzyRule with reverse): a row at
    or above every row below `row` that matches the pair, and below which the scan may go on
    (rows between it and `row` cannot match); None when no row below can match.

    Every matching row below `row` starts with the largest key-length string p < row that
    matches the pair, or a smaller one; so it sorts before p's prefix successor."""
    n = len(key)
    end = min(n, len(row))
    c = 0  # length of row's prefix that agrees with the pair
    while c < end and (mask[c] or row[c] == key[c]):
        c += 1
    for i in range(min(c, end - 1), -1, -1):  # lower the deepest byte that can go down
        if mask[i]:
            if row[i] == 0:
                continue
            low = row[i] - 1
        elif key[i] < row[i]:
            low = key[i]
        else:
            continue
        p = row[:i] + bytes([low]) + bytes(255 if mask[j] else key[j] for j in range(i + 1, n))
        top = p.rstrip(b"\xff")
        return top[:-1] + bytes([top[-1] + 1]) if top else row
    return None


class RowRange:
    """MultiRowRangeFilter.RowRange: rows from start_row to stop_row, each end inclusive or
    not; an empty start_row or stop_row leaves that end open."""

    def __init__(self, start_row: bytes = b"", start_inclusive: bool = True,
                 stop_row: bytes = b"", stop_inclusive: bool = False):
        self.start_row = to_bytes_arg(start_row or b"")
        self.stop_row = to_bytes_arg(stop_row or b"")
        self.start_inclusive = bool(start_inclusive)
        self.stop_inclusive = bool(stop_inclusive)
        if self.stop_row and self.start_row > self.stop_row:
            raise InvalidArgumentError(
                f"Invalid range: start row {self.start_row!r} is after stop row "
                f"{self.stop_row!r}")

    def contains(self, row: bytes) -> bool:
        """Whether `row` lies in this range (empty ends are unbounded)."""
        s, e = self.start_row, self.stop_row
        after_start = not s or row > s or (row == s and self.start_inclusive)
        before_stop = not e or row < e or (row == e and self.stop_inclusive)
        return after_start and before_stop

    def __eq__(self, other) -> bool:
        return isinstance(other, RowRange) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self):
        return (self.start_row, self.start_inclusive, self.stop_row, self.stop_inclusive)

    def __repr__(self) -> str:
        return "RowRange(%r, %r, %r, %r)" % self._key()


def merge_ranges(ranges) -> list:
    """MultiRowRangeFilter.sortAndMerge: sorted by start, overlapping or touching ranges
    (a shared boundary row that either side includes) become one."""
    def start_key(r):
        return (r.start_row, not r.start_inclusive)

    out: list[RowRange] = []
    for r in sorted(ranges, key=start_key):
        if out:
            last = out[-1]
            if not last.stop_row:
                continue  # the last range runs to the end of the table
            touches = r.start_row < last.stop_row or (
                r.start_row == last.stop_row and (last.stop_inclusive or r.start_inclusive))
            if touches:
                if not r.stop_row or r.stop_row > last.stop_row:
                    last = RowRange(last.start_row, last.start_inclusive, r.stop_row,
                                    r.stop_inclusive)
                elif r.stop_row == last.stop_row and r.stop_inclusive:
                    last = RowRange(last.start_row, last.start_inclusive, r.stop_row, True)
                out[-1] = last
                continue
        out.append(r)
    return out


class MultiRowRangeFilter(_RowSeekingFilter):
    """Rows in any of `ranges` (RowRange objects or (start, start_incl, stop, stop_incl)
    tuples), merged where they overlap. Between ranges it seeks to the next range's
    start; after the last one the scan ends."""

    def __init__(self, ranges: list[RowRange]):
        ranges = [r if isinstance(r, RowRange) else RowRange(*r) for r in ranges]
        if not ranges:
            raise InvalidArgumentError("MultiRowRangeFilter needs at least one RowRange")
        self.ranges = merge_ranges(ranges)

    def filter_row_key(self, row: bytes) -> bool:
        return self.done

    def filter_cell(self, cell: Cell) -> ReturnCode:
        row = cell[0]
        self._hint = None
        if any(r.contains(row) for r in self.ranges):
            return INCLUDE
        if self.reversed:
            earlier = [r for r in self.ranges if not r.start_row or r.start_row < row]
            self.done = not earlier
            if earlier and earlier[-1].stop_row and earlier[-1].stop_row < row:
                self._hint = earlier[-1].stop_row  # the last row of the range below, or after
                return HINT
            return NEXT_ROW
        later = [r for r in self.ranges if r.start_row >= row]
        if not later:
            self.done = True
            return NEXT_ROW
        self._hint = later[0].start_row
        return HINT if self._hint > row else NEXT_ROW

    def __repr__(self) -> str:
        return f"MultiRowRangeFilter({self.ranges!r})"


class FirstKeyValueMatchingQualifiersFilter(Filter):
    """The row's cells up to and including the first whose qualifier is in `qualifiers`
    (then NEXT_ROW). HBase deprecates it for FilterList(FirstKeyOnlyFilter, ...)."""

    _STATE = {"found": False}

    def __init__(self, qualifiers: Iterable[bytes]):
        self.qualifiers = frozenset(to_bytes_arg(q) for q in qualifiers)

    def reset(self) -> None:
        self.found = False

    def filter_cell(self, cell: Cell) -> ReturnCode:
        if self.found:
            return NEXT_ROW
        self.found = cell[2] in self.qualifiers
        return INCLUDE

    def __repr__(self) -> str:
        return f"FirstKeyValueMatchingQualifiersFilter({sorted(self.qualifiers)!r})"


class RandomRowFilter(RowKeyDecision, Filter):
    """Keeps each row with probability `chance` (below 0: none, above 1: all). The draw is
    a hash of (seed, row), so the same seed keeps the same rows whatever the region
    layout or the order of requests; HBase draws from an unseeded java.util.Random. Without
    a `seed` the request uses its cluster's (`Cluster(seed=...)`, see `with_cluster_seed`)."""

    _STATE = {"filter_out_row": False}

    def __init__(self, chance: float, seed: int | None = None):
        if isinstance(chance, bool) or not isinstance(chance, (int, float)):
            raise InvalidArgumentError(f"RandomRowFilter needs a float chance, got {chance!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidArgumentError(f"RandomRowFilter seed must be an int, got {seed!r}")
        self.chance, self.seed = float(chance), seed

    def reset(self) -> None:
        self.filter_out_row = False

    def filter_row_key(self, row: bytes) -> bool:
        if self.chance < 0:
            self.filter_out_row = True
        elif self.chance > 1:
            self.filter_out_row = False
        else:
            seed = self.seed or 0
            digest = hashlib.blake2b(row, digest_size=8, key=seed.to_bytes(8, "big", signed=True))
            draw = int.from_bytes(digest.digest(), "big") / 2**64
            self.filter_out_row = not draw < self.chance
        return self.filter_out_row


    def __repr__(self) -> str:
        return f"RandomRowFilter({self.chance})"


def with_cluster_seed(filt: Filter | None, seed: int) -> Filter | None:
    """The filter a request sends: when its tree holds a RandomRowFilter without a seed, a
    copy whose such filters draw from the cluster's `seed` (the user's object is untouched);
    otherwise the filter itself."""
    def unseeded(f) -> bool:
        if isinstance(f, RandomRowFilter):
            return f.seed is None
        children = getattr(f, "filters", None) or [getattr(f, "filter", None)]
        return any(unseeded(c) for c in children if isinstance(c, Filter))

    if filt is None or not unseeded(filt):
        return filt
    filt = copy.deepcopy(filt)

    def bind(f) -> None:
        if isinstance(f, RandomRowFilter) and f.seed is None:
            f.seed = seed
        for c in getattr(f, "filters", None) or [getattr(f, "filter", None)]:
            if isinstance(c, Filter):
                bind(c)

    bind(filt)
    return filt
