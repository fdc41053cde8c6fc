"""HBase's shell tests of table references (hbase-shell/src/test/ruby/hbase/table_test.rb:
TableConstructorTest, TableHelpersTest, TableSimpleMethodsTest, TableComplexMethodsTest), typed
into `hsim shell` through a reference as a user would (`t = get_table '...'`, `t.put ...`),
each named after its upstream case and checked against the upstream expectation. The
upstream cases that call `_get_internal` / `_scan_internal` read the result with `t.get` /
`t.scan`; the delete cases written for HBase 1's delete-all-versions are left out (HBase 2's
`delete` marks one version: see test_shell_commands.test_delete_one_version_and_deleteall)."""

import pytest

from .upstream import run_case

T = "hbase_shell_tests_table"
# test_helper.rb create_test_table: families x and y; table(name) is a table reference
SETUP = f"create '{T}', 'x', 'y'\nt = get_table '{T}'\n"
# TableSimpleMethodsTest's setup
SIMPLE = SETUP + """t.put("101", "x:a", "1")
t.put("102", "x:a", "1", 1212)
t.put("102", "x:a", "2", 1213)
t.put(103, "x:a", "3")
t.put("104", "x:a", 5)
t.put("104", "x:b", 6)
t.put(105, "x:a", "3")
"""
# TableComplexMethodsTest's setup (@test_ts = 12345678)
COMPLEX = SETUP + """test_ts = 12345678
t.put(1, "x:a", 1)
t.put(1, "x:b", 2, test_ts)
t.put(2, "x:a", 11)
t.put(2, "x:b", 12, test_ts)
t.put(3, "x:a", 21, {ATTRIBUTES=>{'mykey'=>'myvalue'}})
t.put(3, "x:b", 22, test_ts, {ATTRIBUTES=>{'mykey'=>'myvalue'}})
"""

CASES = [
    # TableConstructorTest
    ("Hbase::Table constructor should not fail for existent tables", SETUP,
     "get_table('hbase:meta').close()", []),
    # TableHelpersTest
    ("is_meta_table? method should return true for the meta table", SETUP,
     "get_table('hbase:meta').is_meta_table?", [r"=> true\n"]),
    ("is_meta_table? method should return false for a normal table", SETUP,
     "t.is_meta_table?", [r"=> false\n"]),
    ("get_all_columns should return columns list", SETUP,
     "cols = get_table('hbase:meta').get_all_columns\ncols.class\ncols.length > 0",
     [r'=> \["info:"', r"=> Array\n", r"=> true\n"]),
    # TableSimpleMethodsTest
    ("put should work without timestamp", SIMPLE, 't.put("123", "x:a", "1")', []),
    ("put should work with timestamp", SIMPLE, 't.put("123", "x:a", "2", 1700000000)\n'
     "t.get '123', {COLUMN => 'x:a', TIMESTAMP => 1700000000}", [r"value=2\n"]),
    ("put should work with integer keys", SIMPLE, 't.put(123, "x:a", "3")\nt.get 123',
     [r"x:a timestamp=.*, value=3\n"]),
    ("put should work with integer values", SIMPLE, 't.put("123", "x:a", 4)\nt.get "123"',
     [r"value=4\n"]),
    ("put should work with attributes", SIMPLE,
     "t.put(\"123\", \"x:a\", 4, {ATTRIBUTES=>{'mykey'=>'myvalue'}})\nt.get '123'",
     [r"value=4\n"]),
    ("deleteall should work w/o columns and timestamps", SIMPLE,
     't.deleteall("104")\nt.get "104", "x:a", "x:b"', [r"COLUMN  CELL\n0 row\(s\)"]),
    ("deleteall should work with integer keys", SIMPLE, "t.deleteall(105)\nt.get '105', 'x:a'",
     [r"COLUMN  CELL\n0 row\(s\)"]),
    ("append should work with value", SIMPLE, "t.append(\"123\", 'x:cnt2', '123')",
     [r"CURRENT VALUE = 123\n"]),
    ("get_counter should work with integer keys", SIMPLE,
     "t.incr(12345, 'x:cnt')\nt.get_counter(12345, 'x:cnt')",
     [r"COUNTER VALUE = 1\nTook .*\nhbase:\d+:0> t.get_counter.*\nCOUNTER VALUE = 1\n"]),
    ("get_counter should return nil for non-existent counters", SIMPLE,
     "t.get_counter(12345, 'x:qqqq')", [r"No counter found at specified coordinates\n"]),
    # TableComplexMethodsTest
    ("count should work w/o a block passed", COMPLEX, "t.count > 0",
     [r"3 row\(s\)\n", r"=> true\n"]),
    ("count should work with a block passed (and yield)", COMPLEX,
     "t.count INTERVAL => 1", [r"Current count: 1, row: 1\n", r"Current count: 3, row: 3\n"]),
    ("get should work w/o columns specification", COMPLEX, "t.get '1'",
     [r" x:a timestamp=", r" x:b timestamp="]),
    ("get should work for data written with Attributes", COMPLEX, "t.get '3'",
     [r" x:a .*value=21\n", r" x:b .*value=22\n"]),
    ("get should work with integer keys", COMPLEX, "t.get 1", [r" x:a ", r" x:b "]),
    ("get should work with hash columns spec and a single string COLUMN parameter", COMPLEX,
     "t.get '1', COLUMN => 'x:a'", [r" x:a ", r"! x:b "]),
    ("get should work with hash columns spec and a single string COLUMNS parameter", COMPLEX,
     "t.get '1', COLUMNS => 'x:a'", [r" x:a ", r"! x:b "]),
    ("get should work with hash columns spec and an array of strings COLUMN parameter",
     COMPLEX, "t.get '1', COLUMN => [ 'x:a', 'x:b' ]", [r" x:a ", r" x:b "]),
    ("get should work with hash columns spec and TIMESTAMP only", COMPLEX,
     "t.get '1', TIMESTAMP => test_ts", [r"! x:a ", r" x:b .*value=2\n"]),
    ("get should work with a string column spec", COMPLEX, "t.get '1', 'x:b'",
     [r"! x:a ", r" x:b "]),
    ("get should work with an array columns spec", COMPLEX, "t.get '1', 'x:a', 'x:b'",
     [r" x:a ", r" x:b "]),
    ("get should work with an array or arrays columns spec (yeah, crazy)", COMPLEX,
     "t.get '1', ['x:a'], ['x:b']", [r" x:a ", r" x:b "]),
    ("get should support FILTER", COMPLEX,
     "t.put(1, \"x:v\", \"thisvalue\")\n"
     "t.get '1', FILTER => \"ValueFilter(=, 'binary:thisvalue')\"",
     [r" x:v .*value=thisvalue\n", r"! x:a "]),
    ("scan should work w/o any params", COMPLEX, "t.scan",
     [r" 1 column=x:a, ", r" 1 column=x:b, ", r" 2 column=x:a, ", r"3 row\(s\)"]),
    ("scan should support STARTROW parameter", COMPLEX, "t.scan STARTROW => '2'",
     [r"! 1 column", r" 2 column=x:a, ", r"2 row\(s\)"]),
    ("scan should support STOPROW parameter", COMPLEX, "t.scan STOPROW => '2'",
     [r" 1 column=x:b, ", r"! 2 column", r"1 row\(s\)"]),
    ("scan should support ROWPREFIXFILTER parameter (test 1)", COMPLEX,
     "t.scan ROWPREFIXFILTER => '1'", [r" 1 column=x:a", r"! 2 column", r"1 row\(s\)"]),
    ("scan should support LIMIT parameter", COMPLEX, "t.scan LIMIT => 1",
     [r" 1 column=x:a", r"! 2 column", r"1 row\(s\)"]),
    ("scan should support REVERSED parameter", COMPLEX, "t.scan REVERSED => true",
     [r"ROW  COLUMN\+CELL\n 3 column", r"3 row\(s\)"]),
    ("scan should support TIMESTAMP parameter", COMPLEX, "t.scan TIMESTAMP => test_ts",
     [r"! column=x:a", r" 1 column=x:b", r" 2 column=x:b"]),
    ("scan should support TIMERANGE parameter", COMPLEX, "t.scan TIMERANGE => [0, 1]",
     [r"0 row\(s\)"]),
    ("scan should support COLUMNS parameter with an array of columns", COMPLEX,
     "t.scan COLUMNS => ['x:a', 'y']", [r" 1 column=x:a", r"! column=x:b"]),
    ("Split count for a table", SETUP,
     "s = create 'table_with_splits', 'f', SPLITS => ['10', '20', '30', '40']\n"
     "s.get_splits", [r"Total number of splits = 5\n", r'=> \["10", "20", "30", "40"\]']),
]


@pytest.mark.parametrize("name,setup,script,expect", CASES, ids=[c[0] for c in CASES])
def test_upstream_table_reference(name, setup, script, expect):
    run_case(setup, script, expect)
