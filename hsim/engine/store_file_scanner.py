"""StoreFileScanner within one row: a store file's cells of the row, one data block at a time.

A Get used to read every block of its row before the matcher saw a cell. HBase's StoreScanner
pulls cells through its StoreFileScanners instead, and a matcher or filter that is done with a
column or the row reseeks or stops, so the blocks past the seek are never read
(StoreFileScanner.reseek -> HFileScannerImpl.reseekTo: a key inside the block held costs
nothing, a key further on goes through the block index). The cursor holds the row's cells of
the block it is on (`held`, the ones not consumed yet) and whether the row may go on in the
next block (`more`); `hsim.engine.store_scanner` merges cursors and asks them to seek.
A reversed scan reads a file's rows backwards a block at a time (`reversed_rows`).
"""

from __future__ import annotations

from bisect import bisect_left

from hsim.cell import ROW
from hsim.engine.block_index import first_on_row, search_key

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.hfile_reader import HFileReader
    from hsim.metrics import IOCounters


class RowCursor:
    """One store file's cells of one row, read a data block at a time as the store scanner asks
    (StoreFileScanner); it counts the blocks it reads in the request's IOCounters."""

    __slots__ = ("reader", "row", "io", "i", "held", "more", "name", "rowcol", "decoded")

    def __init__(self, reader: HFileReader, row: bytes, io: IOCounters, name: str,
                 wanted: list | None = None):
        """Seek to the row's first block (the block the index gives for its first key). A Get
        of explicit columns (`wanted`, sorted) seeks lazily (StoreFileScanner.requestSeek):
        to the row's start only when the file may hold a family marker for the row
        (`may_delete_family`), else straight to the first wanted column the file may hold;
        it reads blocks decoded (HFileReader.row_part), as it bisects them column by column."""
        self.reader: HFileReader = reader
        self.row = row
        self.io = io
        self.name = name  # the store file's name (what explain shows a seek of)
        if wanted is None:
            self.rowcol = None
            self.decoded = False
            self.i = i = reader.locate(first_on_row(row), io)
            self.held, self.more = reader.row_part(row, i, None, io, False)
            return
        self.decoded = True
        bloom = reader.bloom
        # one column: the file's bloom test already probed it
        self.rowcol = (bloom if len(wanted) > 1 and bloom is not None
                       and bloom.bloom_type == "ROWCOL" else None)
        key = None
        if wanted[0] and not reader.may_delete_family(row, io):
            key = self._column_key(wanted, 0)
            if key is None:
                self.i, self.held, self.more = -1, [], False
                return
        self.i = reader.locate(first_on_row(row) if key is None else search_key(key), io)
        self.held, self.more = reader.row_part(row, self.i, key, io, True)

    def _column_key(self, wanted: list, j: int) -> tuple | None:
        """The key of the first wanted column from wanted[j] on that this file may hold (a
        ROWCOL bloom rules columns out), or None."""
        rowcol = self.rowcol
        family = self.reader.first_key[1]  # a file holds one family
        for q in wanted[j:]:
            if rowcol is None or self.reader.may_hold_column(self.row, q, self.io):
                return (self.row, family, q)
        return None

    def seek_column(self, wanted: list, j: int) -> int:
        """ExplicitColumnTracker's seek to the next wanted column, wanted[j] (or a later one,
        when a ROWCOL bloom says this file has no cell of it)."""
        key = self._column_key(wanted, j)
        if key is None:
            self.held, self.more = [], False
            return 0
        return self.seek(key)

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
        r: HFileReader = self.reader
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
        self.held, self.more = r.row_part(self.row, i, key, self.io, self.decoded)
        return skipped


def reversed_rows(reader: HFileReader, start_row: bytes | None, stop_row: bytes | None, io,
                  cursor: list | None = None):
    """ReversedStoreFileScanner over one HFile: (row, cells ascending) for rows in descending
    order, start_row inclusive, stop_row exclusive (None: from the last row / down to the
    first). `cursor` ([block number, its cells], updated as the scan moves back) makes a
    later scan from a row below a seek inside the block held when the row is there (a
    reversed filter hint), with no index lookup and no block fetch."""
    n = reader.data_block_count
    if not n:
        return
    block = reader.data_block
    if start_row is None:
        i = n - 1
        cells = block(i, io)
        pos = len(cells)
    else:
        key = first_on_row(start_row + b"\x00")  # the first key after start_row
        held = None if cursor is None else cursor[1]
        if held is not None and held[0] < key <= held[-1]:
            i, cells = cursor[0], held
        else:
            i = reader.locate(key, io)
            cells = block(i, io)
        pos = bisect_left(cells, key)
    if cursor is not None:
        cursor[0], cursor[1] = i, cells
    cur_row = None
    acc: list = []
    while True:
        while pos > 0:
            pos -= 1
            c = cells[pos]
            r = c[ROW]
            if r == cur_row:
                acc.append(c)
                continue
            if acc:
                acc.reverse()
                yield cur_row, acc
            if stop_row is not None and r <= stop_row:
                return
            cur_row = r
            acc = [c]
        i -= 1
        if i < 0:
            break
        cells = block(i, io)
        pos = len(cells)
        if cursor is not None:
            cursor[0], cursor[1] = i, cells
    if acc:
        acc.reverse()
        yield cur_row, acc
