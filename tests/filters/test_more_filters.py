"""The filters and comparators without a filter-language form, each test named after the
HBase test it comes from (TestFuzzyRowFilter, TestMultiRowRangeFilter, TestComparators,
TestBitComparator, TestBigDecimalComparator, TestLongComparator, ...)."""

import decimal

import pytest

import hsim
from hsim.errors import InvalidArgumentError
from hsim.filters import (
    BigDecimalComparator, BinaryComponentComparator, BitComparator, BitwiseOp,
    FirstKeyValueMatchingQualifiersFilter, FuzzyRowFilter, LongComparator,
    MultiRowRangeFilter, NullComparator, RandomRowFilter, RowRange, SingleColumnValueFilter,
    ValueFilter, parse_filter,
)
from hsim.filters.row_selection import _next_row
from hsim.filters.typed_comparators import big_decimal_to_bytes, bytes_to_big_decimal
from tests.filters._rows import scan, table


# --- TestFuzzyRowFilter ---------------------------------------------------------------------
def test_satisfies_and_get_next_for_fuzzy_rule():
    """TestFuzzyRowFilter.testSatisfiesForward / testGetNextForFuzzyRuleForward."""
    key, mask = b"\x01\x00\x03", b"\x00\x01\x00"
    rows = table({r: [("f:q", 1, "v")] for r in ("\x01\x05\x03", "\x01\x05\x04", "\x02")})
    assert list(scan(FuzzyRowFilter([(key, mask)]), rows)) == ["\x01\x05\x03"]
    assert _next_row(b"\x01\x05\x04", key, mask) == b"\x01\x06\x03"
    assert _next_row(b"\x00", key, mask) == b"\x01\x00\x03"
    assert _next_row(b"\x01", key, mask) == b"\x01\x00\x03"  # consistent prefix: extend
    assert _next_row(b"\x02", key, mask) is None  # nothing after can match
    assert _next_row(b"\x01\xff\x04", key, mask) is None
    assert _next_row(b"\x01\x05\x03\x09", key, mask) is None  # matches (longer is fine)


def test_fuzzy_row_filter_across_regions_with_seek_hints():
    """TestFuzzyRowAndColumnRangeFilter.testFuzzyRowAndColumnRangeFilter (row part): the
    filter through a real multi-region table, the scan ending when no rule can match."""
    c = hsim.Cluster(clock=hsim.ManualClock(1))
    c.admin.create_table("t", {"f": {}}, split_keys=[b"b"])
    t = c.table("t")
    for row in (b"a1x", b"a2y", b"b1x", b"b1y", b"c1x", b"zzz"):
        t.put(row, {b"f:q": row})
    f = FuzzyRowFilter([(b"?1x", b"\x01\x00\x00")])
    assert [cells[0].row for cells in t.scan(filter=f)] == [b"a1x", b"b1x", b"c1x"]


def test_fuzzy_row_filter_rejects_mismatched_pairs():
    with pytest.raises(InvalidArgumentError, match="lengths do not match"):
        FuzzyRowFilter([(b"ab", b"\x00")])
    with pytest.raises(InvalidArgumentError):
        FuzzyRowFilter([(b"a", b"\x02")])


# --- TestMultiRowRangeFilter ----------------------------------------------------------------
def test_merge_and_sort_with_overlap_and_empty_ranges():
    """TestMultiRowRangeFilter.testMergeAndSortWithRowInclusive / testMergeAndSortWithEmpty*."""
    f = MultiRowRangeFilter([RowRange(b"b", True, b"d", False), RowRange(b"a", True, b"c", True),
                             RowRange(b"d", True, b"e", False), RowRange(b"x", False, b"", False)])
    assert f.ranges == [RowRange(b"a", True, b"e", False), RowRange(b"x", False, b"", False)]
    f = MultiRowRangeFilter([RowRange(b"a", True, b"c", False), RowRange(b"c", False, b"e", True)])
    assert len(f.ranges) == 2  # c is in neither: not merged
    assert MultiRowRangeFilter([(b"", True, b"c", False), (b"b", True, b"z", False)]).ranges == \
        [RowRange(b"", True, b"z", False)]


def test_multi_row_range_filter_with_inclusive_and_exclusive_ends():
    """TestMultiRowRangeFilter.testMultiRowRangeFilterWithRangeOverlap / WithInclusive."""
    rows = table({r: [("f:q", 1, r)] for r in "abcdefgh"})
    f = MultiRowRangeFilter([(b"b", False, b"d", True), (b"f", True, b"g", False)])
    assert list(scan(f, rows, split_keys=["e"])) == ["c", "d", "f"]


def test_invalid_row_range():
    """TestMultiRowRangeFilter.testRanges (start after stop is refused)."""
    with pytest.raises(InvalidArgumentError, match="Invalid range"):
        RowRange(b"z", True, b"a", False)


# --- FirstKeyValueMatchingQualifiersFilter, RandomRowFilter --------------------------------
def test_first_key_value_matching_qualifiers_filter():
    """TestFirstKeyValueMatchingQualifiersFilter.testFirstKeyMatchingQualifierFilter."""
    rows = table({"r": [("f:a", 1, "1"), ("f:b", 1, "2"), ("f:c", 1, "3")]})
    f = FirstKeyValueMatchingQualifiersFilter([b"b"])
    assert scan(f, rows) == {"r": ["f:a@1=1", "f:b@1=2"]}


def test_random_row_filter_basics_and_determinism():
    """TestRandomRowFilter.testBasics: about `chance` of the rows pass; the same seed keeps
    the same rows; chance below 0 keeps none, above 1 keeps all."""
    rows = table({"r%04d" % i: [("f:q", 1, "v")] for i in range(2000)})
    kept = scan(RandomRowFilter(0.25, seed=7), rows)
    assert 400 < len(kept) < 600
    assert scan(RandomRowFilter(0.25, seed=7), rows, split_keys=["r1000"]) == kept
    assert scan(RandomRowFilter(0.25, seed=8), rows) != kept
    assert scan(RandomRowFilter(-1.0), rows) == {}
    assert len(scan(RandomRowFilter(2.0), rows)) == 2000


# --- comparators: TestComparators, TestBitComparator, ... ----------------------------------
def test_null_comparator():
    """TestNullComparator.testNullValue / testNonNullValue."""
    assert NullComparator().compare_to(None) == 0
    assert NullComparator().compare_to(b"") == 1  # an empty value is still a value
    rows = table({"r": [("f:q", 1, "")]})
    assert scan(ValueFilter("=", NullComparator()), rows) == {}
    assert list(scan(ValueFilter("!=", NullComparator()), rows)) == ["r"]


def test_long_comparator():
    """TestLongComparator.testSimple: signed numeric order, not byte order."""
    for a in (-2**63, -1, 0, 1, 2**63 - 1):
        for b in (-2**63, -1, 0, 1, 2**63 - 1):
            assert LongComparator(a).compare_to(b.to_bytes(8, "big", signed=True)) == \
                (a > b) - (a < b)
    rows = table({"n": [("f:q", 1, (-5).to_bytes(8, "big", signed=True))],
                  "p": [("f:q", 1, (5).to_bytes(8, "big", signed=True))]})
    assert list(scan(ValueFilter("<", LongComparator(0)), rows)) == ["n"]
    with pytest.raises(InvalidArgumentError, match="Wrong length"):
        LongComparator(1).compare_to(b"\x01")


@pytest.mark.parametrize("data,value,op,expected", [
    (b"\x00\x01", b"\x00\x01", BitwiseOp.AND, 0), (b"\x00\x02", b"\x00\x01", BitwiseOp.AND, 1),
    (b"\x00\x00", b"\x00\x00", BitwiseOp.OR, 1), (b"\x00\x00", b"\x00\x01", BitwiseOp.OR, 0),
    (b"\x0f", b"\x0f", BitwiseOp.XOR, 1), (b"\x0f", b"\x0e", BitwiseOp.XOR, 0),
    (b"\x01\x01", b"\x01", BitwiseOp.AND, 1),  # lengths differ: never equal
])
def test_bit_comparator(data, value, op, expected):
    """TestBitComparator.testANDOperation / testOROperation / testXOROperation."""
    assert BitComparator(value, op).compare_to(data) == expected


def test_big_decimal_comparator():
    """TestBigDecimalComparator.testObjectEquals / testEqualsValue / testGreaterThanValue."""
    enc = big_decimal_to_bytes
    assert enc(decimal.Decimal("1.5")) == b"\x00\x00\x00\x01\x0f"  # scale 1, unscaled 15
    for text in ("0", "-1", "128", "-128", "3.14159", "1E+3", "-0.000255"):
        assert bytes_to_big_decimal(enc(decimal.Decimal(text))) == decimal.Decimal(text)
    cmp = BigDecimalComparator(decimal.Decimal("1.0"))
    assert cmp.compare_to(enc(decimal.Decimal("1.00"))) == 0  # compareTo, not equals
    assert cmp.compare_to(enc(decimal.Decimal("-2"))) == 1
    assert cmp.compare_to(enc(decimal.Decimal("10"))) == -1
    rows = table({"a": [("f:q", 1, enc(decimal.Decimal("9.5")))],
                  "b": [("f:q", 1, enc(decimal.Decimal("10.25")))]})
    f = SingleColumnValueFilter(b"f", b"q", ">", BigDecimalComparator(decimal.Decimal("10")))
    assert list(scan(f, rows)) == ["b"]


def test_big_decimal_comparator_is_exact_at_any_precision():
    """BigDecimal.compareTo is exact: Double.MIN_VALUE as a BigDecimal (751 significant digits)
    equals itself, and 40-digit values one unit apart in the last place are ordered."""
    enc = big_decimal_to_bytes
    tiny = decimal.Decimal(5e-324)  # new BigDecimal(Double.MIN_VALUE): the exact binary value
    assert BigDecimalComparator(tiny).compare_to(enc(tiny)) == 0
    assert bytes_to_big_decimal(enc(tiny)) == tiny
    a = decimal.Decimal("1234567890123456789012345678901234567890")
    b = decimal.Decimal("1234567890123456789012345678901234567891")
    assert BigDecimalComparator(a).compare_to(enc(b)) == -1
    assert BigDecimalComparator(b).compare_to(enc(a)) == 1
    assert BigDecimalComparator(a).compare_to(enc(a)) == 0


def test_binary_component_comparator():
    """TestComparators.testCellFieldsCompare (BinaryComponentComparator part) and
    TestFilter.testRowFilterWithBinaryComponentComparator."""
    c = BinaryComponentComparator(b"\x00\x02", 2)
    assert c.compare_to(b"ab\x00\x02cd") == 0
    assert c.compare_to(b"ab\x00\x03cd") < 0
    assert c.compare_to(b"ab\x00\x01cd") > 0
    rows = table({"a\x00\x01": [("f:q", 1, "v")], "b\x00\x02": [("f:q", 1, "v")]})
    assert list(scan(hsim.filters.RowFilter("=", BinaryComponentComparator(b"\x02", 2)),
                     rows)) == ["b\x00\x02"]


def test_new_comparators_have_no_filter_language_form():
    """ParseConstants knows only binary, binaryprefix, regexstring and substring."""
    for spec in ("long:1", "bit:1", "null:", "bigdecimal:1", "binarycomponent:1"):
        with pytest.raises(InvalidArgumentError, match="comparatorType"):
            parse_filter(f"ValueFilter(=, '{spec}')")
    for name in ("FuzzyRowFilter", "MultiRowRangeFilter", "RandomRowFilter"):
        with pytest.raises(InvalidArgumentError):
            parse_filter(f"{name}()")


def test_random_row_filter_without_a_seed_draws_from_the_clusters():
    """Same cluster seed, same rows; another seed, other rows; the user's filter untouched."""
    def rows_kept(seed, filt):
        c = hsim.Cluster(clock=hsim.ManualClock(1), seed=seed)
        c.admin.create_table("t", ["f"], split_keys=[b"r0500"])
        t = c.table("t")
        for i in range(1000):
            t.put(b"r%04d" % i, {b"f:q": b"v"})
        return [r[0].row for r in t.scan(filter=filt)]

    f = RandomRowFilter(0.3)
    a, b = rows_kept(11, f), rows_kept(11, f)
    assert a == b and 200 < len(a) < 400
    assert rows_kept(12, f) != a
    assert f.seed is None
    assert rows_kept(99, RandomRowFilter(0.3, seed=11)) == a  # its own seed wins
    with pytest.raises(hsim.InvalidArgumentError):
        hsim.Cluster(seed="x")
