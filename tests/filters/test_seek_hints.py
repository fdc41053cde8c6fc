"""Seek hints are used: a FuzzyRowFilter or MultiRowRangeFilter skips the rows between the
ones that can match, unread (StoreScanner.reseek to getNextCellHint), with the same results as
a filter that reads every row and drops it (HBase's TestFuzzyRowFilterEndToEnd and
TestMultiRowRangeFilter check the rows; the reads saved are what the hints are for)."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hsim
from hsim.filters import (FuzzyRowFilter, MultiRowRangeFilter, RegexStringComparator,
                          RowFilter, RowRange)


def _cluster(rows, families=("f",)):
    c = hsim.Cluster(clock=hsim.ManualClock(1000))
    c.admin.create_table("t", {f: hsim.ColumnFamily(block_size=1024) for f in families})
    t = c.table("t")
    for r in rows:
        t.put(r, {f"{f}:q".encode(): b"v" * 20 for f in families})
    c.admin.flush("t")
    return c, t


def _reads(cluster):
    """(rows examined: returned plus filtered, data blocks touched: cache hits + disk reads)
    so far."""
    m = cluster.metrics()
    blocks = sum(s.cache_hits + s.cache_misses for r in m.regions for s in r.stores)
    return sum(r.read_requests + r.filtered_read_requests for r in m.regions), blocks


def _scan_cost(rows, filt):
    c, t = _cluster(rows)
    before = _reads(c)
    got = [cells[0].row for cells in t.scan(filter=filt)]
    after = _reads(c)
    return got, after[0] - before[0], after[1] - before[1]


ROWS = [b"%04d-%s" % (i, k) for i in range(2000) for k in (b"a", b"b")]


def test_fuzzy_row_filter_seeks_past_rows_that_cannot_match():
    # rows ????-b whose first digit is 1: 1000 of 4000 rows, in one contiguous run of keys
    fuzzy = FuzzyRowFilter([(b"1???-b", b"\x00\x01\x01\x01\x00\x00")])
    regex = RowFilter("=", RegexStringComparator(r"1...-b"))
    got, rows_read, blocks = _scan_cost(ROWS, fuzzy)
    want, rows_all, blocks_all = _scan_cost(ROWS, regex)
    assert got == want and len(got) == 1000
    assert rows_all == 4000  # the regex filter reads every row
    assert rows_read <= 2002  # every matching row, and the non-matching one after each
    assert blocks < 0.7 * blocks_all


def test_multi_row_range_filter_seeks_from_range_to_range():
    ranges = [RowRange(b"0100", True, b"0110", False), RowRange(b"1500", True, b"1510", False)]
    got, rows_read, blocks = _scan_cost(ROWS, MultiRowRangeFilter(ranges))
    assert got == [r for r in ROWS if b"0100" <= r < b"0110" or b"1500" <= r < b"1510"]
    # read and passed over: the first row (a seek to 0100), the row after each range
    assert rows_read == len(got) + 3
    _, rows_all, blocks_all = _scan_cost(
        ROWS, RowFilter("=", RegexStringComparator(r"(010|150).*")))
    assert rows_all == 4000 and blocks < 0.1 * blocks_all


def test_a_seek_in_one_family_only_does_not_skip_the_other_familys_cells():
    c, t = _cluster([b"aa", b"ab", b"ba"], families=("f", "g"))
    got = [[(x.family, x.row) for x in cells]
           for cells in t.scan(filter=FuzzyRowFilter([(b"?b", b"\x01\x00")]))]
    assert got == [[(b"f", b"ab"), (b"g", b"ab")]]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=4), min_size=1, max_size=60, unique=True),
       st.lists(st.tuples(st.binary(min_size=1, max_size=3), st.integers(0, 7)),
                min_size=1, max_size=3))
def test_fuzzy_seek_returns_exactly_the_rows_a_full_read_would(rows, rules):
    pairs = []
    for key, m in rules:
        mask = bytes((m >> i) & 1 for i in range(len(key)))
        pairs.append((key, mask))
    c, t = _cluster(rows)
    got = [cells[0].row for cells in t.scan(filter=FuzzyRowFilter(pairs))]

    def matches(row):
        return any(len(row) >= len(k) and all(mk or row[i] == k[i] for i, mk in enumerate(mask))
                   for k, mask in pairs)
    assert got == sorted(r for r in rows if matches(r))


@pytest.mark.parametrize("reversed_", [False, True])
def test_results_do_not_depend_on_the_direction(reversed_):
    c, t = _cluster(ROWS[:200])
    filt = MultiRowRangeFilter([RowRange(b"0010", True, b"0020", True)])
    got = [cells[0].row for cells in t.scan(filter=filt, reversed=reversed_)]
    want = [r for r in ROWS[:200] if b"0010" <= r <= b"0020"]
    assert got == (want[::-1] if reversed_ else want)
