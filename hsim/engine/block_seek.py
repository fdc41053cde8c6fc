"""A data block kept as its bytes plus the offsets of its cells, for Gets that seek into it.

HBase caches a data block as bytes and a Get walks it with a block seeker (NoneEncoder's
BufferedEncodedSeeker / HFileReaderImpl.blockSeek) instead of materialising every cell.
Decoding all ~460 cells of a 64 KiB block to answer a one-row Get is most of a cold Get's cost
in Python, so the writer remembers where each cell of a block starts (4 bytes a cell) and a
Get binary-searches those offsets by row and decodes only that row's cells. A scan that meets
such a block decodes it whole once (`cells`), as before.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right

from hsim.engine.block import decode_cells


class SeekableBlock:
    """A cached data block kept as bytes plus the offset of each cell (or, for ROW_INDEX_V1,
    of each row), so a Get decodes only its row's cells."""

    __slots__ = ("body", "offsets", "include_tags", "include_mvcc")

    def __init__(self, body: bytes, offsets: array, include_tags: bool, include_mvcc: bool):
        self.body = body
        self.offsets = offsets  # where each cell starts in body, ascending
        self.include_tags = include_tags
        self.include_mvcc = include_mvcc

    def _row_at(self, off: int) -> bytes:
        body = self.body  # keylen:4 vallen:4 rowlen:2 row ...
        return body[off + 10: off + 10 + (body[off + 8] << 8 | body[off + 9])]

    def row_cells(self, row: bytes) -> tuple[list, bool]:
        """The cells of `row` in this block, and whether they run to the block's end (then the
        row may continue in the next block, which the caller must also read)."""
        offs = self.offsets
        key = self._row_at
        n = len(offs)
        lo = bisect_left(offs, row, key=key)
        if lo == n or key(offs[lo]) != row:
            return [], lo == n
        hi = lo + 1  # most rows hold one cell here: look at the next before bisecting again
        if hi < n and key(offs[hi]) == row:
            hi = bisect_right(offs, row, hi, key=key)
        end = offs[hi] if hi < n else len(self.body)
        return decode_cells(self.body[offs[lo]:end], self.include_tags, self.include_mvcc), hi == n

    def cells(self) -> list:
        return decode_cells(self.body, self.include_tags, self.include_mvcc)
