"""Small helpers to build rows of cells and run filters over them like a region would."""

from __future__ import annotations

from hsim.cell import Cell
from hsim.filters import fresh, scan_rows


def cell(row: str, column: str, ts: int, value: str | bytes = "", seq: int = 0) -> Cell:
    family, qualifier = column.split(":", 1)
    value = value.encode() if isinstance(value, str) else value
    return Cell.make(row.encode(), family.encode(), qualifier.encode(), ts, 4, value, seq)


def table(spec: dict) -> list:
    """{"r1": [("f:a", 2, "v"), ...], ...} -> [(b"r1", [cells in HBase order]), ...]."""
    out = []
    for row in sorted(spec):
        cells = sorted(cell(row, col, ts, value) for col, ts, value in spec[row])
        out.append((row.encode(), cells))
    return out


def show(cells) -> list[str]:
    """Cells as 'f:q@ts=value' strings, for readable assertions."""
    return [f"{c.family.decode()}:{c.qualifier.decode()}@{c.timestamp}="
            f"{c.value.decode('utf-8', 'backslashreplace')}" for c in cells]


def scan(filt, rows, max_versions=1, split_keys=()) -> dict:
    """Scan `rows` split into regions at `split_keys`, each region with a fresh copy of
    `filt` (as each region server deserialises its own). Returns {row: [shown cells]}."""
    bounds = [k.encode() if isinstance(k, str) else k for k in split_keys]
    regions: list[list] = [[] for _ in range(len(bounds) + 1)]
    for row, cells in rows:
        regions[sum(row >= b for b in bounds)].append((row, cells))
    result = {}
    for region in regions:
        for row, kept in scan_rows(lambda: fresh(filt), iter(region), max_versions):
            result[row.decode()] = show(kept)
    return result
