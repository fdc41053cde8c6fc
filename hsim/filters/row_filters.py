"""Filters that select or reshape whole rows: PrefixFilter, InclusiveStopFilter, PageFilter,
FirstKeyOnlyFilter and KeyOnlyFilter."""

from __future__ import annotations

import struct

from hsim.cell import NO_TTL, Cell, to_bytes_arg
from hsim.errors import InvalidArgumentError
from hsim.filters.base import Filter, INCLUDE, NEXT_ROW, ReturnCode, RowKeyDecision

_new = tuple.__new__
_INT = struct.Struct(">i")


class PrefixFilter(RowKeyDecision, Filter):
    """Keeps rows starting with `prefix`. Once the scan has passed the prefix (a row sorts
    after it; before it on a reversed scan) the region scan ends."""

    _STATE = {"passed_prefix": False, "filter_out_row": True}

    def __init__(self, prefix: bytes):
        self.prefix = to_bytes_arg(prefix)

    def filter_row_key(self, row: bytes) -> bool:
        if self.passed_prefix:
            return True
        prefix = self.prefix
        if len(row) < len(prefix):
            return True
        head = row[: len(prefix)]
        if (head < prefix) if self.reversed else (head > prefix):
            self.passed_prefix = True
        self.filter_out_row = head != prefix
        return self.filter_out_row


    def reset(self) -> None:
        self.filter_out_row = True

    def filter_all_remaining(self) -> bool:
        return self.passed_prefix

    def __repr__(self) -> str:
        return f"PrefixFilter({self.prefix!r})"


class InclusiveStopFilter(Filter):
    """Ends the scan after `stop_row` (which is included), unlike a scan's exclusive stop."""

    _STATE = {"done": False}

    def __init__(self, stop_row: bytes):
        self.stop_row = to_bytes_arg(stop_row)

    def filter_row_key(self, row: bytes) -> bool:
        if self.done:
            return True
        self.done = (row < self.stop_row) if self.reversed else (row > self.stop_row)
        return self.done

    def filter_cell(self, cell: Cell) -> ReturnCode:
        return NEXT_ROW if self.done else INCLUDE

    def filter_all_remaining(self) -> bool:
        return self.done

    def __repr__(self) -> str:
        return f"InclusiveStopFilter({self.stop_row!r})"


class PageFilter(Filter):
    """Stops a region's scan once `page_size` rows passed. The count is per filter instance
    and every region gets its own copy, so a multi-region scan can return more rows than
    `page_size` (as in HBase; the client must stop on its own)."""

    _STATE = {"rows_accepted": 0}

    def __init__(self, page_size: int):
        if not isinstance(page_size, int) or page_size < 0:
            raise InvalidArgumentError(f"must be positive {page_size}")
        self.page_size = page_size

    def filter_row_key(self, row: bytes) -> bool:
        return self.rows_accepted >= self.page_size

    def filter_all_remaining(self) -> bool:
        return self.rows_accepted >= self.page_size

    def has_filter_row(self) -> bool:
        return True

    def filter_row(self) -> bool:
        self.rows_accepted += 1
        return self.rows_accepted > self.page_size

    def __repr__(self) -> str:
        return f"PageFilter({self.page_size})"


class FirstKeyOnlyFilter(Filter):
    """Only the first cell of each row (of each family: NEXT_ROW leaves one family, but
    every later cell of the row gets NEXT_ROW too). The shell's `count` uses it."""

    _STATE = {"found": False}

    def reset(self) -> None:
        self.found = False

    def filter_cell(self, cell: Cell) -> ReturnCode:
        if self.found:
            return NEXT_ROW
        self.found = True
        return INCLUDE


class KeyOnlyFilter(Filter):
    """Strips values: each cell comes back with an empty value, or with `len_as_val` the
    value's length as a 4-byte big-endian int. Tags (a cell TTL) are dropped too."""

    def __init__(self, len_as_val: bool = False):
        self.len_as_val = bool(len_as_val)

    def transform_cell(self, cell: Cell) -> Cell:
        value = _INT.pack(len(cell[6])) if self.len_as_val else b""
        return _new(Cell, cell[:6] + (value, NO_TTL))

    def __repr__(self) -> str:
        return f"KeyOnlyFilter({self.len_as_val})"
