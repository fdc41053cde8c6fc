"""Column specs as HBase's gateways read them (CellUtil.parseColumn: Thrift-1's column
names, REST's row-spec columns), and the column selection a Get or Scan builds from a list of them.

`b"f"` is the whole family, `b"f:"` the empty qualifier (HBASE-9549; happybase's docs still
call it the whole family), `b"f:q"` one column; the qualifier is everything after the first
':'. Get/Scan.addFamily replaces the family's columns and a later addColumn narrows the
family back down to that column, so the order of the list matters.
"""

from __future__ import annotations

from hsim.errors import NoSuchColumnFamilyError


def parse_column(column: bytes) -> tuple[bytes, bytes | None]:
    family, sep, qualifier = column.partition(b":")
    return family, (qualifier if sep else None)


def select(columns) -> list | None:
    """The native `columns=` argument for a list of specs (None: every family)."""
    if not columns:
        return None
    wanted: dict[bytes, list | None] = {}
    for spec in columns:
        family, qualifier = parse_column(spec)
        if not family:
            raise NoSuchColumnFamilyError("Column family  does not exist")
        if qualifier is None:
            wanted[family] = None
        elif wanted.get(family) is None:
            wanted[family] = [qualifier]
        else:
            wanted[family].append(qualifier)
    out = []
    for family, qualifiers in wanted.items():
        if qualifiers is None:
            out.append(family)
        else:
            out.extend(family + b":" + q for q in qualifiers)
    return out
