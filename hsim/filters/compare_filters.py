"""CompareFilter and the filters built on it: RowFilter, FamilyFilter, QualifierFilter,
ValueFilter and DependentColumnFilter (each as its HBase class of the same name)."""

from __future__ import annotations

from hsim.cell import FAMILY, NEG_TS, QUALIFIER, VALUE, to_bytes_arg
from hsim.filters.base import Filter, INCLUDE, NEXT_ROW, ReturnCode, RowKeyDecision, SKIP
from hsim.filters.compare_op import CompareOperator, out_predicate
from hsim.filters.comparators import BinaryComparator, ByteArrayComparable

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.cell import Cell


def as_comparator(comparator) -> ByteArrayComparable:
    """A comparator, or plain bytes/str meaning BinaryComparator (the byte[] constructors)."""
    if isinstance(comparator, ByteArrayComparable):
        return comparator
    return BinaryComparator(to_bytes_arg(comparator))


class CompareFilter(Filter):
    """An operator and a comparator, applied to one part of the cell."""

    def __init__(self, op: CompareOperator | str, comparator: ByteArrayComparable | None):
        self.op = CompareOperator.of(op)
        self.comparator = as_comparator(comparator)
        self._out = out_predicate(self.op, self.comparator)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.op.name}, {self.comparator!r})"


class RowFilter(RowKeyDecision, CompareFilter):
    """Keeps rows whose key passes; decided once per row in filter_row_key."""

    _STATE = {"filter_out_row": False}

    def reset(self) -> None:
        self.filter_out_row = False

    def filter_row_key(self, row: bytes) -> bool:
        if self._out(row):
            self.filter_out_row = True
        return self.filter_out_row


class FamilyFilter(CompareFilter):
    """Keeps the cells of the families that pass; a failing family is skipped with NEXT_ROW,
    which only leaves that family (the next family's cells are still offered)."""

    def filter_cell(self, cell: Cell) -> ReturnCode:
        family = cell[FAMILY]
        if family and self._out(family):
            return NEXT_ROW
        return INCLUDE


class QualifierFilter(CompareFilter):
    """Keeps cells whose qualifier passes. The empty qualifier is compared like any other
    (QualifierFilter.filterCell; FamilyFilter, unlike it, lets an empty family through)."""

    def filter_cell(self, cell: Cell) -> ReturnCode:
        return SKIP if self._out(cell[QUALIFIER]) else INCLUDE


class ValueFilter(CompareFilter):
    """Keeps cells whose value passes, whatever their column."""

    def filter_cell(self, cell: Cell) -> ReturnCode:
        return SKIP if self._out(cell[VALUE]) else INCLUDE


class DependentColumnFilter(CompareFilter):
    """Keeps only the cells whose timestamp is one of the reference column's timestamps in
    the row (optionally only reference cells whose value passes), and optionally drops the
    reference column itself. Needs the whole row: the decision is made in filter_row_cells."""

    def __init__(self, family: bytes | str, qualifier: bytes | str,
                 drop_dependent_column: bool = False,
                 op: CompareOperator | str = CompareOperator.NO_OP,
                 comparator: ByteArrayComparable | None = None):
        self.family = to_bytes_arg(family)
        self.qualifier = to_bytes_arg(qualifier)
        self.drop_dependent_column = bool(drop_dependent_column)
        self.op = CompareOperator.of(op)
        self.comparator = None if comparator is None else as_comparator(comparator)
        self._out = None if comparator is None else out_predicate(self.op, self.comparator)
        self.stamps: set[int] = set()

    def reset(self) -> None:
        self.stamps = set()

    def filter_cell(self, cell: Cell) -> ReturnCode:
        if cell[QUALIFIER] != self.qualifier or cell[FAMILY] != self.family:
            return INCLUDE  # kept for now; filter_row_cells decides
        if self._out is not None and self._out(cell[VALUE]):
            return SKIP
        self.stamps.add(-cell[NEG_TS])
        return SKIP if self.drop_dependent_column else INCLUDE

    def filter_row_cells(self, cells: list) -> list:
        stamps = self.stamps
        return [c for c in cells if -c[NEG_TS] in stamps]

    def has_filter_row(self) -> bool:
        return True

    def __repr__(self) -> str:
        return (f"DependentColumnFilter({self.family!r}, {self.qualifier!r}, "
                f"{self.drop_dependent_column}, {self.op.name}, {self.comparator!r})")

