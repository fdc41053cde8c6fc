"""The MemStore holds plain tuples the cyclic collector does not track, and hands out Cells;
Table.put's fast checks accept and reject exactly what the validation functions do."""

from __future__ import annotations

import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hsim
from hsim.cell import Cell, CellType, fields
from hsim.client import validation as v
from hsim.engine.memstore import MemStore

_rows = st.binary(min_size=1, max_size=3)
_cells = st.lists(st.builds(
    lambda row, q, ts, code, seq: Cell(row, b"f", q, ts, code, b"v" + q, seq),
    _rows, st.sampled_from([b"", b"a", b"b"]), st.integers(0, 5),
    st.sampled_from([CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN]),
    st.integers(1, 9)), max_size=30)


def test_stored_cells_are_untracked_by_the_collector_and_read_back_as_cells():
    ms = MemStore()
    ms.add(fields(b"r", b"f", b"q", 7, CellType.PUT, b"v", 3))
    ms.add(Cell(b"r", b"f", b"p", 7, CellType.PUT, b"w", 4))  # a Cell is stored as a plain tuple
    gc.collect()
    assert all(type(c) is tuple and not gc.is_tracked(c) for c in ms.active)
    got = ms.row_cells(b"r")
    assert all(type(c) is Cell for c in got)
    assert [(c.qualifier, c.timestamp, c.seq_id, c.value) for c in got] == \
        [(b"p", 7, 4, b"w"), (b"q", 7, 3, b"v")]


@settings(max_examples=60, deadline=None)
@given(_cells, _cells, st.one_of(st.none(), _rows))
def test_reads_give_the_cells_added_in_order(active, snapshot, start):
    """Every read path returns Cells equal to the added ones, in HBase's order, whether they
    sit in the active set or the snapshot."""
    ms = MemStore()
    for c in snapshot:
        ms.add(c)
    ms.take_snapshot()
    for c in active:
        ms.add(c)
    everything = sorted(active + snapshot)
    assert ms.all_cells() == everything and all(type(c) is Cell for c in ms.all_cells())
    for row in {c.row for c in everything}:
        assert ms.row_cells(row) == [c for c in everything if c.row == row]
    merged = sorted(c for src in ms.scan_sources(start) for c in src)
    assert merged == [c for c in everything if start is None or c.row >= start]
    backwards = sorted(c for src in ms.scan_sources_reversed(start) for c in src)
    assert backwards == [c for c in everything if start is None or c.row <= start]
    assert all(type(c) is Cell for src in ms.scan_sources(start) for c in src)
    assert ms.oldest_seq_id() == min((c.seq_id for c in everything), default=None)
    if ms.snapshot_one_cell_rows:  # the flush's claim to the matcher must be true when made
        assert len({c.row for c in snapshot}) == len(snapshot)
    assert ms.shared_rows == (len({c.row for c in active}) < len(active))


_row_args = st.one_of(st.binary(max_size=4), st.text(max_size=4), st.just(b"r" * 32768),
                      st.builds(bytearray, st.binary(max_size=3)), st.integers(), st.none())


def _outcome(fn):
    try:
        return fn()
    except (TypeError, hsim.errors.HsimError) as e:
        return type(e), str(e)


@pytest.fixture(scope="module")
def table():
    c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(1))
    c.admin.create_table("t", ["f"])
    return c.table("t")


@settings(max_examples=80, deadline=None)
@given(row=_row_args, data=st.one_of(st.just({b"f:q": b"v"}), st.just({}), st.just([]),
                                     st.just({"f:q": "v"}), st.just({b"f:q": 5})))
def test_put_rejects_exactly_what_the_validators_reject(table, row, data):
    """Table.put skips v.row and v.mapping for the common types; the outcome (error type and
    message, or the row written) is the slow path's."""
    def slow():
        r = v.row(row)
        if not v.mapping(data, "data"):
            raise hsim.errors.InvalidArgumentError("No columns to put")
        for value in data.values():
            v.to_bytes(value, "value")
        return r

    expected = _outcome(slow)
    got = _outcome(lambda: table.put(row, data))
    if isinstance(expected, bytes):
        assert got is None and table.get(expected)
    else:
        assert got == expected


def test_a_wide_row_reads_back_in_order():
    """A row past _WIDE_ROW cells moves from a plain list to a SortedList; reads still give
    every cell in HBase's order, beside single-cell rows."""
    import random
    rnd = random.Random(7)
    ms = MemStore()
    cells = [Cell(b"w", b"f", b"q%d" % rnd.randrange(50), rnd.randrange(100), CellType.PUT, b"v",
                  i) for i in range(2500)]
    cells += [Cell(r, b"f", b"q", 1, CellType.PUT, b"v", 1) for r in (b"a", b"z")]
    for c in cells:
        ms.add(c)
    want = sorted(cells)
    assert ms.all_cells() == want and ms.row_cells(b"w") == [c for c in want if c.row == b"w"]
    assert [c for src in ms.scan_sources(b"b") for c in src] == want[1:]
    assert [c for src in ms.scan_sources_reversed(b"w") for c in src] == want[:-1][::-1]
    assert ms.problems() == [] and ms.oldest_seq_id() == 0


@settings(max_examples=50, deadline=None)
@given(_cells)
def test_heap_size_is_cell_heap_size_summed(cells):
    """MemStore.add's inlined heap formula is memstore.cell_heap_size, the named rule."""
    from hsim.engine.memstore import cell_heap_size

    ms = MemStore()
    for c in cells:
        ms.add(c)
    assert ms.heap_size == sum(cell_heap_size(c.serialized_size) for c in cells)
