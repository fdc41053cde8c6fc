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
from hsim.filters.java_regex import java_regex_to_python

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
    (r"\p{L}", "x", True),  # Unicode categories, as Java reads them
    (r"^\p{L}+$", "café", True),
    (r"\w", "é", False),  # Java's \w is [a-zA-Z_0-9] unless UNICODE_CHARACTER_CLASS
    (r"[\W]", "é", True), (r"\bab\b", "é ab", True), (r"\bab", "éab", True),
    (r"\x{41}\0101", "AA", True),  # Java's hex and octal escapes
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
    assert java_regex_to_python(r"^row-[0-9]+(a|b)?x*$") == r"^row-[0-9]+(a|b)?x*$"


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


@pytest.mark.parametrize("expr,what", [("(?u)x", "inline flag"), ("(?U)x", "inline flag")])
def test_regex_java_only_syntax_is_refused(expr, what):
    """Inline flags `regex` cannot honour the same way are refused by name, not silently
    read differently."""
    from hsim.errors import FilterParseError

    with pytest.raises(FilterParseError, match=what):
        RegexStringComparator(expr)


# TestRegexComparator.TEST_CASES (a subset of OpenJDK 7's regex tests), each with HBase's flags:
# Pattern.DOTALL unless marked I (Pattern.CASE_INSENSITIVE alone).
UPSTREAM_REGEX_CASES = [
    ("a|b", "a", True), ("a|b", "b", True), ("I", "a|b", "A", True), ("I", "a|b", "B", True),
    ("a|b", "z", False), ("a|b|cd", "cd", True), ("z(a|ac)b", "zacb", True),
    ("[abc]+", "ababab", True), ("[abc]+", "defg", False),
    ("[abc]+[def]+[ghi]+", "zzzaaddggzzz", True), ("[a-\u4444]+", "za-9z", True),
    ("[^abc]+", "ababab", False), ("[^abc]+", "aaabbbcccdefg", True), ("[abc^b]", "b", True),
    ("[abc[def]]", "b", True), ("[abc[def]]", "e", True), ("[a-c[d-f[g-i]]]", "h", True),
    ("[a-c[d-f[g-i]]m]", "m", True), ("[a-c&&[d-f]]", "a", False), ("[a-c&&[d-f]]", "z", False),
    ("[a-m&&m-z&&a-c]", "m", False), ("[a-m&&m-z&&a-z]", "m", True),
    ("[[a-m]&&[^a-c]]", "a", False), ("[[a-m]&&[^a-c]]", "d", True),
    ("[[a-c][d-f]&&abc[def]]", "e", True), ("[[a-c]&&[b-d]&&[c-e]]", "c", True),
    ("[[a-c]&&[b-d][c-e]&&[u-z]]", "c", False), ("[[a]&&[b][c][a]&&[^d]]", "a", True),
    ("[[a]&&[b][c][a]&&[^d]]", "d", False), ("[[[a-d]&&[c-f]]&&[c]&&c&&[cde]]", "c", True),
    ("[x[[wz]abc&&bcd[z]]&&[u-z]]", "z", True), ("a.c.+", "a#c%&", True),
    ("ab.", "ab\n", True), ("(?s)ab.", "ab\n", True), ("ab\\wc", "abcc", True),
    ("\\W\\w\\W", "#r#", True), ("\\W\\w\\W", "rrrr#ggg", False),
    ("abc[\\sdef]*", "abc  def", True), ("abc[\\sy-z]*", "abc y z", True),
    ("abc[a-d\\sm-p]*", "abcaa mn  p", True), ("\\s\\s\\s", "blah  err", False),
    ("\\S\\S\\s", "blah  err", True), ("ab\\dc", "ab9c", True),
    ("\\d\\d\\d", "blah45", False), ("^abc", "abcdef", True), ("^abc", "bcdabc", False),
    ("^(a)?a", "a", True), ("^(aa(bb)?)+$", "aabbaa", True), ("((a|b)?b)+", "b", True),
    ("^(a(b)?)+$", "aba", True), ("^(a(b(c)?)?)?abc", "abc", True),
    ("^(a(b(c))).*", "abc", True), ("a?b", "aaaab", True), ("a?b", "aaacc", False),
    ("a??b", "aaaab", True), ("a??b", "aaacc", False), ("a?+b", "aaaab", True),
    ("a?+b", "aaacc", False), ("a+b", "aaaab", True), ("a+b", "aaacc", False),
    ("a+?b", "aaaab", True), ("a+?b", "aaacc", False), ("a++b", "aaaab", True),
    ("a++b", "aaacc", False), ("a{2,3}", "a", False), ("a{2,3}", "aa", True),
    ("a{2,3}", "aaa", True), ("a{3,}", "zzzaaaazzz", True), ("a{3,}", "zzzaazzz", False),
    ("abc(?=d)", "zzzabcd", True), ("abc(?=d)", "zzzabced", False),
    ("abc(?!d)", "zzabcd", False), ("abc(?!d)", "zzabced", True),
    ("\\w(?<=a)", "###abc###", True), ("\\w(?<=a)", "###ert###", False),
    ("(?<!a)c", "bc", True), ("(?<!a)c", "ac", False), ("(a+b)+", "ababab", True),
    ("(a+b)+", "accccd", False), ("(ab)+", "ababab", True), ("(ab)+", "accccd", False),
    ("(ab)(cd*)", "zzzabczzz", True), ("abc(d)*abc", "abcdddddabc", True),
    ("a*b", "aaaab", True), ("a*b", "b", True), ("a*b", "aaaac", False),
    (".*?b", "aaaab", True), ("a*+b", "aaaab", True), ("a*+b", "b", True),
    ("a*+b", "aaaac", False), ("(?i)foobar", "fOobAr", True), ("f(?i)oobar", "fOobAr", True),
    ("f(?i)oobar", "FOobAr", False), ("foo(?i)bar", "fOobAr", False),
    ("(?i)foo[bar]+", "foObAr", True), ("(?i)foo[a-r]+", "foObAr", True),
    ("abc(?x)blah", "abcblah", True), ("abc(?x)  blah", "abcblah", True),
    ("abc(?x)  blah  blech", "abcblahblech", True), ("[\\n-#]", "!", True),
    ("[\\n-#]", "-", False), ("[\\043]+", "blahblah#blech", True),
    ("[\\042-\\044]+", "blahblah#blech", True),
    ("[\\u1234-\\u1236]", "blahblah\u1235blech", True), ("[^\043]*", "blahblah#blech", True),
    ("(|f)?+", "foo", True),
]


@pytest.mark.parametrize("case", UPSTREAM_REGEX_CASES, ids=lambda c: repr(c[-3:-1]))
def test_regex_comparator_java_engine(case):
    """TestRegexComparator.testJavaEngine: every upstream case, nested classes and class
    intersections included, with the upstream flags."""
    import re

    flags = re.IGNORECASE if case[0] == "I" and len(case) == 4 else re.DOTALL
    expr, haystack, expected = case[-3:]
    found = RegexStringComparator(expr, flags).compare_to(haystack.encode()) == 0
    assert found is expected, (expr, haystack)
