"""The Ruby-ish argument syntax: literals, hashes, trailing hashes, constants, errors."""

import pytest

from hsim.shell.nodes import ArrayNode, Assign, BinOp, HashNode, Index, Statement, Var
from hsim.shell.continuation import open_state
from hsim.shell.parser import (FOREVER, Incomplete, ShellSyntaxError, needs_more, parse,
                               parse_statements, ruby_inspect, to_bytes)


def args(text):
    return parse(text).args


def test_command_and_positional_arguments():
    st = parse("put 't1', 'r1', 'f:q', 'v', 1000")
    assert st.command == "put"
    assert st.args == ["t1", "r1", "f:q", "v", 1000]


def test_parentheses_are_optional():
    assert parse("get('t', 'r')").args == ["t", "r"]
    assert parse("list").args == []
    assert parse("list()").args == []


def test_hash_argument_and_constants():
    assert args("create 't', {NAME => 'f', VERSIONS => 5, IN_MEMORY => true}") == \
        ["t", {"NAME": "f", "VERSIONS": 5, "IN_MEMORY": True}]


def test_trailing_hash_without_braces_collects_all_pairs():
    assert args("alter 't', NAME => 'f', VERSIONS => 5") == ["t", {"NAME": "f", "VERSIONS": 5}]
    assert args("create 't', 'f', SPLITS => ['10', '20']") == ["t", "f", {"SPLITS": ["10", "20"]}]


def test_string_keys_and_ruby19_keys():
    assert args("alter 't', 'delete' => 'f'") == ["t", {"delete": "f"}]
    assert args("get 't', 'r', {COLUMN: 'f:q'}") == ["t", "r", {"COLUMN": "f:q"}]


def test_forever_nil_false_and_arrays():
    assert args("x TTL => FOREVER") == [{"TTL": FOREVER}]
    assert FOREVER == 2**31 - 1
    assert args("x nil, false, [1, [2, 3]], []") == [None, False, [1, [2, 3]], []]


def test_numbers_and_arithmetic():
    assert args("x 1_000, 0x1F, -5, 2.5, 1e3") == [1000, 31, -5, 2.5, 1000.0]
    assert args("x 60 * 60 * 24, (1 + 2) * 3, 7 / 2, 10 - 4") == [86400, 9, 3, 6]
    assert args("x 'ab' + 'cd', 'a' * 3") == ["abcd", "aaa"]


def test_double_quoted_escapes_are_bytes():
    (s,) = args(r'x "\x00\x14\xff\n\t\\\"\101"')
    assert to_bytes(s) == b"\x00\x14\xff\n\t\\\"A"


def test_single_quotes_keep_backslashes_except_quote_and_backslash():
    (s,) = args(r"x 'a\x00\'b\\c'")
    assert to_bytes(s) == b"a\\x00'b\\c"


def test_unicode_source_text_is_utf8():
    (s,) = args("x 'é', \"\\u00e9\"")[:1]
    assert to_bytes(s) == "é".encode()
    assert to_bytes(args('x "\\u00e9"')[0]) == b"\xc3\xa9"


def test_comments_blank_lines_and_semicolons():
    assert parse("# just a comment") is None
    assert parse("   ") is None
    sts = parse_statements("list # tables\n\nexists 't'; list")
    assert [(s.command, s.args) for s in sts] == [("list", []), ("exists", ["t"]), ("list", [])]


def test_explain_takes_a_command_name():
    assert parse("explain get 't', 'r'").args == ["get", "t", "r"]
    assert parse("explain scan 't', {LIMIT => 2}").args == ["scan", "t", {"LIMIT": 2}]
    assert parse("explain 'get', 't', 'r'").args == ["get", "t", "r"]


def test_incomplete_input_asks_for_more():
    for text in ("create 't', {NAME => 'f',", "put 't', 'r1',", "get 't', 'unterminated",
                 "scan 't', {", "x [1, 2"):
        assert needs_more(text)
        with pytest.raises(Incomplete):
            parse_statements(text)
    assert not needs_more("scan 't', {\nLIMIT => 5}")
    assert parse_statements("scan 't', {\nLIMIT => 5}")[0].args == ["t", {"LIMIT": 5}]


def test_open_state_for_the_continuation_prompt():
    assert open_state("scan 't', {") == (1, None)
    assert open_state("x [[1,") == (2, None)
    assert open_state("get 't', 'ab") == (0, "'")
    assert open_state("get 't', \"a{") == (0, '"')
    assert open_state("list.each do |t|\n  puts 'end'\n") == (1, None)
    assert open_state("list.each do |t|\n  puts t\nend") == (0, None)
    assert open_state("done = 1") == (0, None)


def test_syntax_errors():
    for text in ("put 't' 'r'", "get 't',, 'r'", "create 't', }", "'t' 'u'", 'x "#{1 1}"',
                 "list.each { |t| puts t", "if x"):
        with pytest.raises(ShellSyntaxError):
            parse_statements(text)
    assert parse("x #{1}").args == []  # a comment, as in Ruby


def test_names_are_calls_until_assigned():
    """Ruby decides as it reads: a name is a method call (vcall) until an assignment to it
    has been read; then it is a local variable, and `t.put ...` a method call on it."""
    (st,) = parse_statements("get t, 'r'")
    assert st.args[0] == Statement("t", [], vcall=True)
    names: set = set()
    sts = parse_statements("t = create 't', 'f'\nt.put 'r', 'f:q', 'v'\nt.count", names)
    assert names == {"t"}
    assert sts[0] == Assign("t", Statement("create", ["t", "f"]))
    assert sts[1] == Statement("put", ["r", "f:q", "v"], Var("t"))
    assert sts[2] == Statement("count", [], Var("t"))


def test_spacing_decides_between_arguments_and_operators():
    names = {"a"}
    assert parse_statements("f [1]", names)[0] == Statement("f", [[1]])
    assert parse_statements("a[1]", names)[0] == Index(Var("a"), [1])
    assert parse_statements("f -1", names)[0] == Statement("f", [-1])
    assert parse_statements("a - 1", names)[0] == BinOp("-", Var("a"), 1)
    assert parse_statements("x = [a, {K => a}]", names)[0] == \
        Assign("x", ArrayNode([Var("a"), HashNode([("K", Var("a"))])]))


def test_ruby_inspect_as_irb_echoes_values():
    assert ruby_inspect(["t1", "t2"]) == '["t1", "t2"]'
    assert ruby_inspect(True) == "true"
    assert ruby_inspect(None) == "nil"
    assert ruby_inspect({"VERSIONS": 3}) == '{"VERSIONS"=>3}'
    assert ruby_inspect("a\\xF6\"") == '"a\\\\xF6\\""'
    assert ruby_inspect(to_bytes("x") and "\udcff") == '"\\xFF"'
