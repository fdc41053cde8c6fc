"""What a traced read records, for `explain` (hsim.inspect.explain): one named entry per step a
Store's Get or Scan takes, appended to the list in `Store.trace` while an explain watches the
store (None otherwise, and then nothing here runs: an untraced read pays one `is None` test).

Four kinds of entry, in the order the read takes its steps: the MemStore read or skipped, each
store file read or skipped with what its reads cost, each run of the query matcher with the
cells it saw and kept and why it dropped the others, and each seek a file's cursor made past
the block it held (a Get of explicit columns or with a filter).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

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


def file_counters(trace: list, family: bytes, name: str, io) -> IOCounters:
    """A file's own counters for a traced read, recorded as a FileRead so the caller sees what
    each file cost; `add_file_counters` adds them to the read's `io` when it is done."""
    fio = IOCounters()
    trace.append(FileRead(family, name, fio))
    return fio if io.cache_blocks else UncachedReads(fio)


def add_file_counters(entries: list, io: IOCounters) -> None:
    """Add the counters of the FileReads among `entries` to the read's `io`."""
    for entry in entries:
        if type(entry) is FileRead:
            io.add(entry.io)


def traced_rows(rows, match, io: IOCounters, trace: list, mark: int, family: bytes):
    """A Scan's loop over merged rows, traced: a MatchRun per row; the files' counters (from
    `mark`, where this store's entries start) are added to `io` when the scan ends."""
    files_end = len(trace)
    try:
        for row, cells in rows:
            io.cells_scanned += len(cells)
            why = Counter()
            visible = match(cells, why)
            trace.append(MatchRun(family, len(cells), visible, why))
            if visible:
                yield row, visible
    finally:
        add_file_counters(trace[mark:files_end], io)
