"""Compactor: merge the selected store files through the compaction matcher into one new
HFile (HBase's DefaultCompactor), or, given a date-tiered request's boundaries, into one file
per time window (DateTieredCompactor with its DateTieredMultiFileWriter)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from itertools import chain, islice
from operator import eq, itemgetter

from hsim.cell import NEG_TS, Cell
from hsim.engine.gc_pause import gc_paused
from hsim.engine.hfile import HFileWriter
from hsim.engine.query_matcher import CompactionMatcher

_row_of = itemgetter(0)
_NEG_INF = -(1 << 63)


@dataclass
class CompactionResult:
    """What one compaction produced: the new file's bytes (None when no cell survived), its
    cells and block offsets for the reader, the counts, and per-window results."""

    data: bytes | None  # the new file, or None when nothing survived
    cells_read: int = 0
    cells_written: int = 0
    kv_bytes_read: int = 0
    dropped: dict = field(default_factory=dict)
    cells: list | None = None  # the cells written (see StoreFile.cells)
    cell_offsets: dict | None = None  # the writer's per-block cell offsets (block_seek)
    windows: list | None = None  # date-tiered: a CompactionResult per window that got cells

    def outputs(self) -> list:
        """The files written, oldest window first: none, this one, or one per window."""
        if self.windows is not None:
            return self.windows
        return [self] if self.data is not None else []


class Compactor:
    """Rewrites a selection of one store's files into one new file (or one per date-tiered
    window) through the compaction matcher (HBase's DefaultCompactor / DateTieredCompactor).
    Stateless between calls; the Store decides what to compact and swaps the files in."""

    def __init__(self, family, config):
        self.family = family
        self.config = config

    def compact(self, files: list, now: int, drop_deletes: bool,
                boundaries: tuple | None = None) -> CompactionResult:
        """`boundaries`: a date-tiered request's window starts, ascending (the first is
        Long.MIN_VALUE); each cell goes to the file of the window holding its timestamp."""
        with gc_paused():
            return self._compact(files, now, drop_deletes, boundaries)

    def _compact(self, files: list, now: int, drop_deletes: bool,
                 boundaries: tuple | None = None) -> CompactionResult:
        # EARLIEST_PUT_TS of the inputs: KEEP_DELETED_CELLS markers older than every put go
        earliest = min((sf.earliest_put_ts for sf in files), default=_NEG_INF)
        matcher = CompactionMatcher(
            self.family, now, drop_deletes, earliest_put_ts=earliest,
            time_to_purge_deletes_ms=self.config.time_to_purge_deletes_ms,
        )
        include_tags = any(sf.reader.include_tags for sf in files)
        writer = HFileWriter(self.family, self.config, include_tags=include_tags)
        max_seq = max((sf.max_seq_id for sf in files), default=0)
        # KeyValue bytes read: whole files carry the figure in their file info; the half of a
        # file that a reference covers is counted as its cells stream by.
        kv_bytes = 0
        ref_bytes = [0]
        sources = []
        for sf in files:
            if sf.is_reference:
                sources.append(_count_kv_bytes(sf.all_cells(), ref_bytes))
            else:
                kv_bytes += sf.reader.keyvalue_bytes
                sources.append(sf.all_cells())
        cells, one_cell_rows = _merged(sources)
        read = len(cells)
        out = matcher.match_all(cells, one_cell_rows)
        kv_bytes += ref_bytes[0]
        if boundaries is not None and len(boundaries) > 1:
            windows = []
            for part in _by_window(out, boundaries):
                w = HFileWriter(self.family, self.config, include_tags=include_tags)
                w.append_all(part)
                data = w.finish(max_seq_id=max_seq, major_compaction=drop_deletes,
                                create_time=now)
                windows.append(CompactionResult(data, 0, len(part), 0, {}, part,
                                                w.cell_offsets))
            if windows:
                return CompactionResult(None, read, len(out), kv_bytes, matcher.dropped,
                                        windows=windows)
        # No cell kept (all expired or deleted): one empty file all the same, as HBase's
        # compactor commits its writer whatever it wrote; it keeps the max sequence id.
        writer.append_all(out)
        written = len(out)
        data = writer.finish(max_seq_id=max_seq, major_compaction=drop_deletes, create_time=now)
        return CompactionResult(data, read, written, kv_bytes, matcher.dropped, out,
                                writer.cell_offsets)


def _merged(sources: list) -> tuple[list, bool]:
    """All cells of the sorted sources in HBase order (KeyValueHeap's order, as one list), and
    whether every row is known to hold one cell. Sorting the concatenation by row alone
    compares bytes, which is several times cheaper than comparing cell tuples (or heapq.merge's
    Python loop); only when some row has several cells does a full sort follow, and it finds
    the list almost in order."""
    cells = list(chain.from_iterable(sources))
    if len(sources) < 2:
        return cells, False  # not looked at: the matcher checks for itself
    cells.sort(key=_row_of)
    rows = list(map(_row_of, cells))
    if any(map(eq, islice(rows, 1, None), rows)):
        cells.sort()
        return cells, False
    return cells, True


def _count_kv_bytes(cells, acc: list):
    size = Cell.serialized_size.fget  # the cells are plain field tuples (StoreFile.all_cells)
    for c in cells:
        acc[0] += size(c)
        yield c


def _by_window(cells: list, boundaries: tuple) -> list[list]:
    """The cells (in cell order) of each window that holds any, oldest window first. A cell
    tuple holds its timestamp negated (hsim.cell's order: newest first)."""
    parts: dict[int, list] = {}
    for c in cells:
        parts.setdefault(bisect.bisect_right(boundaries, -c[NEG_TS]) - 1, []).append(c)
    return [parts[i] for i in sorted(parts)]
