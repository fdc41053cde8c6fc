"""The Filter lifecycle (org.apache.hadoop.hbase.filter.Filter / FilterBase) and its ReturnCode.

A region scanner drives one filter object per region and per request, row by row:
reset, filter_all_remaining, filter_row_key, then filter_cell for each cell that survived
version and delete processing (transform_cell on the ones it includes), then
filter_row_cells and filter_row. `hsim.filters.apply` is that driver.

The defaults here are FilterBase's: a filter that overrides nothing lets everything through.
Filters compose with `&` (FilterList MUST_PASS_ALL) and `|` (MUST_PASS_ONE).
"""

from __future__ import annotations

import enum

from hsim.cell import LATEST_TIMESTAMP, NO_TTL, Cell, CellType

_new = tuple.__new__


class ReturnCode(enum.IntEnum):
    """Filter.ReturnCode: what filter_cell tells the scanner to do with a cell."""

    INCLUDE = 0  # include the cell
    INCLUDE_AND_NEXT_COL = 1  # include it, skip the column's older versions
    SKIP = 2  # skip this cell
    NEXT_COL = 3  # skip the rest of this column
    NEXT_ROW = 4  # skip the rest of this row *in this family* (HBASE-18368)
    SEEK_NEXT_USING_HINT = 5  # seek to get_next_cell_hint(cell)
    INCLUDE_AND_SEEK_NEXT_ROW = 6  # include it, then as NEXT_ROW


# The codes by name, as filter code reads them; the filter modules import these rather than
# each aliasing the enum's members again.
INCLUDE = ReturnCode.INCLUDE
INCLUDE_AND_NEXT_COL = ReturnCode.INCLUDE_AND_NEXT_COL
SKIP = ReturnCode.SKIP
NEXT_COL = ReturnCode.NEXT_COL
NEXT_ROW = ReturnCode.NEXT_ROW
HINT = ReturnCode.SEEK_NEXT_USING_HINT
INCLUDE_AND_SEEK_NEXT_ROW = ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW

INCLUDE_CODES = frozenset(
    (ReturnCode.INCLUDE, ReturnCode.INCLUDE_AND_NEXT_COL, ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW)
)


class Filter:
    """FilterBase: the no-op filter every filter starts from."""

    reversed = False  # Filter.reversed, set for reversed scans (PrefixFilter, InclusiveStopFilter)

    # State a filter builds up while scanning, with its initial value. A copy (`fresh`)
    # leaves it out, as HBase ships only a filter's arguments to each region.
    _STATE: dict = {}

    # The class `a & b` and `a | b` build (FilterList, which registers itself with
    # `class FilterList(Filter, combines=True)`, so this module need not import it).
    _combiner = None

    def __init_subclass__(cls, combines: bool = False, **kwargs):
        super().__init_subclass__(**kwargs)
        if combines:
            Filter._combiner = cls

    def __new__(cls, *args, **kwargs):
        """Every filter, built or copied, starts from its `_STATE` (the one place it is set)."""
        self = super().__new__(cls)
        self.__dict__.update(cls._STATE)
        return self

    def __getstate__(self):
        state = self.__dict__.copy()
        for name in self._STATE:
            state.pop(name, None)
        return state

    def reset(self) -> None:
        """Forget per-row state; called before each row."""

    def filter_all_remaining(self) -> bool:
        """True ends the scan of this region (PageFilter full, WHILE failed, ...)."""
        return False

    def filter_row_key(self, row: bytes) -> bool:
        """True drops the whole row before any of its cells is looked at."""
        return False

    def filter_cell(self, cell: Cell) -> ReturnCode:
        """Filter.filterCell: what to do with this cell (a ReturnCode: include, skip, next column,
        next row, ...)."""
        return ReturnCode.INCLUDE

    def transform_cell(self, cell: Cell) -> Cell:
        """Filter.transformCell: the cell as the client sees it (unchanged by default)."""
        return cell

    def may_transform(self) -> bool:
        """Whether transform_cell can change a cell (lets drivers skip the no-op call)."""
        return type(self).transform_cell is not Filter.transform_cell

    def filter_row_cells(self, cells: list) -> list:
        """Last edit of the row's kept cells (returns the list to keep)."""
        return cells

    def has_filter_row(self) -> bool:
        """True when filter_row / filter_row_cells must see the whole row."""
        return False

    def filter_row(self) -> bool:
        """True drops the row after all its cells were seen."""
        return False

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        """Where to seek after SEEK_NEXT_USING_HINT; None means "just the next cell"."""
        return None

    def set_reversed(self, reversed: bool) -> None:
        """Tell the filter the scan runs in reverse."""
        self.reversed = reversed

    # --- composition --------------------------------------------------------------------
    def __and__(self, other: "Filter") -> "Filter":
        lst = self._combiner
        return lst.combine(lst.MUST_PASS_ALL, self, other)

    def __or__(self, other: "Filter") -> "Filter":
        lst = self._combiner
        return lst.combine(lst.MUST_PASS_ONE, self, other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def first_on_row_col(cell, qualifier: bytes):
    """PrivateCellUtil.createFirstOnRowCol: the first possible key of (row, family, qualifier)."""
    return _new(
        Cell, (cell[0], cell[1], qualifier, -LATEST_TIMESTAMP, -CellType.MAXIMUM, 0, b"", NO_TTL)
    )


def first_on_row_col_ts(cell, ts: int):
    """CellUtil.createFirstOnRowColTS: the first key of the cell's column at timestamp `ts`."""
    return _new(Cell, (cell[0], cell[1], cell[2], -ts, -CellType.MAXIMUM, 0, b"", NO_TTL))


def last_on_row_col(cell):
    """CellUtil.createLastOnRowCol: sorts after every version of the cell's column."""
    return _new(Cell, (cell[0], cell[1], cell[2], 1 << 63, -CellType.MINIMUM, 0, b"", NO_TTL))


class RowKeyDecision:
    """For filters that judge a whole row by its key in filter_row_key (setting
    `filter_out_row`): every cell follows the decision (NEXT_ROW past a dropped row), and
    filter_row repeats it. RowFilter, PrefixFilter and RandomRowFilter share it."""

    filter_out_row = False

    def filter_cell(self, cell: Cell) -> ReturnCode:
        return ReturnCode.NEXT_ROW if self.filter_out_row else ReturnCode.INCLUDE

    def filter_row(self) -> bool:
        return self.filter_out_row

