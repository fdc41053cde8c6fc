"""parse_filter against ParseFilter (TestParseFilter): every filter, operator, comparator,
quoting, precedence and whitespace rule, and each kind of error with its position."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hsim.errors import FilterParseError
from hsim.filters import (
    BinaryComparator,
    BinaryPrefixComparator,
    ColumnCountGetFilter,
    ColumnPaginationFilter,
    ColumnPrefixFilter,
    ColumnRangeFilter,
    ColumnValueFilter,
    CompareOperator,
    DependentColumnFilter,
    FamilyFilter,
    FilterList,
    FirstKeyOnlyFilter,
    InclusiveStopFilter,
    KeyOnlyFilter,
    MultipleColumnPrefixFilter,
    PageFilter,
    PrefixFilter,
    QualifierFilter,
    RegexStringComparator,
    RowFilter,
    SingleColumnValueExcludeFilter,
    SingleColumnValueFilter,
    SkipFilter,
    SubstringComparator,
    TimestampsFilter,
    ValueFilter,
    WhileMatchFilter,
    parse_filter,
    supported_filters,
)

AND, OR = FilterList.MUST_PASS_ALL, FilterList.MUST_PASS_ONE


def test_the_nineteen_registered_filters():
    assert len(supported_filters()) == 19
    assert "ColumnValueFilter" in supported_filters()


# --- every filter -------------------------------------------------------------------------
def test_key_only_and_first_key_only():
    assert isinstance(parse_filter("KeyOnlyFilter()"), KeyOnlyFilter)
    assert parse_filter("KeyOnlyFilter(true)").len_as_val is True
    assert parse_filter("KeyOnlyFilter ( FALSE )").len_as_val is False
    assert isinstance(parse_filter(" FirstKeyOnlyFilter( ) "), FirstKeyOnlyFilter)


def test_prefix_column_prefix_inclusive_stop():
    f = parse_filter(" PrefixFilter('row' ) ")
    assert type(f) is PrefixFilter and f.prefix == b"row"
    g = parse_filter(" ColumnPrefixFilter('qualifier' ) ")
    assert type(g) is ColumnPrefixFilter and g.prefix == b"qualifier"
    h = parse_filter("InclusiveStopFilter ('row 3')")
    assert type(h) is InclusiveStopFilter and h.stop_row == b"row 3"


def test_multiple_column_prefix_filter_sorts_its_prefixes():
    f = parse_filter(" MultipleColumnPrefixFilter('qualifier2', 'qualifier1' ) ")
    assert isinstance(f, MultipleColumnPrefixFilter)
    assert f.prefixes == [b"qualifier1", b"qualifier2"]
    assert parse_filter("MultipleColumnPrefixFilter()").prefixes == []


def test_counting_filters():
    f = parse_filter(" ColumnCountGetFilter(4)")
    assert type(f) is ColumnCountGetFilter and f.limit == 4
    g = parse_filter(" PageFilter(4)")
    assert type(g) is PageFilter and g.page_size == 4
    p = parse_filter("ColumnPaginationFilter(4, 6)")
    assert isinstance(p, ColumnPaginationFilter) and (p.limit, p.offset) == (4, 6)
    assert (parse_filter("ColumnPaginationFilter(4 6)").offset) == 6  # a space separates too


def test_timestamps_filter():
    f = parse_filter("TimestampsFilter(9223372036854775806, 6)")
    assert isinstance(f, TimestampsFilter) and f.timestamps == [6, 9223372036854775806]
    assert parse_filter("TimestampsFilter()").timestamps == []


@pytest.mark.parametrize("name,cls", [("RowFilter", RowFilter), ("FamilyFilter", FamilyFilter),
                                      ("QualifierFilter", QualifierFilter),
                                      ("ValueFilter", ValueFilter)])
def test_compare_filters(name, cls):
    f = parse_filter(f"{name} ( =,   'binary:regionse')")
    assert type(f) is cls and f.op is CompareOperator.EQUAL
    assert f.comparator == BinaryComparator(b"regionse")


def test_column_range_filter_empty_bound_is_unbounded():
    f = parse_filter("ColumnRangeFilter('abc', true, 'xyz', false)")
    assert isinstance(f, ColumnRangeFilter)
    assert (f.min_column, f.min_column_inclusive, f.max_column, f.max_column_inclusive) == (
        b"abc", True, b"xyz", False)
    g = parse_filter("ColumnRangeFilter('', false, '', true)")
    assert g.min_column is None and g.max_column is None


def test_single_column_value_filters():
    f = parse_filter("SingleColumnValueFilter ('family', 'qualifier', >=, 'binary:a', true, "
                     "false)")
    assert type(f) is SingleColumnValueFilter
    assert (f.family, f.qualifier, f.op) == (b"family", b"qualifier",
                                             CompareOperator.GREATER_OR_EQUAL)
    assert f.filter_if_missing is True and f.latest_version_only is False
    g = parse_filter("SingleColumnValueFilter ('family', 'qualifier', >, 'binaryprefix:a')")
    assert g.comparator == BinaryPrefixComparator(b"a")
    assert g.filter_if_missing is False and g.latest_version_only is True
    h = parse_filter("SingleColumnValueExcludeFilter ('family', 'qualifier', <=, "
                     "'binaryprefix:a', true, false)")
    assert type(h) is SingleColumnValueExcludeFilter and h.op is CompareOperator.LESS_OR_EQUAL
    assert h.filter_if_missing is True and h.latest_version_only is False


def test_dependent_column_filter_forms():
    f = parse_filter("DependentColumnFilter('family', 'qualifier', true, =, 'binary:abc')")
    assert isinstance(f, DependentColumnFilter)
    assert (f.family, f.qualifier, f.drop_dependent_column) == (b"family", b"qualifier", True)
    assert f.op is CompareOperator.EQUAL and f.comparator == BinaryComparator(b"abc")
    assert parse_filter("DependentColumnFilter('f', 'q')").comparator is None
    assert parse_filter("DependentColumnFilter('f', 'q', true)").drop_dependent_column


def test_column_value_filter():
    f = parse_filter("ColumnValueFilter ('family', 'qualifier', <, 'binaryprefix:value')")
    assert isinstance(f, ColumnValueFilter) and f.op is CompareOperator.LESS
    assert f.comparator == BinaryPrefixComparator(b"value")


# --- operators and comparators ----------------------------------------------------------------
@pytest.mark.parametrize("symbol,op", [("<", "LESS"), ("<=", "LESS_OR_EQUAL"), ("=", "EQUAL"),
                                       ("!=", "NOT_EQUAL"), (">=", "GREATER_OR_EQUAL"),
                                       (">", "GREATER")])
def test_compare_operators(symbol, op):
    assert parse_filter(f"ValueFilter({symbol}, 'binary:x')").op is CompareOperator[op]


def test_comparator_types():
    def comparator(spec):
        return parse_filter(f"ValueFilter(=, '{spec}')").comparator

    assert comparator("binary:a:b") == BinaryComparator(b"a:b")  # split at the first colon
    assert comparator("binaryprefix:pre") == BinaryPrefixComparator(b"pre")
    assert isinstance(comparator("regexstring:pre*"), RegexStringComparator)
    assert comparator("regexstring:pre*").value == b"pre*"
    assert comparator("substring:PRE") == SubstringComparator("pre")  # lower-cased
    assert comparator("binary:") == BinaryComparator(b"")


# --- quoting and whitespace ----------------------------------------------------------------
@pytest.mark.parametrize("text,value", [("'row''3'", b"row'3"), ("'row''3'''", b"row'3'"),
                                        ("''''", b"'"), ("''", b""), ("'a)b'", b"a)b"),
                                        ("'a,b c'", b"a,b c"), ("'é'", "é".encode())])
def test_quoted_strings(text, value):
    assert parse_filter(f"InclusiveStopFilter ({text})").stop_row == value


def test_whitespace_before_parenthesis_and_between_tokens():
    assert isinstance(parse_filter("PrefixFilter   ('a')"), PrefixFilter)
    f = parse_filter("\tPrefixFilter('a') AND  KeyOnlyFilter ( )\t ")
    assert isinstance(f, FilterList) and len(f.filters) == 2
    # a tab is skipped between tokens but does not delimit a keyword (ParseFilter.checkForAnd)
    with pytest.raises(FilterParseError, match="Filter Name AND not supported"):
        parse_filter("PrefixFilter('a')\tAND KeyOnlyFilter()")


def test_bytes_input():
    assert parse_filter(b"PrefixFilter('\xff')").prefix == b"\xff"


def test_keywords_need_a_space_or_parenthesis_around_them():
    f = parse_filter("PrefixFilter('a')AND(PrefixFilter('b'))")
    assert isinstance(f, FilterList) and f.operator is AND
    with pytest.raises(FilterParseError, match="ANDPrefixFilter not supported"):
        parse_filter("PrefixFilter('a') ANDPrefixFilter('b')")
    with pytest.raises(FilterParseError, match="Filter Name and not supported"):
        parse_filter("PrefixFilter('a') and PrefixFilter('b')")  # keywords are upper case


# --- precedence -----------------------------------------------------------------------------
def shape(f):
    """A filter tree as nested tuples of class names, for precedence checks."""
    if isinstance(f, FilterList):
        return (f.operator.value, *[shape(x) for x in f.filters])
    if isinstance(f, (SkipFilter, WhileMatchFilter)):
        return (type(f).__name__, shape(f.filter))
    return getattr(f, "prefix", b"?").decode()


A, B, C = "PrefixFilter('a')", "PrefixFilter('b')", "PrefixFilter('c')"


@pytest.mark.parametrize("text,tree", [
    (f"{A} AND {B} OR {C}", ("OR", ("AND", "a", "b"), "c")),
    (f"{A} OR {B} AND {C}", ("OR", "a", ("AND", "b", "c"))),
    (f"{A} AND {B} AND {C}", ("AND", "a", "b", "c")),
    (f"{A} OR {B} OR {C}", ("OR", "a", "b", "c")),
    (f"({A} OR {B}) AND {C}", ("AND", ("OR", "a", "b"), "c")),
    (f"SKIP {A} AND {B}", ("AND", ("SkipFilter", "a"), "b")),
    (f"{A} AND SKIP {B} OR WHILE {C}",
     ("OR", ("AND", "a", ("SkipFilter", "b")), ("WhileMatchFilter", "c"))),
    (f"WHILE ({A} OR {B})", ("WhileMatchFilter", ("OR", "a", "b"))),
    (f"SKIP WHILE {A}", ("SkipFilter", ("WhileMatchFilter", "a"))),
    (f"(({A}))", "a"),
    (f" ({A} AND {B} OR {C})", ("OR", ("AND", "a", "b"), "c")),  # TestParseFilter precedence1
])
def test_precedence(text, tree):
    assert shape(parse_filter(text)) == tree


def test_an_unclosed_parenthesis_is_accepted_as_in_hbase():
    assert shape(parse_filter(f"({A} AND {B}")) == ("AND", "a", "b")


def test_hbase_parser_quirk_inside_parentheses():
    # ParseFilter reduces one precedence level at a ')': these parse bare but not in (...)
    for text in (f"({A} OR {B} AND {C})", f"({A} AND SKIP {B})", f"(SKIP WHILE {A})"):
        with pytest.raises(FilterParseError, match="Mismatched parenthesis") as err:
            parse_filter(text)
        assert err.value.position == len(text) - 1
    assert shape(parse_filter(f"({A} OR ({B} AND {C}))")) == ("OR", "a", ("AND", "b", "c"))


# --- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text,message,position", [
    # unknown filter
    ("FooFilter('a')", "Filter Name FooFilter not supported", 0),
    (f"{A} AND Foo('b')", "Filter Name Foo not supported", 22),
    ("(bad)", "Incorrect Filter Name", 1),
    # argument count
    ("FirstKeyOnlyFilter ('')", "Expected 0 but got: 1", 0),
    (f"{A} OR PrefixFilter('a', 'b')", "Expected 1 but got: 2", 21),
    ("SingleColumnValueFilter('f', 'q', =, 'binary:a', true)", "Expected 4 or 6 but got: 5", 0),
    ("DependentColumnFilter('f', 'q', true, =)", "Expected 2 or 3 or 5 but got: 4", 0),
    ("ColumnPaginationFilter('124')", "Expected 2 but got: 1", 0),
    # argument type
    ("KeyOnlyFilter ('')", "Incorrect Boolean Expression", 0),
    (" PrefixFilter(row)", "expected a quoted string, got row", 1),
    (" ColumnCountGetFilter('abc')", "should only contain digits", 1),
    (" PageFilter('123')", "should only contain digits", 1),
    (" ColumnPaginationFilter('4' , '123a')", "should only contain digits", 1),
    (" ColumnCountGetFilter(2147483648)", "Integer Argument too large", 1),
    ("TimestampsFilter(9223372036854775808, 6)", "Long Argument too large", 0),
    ("TimestampsFilter(-45, 6)", "must be positive -45", 0),
    ("ColumnPaginationFilter(4, -123)", "offset must be positive", 0),
    ("PageFilter(-1)", "must be positive -1", 0),
    ("MultipleColumnPrefixFilter('a', 'a')", "prefixes must be distinct", 0),
    ("ColumnRangeFilter('a', yes, 'b', true)", "Incorrect Boolean Expression", 0),
    # operators and comparators
    ("RowFilter ('>>' , 'binary:region')", "Invalid compare operator '>>'", 0),
    ("RowFilter (>>, 'binary:region')", "Invalid compare operator >>", 0),
    ("RowFilter (>=, 'binaryoperator:region')", "Incorrect comparatorType binaryoperator", 0),
    ("RowFilter (>=, 'region')", "Incorrect comparator region", 0),
    ("RowFilter (>=, binary:region)", "expected a quoted string", 0),
    ("RowFilter ('>=' 'regexstring:pre*')", "Invalid compare operator", 0),
    ("RowFilter (>=, 'regexstring:pre*')", "only be used with EQUAL and NOT_EQUAL", 0),
    ("SingleColumnValueFilter ('f', 'q', >=, 'substring:a', true, false)",
     "only be used with EQUAL and NOT_EQUAL", 0),
    ("ColumnValueFilter ('f', 'q', <, 'substring:a')", "only be used with EQUAL", 0),
    ("ValueFilter(=, 'regexstring:a(b')", "Invalid regular expression", 0),
    # parentheses and operators
    (f"{A})", "Mismatched parenthesis", 17),
    (f"{A} AND {B})", "Mismatched parenthesis", 39),
    (f"{A} OR {B} AND {C})", "Mismatched parenthesis", 60),
    ("()", "Incorrect Filter String: no filter", 0),
    ("", "Incorrect Filter String: no filter", 0),
    (f"{A} AND", "no ')' ends this filter", 18),
    (f"{A} AND ", "an AND needs two filters", 18),
    (f"OR {A}", "Filter Name OR not supported", 0),
    (f"{A} OR ", "an OR needs two filters", 18),
    ("SKIP ", "a SKIP wraps a filter", 0),
    (f"{A} {B}", "no AND/OR between them", 0),
    # quotes
    ("PrefixFilter('abc)", "unterminated quote", 13),
    ("PrefixFilter('ab''c)", "unterminated quote", 13),
])
def test_errors_name_the_problem_and_position(text, message, position):
    with pytest.raises(FilterParseError) as err:
        parse_filter(text)
    assert message in str(err.value)
    assert err.value.position == position
    assert f"at position {position}" in str(err.value)
    assert "IllegalArgumentException" in str(err.value)


# --- robustness ---------------------------------------------------------------------------
TOKENS = ["PrefixFilter('a')", "KeyOnlyFilter()", "ValueFilter(=, 'binary:x')", "PageFilter(2)",
          " AND ", " OR ", "SKIP ", "WHILE ", "(", ")", " ", "'", "''", ",", "Foo(", "1", "\t"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=8) | st.text(max_size=30))
def test_any_string_parses_or_raises_filter_parse_error(parts):
    text = parts if isinstance(parts, str) else "".join(parts)
    try:
        parse_filter(text)
    except FilterParseError as e:
        assert 0 <= e.position <= len(text.encode("utf-8"))
