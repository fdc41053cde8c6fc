"""HBase's shell tests (hbase-shell/src/test/ruby/hbase/table_test.rb, the Hbase::Table tests)
that hsim can run, typed into `hsim shell` as a user would, each named after its upstream
test and checked against the upstream expectation."""

import io

import pytest

from hsim.shell import Shell

from .upstream import run_case

# table_test.rb's setup: table with family x; rows 1 and 2, x:b at @test_ts = 12345678.
SETUP = """create 'hbase_shell_tests_table', 'x', SPLITS => []
put 'hbase_shell_tests_table', 1, 'x:a', 1
put 'hbase_shell_tests_table', 1, 'x:b', 2, 12345678
put 'hbase_shell_tests_table', 2, 'x:a', 11
put 'hbase_shell_tests_table', 2, 'x:b', 12, 12345678
put 'hbase_shell_tests_table', 1, "x:\\x11", "\\x00\\x00\\x03\\x99"
"""
T = "hbase_shell_tests_table"
PUT_C_D = (f"put '{T}', 1, 'x:c', \"\\x00\\x00\\x04\\x00\"\n"  # [1024].pack('N')
           f"put '{T}', 1, 'x:d', \"\\x00\\x00\\x00\\x62\"\n")  # [98].pack('N')

CASES = [
    ("put should work without timestamp",
     f"put '{T}', '1', 'x:a', '1'\nget '{T}', '1', 'x:a'",
     [r"x:a\s+timestamp=.*, value=1\n"]),
    ("put should work with timestamp",
     f"put '{T}', '1', 'x:a', '2', 12345\nget '{T}', '1', {{COLUMN => 'x:a', TIMESTAMP => 12345}}",
     [r"value=2\n"]),
    ("deleteall should work w/o columns and timestamps",
     f"deleteall '{T}', '2'\nget '{T}', '2'", [r"0 row\(s\)"]),
    ("get should work with a string column spec",
     f"get '{T}', '1', 'x:b'", [r"x:b\s+timestamp=", r"!x:a"]),
    ("get should support COLUMNS with value CONVERTER information",
     PUT_C_D +
     f"get '{T}', '1', ['x:c:toInt'], ['x:d:c(org.apache.hadoop.hbase.util.Bytes).toInt']",
     [r"x:c .*value=1024\n", r"x:d .*value=98\n"]),
    ("get should work with a custom converter class",
     f"put '{T}', 1, 'x:v', 1234\n"
     f"get '{T}', '1', 'COLUMNS' => ['x:v:c(org.apache.hadoop.hbase.util.Bytes).len']",
     [r"x:v .*value=4\n"]),
    ("scan should support COLUMNS with value CONVERTER information",
     PUT_C_D +
     f"scan '{T}', COLUMNS => ['x:c:toInt', 'x:d:c(org.apache.hadoop.hbase.util.Bytes).toInt', "
     "\"x:\\x11:toInt\"]",
     [r"column=x:c, .*value=1024\n", r"column=x:d, .*value=98\n",
      r"column=x:\\x11, .*value=921\n"]),
    ("scan should work with a custom converter class",
     f"put '{T}', 1, 'x:v', 1234\n"
     f"scan '{T}', 'COLUMNS' => ['x:v:c(org.apache.hadoop.hbase.util.Bytes).len']",
     [r"column=x:v, .*value=4\n"]),
    ("scan hbase meta table",
     "scan 'hbase:meta'",
     [rf" {T},,\d+\.[0-9a-f]{{32}}\. column=info:regioninfo, .*value=\{{ENCODED => ",
      r"1 row\(s\)"]),
    ("count should work w/o a block", f"count '{T}'", [r"2 row\(s\)\n", r"=> 2\n"]),
    ("Split count for a table",
     "create 'table_with_splits', 'f', SPLITS => ['10', '20', '30', '40']\n"
     "get_splits 'table_with_splits'",
     [r"Total number of splits = 5\n10\n20\n30\n40\n", r'=> \["10", "20", "30", "40"\]']),
    ("Split count for a empty table", f"get_splits '{T}'",
     [r"Total number of splits = 1\n", r"=> \[\]"]),
]


@pytest.mark.parametrize("name,script,expect", CASES, ids=[c[0] for c in CASES])
def test_upstream_table_test(name, script, expect):
    run_case(SETUP, script, expect)


def test_unknown_converter_class_or_method_is_an_error_line():
    out = io.StringIO()
    sh = Shell(out=out, timer=lambda: 0.0, width=0)
    sh.run_script(SETUP + f"get '{T}', '1', 'x:a:c(com.example.Nope).toInt'\n"
                  f"scan '{T}', COLUMNS => ['x:a:c(org.apache.hadoop.hbase.util.Bytes).toNope']")
    text = out.getvalue()
    assert "ERROR: uninitialized constant com.example.Nope" in text
    assert "ERROR: undefined method `toNope' for Java::OrgApacheHadoopHbaseUtil::Bytes" in text
