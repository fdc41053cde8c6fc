"""Each filter against what HBase returns, run through the region driver on small tables.
Expected results follow HBase's filter classes and tests (TestFilter, TestFilterList,
TestSingleColumnValueFilter, TestDependentColumnFilter, TestColumnPaginationFilter, ...)."""

import struct

import pytest

from hsim.filters import (
    BinaryComparator,
    ColumnCountGetFilter,
    ColumnPaginationFilter,
    ColumnPrefixFilter,
    ColumnRangeFilter,
    ColumnValueFilter,
    DependentColumnFilter,
    FamilyFilter,
    FirstKeyOnlyFilter,
    InclusiveStopFilter,
    KeyOnlyFilter,
    MultipleColumnPrefixFilter,
    PageFilter,
    PrefixFilter,
    QualifierFilter,
    SingleColumnValueExcludeFilter,
    SingleColumnValueFilter,
    TimestampsFilter,
    ValueFilter,
    apply_to_row,
    parse_filter,
    scan_rows,
)

from ._rows import scan, table

# --- SingleColumnValueFilter / SingleColumnValueExcludeFilter ---------------------------------
STATUS = table({
    "r1": [("f:status", 2, "active"), ("f:status", 1, "inactive"), ("f:name", 1, "n1")],
    "r2": [("f:status", 2, "inactive"), ("f:status", 1, "active"), ("f:name", 1, "n2")],
    "r3": [("f:name", 1, "n3")],  # no status column
    "r4": [("f:status", 1, "active")],  # only the tested column
})


def scvf(cls=SingleColumnValueFilter, **kw):
    return cls(b"f", b"status", "=", BinaryComparator(b"active"), **kw)


def test_scvf_emits_matching_rows_and_rows_missing_the_column():
    assert scan(scvf(), STATUS) == {
        "r1": ["f:name@1=n1", "f:status@2=active"],
        "r3": ["f:name@1=n3"],
        "r4": ["f:status@1=active"],
    }


def test_scvf_filter_if_missing_drops_rows_without_the_column():
    assert sorted(scan(scvf(filter_if_missing=True), STATUS)) == ["r1", "r4"]


def test_scvf_tests_only_the_latest_version_by_default():
    assert "r2" not in scan(scvf(), STATUS)  # latest is "inactive", an older one "active"


def test_scvf_any_version_when_latest_version_only_is_false():
    out = scan(scvf(latest_version_only=False), STATUS)
    # the row passes on its older version; what comes back is still the newest version
    assert out["r2"] == ["f:name@1=n2", "f:status@2=inactive"]


def test_scvef_drops_the_tested_column_and_rows_left_empty():
    assert scan(scvf(SingleColumnValueExcludeFilter), STATUS) == {
        "r1": ["f:name@1=n1"],
        "r3": ["f:name@1=n3"],
    }


def test_scvf_with_a_non_equal_operator_on_long_values():
    rows = table({f"r{i}": [("f:n", 1, struct.pack(">q", i)), ("f:o", 1, "x")]
                  for i in range(5)})
    f = SingleColumnValueFilter(b"f", b"n", ">=", BinaryComparator(struct.pack(">q", 3)))
    assert sorted(scan(f, rows)) == ["r3", "r4"]
    assert len(scan(f, rows)["r3"]) == 2  # the whole row comes back


# --- PageFilter ------------------------------------------------------------------------------
TEN = table({f"r{i}": [("f:a", 1, str(i)), ("f:z", 1, "yes" if i % 2 == 0 else "no")]
             for i in range(10)})


def test_page_filter_limits_rows_per_region():
    assert list(scan(PageFilter(3), TEN)) == ["r0", "r1", "r2"]


def test_page_filter_over_several_regions_returns_more_than_the_page():
    out = scan(PageFilter(3), TEN, split_keys=["r5"])
    assert list(out) == ["r0", "r1", "r2", "r5", "r6", "r7"]


def test_page_filter_zero_returns_nothing():
    assert scan(PageFilter(0), TEN) == {}


def test_page_filter_counts_rows_it_is_asked_about_so_list_order_matters():
    even = SingleColumnValueFilter(b"f", b"z", "=", b"yes")
    assert list(scan(even & PageFilter(2), TEN)) == ["r0", "r2"]
    # PageFilter first: it counts r1 before the value filter drops it (FilterList AND stops
    # at the first filter that drops the row), and the page is full after one real row.
    assert list(scan(PageFilter(2) & even, TEN)) == ["r0"]


# --- ColumnPaginationFilter, ColumnCountGetFilter ---------------------------------------------
WIDE = table({
    "r1": [("f:a", 2, "a2"), ("f:a", 1, "a1"), ("f:b", 1, "b"), ("f:c", 1, "c"),
           ("g:d", 1, "d"), ("g:e", 1, "e")],
})


def test_column_pagination_counts_columns_across_families_newest_version_only():
    assert scan(ColumnPaginationFilter(2, 1), WIDE, max_versions=3) == {
        "r1": ["f:b@1=b", "f:c@1=c"]}
    assert scan(ColumnPaginationFilter(2, 3), WIDE, max_versions=3) == {
        "r1": ["g:d@1=d", "g:e@1=e"]}
    assert scan(ColumnPaginationFilter(2, 5), WIDE) == {}


def test_column_pagination_by_column_offset():
    assert scan(ColumnPaginationFilter(2, column_offset=b"b"), WIDE) == {
        "r1": ["f:b@1=b", "f:c@1=c"]}


def test_column_count_get_filter_first_columns_then_ends_the_scan():
    rows = table({
        "r1": [("f:a", 1, "1"), ("f:b", 1, "1")],
        "r2": [("f:a", 2, "2"), ("f:a", 1, "1"), ("f:b", 1, "2"), ("f:c", 1, "2")],
        "r3": [("f:a", 1, "3")],
    })
    out = scan(ColumnCountGetFilter(2), rows, max_versions=3)
    # r2 has more than 2 columns: the filter is done after it, so r3 never comes back
    assert out == {"r1": ["f:a@1=1", "f:b@1=1"], "r2": ["f:a@2=2", "f:b@1=2"]}


# --- FirstKeyOnlyFilter, KeyOnlyFilter ----------------------------------------------------------
def test_first_key_only_returns_one_cell_per_row_across_families():
    assert scan(FirstKeyOnlyFilter(), WIDE, max_versions=3) == {"r1": ["f:a@2=a2"]}


def test_key_only_strips_values_or_gives_their_length():
    row, cells = WIDE[0]
    stripped = apply_to_row(KeyOnlyFilter(), row, cells, 1)
    assert [c.value for c in stripped] == [b""] * 5
    assert [c.qualifier for c in stripped] == [b"a", b"b", b"c", b"d", b"e"]
    lengths = apply_to_row(KeyOnlyFilter(True), row, cells, 1)
    assert lengths[0].value == b"\x00\x00\x00\x02" and lengths[0].timestamp == 2


# --- row-key filters ------------------------------------------------------------------------
KEYS = table({k: [("f:a", 1, k)] for k in ["a", "aa", "ab1", "ab2", "abc", "b", "c"]})


def test_prefix_filter_keeps_prefixed_rows_and_ends_after_them():
    pulled = []

    def source():
        for r in table({k: [("f:a", 1, k)] for k in ["a", "ab1", "ab2", "abc", "ba", "bb"]}):
            pulled.append(r[0])
            yield r

    out = [r for r, _ in scan_rows(lambda: PrefixFilter(b"ab"), source())]
    assert out == [b"ab1", b"ab2", b"abc"]
    assert pulled[-1] == b"ba"  # "ba" sorts after the prefix: the region scan stops there


def test_prefix_filter_reversed_scan():
    out = [r for r, _ in scan_rows(lambda: PrefixFilter(b"ab"), iter(KEYS[::-1]), 1, True)]
    assert out == [b"abc", b"ab2", b"ab1"]  # stops at "aa" (sorts before the prefix)


def test_inclusive_stop_filter_includes_the_stop_row():
    assert list(scan(InclusiveStopFilter(b"ab2"), KEYS)) == ["a", "aa", "ab1", "ab2"]
    backwards = scan_rows(lambda: InclusiveStopFilter(b"ab2"), iter(KEYS[::-1]), 1, True)
    assert [r for r, _ in backwards] == [b"c", b"b", b"abc", b"ab2"]


@pytest.mark.parametrize("spec,rows", [
    ("RowFilter(=, 'binary:ab1')", ["ab1"]),
    ("RowFilter(<, 'binary:ab')", ["a", "aa"]),
    ("RowFilter(<=, 'binary:ab1')", ["a", "aa", "ab1"]),
    ("RowFilter(>, 'binary:ab2')", ["abc", "b", "c"]),
    ("RowFilter(>=, 'binary:b')", ["b", "c"]),
    ("RowFilter(!=, 'binary:a')", ["aa", "ab1", "ab2", "abc", "b", "c"]),
    ("RowFilter(=, 'binaryprefix:ab')", ["ab1", "ab2", "abc"]),
    ("RowFilter(>=, 'binaryprefix:ab')", ["ab1", "ab2", "abc", "b", "c"]),
    ("RowFilter(<, 'binaryprefix:ab')", ["a", "aa"]),
    ("RowFilter(=, 'regexstring:^a.[0-9]$')", ["ab1", "ab2"]),
    ("RowFilter(!=, 'regexstring:b')", ["a", "aa", "c"]),
    ("RowFilter(=, 'substring:B')", ["ab1", "ab2", "abc", "b"]),
    ("RowFilter(!=, 'substring:A')", ["b", "c"]),
])
def test_row_filter_with_each_comparator(spec, rows):
    assert list(scan(parse_filter(spec), KEYS)) == rows


# --- family, qualifier, value filters --------------------------------------------------------
MIXED = table({
    "r1": [("f:", 1, "empty-qualifier"), ("f:apple", 1, "Red Apple"), ("f:berry", 2, "new"),
           ("f:berry", 1, "old"), ("g:cherry", 1, "dark"), ("h:date", 1, "sweet")],
})


def test_family_filter_skips_families_but_keeps_reading_the_row():
    assert scan(FamilyFilter("=", b"g"), MIXED) == {"r1": ["g:cherry@1=dark"]}
    assert scan(parse_filter("FamilyFilter(>=, 'binary:g')"), MIXED) == {
        "r1": ["g:cherry@1=dark", "h:date@1=sweet"]}


def test_qualifier_filter_with_empty_qualifier():
    """TestQualifierFilterWithEmptyQualifier.testQualifierFilterWithEmptyColumn: the empty
    qualifier is compared, so = '' finds it and != '' leaves it out."""
    assert scan(QualifierFilter("=", b"berry"), MIXED) == {"r1": ["f:berry@2=new"]}
    assert scan(QualifierFilter("=", b""), MIXED) == {"r1": ["f:@1=empty-qualifier"]}
    assert "f:@1=empty-qualifier" not in scan(QualifierFilter("!=", b""), MIXED)["r1"]
    assert scan(parse_filter("QualifierFilter(=, 'regexstring:rr')"), MIXED)["r1"] == [
        "f:berry@2=new", "g:cherry@1=dark"]


@pytest.mark.parametrize("spec,expected", [
    ("FamilyFilter(=, 'binary:g')", ["g:cherry@1=dark"]),
    ("FamilyFilter(<, 'binary:g')", ["f:@1=empty-qualifier", "f:apple@1=Red Apple",
                                     "f:berry@2=new"]),
    ("FamilyFilter(=, 'binaryprefix:h')", ["h:date@1=sweet"]),
    ("FamilyFilter(!=, 'regexstring:^[fg]$')", ["h:date@1=sweet"]),
    ("FamilyFilter(=, 'substring:G')", ["g:cherry@1=dark"]),
    ("QualifierFilter(>, 'binary:b')", ["f:berry@2=new",
                                       "g:cherry@1=dark", "h:date@1=sweet"]),
    ("QualifierFilter(=, 'binaryprefix:ch')", ["g:cherry@1=dark"]),
    ("QualifierFilter(=, 'substring:ERR')", ["f:berry@2=new",
                                            "g:cherry@1=dark"]),
    ("ValueFilter(<, 'binary:e')", ["f:apple@1=Red Apple", "g:cherry@1=dark"]),
    ("ValueFilter(=, 'binaryprefix:sw')", ["h:date@1=sweet"]),
    ("ValueFilter(=, 'regexstring:^[a-z]+$')", ["f:berry@2=new", "g:cherry@1=dark",
                                                "h:date@1=sweet"]),
    # the newest berry version fails, the older one passes and is returned
    ("ValueFilter(!=, 'substring:E')", ["f:berry@1=old", "g:cherry@1=dark"]),
])
def test_family_qualifier_value_filters_with_each_comparator(spec, expected):
    assert scan(parse_filter(spec), MIXED).get("r1", []) == expected


def test_value_filter_with_substring_is_case_insensitive():
    assert scan(parse_filter("ValueFilter(=, 'substring:APPLE')"), MIXED) == {
        "r1": ["f:apple@1=Red Apple"]}


def test_value_filter_sees_older_versions_before_the_version_cap():
    # FromClientSideTest5.testReadWithFilter: asking for 1 version with a filter returns
    # the newest version that passes, not nothing.
    assert scan(ValueFilter("=", b"old"), MIXED, max_versions=1) == {"r1": ["f:berry@1=old"]}


# --- column filters -----------------------------------------------------------------------
COLS = table({
    "r1": [("f:a", 1, "1"), ("f:b1", 1, "1"), ("f:b2", 1, "1"), ("f:c", 1, "1"),
           ("f:d", 1, "1"), ("g:a", 1, "1"), ("g:b9", 1, "1"), ("g:e", 1, "1")],
})


def test_column_prefix_filter_in_every_family():
    assert scan(ColumnPrefixFilter(b"b"), COLS)["r1"] == ["f:b1@1=1", "f:b2@1=1", "g:b9@1=1"]


def test_multiple_column_prefix_filter():
    assert scan(MultipleColumnPrefixFilter(b"a", b"c"), COLS)["r1"] == [
        "f:a@1=1", "f:c@1=1", "g:a@1=1"]


def test_multiple_column_prefix_filter_overlapping_prefixes_quirk():
    rows = table({"r": [("f:a", 1, ""), ("f:ab1", 1, ""), ("f:ac", 1, ""), ("f:b", 1, "")]})
    # As HBase: only the largest prefix <= the qualifier is tried, so "ac" is missed.
    assert scan(MultipleColumnPrefixFilter(b"a", b"ab"), rows)["r"] == ["f:a@1=", "f:ab1@1="]


def test_column_range_filter_bounds():
    assert scan(ColumnRangeFilter(b"b1", True, b"d", False), COLS)["r1"] == [
        "f:b1@1=1", "f:b2@1=1", "f:c@1=1", "g:b9@1=1"]
    assert scan(ColumnRangeFilter(b"b1", False, b"d", True), COLS)["r1"] == [
        "f:b2@1=1", "f:c@1=1", "f:d@1=1", "g:b9@1=1"]
    assert scan(ColumnRangeFilter(None, True, b"b", False), COLS)["r1"] == [
        "f:a@1=1", "g:a@1=1"]
    assert scan(ColumnRangeFilter(b"d", True, None, False), COLS)["r1"] == [
        "f:d@1=1", "g:e@1=1"]


def test_timestamps_filter_keeps_listed_versions():
    rows = table({"r": [("f:a", t, f"v{t}") for t in (1, 2, 3, 4)] + [("f:b", 2, "b2")]})
    for can_hint in (False, True):
        f = TimestampsFilter([1, 3], can_hint=can_hint)
        assert scan(f, rows, max_versions=5)["r"] == ["f:a@3=v3", "f:a@1=v1"]
        assert scan(f, rows, max_versions=1)["r"] == ["f:a@3=v3"]
    assert scan(TimestampsFilter([2]), rows)["r"] == ["f:a@2=v2", "f:b@2=b2"]


# --- DependentColumnFilter, ColumnValueFilter ------------------------------------------------
DEP = table({
    "r1": [("f:a", 3, "a3"), ("f:a", 2, "a2"), ("f:a", 1, "a1"), ("f:ts", 3, "x"),
           ("f:ts", 1, "y"), ("g:b", 3, "b3"), ("g:b", 2, "b2")],
    "r2": [("f:a", 1, "a1")],  # no reference column: nothing survives
})


def test_dependent_column_filter_keeps_cells_at_the_reference_timestamps():
    assert scan(DependentColumnFilter(b"f", b"ts"), DEP, max_versions=3) == {
        "r1": ["f:a@3=a3", "f:a@1=a1", "f:ts@3=x", "f:ts@1=y", "g:b@3=b3"]}


def test_dependent_column_filter_can_drop_the_reference_column():
    assert scan(DependentColumnFilter(b"f", b"ts", True), DEP, max_versions=3) == {
        "r1": ["f:a@3=a3", "f:a@1=a1", "g:b@3=b3"]}


def test_dependent_column_filter_with_a_value_condition():
    f = parse_filter("DependentColumnFilter('f', 'ts', false, =, 'binary:x')")
    assert scan(f, DEP, max_versions=3) == {"r1": ["f:a@3=a3", "f:ts@3=x", "g:b@3=b3"]}


def test_column_value_filter_returns_only_the_matching_cells():
    rows = table({
        "r1": [("f:a", 1, "a"), ("f:b", 2, "x"), ("f:b", 1, "y"), ("f:c", 1, "x")],
        "r2": [("f:a", 1, "a"), ("f:b", 1, "y")],
    })
    assert scan(ColumnValueFilter(b"f", b"b", "=", b"x"), rows, max_versions=3) == {
        "r1": ["f:b@2=x"]}
    assert scan(ColumnValueFilter(b"f", b"b", "!=", b"x"), rows, max_versions=3) == {
        "r1": ["f:b@1=y"], "r2": ["f:b@1=y"]}


# --- SKIP and WHILE ----------------------------------------------------------------------------
WEIGHTS = table({
    "r1": [("f:a", 1, "1"), ("f:b", 1, "1")],
    "r2": [("f:a", 1, "1"), ("f:b", 1, "0"), ("f:c", 1, "1")],
    "r3": [("f:a", 1, "1"), ("f:b", 1, "1")],
})


def test_plain_value_filter_drops_cells():
    assert scan(parse_filter("ValueFilter(!=, 'binary:0')"), WEIGHTS)["r2"] == [
        "f:a@1=1", "f:c@1=1"]


def test_skip_drops_the_whole_row_when_one_cell_fails():
    assert scan(parse_filter("SKIP ValueFilter(!=, 'binary:0')"), WEIGHTS) == {
        "r1": ["f:a@1=1", "f:b@1=1"], "r3": ["f:a@1=1", "f:b@1=1"]}


def test_while_ends_the_scan_at_the_first_failing_cell():
    # the row being read keeps what was included before the failure; nothing comes after
    assert scan(parse_filter("WHILE ValueFilter(!=, 'binary:0')"), WEIGHTS) == {
        "r1": ["f:a@1=1", "f:b@1=1"], "r2": ["f:a@1=1"]}


def test_while_on_a_row_filter_stops_at_the_first_failing_row():
    assert list(scan(parse_filter("WHILE RowFilter(<, 'binary:ab2')"), KEYS)) == [
        "a", "aa", "ab1"]
    # a plain RowFilter keeps going (and would match later rows)
    assert list(scan(parse_filter("RowFilter(!=, 'binary:ab2')"), KEYS))[-1] == "c"
