"""FilterList: HBase's return-code merge tables, OR's per-sub-filter memory (HBASE-17678),
AND's early stop (HBASE-20565), row-level combination, and `&` / `|`."""

import pytest

from hsim.filters import (
    ColumnPaginationFilter,
    ColumnPrefixFilter,
    Filter,
    FilterList,
    KeyOnlyFilter,
    PageFilter,
    PrefixFilter,
    ReturnCode,
    ValueFilter,
    parse_filter,
)
from hsim.filters.filter_list import MERGE_AND, MERGE_OR

from ._rows import cell, scan, table

RC = ReturnCode
ABBR = {"I": RC.INCLUDE, "IC": RC.INCLUDE_AND_NEXT_COL, "IR": RC.INCLUDE_AND_SEEK_NEXT_ROW,
        "S": RC.SKIP, "C": RC.NEXT_COL, "R": RC.NEXT_ROW, "H": RC.SEEK_NEXT_USING_HINT}
ORDER = ["I", "IC", "IR", "S", "C", "R", "H"]  # columns: the code merged so far

# FilterListWithAND.mergeReturnCode ("maximal step"): row = the sub-filter's code.
AND_TABLE = """
I   I  IC IR S C R H
IC  IC IC IR C C R H
IR  IR IR IR R R R H
S   S  C  R  S C R H
C   C  C  R  C C R H
R   R  R  R  R R R H
H   H  H  H  H H H H
"""
# FilterListWithOR.mergeReturnCode ("minimal step").
OR_TABLE = """
I   I I  I  I I  I  I
IC  I IC IC I IC IC I
IR  I IC IR I IC IR I
S   I I  I  S S  S  S
C   I IC IC S C  C  S
R   I IC IR S C  R  S
H   I I  I  S S  S  H
"""


def table_cases(text):
    for line in text.strip().splitlines():
        local, *merged = line.split()
        for rc, out in zip(ORDER, merged):
            yield ABBR[rc], ABBR[local], ABBR[out]


@pytest.mark.parametrize("rc,local,expected", list(table_cases(AND_TABLE)))
def test_and_merge_matches_hbase(rc, local, expected):
    assert MERGE_AND[rc, local] is expected


@pytest.mark.parametrize("rc,local,expected", list(table_cases(OR_TABLE)))
def test_or_merge_matches_hbase(rc, local, expected):
    assert MERGE_OR[rc, local] is expected


class Fixed(Filter):
    """A sub-filter that always answers `code` and counts how often it was asked."""

    def __init__(self, code, far=False, row_key=False, drop_row=None):
        self.code, self.far, self.row_key, self.drop_row = code, far, row_key, drop_row
        self.asked = 0
        self.row_asked = 0
        self.keys_seen = []

    def filter_cell(self, c):
        self.asked += 1
        return self.code

    def filter_all_remaining(self):
        return self.far

    def filter_row_key(self, row):
        self.keys_seen.append(row)
        return self.row_key

    def filter_row(self):
        self.row_asked += 1
        return self.drop_row


C1 = cell("r", "f:a", 1, "x")


def test_and_stops_asking_once_the_cell_is_not_included():
    # HBASE-20565: later sub-filters must not count cells that are already dropped.
    later = Fixed(RC.INCLUDE)
    assert FilterList("MUST_PASS_ALL", [Fixed(RC.SKIP), later]).filter_cell(C1) is RC.SKIP
    assert later.asked == 0


def test_and_with_a_finished_sub_filter_says_next_row():
    f = FilterList(FilterList.MUST_PASS_ALL, [Fixed(RC.INCLUDE, far=True), Fixed(RC.INCLUDE)])
    assert f.filter_cell(C1) is RC.NEXT_ROW
    assert f.filter_all_remaining()


def test_or_ignores_finished_sub_filters_and_ends_when_all_are():
    f = FilterList(FilterList.MUST_PASS_ONE, [Fixed(RC.INCLUDE, far=True), Fixed(RC.SKIP)])
    assert f.filter_cell(C1) is RC.SKIP and not f.filter_all_remaining()
    done = FilterList(FilterList.MUST_PASS_ONE, [Fixed(RC.INCLUDE, far=True)] * 2)
    assert done.filter_all_remaining() and done.filter_cell(C1) is RC.SKIP


def test_row_key_is_shown_to_every_sub_filter():
    a, b = Fixed(RC.INCLUDE, row_key=True), Fixed(RC.INCLUDE)
    assert FilterList("MUST_PASS_ALL", [a, b]).filter_row_key(b"r")
    assert b.keys_seen == [b"r"]  # not short-circuited: PrefixFilter tracks rows there
    c, d = Fixed(RC.INCLUDE), Fixed(RC.INCLUDE, row_key=True)
    assert not FilterList("MUST_PASS_ONE", [c, d]).filter_row_key(b"r")
    assert d.keys_seen == [b"r"]


def test_filter_row_short_circuits_like_hbase():
    a, b = Fixed(RC.INCLUDE, drop_row=True), Fixed(RC.INCLUDE, drop_row=False)
    assert FilterList("MUST_PASS_ALL", [a, b]).filter_row() and b.row_asked == 0
    c, d = Fixed(RC.INCLUDE, drop_row=False), Fixed(RC.INCLUDE, drop_row=True)
    assert not FilterList("MUST_PASS_ONE", [c, d]).filter_row() and d.row_asked == 0


def test_empty_list_passes_everything():
    for op in FilterList.Operator:
        f = FilterList(op)
        assert f.filter_cell(C1) is RC.INCLUDE
        assert not f.filter_row_key(b"r") and not f.filter_all_remaining()
        assert not f.filter_row()


# --- OR: a sub-filter's last answer still holds for the cells it covers ----------------------
PAGE_ROW = table({"r": [("f:a", 2, "p"), ("f:a", 1, "x"), ("f:b", 1, "q"), ("f:c", 1, "x")]})


def test_or_does_not_ask_a_sub_filter_again_inside_a_column_it_left():
    # HBASE-17678. ColumnPaginationFilter(2, 0) said INCLUDE_AND_NEXT_COL on a@2; the list
    # still returns a@1 (the ValueFilter wants it) but must not count column a twice, so
    # column b is the paginator's second column and is included.
    f = parse_filter("ColumnPaginationFilter(2, 0) OR ValueFilter(=, 'binary:x')")
    assert scan(f, PAGE_ROW, max_versions=2) == {
        "r": ["f:a@2=p", "f:a@1=x", "f:b@1=q", "f:c@1=x"]}


def test_and_does_not_advance_a_paginator_on_dropped_cells():
    rows = table({"r": [("f:a", 1, "skip"), ("f:b", 1, "v"), ("f:c", 1, "v")]})
    f = ValueFilter("!=", b"skip") & ColumnPaginationFilter(1, 1)
    assert scan(f, rows) == {"r": ["f:c@1=v"]}


def test_or_of_column_prefixes_with_hints():
    rows = table({"r": [("f:a1", 1, ""), ("f:b1", 1, ""), ("f:c1", 1, ""), ("f:d1", 1, "")]})
    f = ColumnPrefixFilter(b"a") | ColumnPrefixFilter(b"c")
    assert scan(f, rows) == {"r": ["f:a1@1=", "f:c1@1="]}


def test_or_seeks_only_when_every_sub_filter_seeks_and_to_the_nearest_hint():
    rows = table({"r": [("f:a", 1, ""), ("f:b", 1, ""), ("f:c", 1, ""), ("f:d", 1, "")]})
    f = ColumnPrefixFilter(b"d") | ColumnPrefixFilter(b"c")
    row, cells = rows[0]
    f.reset()
    assert f.filter_cell(cells[0]) is RC.SEEK_NEXT_USING_HINT
    assert f.get_next_cell_hint(cells[0]).qualifier == b"c"
    assert scan(f, rows) == {"r": ["f:c@1=", "f:d@1="]}


def test_or_of_prefix_filters_over_rows():
    rows = table({k: [("f:a", 1, k)] for k in ["r1", "r10", "r2", "r3", "r4"]})
    f = parse_filter("PrefixFilter('r1') OR PrefixFilter('r3')")
    assert list(scan(f, rows)) == ["r1", "r10", "r3"]


def test_or_transforms_with_the_sub_filters_that_included_the_cell():
    f = FilterList("MUST_PASS_ONE", [ValueFilter("=", b"x"), Fixed(RC.SKIP)])
    f.filter_cell(C1)
    assert f.transform_cell(C1) is C1
    g = FilterList("MUST_PASS_ONE", [KeyOnlyFilter(), Fixed(RC.SKIP)])
    g.filter_cell(C1)
    assert g.transform_cell(C1).value == b""


def test_and_transforms_through_every_sub_filter():
    rows = table({"r1": [("f:a", 1, "value")], "s1": [("f:a", 1, "value")]})
    assert scan(parse_filter("PrefixFilter('r') AND KeyOnlyFilter(true)"), rows) == {
        "r1": ["f:a@1=\x00\x00\x00\x05"]}


# --- composition --------------------------------------------------------------------------
def test_and_or_operators_build_filter_lists():
    a, b, c = PrefixFilter(b"a"), PrefixFilter(b"b"), PageFilter(1)
    both = a & b
    assert isinstance(both, FilterList) and both.operator is FilterList.MUST_PASS_ALL
    assert (a & b & c).filters == [a, b, c]  # a chain of one operator stays flat
    mixed = a & b | c
    assert mixed.operator is FilterList.MUST_PASS_ONE
    assert mixed.filters[0].filters == [a, b] and mixed.filters[1] is c


def test_filter_list_rejects_bad_input():
    with pytest.raises(ValueError):
        FilterList("SOMETIMES", [])
    with pytest.raises(ValueError):
        FilterList("MUST_PASS_ALL", ["not a filter"])
