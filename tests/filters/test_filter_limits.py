"""The filter language's limits and the regex budget (issue 33): SKIP x 1000 and a filter
string past 1 MiB are clear FilterParseErrors that change nothing, and a backtracking regex
trips its request's budget with TimeoutIOError instead of holding the cluster lock."""

import re

import pytest

import hsim
from hsim.errors import FilterParseError, TimeoutIOError
from hsim.filters import RegexStringComparator, parse_filter, regex_budget
from hsim.filters.parser import MAX_FILTER_DEPTH, MAX_FILTER_LENGTH

_REDOS = "ValueFilter(=, 'regexstring:^(a|a)+$')"


@pytest.fixture
def table():
    cluster = hsim.Cluster(config=hsim.Config(regex_budget_ms=50), clock=hsim.ManualClock(0))
    cluster.admin.create_table("t", ["f"])
    t = cluster.table("t")
    t.put(b"a", {b"f:q": b"v"})
    for i in range(5):
        t.put(b"evil%d" % i, {b"f:q": b"a" * 40 + b"!"})
    return t


def _reads(table) -> int:
    return sum(s["read_rpcs"] for s in table.cluster.metrics().to_dict()["servers"])


def test_skip_a_thousand_times_is_a_clear_error_that_changes_nothing(table):
    before = _reads(table)
    text = "SKIP " * 1000 + "PrefixFilter('a')"
    with pytest.raises(FilterParseError, match="nested more than 100 levels deep") as e:
        list(table.scan(filter=text))
    assert e.value.hbase_exception == "java.lang.IllegalArgumentException"
    with pytest.raises(FilterParseError):
        table.get(b"a", filter=text)
    assert _reads(table) == before  # refused before the request was sent
    # the deepest tree allowed is built and evaluated
    deepest = "SKIP " * (MAX_FILTER_DEPTH - 1) + "ValueFilter(=, 'binary:v')"
    assert [r[0].row for r in table.scan(filter=deepest)] == [b"a"]
    nested = " AND ".join(["(KeyOnlyFilter()"] * 101) + ")" * 101
    with pytest.raises(FilterParseError, match="nested more than 100"):
        parse_filter(nested)


def test_a_filter_string_past_one_mib_is_refused_at_once():
    with pytest.raises(FilterParseError, match=f"longer than {MAX_FILTER_LENGTH} bytes"):
        parse_filter("KeyOnlyFilter() OR " * (MAX_FILTER_LENGTH // 19 + 1) + "KeyOnlyFilter()")


def test_long_flat_filter_lists_parse_in_linear_time():
    # the operands of one AND/OR are collected without list.insert(0, ...), so a 1 MiB list
    # of ORs is one parse, not a quadratic one
    f = parse_filter(" OR ".join(["PrefixFilter('a')"] * 20_000))
    assert len(f.filters) == 20_000


def test_a_redos_regex_trips_the_budget_of_a_get_and_of_a_scan(table):
    with pytest.raises(TimeoutIOError) as e:
        table.get(b"evil0", filter=_REDOS)
    assert e.value.hbase_exception == "org.apache.hadoop.hbase.exceptions.TimeoutIOException"
    with pytest.raises(TimeoutIOError):
        list(table.scan(filter=_REDOS))
    # the failed scan left no open scanner behind, and the cluster answers as before
    assert table.get(b"a") and table.cluster.check_invariants() is None
    assert [r[0].row for r in table.scan(filter="ValueFilter(=, 'regexstring:^a+!$')")] == [
        b"evil%d" % i for i in range(5)]


def test_the_budget_is_per_request_not_per_match():
    with regex_budget.scope(1):  # 1 ms for the whole request, 0.1 ms a match
        c = RegexStringComparator(r"^user\d+-\d+$")  # two repetitions: matched on a budget
        with pytest.raises(TimeoutIOError):
            for i in range(1_000_000):  # each match is quick; together they are not
                c.compare_to(b"user%d-1" % i)
    with regex_budget.scope(0):  # no budget
        assert RegexStringComparator("^(a|a)+$").compare_to(b"a" * 12 + b"!") == 1


def test_patterns_that_cannot_backtrack_badly_skip_the_budget_on_short_values():
    simple = RegexStringComparator("a*c")  # one repetition: at worst quadratic
    with regex_budget.scope(50):
        assert simple.compare_to(b"a" * 1000) == 1
        assert regex_budget.left() == 0.05  # plain re, nothing charged
        assert simple.compare_to(b"a" * 200_000) == 1  # a long value: on the budget
        assert regex_budget.left() < 0.05


def test_a_budget_of_zero_turns_it_off():
    cluster = hsim.Cluster(config=hsim.Config(regex_budget_ms=0), clock=hsim.ManualClock(0))
    cluster.admin.create_table("t", ["f"])
    t = cluster.table("t")
    t.put(b"r", {b"f:q": b"a" * 14 + b"!"})
    assert t.get(b"r", filter=_REDOS) == []  # slow, but runs to its answer


def test_re_flags_keep_their_meaning_in_the_regex_engine():
    assert RegexStringComparator("ABC", flags=re.IGNORECASE).compare_to(b"xabcx") == 0
    assert RegexStringComparator("ABC").compare_to(b"xabcx") == 1
    assert RegexStringComparator(r"\w", flags=re.ASCII).compare_to("é".encode()) == 1
    assert RegexStringComparator(r"\w").compare_to("é".encode()) == 1  # Java's \w is ASCII
