"""Cells -> the Thrift-1 result structs, as ThriftUtilities.cellFromHBase and
rowResultFromHBase build them.

A row's `columns` is a Java TreeMap keyed by ByteBuffer, whose compareTo compares *signed*
bytes, so that is the order the map goes on the wire in (and the order a Python dict read from
it keeps). With several versions of one column the map keeps the last one put, the oldest.
`sortedColumns` (TScan.sortColumns) lists the cells in the Result's own order instead.
"""

from __future__ import annotations

from hsim.cell import FAMILY, NEG_TS, QUALIFIER, VALUE
from hsim.thrift.idl import ttypes

TCell = ttypes.TCell
TColumn = ttypes.TColumn
TRowResult = ttypes.TRowResult

# Maps each byte to its rank as a Java (signed) byte, so sorting translated keys sorts as
# ByteBuffer.compareTo does.
_SIGNED = bytes((b + 128) & 0xFF for b in range(256))


def java_order(key: bytes) -> bytes:
    return key.translate(_SIGNED)


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
        columns = dict(sorted(columns.items(), key=lambda kv: kv[0].translate(_SIGNED)))
    return TRowResult(row=row, columns=columns)
