"""Filters that test one column's value: SingleColumnValueFilter (the whole row passes or
not), SingleColumnValueExcludeFilter (same, minus the tested column) and ColumnValueFilter
(2.x: only the matching cells of that column)."""

from __future__ import annotations

from hsim.cell import FAMILY, QUALIFIER, VALUE, to_bytes_arg
from hsim.filters.base import Filter, INCLUDE, NEXT_COL, NEXT_ROW, ReturnCode, SKIP
from hsim.filters.compare_filters import as_comparator
from hsim.filters.compare_op import CompareOperator, out_predicate

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.cell import Cell
    from hsim.filters.comparators import ByteArrayComparable


class SingleColumnValueFilter(Filter):
    """Emits the whole row when the tested column's value passes.

    A row that lacks the column is emitted unless `filter_if_missing`. With
    `latest_version_only` (the default) only the newest visible version is tested and a
    failing row is left at once (NEXT_ROW); otherwise any passing version lets the row
    through."""

    _STATE = {"found_column": False, "matched_column": False}

    def __init__(self, family: bytes | str, qualifier: bytes | str, op: CompareOperator | str,
                 comparator: ByteArrayComparable, filter_if_missing: bool = False,
                 latest_version_only: bool = True):
        self.family = to_bytes_arg(family)
        self.qualifier = to_bytes_arg(qualifier)
        self.op = CompareOperator.of(op)
        self.comparator = as_comparator(comparator)
        self.filter_if_missing = bool(filter_if_missing)
        self.latest_version_only = bool(latest_version_only)
        self._out = out_predicate(self.op, self.comparator)

    def reset(self) -> None:
        self.found_column = False
        self.matched_column = False

    def filter_cell(self, cell: Cell) -> ReturnCode:
        if self.matched_column:
            return INCLUDE
        if self.latest_version_only and self.found_column:
            return NEXT_ROW
        if cell[QUALIFIER] != self.qualifier or cell[FAMILY] != self.family:
            return INCLUDE
        self.found_column = True
        if self._out(cell[VALUE]):
            return NEXT_ROW if self.latest_version_only else INCLUDE
        self.matched_column = True
        return INCLUDE

    def has_filter_row(self) -> bool:
        return True

    def filter_row(self) -> bool:
        return not self.matched_column if self.found_column else self.filter_if_missing

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.family!r}, {self.qualifier!r}, {self.op.name}, "
                f"{self.comparator!r}, filter_if_missing={self.filter_if_missing}, "
                f"latest_version_only={self.latest_version_only})")


class SingleColumnValueExcludeFilter(SingleColumnValueFilter):
    """As SingleColumnValueFilter, then drops the tested column from the emitted row."""

    def filter_row_cells(self, cells: list) -> list:
        f, q = self.family, self.qualifier
        return [c for c in cells if c[QUALIFIER] != q or c[FAMILY] != f]


class ColumnValueFilter(Filter):
    """Returns only the cells of (family, qualifier) whose value passes; nothing else of the
    row. Once the column was seen, the rest of the row (in that family) is skipped."""

    _STATE = {"column_found": False}

    def __init__(self, family: bytes | str, qualifier: bytes | str, op: CompareOperator | str,
                 comparator: ByteArrayComparable):
        self.family = to_bytes_arg(family)
        self.qualifier = to_bytes_arg(qualifier or b"")
        self.op = CompareOperator.of(op)
        self.comparator = as_comparator(comparator)
        self._out = out_predicate(self.op, self.comparator)

    def reset(self) -> None:
        self.column_found = False

    def filter_cell(self, cell: Cell) -> ReturnCode:
        if cell[QUALIFIER] != self.qualifier or cell[FAMILY] != self.family:
            return NEXT_ROW if self.column_found else NEXT_COL
        self.column_found = True
        return SKIP if self._out(cell[VALUE]) else INCLUDE

    def __repr__(self) -> str:
        return (f"ColumnValueFilter({self.family!r}, {self.qualifier!r}, {self.op.name}, "
                f"{self.comparator!r})")
