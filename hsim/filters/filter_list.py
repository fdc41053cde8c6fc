"""FilterList: AND (MUST_PASS_ALL) and OR (MUST_PASS_ONE) of filters, with HBase 2.x's
return-code merging (FilterListWithAND, FilterListWithOR, FilterListBase).

A return code is a pair (include?, how far to move on): INCLUDE and SKIP move one cell,
the *_NEXT_COL codes one column, the *_NEXT_ROW codes one row (in this family), a hint
an unknown distance. AND keeps the longest move and includes only if every filter does
("maximal step"); OR keeps the shortest move and includes if any filter does ("minimal
step"), counting a hint as a one-cell move unless every filter asked to seek.

OR also remembers, per sub-filter, the last code and cell: a sub-filter that said NEXT_COL
is not asked again about the rest of that column (it gets NEXT_COL again), and likewise for
NEXT_ROW within the family and for a pending seek hint (HBASE-17678, HBASE-18368), so a
stateful sub-filter sees each cell the way it would on its own.
"""

from __future__ import annotations

import enum

from hsim.cell import FAMILY, QUALIFIER
from hsim.errors import InvalidArgumentError
from hsim.filters.base import Filter, HINT, INCLUDE, INCLUDE_CODES, ReturnCode, SKIP

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable
    from hsim.cell import Cell

RC = ReturnCode
_MOVE = {  # code -> (includes the cell, how far it moves: cell, column, row, hint)
    RC.INCLUDE: (True, 0),
    RC.SKIP: (False, 0),
    RC.INCLUDE_AND_NEXT_COL: (True, 1),
    RC.NEXT_COL: (False, 1),
    RC.INCLUDE_AND_SEEK_NEXT_ROW: (True, 2),
    RC.NEXT_ROW: (False, 2),
    RC.SEEK_NEXT_USING_HINT: (False, 3),
}
_CODE = {v: k for k, v in _MOVE.items()}


def _merge_and(rc: RC, local: RC) -> RC:
    (i1, m1), (i2, m2) = _MOVE[rc], _MOVE[local]
    m = max(m1, m2)
    return HINT if m == 3 else _CODE[(i1 and i2, m)]


def _merge_or(rc: RC, local: RC) -> RC:
    if rc is HINT and local is HINT:
        return HINT
    (i1, m1), (i2, m2) = _MOVE[rc], _MOVE[local]
    m = min(0 if rc is HINT else m1, 0 if local is HINT else m2)
    return _CODE[(i1 or i2, m)]


# Precomputed tables: the merge runs once per sub-filter per cell.
MERGE_AND = {(a, b): _merge_and(a, b) for a in RC for b in RC}
MERGE_OR = {(a, b): _merge_or(a, b) for a in RC for b in RC}


class Operator(enum.Enum):
    """FilterList.Operator: MUST_PASS_ALL (AND) or MUST_PASS_ONE (OR)."""

    MUST_PASS_ALL = "AND"
    MUST_PASS_ONE = "OR"


class FilterList(Filter, combines=True):
    """An ordered list of filters combined with MUST_PASS_ALL (AND) or MUST_PASS_ONE (OR).
    Lists nest. An empty list lets everything through."""

    Operator = Operator
    MUST_PASS_ALL = Operator.MUST_PASS_ALL
    MUST_PASS_ONE = Operator.MUST_PASS_ONE

    def __init__(self, operator: Operator = Operator.MUST_PASS_ALL, filters: Iterable[Filter] = ()):
        if isinstance(operator, str):
            try:
                operator = Operator[operator.upper()]
            except KeyError:
                raise InvalidArgumentError(f"Unknown FilterList operator {operator!r}") from None
        if not isinstance(operator, Operator):
            raise InvalidArgumentError(f"Unknown FilterList operator {operator!r}")
        self.operator = operator
        self.filters = list(filters)
        for f in self.filters:
            if not isinstance(f, Filter):
                raise InvalidArgumentError(f"not a filter: {f!r}")
        self._and = operator is Operator.MUST_PASS_ALL
        self._transforms = any(f.may_transform() for f in self.filters)
        self._forget()

    _MEMORY = ("_hint_filters", "_included", "_prev_rc", "_prev_cell")

    def _forget(self) -> None:
        """Start the per-row memory afresh."""
        n = len(self.filters)
        self._hint_filters: list = []  # AND: the sub-filter that asked to seek, this cell
        self._included = [self._and] * n  # sub-filters whose transform applies, this cell
        self._prev_rc: list = [None] * n  # OR: last code and cell per sub-filter
        self._prev_cell: list = [None] * n

    @classmethod
    def combine(cls, operator: Operator, left: Filter, right: Filter) -> "FilterList":
        """`left & right` / `left | right`: extends a left list of the same operator."""
        if isinstance(left, FilterList) and left.operator is operator:
            return cls(operator, left.filters + [right])
        return cls(operator, [left, right])

    def __getstate__(self):
        # A copy keeps the sub-filters, not the per-row memory (which holds Cells).
        state = super().__getstate__()
        for name in self._MEMORY:
            state.pop(name, None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._forget()

    def add_filter(self, f: Filter) -> None:
        """Append a filter to the list."""
        self.filters.append(f)
        self._transforms = self._transforms or f.may_transform()
        self._included.append(self._and)
        self._prev_rc.append(None)
        self._prev_cell.append(None)

    # --- lifecycle ----------------------------------------------------------------------
    def reset(self) -> None:
        for f in self.filters:
            f.reset()
        self._forget()

    def filter_all_remaining(self) -> bool:
        # Asked for every cell (by the scanner and by enclosing lists): plain loops.
        filters = self.filters
        if not filters:
            return False
        if self._and:
            for f in filters:
                if f.filter_all_remaining():
                    return True
            return False
        for f in filters:
            if not f.filter_all_remaining():
                return False
        return True

    def filter_row_key(self, row: bytes) -> bool:
        if not self.filters:
            return False
        # Every sub-filter sees the row key (PrefixFilter and others track rows there).
        if self._and:
            result = False
            for f in self.filters:
                if f.filter_all_remaining() or f.filter_row_key(row):
                    result = True
            return result
        result = True
        for f in self.filters:
            if not f.filter_all_remaining() and not f.filter_row_key(row):
                result = False
        return result

    def filter_cell(self, cell: Cell) -> RC:
        filters = self.filters
        if not self._and:
            return self._filter_cell_or(cell, filters) if filters else INCLUDE
        rc = INCLUDE
        merge = MERGE_AND
        for f in filters:
            if f.filter_all_remaining():
                return RC.NEXT_ROW
            local = f.filter_cell(cell)
            if local is HINT:
                self._hint_filters = [f]
                return HINT
            rc = merge[rc, local]
            # Later sub-filters see the cell only while it is still included (HBASE-20565),
            # so their counters (offsets, limits) are not advanced by cells already dropped.
            if rc not in INCLUDE_CODES:
                return rc
        return rc

    def _filter_cell_or(self, cell, filters) -> RC:
        rc = None
        merge = MERGE_OR
        prev_rc, prev_cell, included = self._prev_rc, self._prev_cell, self._included
        for i, f in enumerate(filters):
            included[i] = False
            if f.filter_all_remaining():
                continue
            prev = prev_cell[i]  # None after INCLUDE and SKIP: just ask the sub-filter
            local = None if prev is None else self._code_from_previous(f, cell, prev, prev_rc[i])
            if local is None:
                local = f.filter_cell(cell)
            prev_rc[i] = local
            prev_cell[i] = None if local is INCLUDE or local is SKIP else cell
            rc = local if rc is None else merge[rc, local]
            if local in INCLUDE_CODES:
                included[i] = True
        return SKIP if rc is None else rc

    def _code_from_previous(self, f: Filter, cell, prev, prev_rc):
        """FilterListWithOR.calculateReturnCodeByPrevCellAndRC: the code a sub-filter's last
        answer still implies for this cell, or None to ask the sub-filter."""
        if prev is None or prev_rc is None or prev_rc is INCLUDE or prev_rc is SKIP:
            return None
        if prev_rc is HINT:
            hint = f.get_next_cell_hint(prev)
            if hint is not None and self._compare(cell, hint) < 0:
                return HINT
            return None
        if prev_rc is RC.NEXT_COL or prev_rc is RC.INCLUDE_AND_NEXT_COL:
            same = prev[QUALIFIER] == cell[QUALIFIER] and prev[FAMILY] == cell[FAMILY]
            return RC.NEXT_COL if same else None
        # NEXT_ROW, INCLUDE_AND_SEEK_NEXT_ROW: rows are the same until reset()
        return RC.NEXT_ROW if prev[FAMILY] == cell[FAMILY] else None

    def may_transform(self) -> bool:
        return self._transforms

    def transform_cell(self, cell: Cell) -> Cell:
        if not self._transforms:
            return cell
        for f, included in zip(self.filters, self._included):
            if included:
                cell = f.transform_cell(cell)
        return cell

    def filter_row_cells(self, cells: list) -> list:
        for f in self.filters:
            cells = f.filter_row_cells(cells)
        return cells

    def has_filter_row(self) -> bool:
        return any(f.has_filter_row() for f in self.filters)

    def filter_row(self) -> bool:
        # Short-circuits as HBase does (PageFilter counts the rows it is asked about).
        if not self.filters:
            return False
        if self._and:
            return any(f.filter_row() for f in self.filters)
        return all(f.filter_row() for f in self.filters)

    def get_next_cell_hint(self, cell: Cell) -> Cell | None:
        if self._and:
            best = None
            for f in self._hint_filters:
                if f.filter_all_remaining():
                    continue
                hint = f.get_next_cell_hint(cell)
                if best is None or (hint is not None and self._compare(best, hint) < 0):
                    best = hint
            return best
        best = None
        for f in self.filters:
            if f.filter_all_remaining():
                continue
            hint = f.get_next_cell_hint(cell)
            if hint is None:
                return None  # one sub-filter cannot say: no safe seek for the list
            if best is None or self._compare(best, hint) > 0:
                best = hint
        return best

    def set_reversed(self, reversed: bool) -> None:
        for f in self.filters:
            f.set_reversed(reversed)
        self.reversed = reversed

    def _compare(self, a, b) -> int:
        ka, kb = a[:5], b[:5]
        c = (ka > kb) - (ka < kb)
        return -c if self.reversed else c

    def __repr__(self) -> str:
        return f"FilterList({self.operator.name}, {self.filters!r})"
