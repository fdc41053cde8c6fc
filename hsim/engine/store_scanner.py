"""StoreScanner for one row of one store: the MemStore's cells and each store file's row
cursor merged a block at a time (KeyValueHeap), the matcher and the filter inside the loop,
and the seeks they ask for carried out on every cursor.

A Get whose row fits in the block each file's seek lands on (most rows) never comes here: the
store hands the matcher the whole row at once. A row that runs past a block is read a *part*
at a time: every cell up to the end of the nearest block still holding the row (so no block is
read before the matcher and the filter have seen everything before it). After each part:

- the matcher is done with the current column (versions reached, deleted, expired, out of the
  time range: HBase's INCLUDE_AND_SEEK_NEXT_COL / SEEK_NEXT_COL) -> seek past the column;
- the filter answers NEXT_ROW, INCLUDE_AND_SEEK_NEXT_ROW, or ends the scan -> the family is
  done in this row (SEEK_NEXT_ROW, DONE); NEXT_COL or a hint within the row -> seek there.

A seek inside a held block costs nothing; one past it goes through the block index and reads
only the block the key is in (StoreFileScanner.reseek), so the blocks in between are never
read. Sources: hbase-server regionserver/StoreScanner.next, KeyValueHeap, StoreFileScanner,
querymatcher/UserScanQueryMatcher.mergeFilterResponse.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from hsim.engine.store_file_scanner import RowCursor

_DONE = "done"  # hsim.filters.apply.DONE (the engine does not import the filters)
_NEXT_WANTED = "matcher: next wanted column"


def read_row(row: bytes, family: bytes, static: list, cursors: list[RowCursor], matcher, sink, why,
             io, wanted: list | None = None, seeks: list | None = None) -> list:
    """The matched cells of `row`, also fed, part by part, to `sink` when given (a
    hsim.filters.apply.RowRun, whose answers stop or seek the read). `static`: cells already
    in hand (the MemStore's, files whose row ended in its first block), sorted; `cursors`:
    RowCursors of the files whose row goes on. `wanted`: the explicit columns, sorted
    (ExplicitColumnTracker: a column done seeks to the next wanted one). `seeks`, when
    given (explain), gets one (file name, key, blocks skipped, why) per cursor seek that left
    the block it held."""
    state = [None, None, 0, None, None]
    limit = matcher.rules[3]
    out = []
    while True:
        for cur in cursors:
            cur.fill()
        live = [cur for cur in cursors if cur.more]
        if live:
            edge = min(cur.held[-1] for cur in live)  # the end of the nearest block held
            k = bisect_right(static, edge)
            part, static = static[:k], static[k:]
            sources = 1 if part else 0
            for cur in cursors:
                held = cur.held
                if held:
                    k = bisect_right(held, edge)
                    if k:
                        part.extend(held[:k])
                        cur.held = held[k:]
                        sources += 1
            if sources > 1:
                part.sort()
        else:
            part, static = static, []
            sources = 1 if part else 0
            for cur in cursors:
                if cur.held:
                    part.extend(cur.held)
                    cur.held = []
                    sources += 1
            if sources > 1:
                part.sort()
        io.cells_scanned += len(part)
        kept = matcher.match(part, why, state)
        key = reason = None
        q = state[1]
        j = None  # the wanted column the matcher seeks to
        if state[4] or (q and (state[2] >= limit or (wanted is not None
                                                     and q not in matcher.rules[7]))):
            # SEEK_NEXT_COL (the matcher skips the rest of the column: versions, deletes, TTL,
            # time range, a column not asked for) or INCLUDE_AND_SEEK_NEXT_COL (the column's
            # versions are all in), or ExplicitColumnTracker past a column not asked for. Not
            # for the empty qualifier: the family markers behind its puts still count.
            if wanted is None:
                key, reason = (row, family, q + b"\x00"), "matcher: column done"
            else:
                j = bisect_right(wanted, q)
                if j == len(wanted):  # SEEK_NEXT_ROW: every wanted column is done
                    if sink is not None:
                        sink.feed(kept)
                    return out + kept
                key, reason = (row, family, wanted[j]), _NEXT_WANTED
        out.extend(kept)
        if sink is not None:
            answer = sink.feed(kept)
            if answer == _DONE:
                return out
            if answer is not None and (key is None or answer > key):
                key, reason = answer, "filter: seek"
        if not live:
            return out
        if key is not None:
            static = static[bisect_left(static, key):]
            column = reason == _NEXT_WANTED
            for cur in cursors:
                i = cur.i
                skipped = cur.seek_column(wanted, j) if column else cur.seek(key)
                if seeks is not None and cur.i != i:
                    seeks.append((cur.name, key, skipped, reason))
