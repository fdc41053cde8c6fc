"""The unary operators of the filter language: SKIP (SkipFilter) and WHILE (WhileMatchFilter).

Both delegate only what their HBase classes delegate: filter_cell, transform_cell and reset
(WHILE also filter_row_key, filter_row and filter_all_remaining). In particular neither
passes on filter_row_cells or a seek hint.
"""

from __future__ import annotations

from hsim.filters.base import Filter, INCLUDE, ReturnCode

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.cell import Cell


class _Wrapper(Filter):
    """What SKIP and WHILE share: a wrapped filter that transforms the cells it keeps, and a
    flag its first rejected cell trips (SKIP: drop this row; WHILE: end the scan)."""

    _STATE = {"tripped": False}

    def __init__(self, filter: Filter):
        self.filter = filter

    def filter_cell(self, cell: Cell) -> ReturnCode:
        rc = self.filter.filter_cell(cell)
        if rc is not INCLUDE:
            self.tripped = True
        return rc

    def transform_cell(self, cell):
        return self.filter.transform_cell(cell)

    def may_transform(self) -> bool:
        return self.filter.may_transform()

    def has_filter_row(self) -> bool:
        return True

    def set_reversed(self, reversed: bool) -> None:
        self.filter.set_reversed(reversed)
        self.reversed = reversed

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.filter!r})"


class SkipFilter(_Wrapper):
    """Drops the whole row as soon as the wrapped filter does not INCLUDE one of its cells
    (e.g. SKIP ValueFilter(!=, 'binary:0') drops every row holding a 0 value)."""

    def reset(self) -> None:
        self.filter.reset()
        self.tripped = False

    def filter_row(self) -> bool:
        return self.tripped


class WhileMatchFilter(_Wrapper):
    """Ends the region's scan the first time the wrapped filter rejects anything: a row key,
    a cell (any code but INCLUDE) or a row. Rows before that point come back as usual; the
    row being read when it happens keeps the cells included so far."""

    def reset(self) -> None:
        self.filter.reset()  # `tripped` stays: the scan is over

    def filter_all_remaining(self) -> bool:
        return self.tripped or self.filter.filter_all_remaining()

    def filter_row_key(self, row: bytes) -> bool:
        if self.filter_all_remaining():
            return True
        value = self.filter.filter_row_key(row)
        self.tripped = self.tripped or value
        return value

    def filter_row(self) -> bool:
        value = self.filter.filter_row()
        self.tripped = self.tripped or value
        return value
