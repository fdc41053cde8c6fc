"""explain cannot disagree with reads: for random rows of cells (puts, all four delete marker
types, cell TTLs, versions) and random queries, the matcher returns the same cells with and
without tallying reasons, and every cell it does not return has exactly one reason."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import hsim
from hsim.cell import Cell, CellType
from hsim.engine.query_matcher import ScanQuery, UserMatcher
import pytest

pytestmark = pytest.mark.slow  # hypothesis state machines and long property runs

TYPES = [CellType.PUT, CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN,
         CellType.DELETE_FAMILY, CellType.DELETE_FAMILY_VERSION]


@st.composite
def rows(draw):
    cells = []
    for _ in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(TYPES))
        q = b"" if kind in (CellType.DELETE_FAMILY, CellType.DELETE_FAMILY_VERSION) \
            else draw(st.sampled_from([b"a", b"b", b"c"]))
        ttl = draw(st.one_of(st.none(), st.integers(1, 50)))
        cells.append(Cell(b"r", b"f", q, draw(st.integers(0, 60)), kind,
                          b"v" if kind == CellType.PUT else b"", ttl_ms=ttl))
    return sorted(set(cells))


@settings(max_examples=300, deadline=None)
@given(rows(), st.integers(1, 4), st.integers(0, 2), st.one_of(st.none(), st.integers(5, 80)),
       st.sampled_from([False, True, "TTL"]), st.integers(1, 4),
       st.tuples(st.integers(0, 30), st.integers(31, 100)),
       st.one_of(st.none(), st.sets(st.sampled_from([b"a", b"b", b""]), min_size=1)),
       st.booleans())
def test_reasons_account_for_every_dropped_cell(cells, versions, min_versions, ttl_s, kdc,
                                                max_versions, time_range, columns, raw):
    family = hsim.ColumnFamily(max_versions=versions, min_versions=min(min_versions, versions),
                               ttl=None if ttl_s is None else ttl_s, keep_deleted_cells=kdc)
    query = ScanQuery(time_range=time_range, max_versions=max_versions,
                      columns=None if columns is None else frozenset(columns), raw=raw)
    now = 70_000
    plain = UserMatcher(family, query, now).match(list(cells))
    why = Counter()
    told = UserMatcher(family, query, now).match(list(cells), why)
    assert told == plain
    assert len(told) + sum(why.values()) == len(cells)
