"""Filters that select columns or versions inside a row: ColumnPrefixFilter,
MultipleColumnPrefixFilter, ColumnRangeFilter, ColumnCountGetFilter, ColumnPaginationFilter
and TimestampsFilter."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from hsim.cell import NEG_TS, QUALIFIER, to_bytes_arg
from hsim.errors import InvalidArgumentError
from hsim.filters.base import (
    Filter,
    HINT,
    INCLUDE,
    INCLUDE_AND_NEXT_COL,
    NEXT_COL,
    NEXT_ROW,
    ReturnCode,
    SKIP,
    first_on_row_col,
    first_on_row_col_ts,
    last_on_row_col,
)

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable
    from hsim.cell import Cell


def _non_negative(name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidArgumentError(f"{name} must be positive {value}")
    return value


class ColumnPrefixFilter(Filter):
    """Keeps the columns whose qualifier starts with `prefix`; seeks to the prefix when the
    qualifier sorts before it and leaves the family once past it."""

    def __init__(self, prefix: bytes):
        self.prefix = to_bytes_arg(prefix)

    def filter_cell(self, cell: Cell) -> ReturnCode:
        prefix = self.prefix
        head = cell[QUALIFIER][: len(prefix)]
        if head == prefix:
            return INCLUDE
        # A qualifier shorter than the prefix compares with the prefix's first bytes:
        # equal or smaller means it sorts before the prefix.
        if len(head) < len(prefix):
            return HINT if head <= prefix[: len(head)] else NEXT_ROW
        return HINT if head < prefix else NEXT_ROW

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        return first_on_row_col(cell, self.prefix)

    def __repr__(self) -> str:
        return f"ColumnPrefixFilter({self.prefix!r})"


class MultipleColumnPrefixFilter(Filter):
    """Keeps the columns whose qualifier starts with any of `prefixes` (distinct).

    As in HBase, only the largest prefix sorting at or before the qualifier is tried, so
    with overlapping prefixes ("a" and "ab") a qualifier like "ac" is not matched."""

    _STATE = {"hint": None}

    def __init__(self, *prefixes: bytes):
        if len(prefixes) == 1 and isinstance(prefixes[0], (list, tuple)):
            prefixes = tuple(prefixes[0])
        sorted_prefixes = sorted(to_bytes_arg(p) for p in prefixes)
        if len(set(sorted_prefixes)) != len(sorted_prefixes):
            raise InvalidArgumentError("prefixes must be distinct")
        self.prefixes = sorted_prefixes

    def filter_cell(self, cell: Cell) -> ReturnCode:
        prefixes = self.prefixes
        if not prefixes:
            return INCLUDE
        qualifier = cell[QUALIFIER]
        n = bisect_right(prefixes, qualifier)  # prefixes <= qualifier
        if n:
            largest = prefixes[n - 1]
            if qualifier.startswith(largest):
                return INCLUDE
            if n == len(prefixes):
                return NEXT_ROW
            self.hint = prefixes[n]
            return HINT
        self.hint = prefixes[0]
        return HINT

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        return first_on_row_col(cell, self.hint)

    def __repr__(self) -> str:
        return f"MultipleColumnPrefixFilter({self.prefixes!r})"


class ColumnRangeFilter(Filter):
    """Keeps qualifiers between `min_column` and `max_column` (None: unbounded), each end
    inclusive or not; seeks to the minimum and leaves the family past the maximum."""

    def __init__(self, min_column: bytes | None, min_column_inclusive: bool = True,
                 max_column: bytes | None = None,
                 max_column_inclusive: bool = False):
        self.min_column = None if min_column is None else to_bytes_arg(min_column)
        self.min_column_inclusive = bool(min_column_inclusive)
        self.max_column = None if max_column is None else to_bytes_arg(max_column)
        self.max_column_inclusive = bool(max_column_inclusive)

    def filter_cell(self, cell: Cell) -> ReturnCode:
        qualifier = cell[QUALIFIER]
        lo = self.min_column
        if lo is not None:
            if qualifier < lo:
                return HINT
            if not self.min_column_inclusive and qualifier == lo:
                return NEXT_COL
        hi = self.max_column
        if hi is None:
            return INCLUDE
        if qualifier < hi or (self.max_column_inclusive and qualifier == hi):
            return INCLUDE
        return NEXT_ROW

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        return first_on_row_col(cell, self.min_column or b"")

    def __repr__(self) -> str:
        return (f"ColumnRangeFilter({self.min_column!r}, {self.min_column_inclusive}, "
                f"{self.max_column!r}, {self.max_column_inclusive})")


class ColumnCountGetFilter(Filter):
    """The first `limit` columns of a row (one version each). Meant for gets: once a row
    has more columns, filter_all_remaining turns true and a scan ends after that row."""

    _STATE = {"count": 0}

    def __init__(self, limit: int):
        self.limit = _non_negative("limit", limit)

    def filter_row_key(self, row: bytes) -> bool:
        return self.count > self.limit

    def filter_all_remaining(self) -> bool:
        return self.count > self.limit

    def filter_cell(self, cell: Cell) -> ReturnCode:
        self.count += 1
        return NEXT_COL if self.count > self.limit else INCLUDE_AND_NEXT_COL

    def reset(self) -> None:
        self.count = 0

    def __repr__(self) -> str:
        return f"ColumnCountGetFilter({self.limit})"


class ColumnPaginationFilter(Filter):
    """`limit` columns of each row (newest version each), starting at column number
    `offset`, or at the first qualifier >= `column_offset` when that is given instead.
    Columns are counted across families."""

    _STATE = {"count": 0}

    def __init__(self, limit: int, offset: int | None = None, column_offset: bytes | None = None):
        self.limit = _non_negative("limit", limit)
        if column_offset is None:
            self.offset = _non_negative("offset", 0 if offset is None else offset)
            self.column_offset = None
        else:
            self.offset = -1
            self.column_offset = to_bytes_arg(column_offset)

    def filter_cell(self, cell: Cell) -> ReturnCode:
        if self.column_offset is not None:
            if self.count >= self.limit:
                return NEXT_ROW
            if self.count == 0 and cell[QUALIFIER] < self.column_offset:
                return HINT
            self.count += 1
            return INCLUDE_AND_NEXT_COL
        if self.count >= self.offset + self.limit:
            return NEXT_ROW
        code = NEXT_COL if self.count < self.offset else INCLUDE_AND_NEXT_COL
        self.count += 1
        return code

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        return first_on_row_col(cell, self.column_offset)

    def reset(self) -> None:
        self.count = 0

    def __repr__(self) -> str:
        if self.column_offset is not None:
            return f"ColumnPaginationFilter({self.limit}, column_offset={self.column_offset!r})"
        return f"ColumnPaginationFilter({self.limit}, {self.offset})"


class TimestampsFilter(Filter):
    """Keeps only the versions whose timestamp is in `timestamps`. With `can_hint` it seeks
    to the next wanted timestamp instead of stepping (HBase warns that a seek can step over
    delete markers; here cells arrive after delete processing, so it only saves work)."""

    def __init__(self, timestamps: Iterable[int] = (), can_hint: bool = False):
        stamps = sorted(set(timestamps))
        for ts in stamps:
            if not isinstance(ts, int) or ts < 0:
                raise InvalidArgumentError(f"must be positive {ts}")
        self.timestamps = stamps
        self._set = frozenset(stamps)
        self.min_timestamp = stamps[0] if stamps else (1 << 63) - 1
        self.can_hint = bool(can_hint)

    def filter_cell(self, cell: Cell) -> ReturnCode:
        ts = -cell[NEG_TS]
        if ts in self._set:
            return INCLUDE
        if ts < self.min_timestamp:
            return NEXT_COL  # older versions can only be smaller still
        return HINT if self.can_hint else SKIP

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        if not self.can_hint:
            return None
        i = bisect_left(self.timestamps, -cell[NEG_TS])  # largest wanted ts below this one
        if i == 0:
            return last_on_row_col(cell)
        return first_on_row_col_ts(cell, self.timestamps[i - 1])

    def __repr__(self) -> str:
        return f"TimestampsFilter({self.timestamps!r})"
