"""Comparators and compare operators: ByteArrayComparable.compareTo signs, the regex and
substring comparators' Java semantics, and that operators read "cell OP value"."""

import operator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hsim.errors import InvalidArgumentError
from hsim.filters import (
    BinaryComparator,
    BinaryPrefixComparator,
    CompareOperator,
    RegexStringComparator,
    SubstringComparator,
)
from hsim.filters.compare_op import _FILTERS_OUT, out_predicate
from hsim.filters.comparators import java_regex_to_python

RELATION = {  # what "cell OP value" means for each operator
    CompareOperator.LESS: operator.lt,
    CompareOperator.LESS_OR_EQUAL: operator.le,
    CompareOperator.EQUAL: operator.eq,
    CompareOperator.NOT_EQUAL: operator.ne,
    CompareOperator.GREATER_OR_EQUAL: operator.ge,
    CompareOperator.GREATER: operator.gt,
}


@given(st.binary(max_size=6), st.binary(max_size=6), st.sampled_from(list(RELATION)))
def test_binary_comparator_filters_out_cells_failing_cell_op_value(data, value, op):
    comparator = BinaryComparator(value)
    fast = out_predicate(op, comparator)
    generic = _FILTERS_OUT[op](comparator.compare_to(data))
    assert fast(data) == generic == (not RELATION[op](data, value))


def test_binary_comparator_is_unsigned_lexicographic():
    assert BinaryComparator(b"\x01").compare_to(b"\xff") < 0  # 0xff is large, not -1
    assert BinaryComparator(b"ab").compare_to(b"a") > 0
    assert BinaryComparator(b"a").compare_to(b"a") == 0


def test_binary_prefix_compares_only_the_prefix_length():
    c = BinaryPrefixComparator(b"ab")
    assert c.compare_to(b"abzzz") == 0
    assert c.compare_to(b"aa") > 0 and c.compare_to(b"ac") < 0
    assert c.compare_to(b"a") > 0  # shorter data: compared whole, sorts before the prefix


def test_no_op_filters_everything_out():
    assert out_predicate(CompareOperator.NO_OP, BinaryComparator(b"x"))(b"x") is True


def test_compare_operator_accepts_symbols_and_names():
    assert CompareOperator.of(">=") is CompareOperator.GREATER_OR_EQUAL
    assert CompareOperator.of("not_equal") is CompareOperator.NOT_EQUAL
    with pytest.raises(InvalidArgumentError):
        CompareOperator.of("=>")


def test_regex_uses_find_not_a_full_match_and_dotall():
    c = RegexStringComparator("b.c")
    assert c.compare_to(b"aab\ncdd") == 0  # DOTALL: '.' matches a newline
    assert c.compare_to(b"abd") == 1
    assert RegexStringComparator("^ab$").compare_to(b"xab") == 1


def test_regex_decodes_utf8_and_survives_invalid_bytes():
    assert RegexStringComparator("é").compare_to("café".encode()) == 0
    assert RegexStringComparator("a").compare_to(b"\xff\xfea") == 0


@pytest.mark.parametrize("java,text,matches", [
    (r"\Qa.b\E", "a.b", True),
    (r"\Qa.b\E", "axb", False),
    (r"(?<year>\d{4})-\k<year>", "2024-2024", True),
    (r"(?<year>\d{4})-\k<year>", "2024-2025", False),
    (r"\p{L}", "x", None),  # Unicode categories are not translated: rejected
    (r"(?<y>\d{4})", "in 2024", True),
    (r"(?<=x)y", "xy", True),  # look-behind is left alone
    (r"^\p{Alpha}+$", "abcXYZ", True),
    (r"^\p{Alpha}+$", "abc1", False),
    (r"^[\p{Digit}x]+$", "12x3", True),
    (r"^\P{Digit}+$", "abc", True),
    (r"abc\z", "abc\n", False),
    (r"abc\Z", "abc\n", True),
    (r"[]a]", "]", True),
])
def test_java_only_regex_syntax(java, text, matches):
    if matches is None:
        with pytest.raises(InvalidArgumentError):
            RegexStringComparator(java)
        return
    assert (RegexStringComparator(java).compare_to(text.encode()) == 0) is matches


def test_regex_translation_leaves_plain_patterns_alone():
    assert java_regex_to_python(r"^row-[0-9]+(a|b)?\d*$") == r"^row-[0-9]+(a|b)?\d*$"


def test_invalid_regex_is_an_illegal_argument():
    with pytest.raises(InvalidArgumentError, match="Invalid regular expression"):
        RegexStringComparator("a(b")


def test_substring_is_case_insensitive_contains():
    c = SubstringComparator("BaR")
    assert c.value == b"bar"
    assert c.compare_to(b"fooBARbaz") == 0 and c.compare_to(b"fooba") == 1


@pytest.mark.parametrize("expr,data,found", [
    ("f(?i)oobar", "fOOBAR", True), ("f(?i)oobar", "FOOBAR", False),  # flag from there on
    ("a(?i)b|c", "C", True), ("(x(?i)y|z)w", "xYw", True), ("(x(?i)y|z)W", "xyw", False),
    ("(?-s)a.b", "a\nb", False), ("(?i)ABC", "abc", True),
])
def test_regex_inline_flags_mid_pattern(expr, data, found):
    """TestRegexComparator.testJavaEngine (embedded flags): Java applies an inline flag to
    the rest of its group, across the group's alternatives."""
    assert (RegexStringComparator(expr).compare_to(data.encode()) == 0) is found


@pytest.mark.parametrize("expr,what", [
    ("[abc[def]]", "nested character classes"), ("[a-z&&[^aeiou]]", "intersection"),
    ("(?u)x", "inline flag"),
])
def test_regex_java_only_syntax_is_refused(expr, what):
    """TestRegexComparator: Java syntax `re` cannot run the same way is refused by name,
    not silently read differently."""
    from hsim.errors import FilterParseError

    with pytest.raises(FilterParseError, match=what):
        RegexStringComparator(expr)
