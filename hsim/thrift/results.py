"""Cells -> the Thrift-1 result structs, as ThriftUtilities.cellFromHBase and
rowResultFromHBase build them.

A row's `columns` is a Java TreeMap keyed by ByteBuffer, in Java's signed byte order
(hsim.gateway.ordering). With several versions of one column the map keeps the last one put,
the oldest.
`sortedColumns` (TScan.sortColumns) lists the cells in the Result's own order instead.
"""

from __future__ import annotations

from hsim.cell import FAMILY, NEG_TS, QUALIFIER, ROW, VALUE
from hsim.gateway.ordering import java_order
from hsim.thrift.idl import ttypes

TCell = ttypes.TCell
TColumn = ttypes.TColumn
TRowResult = ttypes.TRowResult

def tcells(cells: list) -> list:
    return [TCell(c[VALUE], -c[NEG_TS]) for c in cells]


def row_result(row: bytes, cells: list, sort_columns: bool = False):
    if sort_columns:
        return TRowResult(row=row, sortedColumns=[
            TColumn(c[FAMILY] + b":" + c[QUALIFIER], TCell(c[VALUE], -c[NEG_TS])) for c in cells])
    columns = {}
    for c in cells:
        columns[c[FAMILY] + b":" + c[QUALIFIER]] = TCell(c[VALUE], -c[NEG_TS])
    if len(columns) > 1:
        columns = dict(sorted(columns.items(), key=lambda kv: java_order(kv[0])))
    return TRowResult(row=row, columns=columns)


def row_results(sort_columns: bool):
    """The converter a scanner applies: native rows (or a batched scan's partial rows) ->
    TRowResults."""

    def convert(rows):
        for cells in rows:
            yield row_result(cells[0][ROW], cells, sort_columns)

    return convert
