"""StoreFileScanner within one row: a store file's cells of the row, one data block at a time.

A Get used to read every block of its row before the matcher saw a cell. HBase's StoreScanner
pulls cells through its StoreFileScanners instead, and a matcher or filter that is done with a
column or the row reseeks or stops, so the blocks past the seek are never read
(StoreFileScanner.reseek -> HFileScannerImpl.reseekTo: a key inside the block held costs
nothing, a key further on goes through the block index). The cursor holds the row's cells of
the block it is on (`held`, the ones not consumed yet) and whether the row may go on in the
next block (`more`); `hsim.engine.store_scanner` merges cursors and asks them to seek.
"""

from __future__ import annotations

from bisect import bisect_left

from hsim.engine.block_index import first_on_row, search_key


class RowCursor:
    __slots__ = ("reader", "row", "io", "i", "held", "more", "name")

    def __init__(self, reader, row: bytes, io, name: str):
        """Seek to the row's first block (the block the index gives for its first key)."""
        self.reader = reader
        self.row = row
        self.io = io
        self.name = name  # the store file's name (what explain shows a seek of)
        self.i = reader.locate(first_on_row(row), io)
        self.held, self.more = reader.row_part(row, self.i, None, io)

    def seek(self, key: tuple) -> int:
        """Pass over the row's cells before `key` (a cell prefix ahead of the cursor). Returns
        the blocks the seek jumped over unread (0: it stayed in the held block or moved to
        the next one)."""
        held = self.held
        if held and held[-1] >= key:
            self.held = held[bisect_left(held, key):]
            return 0
        self.held = []
        skipped = 0
        while self.more and not self.held:
            skipped += self.advance(key)
        return skipped

    def fill(self) -> None:
        """Load the next block while nothing of the row is held and the row may go on."""
        while self.more and not self.held:
            self.advance(None)

    def advance(self, key: tuple | None) -> int:
        """Move to the next block, or, seeking to `key`, to the block the index gives for it
        when that one lies further on (a reseek through the index). Returns blocks skipped."""
        r = self.reader
        i = self.i + 1
        skipped = 0
        if key is not None:
            j = r.locate(search_key(key), self.io)
            if j > i:
                skipped, i = j - i, j
        if i >= r.data_block_count:
            self.held, self.more = [], False
            return skipped
        self.i = i
        self.held, self.more = r.row_part(self.row, i, key, self.io)
        return skipped
