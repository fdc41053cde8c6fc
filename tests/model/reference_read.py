"""The read path as it was before issue 34 (a Get read every block of its row, then the
matcher, then the filter over the whole row), kept as the reference model the new store
scanner is checked against (tests/model/test_store_scanner_model.py): same cells, never more
blocks. Test code only; not used by hsim."""

from __future__ import annotations

from bisect import bisect_left
from itertools import islice

from hsim.cell import FAMILY, QUALIFIER
from hsim.engine.block_index import first_on_row, search_key
from hsim.engine.query_matcher import UserMatcher
from hsim.filters.apply import store_limits
from hsim.filters.base import (
    HINT,
    INCLUDE,
    INCLUDE_AND_NEXT_COL,
    INCLUDE_AND_SEEK_NEXT_ROW,
    NEXT_COL,
    NEXT_ROW,
    SKIP,
)


def region_get(region, row, queries, now, io, filt=None, max_versions=1, limits=None):
    """Region.get before issue 34: every store read whole, then the filter."""
    out = []
    for fam, q in queries.items():
        out.extend(store_get(region.stores[fam], row, q, now, io))
    if filt is not None:
        return _run_row(filt, row, out, max_versions, limits)[0] or []
    if limits is not None:
        return store_limits(out, limits)
    return out


def store_get(store, row, query, now, io):
    """Store.get before issue 34."""
    tr_min, tr_max = query.time_range
    cells = store.memstore.row_cells(row) if store._memstore_passes(tr_min, tr_max) else []
    sources = 1 if cells else 0
    cutoff = store._expired_cutoff(now, query.raw)
    one_column = None
    if query.columns is not None and len(query.columns) == 1:
        (one_column,) = query.columns
    for sf in store.files:
        if not sf.in_row_range(row) or not sf.passes_time_range(tr_min, tr_max, cutoff) or \
                not sf.reader.passes_bloom(row, one_column, io):
            continue
        if query.columns is not None:
            found = _seek_columns(sf.reader, row, query.columns, io)
        else:
            found = list(_seek_row(sf.reader, row, io))
        if found:
            cells.extend(found)
            sources += 1
    if sources > 1:
        cells.sort()
    io.cells_scanned += len(cells)
    return UserMatcher(store.family, query, now).match(cells) if cells else cells


def _seek_row(reader, row, io):
    n = reader.data_block_count
    if not n:
        return
    key = first_on_row(row)
    i = reader.locate(key, io)
    while True:
        block = reader._fetch_block(i, io)
        if type(block) is not list:  # a SeekableBlock or an encoded block
            cells, to_end = block.row_cells(row)
            yield from cells
            if not to_end:
                return
        else:
            pos = bisect_left(block, key)
            end = len(block)
            while pos < end:
                c = block[pos]
                if c[0] != row:
                    return
                yield c
                pos += 1
        i += 1
        if i >= n:
            return


def _seek_columns(reader, row, qualifiers, io):
    n = reader.data_block_count
    if not n:
        return []
    block = reader.data_block
    key = first_on_row(row)
    i = reader.locate(key, io)
    cells = block(i, io)
    pos = bisect_left(cells, key)
    family = cells[0][1]
    out = []
    for c in islice(cells, pos, None):
        if c[0] != row or c[2]:
            break
        out.append(c)
    for q in sorted(qualifiers):
        target = (row, family, q)
        if cells[-1] < target:
            if i + 1 >= n:
                break
            i = reader.locate(search_key(target), io)
            cells = block(i, io)
        pos = bisect_left(cells, target)
        while True:
            end = len(cells)
            while pos < end:
                c = cells[pos]
                if c[0] != row or c[2] != q:
                    break
                out.append(c)
                pos += 1
            else:
                i += 1
                if i < n:
                    cells, pos = block(i, io), 0
                    continue
            break
        if i >= n:
            break
    return out


def _run_row(filt, row: bytes, cells: list, max_versions: int | None, limits=None):
    """`next_row`, plus the row every family of this row was told to seek to (a hint beyond
    the row, as FuzzyRowFilter and MultiRowRangeFilter give), or None."""
    filt.reset()
    if filt.filter_all_remaining() or filt.filter_row_key(row):
        return None, not filt.filter_all_remaining(), None

    results = []
    append = results.append
    filter_cell = filt.filter_cell
    all_remaining = filt.filter_all_remaining
    transform = filt.transform_cell if filt.may_transform() else None
    cap = max_versions if max_versions is not None else -1
    col_family = col_qualifier = None  # the column INCLUDE counts are for
    col_count = 0
    seeks = None  # family -> the later row its scanner was told to seek to
    i, n = 0, len(cells)
    while i < n:
        c = cells[i]
        if all_remaining():
            break
        rc = filter_cell(c)
        if rc is INCLUDE:
            if cap >= 0:
                if c[QUALIFIER] != col_qualifier or c[FAMILY] != col_family:
                    col_family, col_qualifier, col_count = c[FAMILY], c[QUALIFIER], 0
                col_count += 1
                if col_count > cap:
                    i = _next_column(cells, i, n)
                    continue
            append(c if transform is None else transform(c))
            i += 1
        elif rc is SKIP:
            i += 1
        elif rc is NEXT_COL:
            i = _next_column(cells, i, n)
        elif rc is NEXT_ROW:
            i = _next_family(cells, i, n)
        elif rc is INCLUDE_AND_NEXT_COL:
            append(c if transform is None else transform(c))
            i = _next_column(cells, i, n)
        elif rc is INCLUDE_AND_SEEK_NEXT_ROW:
            append(c if transform is None else transform(c))
            i = _next_family(cells, i, n)
        elif rc is HINT:
            hint = filt.get_next_cell_hint(c)
            if hint is not None and hint[0] > row:
                # StoreScanner.reseek past this row: the rest of the family's cells here go
                if seeks is None:
                    seeks = {}
                seeks[c[FAMILY]] = hint[0]
                i = _next_family(cells, i, n)
            else:
                i = _seek(cells, i, n, hint)
        else:
            raise ValueError(f"unknown return code {rc!r}")

    if limits is not None:
        results = store_limits(results, limits)
    if filt.has_filter_row():
        results = filt.filter_row_cells(results)
        if results and filt.filter_row():
            results = []
    elif results and filt.filter_row():
        results = []
    seek_row = None
    if seeks is not None and len(seeks) == len({c[FAMILY] for c in cells}):
        seek_row = min(seeks.values())  # every family seeks: the region scanner skips ahead
    return (results or None), not filt.filter_all_remaining(), seek_row


def _next_column(cells: list, i: int, n: int) -> int:
    c = cells[i]
    family, qualifier = c[FAMILY], c[QUALIFIER]
    i += 1
    while i < n and cells[i][QUALIFIER] == qualifier and cells[i][FAMILY] == family:
        i += 1
    return i


def _next_family(cells: list, i: int, n: int) -> int:
    family = cells[i][FAMILY]
    i += 1
    while i < n and cells[i][FAMILY] == family:
        i += 1
    return i


def _seek(cells: list, i: int, n: int, hint) -> int:
    """StoreScanner: seek this family's scanner to `hint` if it lies ahead, else step."""
    c = cells[i]
    if hint is None or hint[:5] <= c[:5]:
        return i + 1
    family = c[FAMILY]
    key = hint[:5]
    i += 1
    while i < n and cells[i][FAMILY] == family and cells[i][:5] < key:
        i += 1
    return i
