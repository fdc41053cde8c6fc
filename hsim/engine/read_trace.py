"""What a traced read records, for `explain` (hsim.inspect.explain): one named entry per step a
Store's Get or Scan takes, recorded by a ReadTrace, the observer in `Store.observer` while an
explain watches the store (None otherwise, and then nothing here runs: an untraced read pays one
`is None` test per step).

Four kinds of entry, in the order the read takes its steps: the MemStore read or skipped, each
store file read or skipped with what its reads cost, each run of the query matcher with the
cells it saw and kept and why it dropped the others, and each seek a file's cursor made past
the block it held (a Get of explicit columns or with a filter).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from hsim.engine.store_scanner import read_row
from hsim.metrics import IOCounters, UncachedReads


class MemStoreRead(NamedTuple):
    """The MemStore of a family: read (a Get: the row's cells; a Scan: 0), or None when the
    read's time range missed it."""

    family: bytes
    cells: int | None


class FileRead(NamedTuple):
    """One store file the read considered, with its own counters: a skip (key range, time
    range or TTL, bloom) shows there as files_skipped_*, a read as its blocks and cache hits."""

    family: bytes
    name: str
    io: IOCounters


class MatchRun(NamedTuple):
    """One run of the query matcher (a row of a Scan, or a Get's row): cells seen, the cells
    it kept, and per reason (hsim.engine.query_matcher) the cells it dropped."""

    family: bytes
    cells_seen: int
    visible: list
    why: Counter


class CursorSeek(NamedTuple):
    """A file cursor's seek out of the block it held (hsim.engine.store_scanner.read_row)."""

    family: bytes
    file: str
    key: tuple  # a cell prefix: (row,) or (row, family, qualifier, ...)
    blocks_skipped: int  # blocks passed over unread
    reason: str


class ReadTrace:
    """The observer a Store's reads call while an `explain` watches the store (`Store.observer`;
    None on every other read, which then pays one `is None` test per step and nothing per
    cell). It records the read's steps as the entries above, in `entries`, and keeps the
    files' own counters apart until the read is done, when it adds them to the read's `io`.
    One ReadTrace may watch all the stores of a region, so that its families stay in order."""

    def __init__(self):
        self.entries: list = []

    def memstore(self, family: bytes, cells: int | None) -> int:
        """The MemStore read (or skipped: None); returns the mark where this read's entries
        start, for `files_done`, `match` and `rows`."""
        mark = len(self.entries)
        self.entries.append(MemStoreRead(family, cells))
        return mark

    def file(self, family: bytes, name: str, io: IOCounters) -> IOCounters:
        """A store file the read considers: the counters it is to count on, its own."""
        fio = IOCounters()
        self.entries.append(FileRead(family, name, fio))
        return fio if io.cache_blocks else UncachedReads(fio)

    def files_done(self, mark: int, io: IOCounters, end: int | None = None) -> None:
        """The files' counters (of the FileReads from `mark` to `end`) added to the read's
        `io`."""
        for entry in self.entries[mark:end]:
            if type(entry) is FileRead:
                io.add(entry.io)

    def match(self, family: bytes, cells: list, match) -> list:
        """A Get's row read whole, through the matcher's `match(cells, why)`."""
        why = Counter()
        visible = match(cells, why)
        self.entries.append(MatchRun(family, len(cells), visible, why))
        return visible

    def cursor_read(self, mark: int, row: bytes, family: bytes, static: list, cursors: list,
                    matcher, sink, io: IOCounters, wanted: list | None) -> list:
        """A Get's row read through file cursors (hsim.engine.store_scanner.read_row, with its
        arguments); the seeks it made past a held block are recorded after its MatchRun."""
        why, seeks = Counter(), []
        scanned = io.cells_scanned
        visible = read_row(row, family, static, cursors, matcher, sink, why, io, wanted, seeks)
        self.files_done(mark, io)
        self.entries.append(MatchRun(family, io.cells_scanned - scanned, visible, why))
        self.entries.extend(CursorSeek(family, *s) for s in seeks)
        return visible

    def rows(self, rows, match, io: IOCounters, mark: int, family: bytes):
        """A Scan's loop over merged rows: a MatchRun per row; the files' counters are added
        to `io` when the scan ends."""
        entries = self.entries
        files_end = len(entries)
        try:
            for row, cells in rows:
                io.cells_scanned += len(cells)
                why = Counter()
                visible = match(cells, why)
                entries.append(MatchRun(family, len(cells), visible, why))
                yield row, visible
        finally:
            self.files_done(mark, io, files_end)
