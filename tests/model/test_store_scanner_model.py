"""The store scanner (issue 34) against the read path it replaced (tests/model/reference_read.py):
for random rows, families, versions, deletes of every kind, TTLs, filters and column sets, a
Get returns exactly the cells the old path returns and never reads more blocks; a scan with
the same filter returns what filtering every row does."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hsim
from hsim.cell import LATEST_TIMESTAMP
from hsim.client import requests as rq
from hsim.filters import (
    ColumnCountGetFilter,
    ColumnPaginationFilter,
    ColumnPrefixFilter,
    FirstKeyOnlyFilter,
    FuzzyRowFilter,
    MultiRowRangeFilter,
    ValueFilter,
    fresh,
    next_row,
)
from hsim.engine.hfile_reader import HFileReader
from hsim.metrics import IOCounters
from hsim.schema import DATA_BLOCK_ENCODINGS

import reference_read as ref

ROWS = [b"r%d" % i for i in range(4)]
QUALIFIERS = [b"", b"a", b"b", b"c%03d" % 0] + [b"w%03d" % i for i in range(0, 60, 7)]
FAMILIES = [b"f", b"g"]

filters = st.one_of(
    st.none(),
    st.builds(ColumnPaginationFilter, st.integers(1, 4), st.integers(0, 6)),
    st.builds(ColumnCountGetFilter, st.integers(1, 5)),
    st.builds(ColumnPrefixFilter, st.sampled_from([b"w", b"a", b"w02"])),
    st.just(FirstKeyOnlyFilter()),
    st.just(FuzzyRowFilter([(b"r?", b"\x00\x01")])),
    st.just(FuzzyRowFilter([(b"?2", b"\x01\x00")])),
    st.just(MultiRowRangeFilter([(b"r1", True, b"r2", True)])),
    st.builds(lambda v: ValueFilter(">", v), st.sampled_from([b"v1", b"v5"])),
)

family_options = st.fixed_dictionaries({
    "max_versions": st.integers(1, 4),
    "min_versions": st.sampled_from([0, 0, 1]),
    "ttl": st.sampled_from([None, None, 1]),  # seconds
    "bloom_filter": st.sampled_from(["NONE", "ROW", "ROWCOL"]),
    "block_size": st.sampled_from([1024, 2048]),
    "block_cache": st.booleans(),
    "data_block_encoding": st.sampled_from(DATA_BLOCK_ENCODINGS),
})

ops = st.lists(st.one_of(
    st.tuples(st.just("put"), st.sampled_from(ROWS), st.sampled_from(FAMILIES),
              st.lists(st.sampled_from(QUALIFIERS), min_size=1, max_size=5),
              st.sampled_from([None, None, 5, 20]), st.sampled_from([None, None, 30])),
    st.tuples(st.just("delete_column"), st.sampled_from(ROWS), st.sampled_from(FAMILIES),
              st.sampled_from(QUALIFIERS), st.sampled_from([None, 5])),
    st.tuples(st.just("delete_columns"), st.sampled_from(ROWS), st.sampled_from(FAMILIES),
              st.sampled_from(QUALIFIERS), st.sampled_from([None, 5])),
    st.tuples(st.just("delete_family"), st.sampled_from(ROWS), st.sampled_from(FAMILIES),
              st.sampled_from([None, 5])),
    st.tuples(st.just("delete_family_version"), st.sampled_from(ROWS),
              st.sampled_from(FAMILIES), st.sampled_from([5, 20])),
    st.tuples(st.just("flush")),
    st.tuples(st.just("advance"), st.sampled_from([1, 10, 40, 600])),
), min_size=1, max_size=40)

reads = st.lists(st.tuples(
    st.sampled_from(ROWS),
    st.one_of(st.none(), st.lists(st.sampled_from(
        [b"f:" + q for q in QUALIFIERS] + [b"g:" + q for q in QUALIFIERS] + [b"g"]),
        min_size=1, max_size=4)),
    st.sampled_from([1, 1, 2, 5]),
    st.sampled_from([None, (0, 15), (6, 1 << 62)]),
    filters,
), min_size=1, max_size=6)


def _apply(c, t, op, n):
    kind = op[0]
    if kind == "put":
        _, row, fam, qs, ts, ttl = op
        t.put(row, {fam + b":" + q: b"v%d" % (n % 9) + b"x" * 150 for q in qs}, timestamp=ts,
              ttl_ms=ttl)
    elif kind == "delete_column":
        t.delete_column(op[1], op[2] + b":" + op[3], timestamp=op[4])
    elif kind == "delete_columns":
        t.delete_columns(op[1], op[2] + b":" + op[3], timestamp=op[4])
    elif kind == "delete_family":
        t.delete_family(op[1], op[2], timestamp=op[3])
    elif kind == "delete_family_version":
        t.delete_family_version(op[1], op[2], op[3])
    elif kind == "flush":
        c.admin.flush("t")
    else:
        c.clock.advance(op[1])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(family_options, family_options, ops, reads)
def test_gets_return_what_the_old_path_returns_reading_no_more_blocks(f_opts, g_opts, steps,
                                                                     gets):
    try:
        _check_gets(f_opts, g_opts, steps, gets)
    finally:
        HFileReader._fetch_block = _FETCH


_FETCH = HFileReader._fetch_block


def _check_gets(f_opts, g_opts, steps, gets):
    c = hsim.Cluster(clock=hsim.ManualClock(10))
    c.admin.create_table("t", {"f": hsim.ColumnFamily(**f_opts),
                               "g": hsim.ColumnFamily(**g_opts)})
    t = c.table("t")
    for n, op in enumerate(steps):
        _apply(c, t, op, n)
    c.admin.flush("t")  # every cell in files (the wide rows span blocks), some still in more
    _apply(c, t, ("put", b"r1", b"f", [b"a", b"w007"], None, None), 0)
    region = c.master.tables["t"].locator.regions[0]
    families = c.admin.describe("t").families
    now = c.clock.now()
    data_blocks = _count_data_blocks()
    for row, columns, versions, tr, filt in gets:
        queries = rq.queries(families, columns, versions,
                             tr or (0, LATEST_TIMESTAMP), False, filt is not None)
        new_io, old_io = IOCounters(), IOCounters()
        # the old path first: it warms index and bloom blocks no worse than the new one would
        want = ref.region_get(region, row, queries, now, old_io,
                              None if filt is None else fresh(filt), versions)
        got = region.get(row, queries, now, new_io, None if filt is None else fresh(filt),
                         versions)
        assert [tuple(x) for x in got] == [tuple(x) for x in want]
        # data blocks (the new path also asks DeleteFamily blooms, as HBase's lazy seek does)
        assert data_blocks.pop(id(new_io), 0) <= data_blocks.pop(id(old_io), 0)


def _count_data_blocks() -> dict:
    """id(io) -> data blocks fetched (read or from the cache) on it, from now on."""
    counts: dict = {}
    fetch = HFileReader.__dict__["_fetch_block"]

    def counting(self, i, io):
        counts[id(io)] = counts.get(id(io), 0) + 1
        return fetch(self, i, io)

    HFileReader._fetch_block = counting
    return counts


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(family_options, ops, filters.filter(lambda f: f is not None), st.booleans())
def test_filtered_scans_return_what_filtering_every_row_returns(f_opts, steps, filt, reverse):
    c = hsim.Cluster(clock=hsim.ManualClock(10))
    c.admin.create_table("t", {"f": hsim.ColumnFamily(**f_opts),
                               "g": hsim.ColumnFamily(**f_opts)})
    t = c.table("t")
    for n, op in enumerate(steps):
        _apply(c, t, op, n)
    rows = list(t.scan(reversed=reverse, max_versions=5))
    expected = []
    run = fresh(filt)
    run.set_reversed(reverse)
    for cells in rows:
        kept, more = next_row(run, cells[0].row, cells, 5)
        if kept:
            expected.append(kept)
        if not more:
            break
    got = list(t.scan(reversed=reverse, max_versions=5, filter=fresh(filt)))
    assert [[tuple(x) for x in r] for r in got] == [[tuple(x) for x in r] for r in expected]
