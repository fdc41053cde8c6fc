"""The Ruby the shell reads beyond a command's arguments: local variables, table references,
methods on returned values, puts/p/print, and Ruby's errors as JRuby's IRB prints them."""

from .conftest import TOOK


def test_table_reference_from_create_and_get_table(sh):
    assert sh("t = create 't', 'f'") == "Created table t\n" + TOOK + "=> Hbase::Table - t\n"
    assert sh("t.put 'r', 'f:q', 'v'") == TOOK
    assert sh("t.scan") == ("ROW  COLUMN+CELL\n r column=f:q, timestamp=2026-01-01T00:00, "
                            "value=v\n1 row(s)\n" + TOOK)
    assert sh("t.count") == "1 row(s)\n" + TOOK + "=> 1\n"
    u = "u = get_table 't'"
    assert sh(u) == TOOK + "=> Hbase::Table - t\n"
    assert sh("u.get 'r'") == sh("get 't', 'r'")
    assert sh("u.describe") == sh("describe 't'")
    assert sh("t.name") == '=> "t"\n'
    assert sh("t.get_all_columns") == '=> ["f:"]\n'
    assert sh("t") == "=> Hbase::Table - t\n"
    assert sh("[t, t.name]") == '=> [Hbase::Table - t, "t"]\n'
    assert sh("t.disable") == TOOK
    assert sh("t.drop") == TOOK
    assert sh("exists 't'") == "Table t does not exist\n" + TOOK + "=> false\n"


def test_table_reference_errors_are_the_commands_errors(sh):
    sh("t = create 't', 'f'")
    assert sh("t.put 'r'") == ("\nERROR: wrong number of arguments (given 2, expected 4..6)\n\n"
                               "For usage try 'help \"put\"'\n\n" + TOOK)
    assert sh("t.drop") == ("\nERROR: Table t is enabled. Disable it first.\n\n"
                            "For usage try 'help \"drop\"'\n\n" + TOOK)
    assert sh("t.truncate") == \
        "NoMethodError (undefined method `truncate' for Hbase::Table - t:Hbase::Table)\n"
    assert sh("t.name 1") == "ArgumentError (wrong number of arguments (given 1, expected 0))\n"
    assert sh("t.help 'nope'") == \
        "Command 'nope' does not exist. Please see general table help.\n"
    assert sh("t.help").startswith("Help for table-reference commands.\n")
    assert sh("t.help 'a', 'b'") == \
        "ArgumentError (wrong number of arguments (given 2, expected 0..1))\n"
    assert sh("get_table('nope').get_all_columns") == TOOK + \
        "Java::OrgApacheHadoopHbase::TableNotFoundException (nope)\n"
    assert sh("count 't'") == "0 row(s)\n" + TOOK + "=> 0\n"  # nothing changed


def test_a_failed_command_leaves_nil(sh):
    assert sh("x = get_table 1") == ("\nERROR: no implicit conversion of Integer into String\n\n"
                                     "For usage try 'help \"get_table\"'\n\n" + TOOK)
    assert sh("x.nil?") == "=> true\n"
    assert sh("x.put 'r', 'f:q', 'v'") == \
        "NoMethodError (undefined method `put' for nil:NilClass)\n"


def test_local_variables_and_values(sh):
    assert sh("n = 60 * 60") == "=> 3600\n"
    assert sh("n * 24") == "=> 86400\n"
    assert sh("cf = 'f'") == '=> "f"\n'
    sh("create 't', cf, SPLITS => ['m']")
    assert sh("splits = get_splits 't'") == \
        "Total number of splits = 2\nm\n" + TOOK + '=> ["m"]\n'
    assert sh("splits.size") == "=> 1\n"
    assert sh("splits.first") == '=> "m"\n'
    assert sh("splits[0]") == '=> "m"\n'
    assert sh("splits[5]") == ""  # nil is not echoed (hirb.rb output_value)
    assert sh("list.include? 't'") == "TABLE\nt\n1 row(s)\n" + TOOK + "=> true\n"
    assert sh("opts = {VERSIONS => 3, NAME => cf}") == '=> {"VERSIONS"=>3, "NAME"=>"f"}\n'
    assert sh("alter 't', opts").endswith("Done.\n" + TOOK)
    assert "VERSIONS => '3'" in sh("describe 't'")
    assert sh("'abc'.length + [1, 2].size") == "=> 5\n"
    assert sh("n > 10") == "=> true\n"
    assert sh("n.class") == "=> Integer\n"
    assert sh("splits.is_a?(Array)") == "=> true\n"
    assert sh("{'a' => 1}.keys") == '=> ["a"]\n'


def test_puts_p_and_print(sh):
    assert sh("puts 'a', 1, nil, [2, 3], true") == "a\n1\n\n2\n3\ntrue\n"
    assert sh("p 'a', 1") == '"a"\n1\n=> ["a", 1]\n'
    assert sh("p") == ""
    assert sh("print 'x', 1") == "x1"
    assert sh("x = p({A => 1})") == '{"A"=>1}\n=> {"A"=>1}\n'


def test_ruby_errors_as_irb_prints_them(sh):
    assert sh("y") == "NameError (undefined local variable or method `y' for main:Object)\n"
    assert sh("nope 1") == "NoMethodError (undefined method `nope' for main:Object)\n"
    assert sh("1 / 0") == "ZeroDivisionError (divided by 0)\n"
    assert sh("'a' + 1") == "TypeError (no implicit conversion of Integer into String)\n"
    assert sh("1 + 'a'") == "TypeError (String can't be coerced into Integer)\n"
    assert sh("nil.size") == "NoMethodError (undefined method `size' for nil:NilClass)\n"
    assert sh("[1].first 1, 2") == \
        "ArgumentError (wrong number of arguments (given 2, expected 0))\n"
    assert sh("1 < 'a'") == "ArgumentError (comparison of Integer with String failed)\n"
    assert sh("x = 1 +") == "SyntaxError ((hbase):9: unexpected end-of-input)\n"
    # the statement stops at the error: nothing after it runs
    sh("create 't', 'f'")
    assert sh("put 't', 'r', 'f:q', zz") == \
        "NameError (undefined local variable or method `zz' for main:Object)\n"
    assert sh("count 't'") == "0 row(s)\n" + TOOK + "=> 0\n"
    assert sh.shell.failures == 10


def test_did_you_mean_for_a_misspelt_command(sh):
    assert sh("lst") == ("NameError (undefined local variable or method `lst' for main:Object\n"
                         "Did you mean?  list)\n")


def test_exit_inside_a_statement_list(sh):
    assert sh("x = 1; exit; puts 2") == "=> 1\n"
    assert sh.shell.exited


def test_blocks_as_the_reference_guide_uses_them(sh):
    """The HBase book's "table variables" session: list, map to references, `_`, drop."""
    sh("create 'my1', 'f'\ncreate 'my2', 'f'\ncreate 'other', 'f'")
    assert sh("list('my.*').map { |t| get_table t }") == (
        "TABLE\nmy1\nmy2\n2 row(s)\n" + TOOK + TOOK + TOOK
        + "=> [Hbase::Table - my1, Hbase::Table - my2]\n")
    assert sh("tables = _") == "=> [Hbase::Table - my1, Hbase::Table - my2]\n"
    assert sh("tables.map { |t| t.disable }") == TOOK + TOOK + "=> [nil, nil]\n"
    assert sh("tables.each do |t|\n  t.drop\nend") == \
        TOOK + TOOK + "=> [Hbase::Table - my1, Hbase::Table - my2]\n"
    assert sh("list") == 'TABLE\nother\n1 row(s)\n' + TOOK + '=> ["other"]\n'
    assert sh("3.times { |i| put 'other', \"r#{i}\", 'f:q', i * 10 }") == TOOK * 3 + "=> 3\n"
    assert sh("count 'other'") == "3 row(s)\n" + TOOK + "=> 3\n"
    assert sh("t") == "NameError (undefined local variable or method `t' for main:Object)\n"


def test_block_methods_and_interpolation(sh):
    assert sh("[1, 2, 3].select { |x| x > 1 }") == "=> [2, 3]\n"
    assert sh("[1, 2, 3].map { |x| x * 2 }.reject { |x| x == 4 }") == "=> [2, 6]\n"
    assert sh("{'a' => 1, 'b' => 2}.each { |k, v| puts \"#{k}=#{v}\" }") == \
        'a=1\nb=2\n=> {"a"=>1, "b"=>2}\n'
    assert sh("[[1, 2]].map { |a, b| a + b }") == "=> [3]\n"
    assert sh("['x', 'y'].each_with_index { |s, i| print s, i }") == 'x0y1=> ["x", "y"]\n'
    assert sh("[1, 2].find { |x| x > 1 }") == "=> 2\n"
    assert sh("n = 2\n\"#{n} * 2 = #{n * 2}\"") == '=> 2\n=> "2 * 2 = 4"\n'
    assert sh('"#{}"') == '=> ""\n'
    assert sh("[1].each { |x| zz }") == \
        "NameError (undefined local variable or method `zz' for main:Object)\n"
    assert sh("[1].each { |x| }") == "=> [1]\n"


def test_no_python_traceback_whatever_is_typed():
    """Statements built from the shell's vocabulary, at random: each is a result, an ERROR
    line or a Ruby error, never a Python traceback."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from .conftest import Session

    words = ["t", "x", "=", "'t'", "'f'", "'f:q'", "1", "-", "nil", "true", ",", ".", "(",
             ")", "[", "]", "{", "}", "|", "=>", "do", "end", "put", "get", "scan", "count",
             "create", "list", "map", "each", "size", "first", "times", "puts", "p", "_",
             "get_table", "disable", "drop", "\"#{x}\"", "VERSIONS", "+", "*", "/", "0", ";",
             "\n", "help", "nil?", "class", "[0]", "keys"]

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.sampled_from(words), min_size=1, max_size=12))
    def run(tokens):
        s = Session()
        s("create 't', 'f'\nx = get_table 't'")
        out = s(" ".join(tokens))
        assert "Traceback" not in out and "RuntimeError" not in out, out

    run()
