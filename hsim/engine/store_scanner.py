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

_DONE = "done"  # hsim.filters.apply.DONE (the engine does not import the filters)


def read_row(row: bytes, family: bytes, static: list, cursors: list, matcher, sink, why,
             io, seeks: list | None = None) -> list:
    """The matched cells of `row`, also fed, part by part, to `sink` when given (a
    hsim.filters.apply.RowRun, whose answers stop or seek the read). `static`: cells already
    in hand (the MemStore's, files whose row ended in its first block), sorted; `cursors`:
    RowCursors of the files whose row goes on. `seeks`, when given (explain), gets one
    (file name, key, blocks skipped, why) per cursor seek that left the block it held."""
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
        if state[4] or (state[2] >= limit and state[1] is not None):
            # SEEK_NEXT_COL / INCLUDE_AND_SEEK_NEXT_COL: nothing more of this column is returned
            key, reason = (row, family, state[1] + b"\x00"), "matcher: column done"
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
            for cur in cursors:
                i = cur.i
                skipped = cur.seek(key)
                if seeks is not None and cur.i != i:
                    seeks.append((cur.name, key, skipped, reason))
