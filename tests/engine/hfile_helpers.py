"""Shared helpers for the HFile tests: deterministic cells, write, open."""

from __future__ import annotations

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine.hfile import HFileReader, HFileWriter
from hsim.schema import ColumnFamily


def make_cells(rows: int, cols: int = 1, *, row_fmt: bytes = b"row%06d", family: bytes = b"f",
               qual_fmt: bytes = b"q%03d", value: bytes = b"v" * 20, ts: int = 1000,
               versions: int = 1) -> list[Cell]:
    """rows x cols x versions Put cells, sorted, with distinct descending-by-order seq ids."""
    out = []
    seq = rows * cols * versions
    for r in range(rows):
        row = row_fmt % r
        for c in range(cols):
            qual = qual_fmt % c
            for v in range(versions):
                out.append(Cell.make(row, family, qual, ts + versions - v, 4, value, seq))
                seq -= 1
    out.sort()
    return out


def write(cells, family: ColumnFamily | None = None, config: Config | None = None, *,
          max_seq_id: int | None = None, major: bool = False, create_time: int = 0,
          **writer_options) -> bytes:
    family = family or ColumnFamily()
    config = config or Config()
    w = HFileWriter(family, config, **writer_options)
    for c in cells:
        w.append(c)
    if max_seq_id is None:
        max_seq_id = max((c.seq_id for c in cells), default=0)
    return w.finish(max_seq_id, major, create_time)


def open_reader(data: bytes, family: ColumnFamily | None = None, config: Config | None = None,
                cache=None, name: str = "hfile-1") -> HFileReader:
    return HFileReader(data, name, family or ColumnFamily(), config or Config(), cache)


def roundtrip(cells, family: ColumnFamily | None = None, config: Config | None = None,
              cache=None, **writer_options) -> HFileReader:
    return open_reader(write(cells, family, config, **writer_options), family, config, cache)
