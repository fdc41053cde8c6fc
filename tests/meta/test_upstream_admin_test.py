"""HBase's shell tests of the admin commands (hbase-shell/src/test/ruby/hbase/admin_test.rb:
AdminHelpersTest and the AdminMethodsTest cases that need no Hadoop cluster features hsim
lacks) typed into `hsim shell`, each named after its upstream case. `command(:x, ...)` is the
statement `x ...`; an upstream `assert_raise(ArgumentError)` is an ERROR line here."""

import pytest

from .upstream import run_case

T = "hbase_shell_tests_table"
C = "hbase_create_table_test_table"
SETUP = f"create '{T}', 'x', 'y'\n"  # test_helper.rb create_test_table

SWITCH = """{name}_switch false
{name}_switch true
{name}_enabled
{name}_switch false
{name}_enabled
"""
SWITCH_EXPECT = [r"_switch true\n(Previous [\w ]+ state : )?false\nTook .*\n=> false\n",
                 r"_enabled\ntrue\nTook .*\n=> true\n",
                 r"_switch false\n(Previous [\w ]+ state : )?true\nTook .*\n=> true\n",
                 r"_enabled\nfalse\nTook .*\n=> false\n"]

# (upstream case, script, expected patterns (! = must not match), fails: an ERROR expected)
CASES = [
    ("exists? should return true when a table exists", "exists 'hbase:meta'",
     [r"=> true\n"], False),
    ("exists? should return false when a table exists", "exists 'NOT.EXISTS'",
     [r"=> false\n"], False),
    ("enabled? should return true for enabled tables", f"enable '{T}'\nis_enabled '{T}'",
     [r"=> true\n"], False),
    ("enabled? should return false for disabled tables", f"disable '{T}'\nis_enabled '{T}'",
     [r"=> false\n"], False),
    ("list should return a list of tables", f"list.member?('{T}')".replace("member?", "include?"),
     [r"=> true\n"], False),
    ("list should not return meta tables", "list.include?('hbase:meta')", [r"=> false\n"],
     False),
    ("list_namespace_tables for the system namespace should return a list of tables",
     "list_namespace_tables('hbase').count > 0", [r"=> true\n"], False),
    ("list_namespace_tables for the default namespace should return a list of tables",
     "list_namespace_tables('default').count > 0", [r"=> true\n"], False),
    ("list_deadservers should return exact count of dead servers", "list_deadservers",
     [r"0 row\(s\)"], False),
    ("clear_deadservers should show exact row(s) count",
     "deadservers = clear_deadservers 'test.server.com,16020,1574583397867'\n"
     "deadservers[0] == 'test.server.com,16020,1574583397867'",
     [r"1 row\(s\)", r"=> true\n$"], False),
    ("flush should work", "flush 'hbase:meta'\nflush 'rs1.hsim,16020,1767225600000'", [],
     False),
    ("alter_status should work", f"alter_status '{T}'", [r"1/1 regions updated"], False),
    ("compact should work", "compact 'hbase:meta'", [], False),
    ("compaction_state should work", "compaction_state 'hbase:meta'", [r'=> "NONE"'], False),
    ("major_compact should work", "major_compact 'hbase:meta'", [], False),
    ("drop should fail on non-existent tables", "drop 'NOT.EXISTS'",
     [r"ERROR: Table NOT.EXISTS does not exist."], True),
    ("drop should fail on enabled tables", f"drop '{T}'",
     [rf"ERROR: Table {T} is enabled. Disable it first."], True),
    ("drop should drop tables", f"disable '{T}'\ndrop '{T}'\nexists '{T}'", [r"=> false\n"],
     False),
    ("balance should work",
     "balance_switch true\nbalancer_enabled\ndid_balancer_run = balancer\n"
     "did_balancer_run == true\nbalancer 'force'",
     [r"balancer_enabled\ntrue\n", r"did_balancer_run == true\n=> true\n",
      r"balancer 'force'\ntrue\n"], False),
    ("create should fail with non-string table names", "create 123, 'xxx'",
     [r"ERROR: Table name must be of type String"], True),
    ("snapshot auto cleanup should work", SWITCH.format(name="snapshot_cleanup"),
     SWITCH_EXPECT, False),
    ("balancer switch should work",
     SWITCH.format(name="balance").replace("balance_enabled", "balancer_enabled"),
     SWITCH_EXPECT, False),
    ("normalizer switch should work", SWITCH.format(name="normalizer"), SWITCH_EXPECT, False),
    ("catalogjanitor switch should work", SWITCH.format(name="catalogjanitor"),
     SWITCH_EXPECT, False),
    ("cleaner_chore switch should work", SWITCH.format(name="cleaner_chore"), SWITCH_EXPECT,
     False),
    ("splitormerge switch should work",
     "splitormerge_switch 'SPLIT', false\nsplitormerge_switch 'MERGE', true\n"
     "splitormerge_switch 'SPLIT', true\nsplitormerge_switch 'MERGE', false\n"
     "splitormerge_enabled 'SPLIT'\nsplitormerge_enabled 'MERGE'\n",
     [r"'SPLIT', true\nfalse\nTook .*\n=> false\n", r"'MERGE', false\ntrue\nTook .*\n=> true",
      r"enabled 'SPLIT'\ntrue\nTook .*\n=> true\n",
      r"enabled 'MERGE'\nfalse\nTook .*\n=> false\n"], False),
    ("create should fail with non-string/non-hash column args", f"create '{C}', 123",
     [r"ERROR: Integer of 123 is not of Hash or String type"], True),
    ("create should fail without columns", f"create '{C}'",
     [r"ERROR: Table must have at least one column family"], True),
    ("create should fail without columns when called with options",
     f"create '{C}', {{ OWNER => 'a' }}", [r"ERROR: Table must have at least one column family"],
     True),
    ("create should work with string column args",
     f"create '{C}', 'a', 'b'\nget_table('{C}').get_all_columns.sort",
     [r'=> \["a:", "b:"\]\n'], False),
    ("describe should fail for non-existent tables", "describe 'NOT.EXISTS'",
     [r"ERROR: Table NOT.EXISTS does not exist."], True),
    ("describe_namespace should return quota disabled",
     "create_namespace 'ns'\ndescribe_namespace 'ns'",
     [r"DESCRIPTION\n\{NAME => 'ns'\}\nQuota is disabled\n"], False),
    ("truncate should empty a table",
     f"t = get_table '{T}'\nt.put(1, 'x:a', 1)\nt.put(2, 'x:a', 2)\nt.count\n"
     f"truncate '{T}'\nt.count", [r"=> 2\n(.|\n)*=> 0\n"], False),
    ("truncate should yield log records", f"truncate '{T}'",
     [rf"Truncating '{T}' table \(it may take a while\):\n"], False),
    ("truncate should work on disabled table",
     f"t = get_table '{T}'\nt.put(1, 'x:a', 1)\nt.put(2, 'x:a', 2)\nt.count\n"
     f"disable '{T}'\ntruncate '{T}'\nt.count", [r"=> 2\n(.|\n)*=> 0\n"], False),
    ("truncate_preserve should empty a table",
     f"t = get_table '{T}'\nt.put(1, 'x:a', 1)\nt.put(2, 'x:a', 2)\nt.count\n"
     f"truncate_preserve '{T}'\nt.count", [r"=> 2\n(.|\n)*=> 0\n"], False),
    ("truncate_preserve should maintain the previous region boundaries",
     f"create '{C}', 'a', {{NUMREGIONS => 10, SPLITALGO => 'HexStringSplit'}}\n"
     f"splits = get_splits '{C}'\ntruncate_preserve '{C}'\nget_splits('{C}') == splits",
     [r"== splits\n(.|\n)*=> true\n$"], False),
    ("enable and disable tables by regex",
     "create 't1', 'f'\ncreate 't11', 'f'\ndisable_all 't1.*'\ny\n"
     "[is_disabled('t1'), is_disabled('t11'), is_enabled('t1'), is_enabled('t11')]\n"
     "enable_all 't1.*'\ny\n"
     "[is_disabled('t1'), is_disabled('t11'), is_enabled('t1'), is_enabled('t11')]\n"
     "disable_all 't1.*'\ny\ndrop_all 't1.*'\ny\n[exists('t1'), exists('t11')]",
     [r"=> \[true, true, false, false\]\n", r"=> \[false, false, true, true\]\n",
      r"=> \[false, false\]\n$"], False),
    ("list_regions should fail for disabled table",
     f"create '{C}', 'a'\ndisable '{C}'\nlist_regions '{C}'",
     [rf"ERROR: Table {C} must be enabled."], True),
    # AdminRegionTest
    ("list regions should allow table name", f"list_regions '{T}'", [r" 1 rows\n"], False),
    # AdminAlterTableTest
    ("alter should fail with non-string table names", "alter 123, METHOD => 'delete', NAME => 'y'",
     [r"ERROR: Table name must be of type String"], True),
    ("alter should fail with non-existing tables",
     "alter 'NOT.EXISTS', METHOD => 'delete', NAME => 'y'",
     [r"ERROR: Can't find a table: NOT.EXISTS"], True),
    ("alter should not fail with enabled tables",
     f"enable '{T}'\nalter '{T}', METHOD => 'delete', NAME => 'y'", [r"Done.\n"], False),
    ("alter should be able to delete column families",
     f"alter '{T}', METHOD => 'delete', NAME => 'y'\nenable '{T}'\n"
     f"get_table('{T}').get_all_columns.sort", [r'=> \["x:"\]\n'], False),
    ("alter should be able to add column families",
     f"alter '{T}', NAME => 'z'\nenable '{T}'\nget_table('{T}').get_all_columns.sort",
     [r'=> \["x:", "y:", "z:"\]\n'], False),
    ("alter should be able to add column families (name-only alter spec)",
     f"alter '{T}', 'z'\nenable '{T}'\nget_table('{T}').get_all_columns.sort",
     [r'=> \["x:", "y:", "z:"\]\n'], False),
    ("alter should support shortcut DELETE alter specs",
     f"alter '{T}', 'delete' => 'y'\nget_table('{T}').get_all_columns.sort",
     [r'=> \["x:"\]\n'], False),
    # AdminCloneTableSchemaTest
    ("clone_table_schema should maintain the source table's region boundaries when "
     "preserve_splits set to true",
     "create 'src', 'a', NUMREGIONS => 10, SPLITALGO => 'HexStringSplit'\n"
     "splits = get_splits 'src'\nclone_table_schema 'src', 'dst', true\n"
     "get_splits('dst') == splits", [r"== splits\n(.|\n)*=> true\n$"], False),
    ("clone_table_schema should have failed when source table doesn't exist.",
     "clone_table_schema 'src', 'dst'", [r"ERROR: Unknown table src!"], True),
    ("clone_table_schema should have failed when destination table exists.",
     "create 'src', 'a'\ncreate 'dst', 'a'\nclone_table_schema 'src', 'dst'",
     [r"ERROR: Table already exists: src!"], True),
    ("create should work with hash column args",
     f"create '{C}', {{ NAME => 'a'}}, {{ NAME => 'b'}}\nget_table('{C}').get_all_columns.sort",
     [r'=> \["a:", "b:"\]\n'], False),
]


@pytest.mark.parametrize("name,script,expect,fails", CASES, ids=[c[0] for c in CASES])
def test_upstream_admin_test(name, script, expect, fails):
    run_case(SETUP, script, expect, fails)
