"""Every command against a cluster, with its exact printed output (Took lines read 0.0000:
the session's timer never moves), including HBase's error messages."""

import re

from hsim.shell.registry import COMMANDS
from hsim.shell.shell import usage_hint

from .conftest import TOOK

T0 = "2026-01-01T00:00"


def T(ms: int) -> str:
    """The shell's time n requests after T0 (the default clock ticks 1 ms per request)."""
    return f"2026-01-01T00:00:00.{ms:03d}"


def error(cmd: str, message: str, before: str = "") -> str:
    """What command_safe prints when a command fails (HBase 2: where to find the usage, not
    the whole help)."""
    return f"{before}\nERROR: {message}\n\n{usage_hint(cmd)}\n\n{TOOK}"


def test_create_list_exists(sh):
    assert sh("create 't1', 'f1'") == "Created table t1\n" + TOOK + "=> Hbase::Table - t1\n"
    assert sh("create 't2', {NAME => 'f', VERSIONS => 3}") == \
        "Created table t2\n" + TOOK + "=> Hbase::Table - t2\n"
    assert sh("list") == "TABLE\nt1\nt2\n2 row(s)\n" + TOOK + '=> ["t1", "t2"]\n'
    assert sh("list 't2'") == "TABLE\nt2\n1 row(s)\n" + TOOK + '=> ["t2"]\n'
    assert sh("list 'x.*'") == "TABLE\n0 row(s)\n" + TOOK + "=> []\n"
    assert sh("exists 't1'") == "Table t1 does exist\n" + TOOK + "=> true\n"
    assert sh("exists 'nope'") == "Table nope does not exist\n" + TOOK + "=> false\n"


def test_create_errors(sh):
    sh("create 't1', 'f1'")
    assert sh("create 't1', 'f1'") == error("create", "Table already exists: t1!")
    assert sh("create 't9'") == error("create", "Table must have at least one column family")
    assert sh("create 't9', 5") == error("create", "Integer of 5 is not of Hash or String type")
    assert sh("create 't9', {NAME => 'f', BLOOMFILTER => 'BAD'}") == error(
        "create", "BloomFilter type BAD is not supported. Use one of NONE ROW ROWCOL "
        "ROWPREFIX_FIXED_LENGTH")
    assert sh("create 't9', {NAME => 'f', COMPRESSION => 'lzo'}") == error(
        "create", "Compression LZO is not supported. Use one of GZ NONE SNAPPY LZ4 ZSTD")
    assert sh("create 't9', 'f', {NUMREGIONS => 4}") == error(
        "create", "Split algorithm must be specified")
    assert sh("create 't9', 'f', {SPLITALGO => 'HexStringSplit'}") == error(
        "create", "Number of regions must be specified")
    assert sh("create 't9', 'f', {NUMREGIONS => 1, SPLITALGO => 'HexStringSplit'}") == error(
        "create", "Number of regions must be greater than 1")
    assert sh("create 't9', 'f', {NUMREGIONS => 3, SPLITALGO => 'Nope'}") == error(
        "create", "java.io.IOException: Couldn't load split class Nope")
    assert sh("create 't9', {NAME => 'f', VERSIONS => 0}") == error(
        "create", "java.lang.IllegalArgumentException: Maximum versions must be positive")
    assert sh("list") == "TABLE\nt1\n1 row(s)\n" + TOOK + '=> ["t1"]\n'


def test_create_warnings_for_ignored_arguments(sh):
    assert sh("create 't', 'f', 'f', {NAME => 'g', FOO => 1}, {OWNER => 'me', BAR => 2}") == (
        "Family 'f' already exists, the old one will be replaced\n"
        "Unknown argument ignored for column family g: FOO\n"
        "An argument ignored (unknown or overridden): BAR\n"
        "Created table t\n" + TOOK + "=> Hbase::Table - t\n")


def test_create_with_splits_and_get_splits(sh):
    sh("create 's', 'f', SPLITS => ['b', 'c\\x00']")
    assert sh("get_splits 's'") == (
        "Total number of splits = 3\nb\nc\\x00\n" + TOOK + '=> ["b", "c\\\\x00"]\n')
    sh("create 'h', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}")
    assert sh("get_splits 'h'") == (
        "Total number of splits = 4\n40000000\n80000000\nc0000000\n" + TOOK
        + '=> ["40000000", "80000000", "c0000000"]\n')
    sh("create 'b', 'f', {STARTKEY => '0000', ENDKEY => 'ffff', NUMREGIONS => 4}")
    out = sh("get_splits 'b'")
    assert out.startswith("Total number of splits = 4\n0000\n")  # Bytes.split keeps both ends
    assert "\nffff\n" in out


def test_describe_and_alter(sh):
    sh("create 't', {NAME => 'f', VERSIONS => 3, TTL => 86400, BLOOMFILTER => 'ROWCOL', "
       "KEEP_DELETED_CELLS => true, COMPRESSION => 'snappy', BLOCKSIZE => 8192}")
    f_desc = ("{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '3', "
              "KEEP_DELETED_CELLS => 'TRUE', DATA_BLOCK_ENCODING => 'NONE', "
              "TTL => '86400 SECONDS (1 DAY)', MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', "
              "BLOOMFILTER => 'ROWCOL', IN_MEMORY => 'false', COMPRESSION => 'SNAPPY', "
              "BLOCKCACHE => 'true', BLOCKSIZE => '8192 B (8KB)'}")
    assert sh("describe 't'") == (
        "Table t is ENABLED\nt\nCOLUMN FAMILIES DESCRIPTION\n" + f_desc + "\n\n1 row(s)\n"
        "Quota is disabled\n" + TOOK)
    assert sh("alter 't', NAME => 'g', VERSIONS => 2") == (
        "Updating all regions with the new schema...\n1/1 regions updated.\nDone.\n" + TOOK)
    assert sh("alter 't', MAX_FILESIZE => '134217728'").endswith("Done.\n" + TOOK)
    out = sh("desc 't'")
    assert out.startswith("Table t is ENABLED\n"
                          "t, {TABLE_ATTRIBUTES => {MAX_FILESIZE => '134217728 B (128MB)'}}\n")
    assert "{NAME => 'g', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '2'," in out
    assert out.endswith("\n2 row(s)\nQuota is disabled\n" + TOOK)
    sh("alter 't', 'delete' => 'g'")
    sh("alter 't', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'")
    assert sh("desc 't'").startswith("Table t is ENABLED\nt\nCOLUMN FAMILIES DESCRIPTION\n" +
                                     f_desc + "\n\n1 row(s)\n")


def test_alter_errors(sh):
    sh("create 't', 'f'")
    assert sh("alter 'nope', 'f'") == error("alter", "Can't find a table: nope")
    assert sh("alter 't'") == error(
        "alter", "There should be at least one argument but the table name")
    assert sh("alter 't', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'") == error(
        "alter", "Could not find attribute: MAX_FILESIZE")
    assert sh("alter 't', METHOD => 'bogus', NAME => 'x'") == error(
        "alter", "Unknown method: bogus")
    assert sh("alter 't', 'delete' => 'f'") == error(
        "alter", "org.apache.hadoop.hbase.DoNotRetryIOException: "
                 "Table should have at least one column family.")
    assert sh("alter 't', NAME => 'f', FOO => 1, VERSIONS => 2") == (
        "Unknown argument ignored for column family f: FOO\n"
        "Updating all regions with the new schema...\n1/1 regions updated.\nDone.\n" + TOOK)


def test_enable_disable_drop_truncate(sh):
    sh("create 't', 'f', SPLITS => ['m']")
    sh("put 't', 'a', 'f:q', 'v'")
    assert sh("is_enabled 't'") == "true\n" + TOOK + "=> true\n"
    assert sh("is_disabled 't'") == "false\n" + TOOK + "=> false\n"
    assert sh("drop 't'") == error("drop", "Table t is enabled. Disable it first.")
    assert sh("disable 't'") == TOOK
    assert sh("disable 't'") == TOOK  # already disabled: nothing to do
    assert sh("is_disabled 't'") == "true\n" + TOOK + "=> true\n"
    assert sh("get 't', 'a'") == error(
        "get", "org.apache.hadoop.hbase.TableNotEnabledException: t is disabled.",
        "COLUMN  CELL\n")
    assert sh("enable 't'") == TOOK
    assert sh("truncate 't'") == ("Truncating 't' table (it may take a while):\n"
                                  "Disabling table...\nTruncating table...\n" + TOOK)
    assert sh("count 't'") == "0 row(s)\n" + TOOK + "=> 0\n"
    assert sh("get_splits 't'") == "Total number of splits = 1\n" + TOOK + "=> []\n"
    sh("disable 't'")
    assert sh("drop 't'") == TOOK
    for cmd in ("enable", "disable", "drop", "describe"):
        assert sh(f"{cmd} 't'") == error(cmd, "Table t does not exist.")
    assert sh("is_enabled 't'") == error("is_enabled", "Unknown table t!")


def test_truncate_preserve_keeps_regions(sh):
    sh("create 't', 'f', SPLITS => ['m']")
    assert sh("truncate_preserve 't'").startswith("Truncating 't' table")
    assert sh("get_splits 't'").startswith("Total number of splits = 2\nm\n")


def test_put_get_scan(sh):
    sh("create 't', {NAME => 'f', VERSIONS => 3}, 'g'")
    assert sh("put 't', 'r1', 'f:a', 'v1'") == TOOK
    sh("put 't', 'r1', 'g:b', \"\\x00\\x14\"")
    sh("put 't', 'r2', 'f:a', 'old', 1000")
    sh("put 't', 'r2', 'f:a', 'new', 2000")
    sh("put 't', 'r2', 'f', 'empty qualifier'")
    sh("put 't', 3, 'f:n', 42")
    assert sh("get 't', 'r1'") == (
        f"COLUMN  CELL\n f:a timestamp={T0}, value=v1\n g:b timestamp={T(1)}, value=\\x00\\x14\n"
        "1 row(s)\n" + TOOK)
    assert sh("get 't', 'r2', {COLUMN => 'f:a', VERSIONS => 2}") == (
        "COLUMN  CELL\n f:a timestamp=1970-01-01T00:00:02, value=new\n"
        " f:a timestamp=1970-01-01T00:00:01, value=old\n1 row(s)\n" + TOOK)
    assert sh("get 't', 'r2', {COLUMN => 'f:a', TIMESTAMP => 1000}") == (
        "COLUMN  CELL\n f:a timestamp=1970-01-01T00:00:01, value=old\n1 row(s)\n" + TOOK)
    assert sh("get 't', 'r2', {TIMERANGE => [0, 1500]}") == (
        "COLUMN  CELL\n f:a timestamp=1970-01-01T00:00:01, value=old\n1 row(s)\n" + TOOK)
    assert sh("get 't', 'r2', 'f:'") == (
        f"COLUMN  CELL\n f: timestamp={T(4)}, value=empty qualifier\n1 row(s)\n" + TOOK)
    assert sh("get 't', 'r1', 'f:a', 'g'") == sh("get 't', 'r1', ['f:a', 'g']")
    assert sh("get 't', 'nope'") == "COLUMN  CELL\n0 row(s)\n" + TOOK
    assert sh("get 't', 'r1', {FILTER => \"ValueFilter(=, 'binary:v1')\"}") == (
        f"COLUMN  CELL\n f:a timestamp={T0}, value=v1\n1 row(s)\n" + TOOK)
    assert sh("get 't', 'r1', {COLUMN => 'f:a', MAXLENGTH => 12}") == (
        "COLUMN  CELL\n f:a timestamp=20\n1 row(s)\n" + TOOK)
    assert sh("scan 't'") == (
        "ROW  COLUMN+CELL\n"
        f" 3 column=f:n, timestamp={T(5)}, value=42\n"
        f" r1 column=f:a, timestamp={T0}, value=v1\n"
        f" r1 column=g:b, timestamp={T(1)}, value=\\x00\\x14\n"
        f" r2 column=f:, timestamp={T(4)}, value=empty qualifier\n"
        " r2 column=f:a, timestamp=1970-01-01T00:00:02, value=new\n"
        "3 row(s)\n" + TOOK)
    assert sh("scan 't', {STARTROW => 'r1', STOPROW => 'r2', COLUMNS => ['g']}") == (
        f"ROW  COLUMN+CELL\n r1 column=g:b, timestamp={T(1)}, value=\\x00\\x14\n1 row(s)\n" + TOOK)
    assert sh("scan 't', {ROWPREFIXFILTER => 'r', LIMIT => 1, COLUMNS => 'f:a'}") == (
        f"ROW  COLUMN+CELL\n r1 column=f:a, timestamp={T0}, value=v1\n1 row(s)\n" + TOOK)
    assert sh("scan 't', {REVERSED => true, COLUMNS => ['f:a'], VERSIONS => 3}") == (
        "ROW  COLUMN+CELL\n"
        " r2 column=f:a, timestamp=1970-01-01T00:00:02, value=new\n"
        " r2 column=f:a, timestamp=1970-01-01T00:00:01, value=old\n"
        f" r1 column=f:a, timestamp={T0}, value=v1\n2 row(s)\n" + TOOK)
    assert sh("scan 't', {TIMERANGE => [0, 1500]}") == (
        "ROW  COLUMN+CELL\n r2 column=f:a, timestamp=1970-01-01T00:00:01, value=old\n"
        "1 row(s)\n" + TOOK)
    # QualifierFilter compares the empty qualifier too (TestQualifierFilterWithEmptyQualifier)
    assert sh("scan 't', {FILTER => \"PrefixFilter('r2') AND QualifierFilter(=, 'binary:a')\"}"
              ) == ("ROW  COLUMN+CELL\n"
                    " r2 column=f:a, timestamp=1970-01-01T00:00:02, value=new\n1 row(s)\n" + TOOK)


def test_get_and_scan_argument_errors(sh):
    sh("create 't', 'f'")
    assert sh("get 't', 'r', {VERSIONS => 3}") == error(
        "get", 'Failed parse of {"VERSIONS"=>3}, Hash', "COLUMN  CELL\n")
    assert sh("get 't'") == error("get", "wrong number of arguments (given 1, expected 2+)")
    assert sh("scan 't', {COLUMNS => 5}") == error(
        "scan", "COLUMNS must be specified as a String or an Array", "ROW  COLUMN+CELL\n")
    assert sh("scan 't', {RAW => true, COLUMNS => 'f:q'}") == error(
        "scan", "org.apache.hadoop.hbase.DoNotRetryIOException: "
                "Cannot specify any column for a raw scan", "ROW  COLUMN+CELL\n")
    assert sh("scan 't', {FILTER => \"NoSuchFilter()\"}").startswith(
        "ROW  COLUMN+CELL\n\nERROR: java.lang.IllegalArgumentException: ")


def test_unknown_table_and_family_messages(sh):
    sh("create 't', 'f', 'g'")
    assert sh("get 'nope', 'r'") == error("get", "Unknown table nope!", "COLUMN  CELL\n")
    assert sh("scan 'nope'") == error("scan", "Unknown table nope!", "ROW  COLUMN+CELL\n")
    assert sh("put 'nope', 'r', 'f:q', 'v'") == error("put", "Unknown table nope!")
    assert sh("put 't', 'r', 'x:q', 'v'") == error(
        "put", "Unknown column family! Valid column names: f:*, g:*")
    assert sh("get 't', 'r', 'x:q'") == error(
        "get", "Unknown column family! Valid column names: f:*, g:*", "COLUMN  CELL\n")
    assert sh("put 't', '', 'f:q', 'v'") == error(
        "put", "java.lang.IllegalArgumentException: Row length is 0")


def test_put_with_ttl_and_the_clock(sh):
    sh("create 't', 'f'")
    sh("put 't', 'r', 'f:short', 'x', {TTL => 60000}")
    sh("put 't', 'r', 'f:long', 'y'")
    assert sh("clock") == f"{T(1)} (1767225600001)\n" + TOOK  # two requests so far
    assert sh("clock 'advance', '2m'") == "2026-01-01T00:02:00.001 (1767225720001)\n" + TOOK
    assert sh("get 't', 'r'") == f"COLUMN  CELL\n f:long timestamp={T(1)}, value=y\n1 row(s)\n" \
        + TOOK
    assert sh("clock 'set', '2026-02-01T12:30'") == "2026-02-01T12:30 (1769949000000)\n" + TOOK
    assert sh("clock 'advance', 'soon'") == error(
        "clock", "not a duration: soon (use ms, or e.g. '90s', '5m', '2h', '7d')")
    assert sh("clock 'rewind', 5") == error(
        "clock", "Unknown clock action: rewind (use 'advance' or 'set')")


def test_delete_one_version_and_deleteall(sh):
    sh("create 't', {NAME => 'f', VERSIONS => 5}, 'g'")
    for ts in (1, 2, 3):
        sh(f"put 't', 'r', 'f:q', 'v{ts}', {ts}")
    sh("put 't', 'r', 'g:x', 'gx', 1")
    sh("delete 't', 'r', 'f:q'")  # the latest version only (HBase 2.x)
    assert sh("get 't', 'r', {COLUMN => 'f:q', VERSIONS => 5}") == (
        "COLUMN  CELL\n f:q timestamp=1970-01-01T00:00:00.002, value=v2\n"
        " f:q timestamp=1970-01-01T00:00:00.001, value=v1\n1 row(s)\n" + TOOK)
    sh("delete 't', 'r', 'f:q', 1")
    assert sh("get 't', 'r', 'f:q'") == (
        "COLUMN  CELL\n f:q timestamp=1970-01-01T00:00:00.002, value=v2\n1 row(s)\n" + TOOK)
    sh("deleteall 't', 'r', 'f:q', 2")
    assert sh("get 't', 'r', 'f:q'") == "COLUMN  CELL\n0 row(s)\n" + TOOK
    assert sh("scan 't', {RAW => true, VERSIONS => 5}") == (
        "ROW  COLUMN+CELL\n"
        " r column=f:q, timestamp=1970-01-01T00:00:00.003, type=Delete\n"
        " r column=f:q, timestamp=1970-01-01T00:00:00.003, value=v3\n"
        " r column=f:q, timestamp=1970-01-01T00:00:00.002, type=DeleteColumn\n"
        " r column=f:q, timestamp=1970-01-01T00:00:00.002, value=v2\n"
        " r column=f:q, timestamp=1970-01-01T00:00:00.001, type=Delete\n"
        " r column=f:q, timestamp=1970-01-01T00:00:00.001, value=v1\n"
        " r column=g:x, timestamp=1970-01-01T00:00:00.001, value=gx\n1 row(s)\n" + TOOK)
    sh("deleteall 't', 'r'")
    assert sh("scan 't'") == "ROW  COLUMN+CELL\n0 row(s)\n" + TOOK


def test_deleteall_family_and_prefix(sh):
    sh("create 't', 'f', 'g'")
    for r in ("a1", "a2", "b1"):
        sh(f"put 't', '{r}', 'f:q', 'v'")
        sh(f"put 't', '{r}', 'g:q', 'v'")
    sh("deleteall 't', 'b1', 'g'")
    sh("deleteall 't', {ROWPREFIXFILTER => 'a'}")
    assert sh("scan 't'") == f"ROW  COLUMN+CELL\n b1 column=f:q, timestamp={T(4)}, value=v\n" \
        "1 row(s)\n" + TOOK


def test_counters_and_append(sh):
    sh("create 't', 'f'")
    assert sh("incr 't', 'r', 'f:c'") == "COUNTER VALUE = 1\n" + TOOK
    assert sh("incr 't', 'r', 'f:c', 10") == "COUNTER VALUE = 11\n" + TOOK
    assert sh("incr 't', 'r', 'f:c', -20") == "COUNTER VALUE = -9\n" + TOOK
    assert sh("get_counter 't', 'r', 'f:c'") == "COUNTER VALUE = -9\n" + TOOK
    assert sh("get_counter 't', 'r', 'f:none'") == \
        "No counter found at specified coordinates\n" + TOOK
    assert sh("get 't', 'r', {COLUMN => 'f:c:toLong'}") == (
        "COLUMN  CELL\n f:c timestamp=2026-01-01T00:00:00.002, value=-9\n1 row(s)\n" + TOOK)
    sh("put 't', 'r', 'f:s', 'x'")
    assert sh("incr 't', 'r', 'f:s'") == error(
        "incr", "org.apache.hadoop.hbase.DoNotRetryIOException: "
                "Field is not a long, it's 1 bytes wide")
    assert sh("get_counter 't', 'r', 'f:s'") == error(
        "get_counter", "java.lang.IllegalArgumentException: "
                       "offset (0) + length (8) exceed the capacity of the array: 1")
    assert sh("append 't', 'r', 'f:s', 'yz'") == "CURRENT VALUE = xyz\n" + TOOK


def test_count_with_interval(sh):
    sh("create 't', 'f'")
    for i in range(5):
        sh(f"put 't', 'row{i}', 'f:q', 'v'")
    assert sh("count 't', INTERVAL => 2") == (
        "Current count: 2, row: row1\nCurrent count: 4, row: row3\n5 row(s)\n" + TOOK
        + "=> 5\n")
    assert sh("count 't', 3") == "Current count: 3, row: row2\n5 row(s)\n" + TOOK + "=> 5\n"
    assert sh("count 't', {FILTER => \"PrefixFilter('row4')\"}") == \
        "1 row(s)\n" + TOOK + "=> 1\n"


def test_flush_compact_split_balancer_status():
    from .conftest import Session

    sh = Session(servers=2)
    sh("create 't', 'f'")
    for r in ("a", "b", "c", "d"):
        sh(f"put 't', '{r}', 'f:q', 'v'")
    assert sh("flush 't'") == TOOK
    assert sh("compact 't'") == TOOK
    assert sh("major_compact 't', 'f'") == TOOK
    assert sh("split 't', 'c'") == TOOK
    assert sh("get_splits 't'") == "Total number of splits = 2\nc\n" + TOOK + '=> ["c"]\n'
    assert sh("flush 'nope'") == error("flush", "Unknown table nope!")
    assert sh("balancer") == "true\n" + TOOK + "=> true\n"
    assert sh("balancer 'now'") == error("balancer", "Invalid argument now.")
    assert sh("status") == \
        "1 active master, 0 backup masters, 2 servers, 0 dead, 1.0000 average load\n" + TOOK
    simple = sh("status 'simple'")
    assert simple.startswith("active master:  master.hsim:16000 0\n0 backup masters\n"
                             "2 live servers\n    rs1.hsim:16020 1767225600000\n"
                             "        requestsPerSecond=0.0, numberOfOnlineRegions=1, ")
    assert re.search(r"\n0 dead servers\nAggregate load: \d+, regions: 2\n" + TOOK + "$", simple)
    detailed = sh("status 'detailed'")
    assert detailed.startswith("version 2.5.0-hsim\n0 regionsInTransition\n")
    assert '        "t,c,' in detailed


def test_flush_by_region_name(sh):
    sh("create 't', 'f'")
    sh("put 't', 'r', 'f:q', 'v'")
    region = sh.shell.admin.regions("t")[0]
    assert sh(f"flush '{region.encoded_name}'") == TOOK
    assert sh.shell.admin.regions("t")[0].store_file_count == 1


def test_general_commands_and_unknown_input(sh):
    assert sh("version") == "2.5.0-hsim, hsim, an in-process simulator of HBase 2.x\n" + TOOK
    assert sh("whoami") == "hsim (auth:SIMPLE)\n    groups: hsim\n" + TOOK
    assert sh("nosuch 't'") == "NoMethodError (undefined method `nosuch' for main:Object)\n"
    assert sh("nosuch") == \
        "NameError (undefined local variable or method `nosuch' for main:Object)\n"
    assert sh("get t, 'r'") == \
        "NameError (undefined local variable or method `t' for main:Object)\n"
    # IRB names the line of the session the statement was on
    assert sh("put 't' 'r'") == "SyntaxError ((hbase):6: unexpected string literal)\n"
    assert sh("get 't', 'r',") == "SyntaxError ((hbase):7: unexpected end-of-input)\n"


def test_help(sh):
    out = sh("help")
    assert out.startswith("HBase Shell on hsim, version 2.5.0-hsim\n")
    assert ("  Group name: ddl\n  Commands: alter, alter_async, alter_status, "
            "clone_table_schema, create, desc, describe, disable, disable_all, drop,") in out
    assert ("  Group name: hsim\n  Commands: abort_server, clock, completebulkload, debug, "
            "explain, hfile, regions, start_server, store, ui, wal\n") in out
    assert sh("help 'get'") == COMMANDS["get"].help + "\n"
    assert sh("help 'tools'").startswith("Command: tools -- ")
    assert sh("help 'nope'") == "ERROR: Invalid command or command group name: nope\n"


def test_errors_never_end_the_session(sh):
    sh("create 't', 'f'")
    sh("get 'nope', 'r'\nput 't' 'r'\nfoo\nput 't', 'r', 'f:q', 'v'")
    assert sh("count 't'") == "1 row(s)\n" + TOOK + "=> 1\n"


def test_exit_stops_the_script(sh):
    assert sh("list\nexit\nlist") == "TABLE\n0 row(s)\n" + TOOK + "=> []\n"


def test_epoch_timestamps():
    from .conftest import Session

    sh = Session(timestamps="epoch")
    sh("create 't', 'f'")
    sh("put 't', 'r', 'f:q', 'v', 1234")
    assert sh("scan 't'") == \
        "ROW  COLUMN+CELL\n r column=f:q, timestamp=1234, value=v\n1 row(s)\n" + TOOK


def test_terminal_width_layout():
    from .conftest import Session

    sh = Session(width=48)
    sh("create 't', 'f'")
    sh("put 't', 'r', 'f:q', 'v', 1234")
    cell = "column=f:q, timestamp=1970-01-01T00:00:01.234, value=v"
    # 48 columns: the key gets 48 // 4 = 12, the cell 48 - 12 - 2 = 34, and wraps
    assert sh("scan 't'") == (
        "ROW".ljust(12) + "  " + "COLUMN+CELL".ljust(34) + "\n"
        + " " + "r".ljust(12) + " " + cell[:34] + "\n"
        + " " + " " * 12 + " " + cell[34:].ljust(34) + "\n"
        + "1 row(s)\n" + TOOK)


def test_script_echo_and_prompts(sh):
    out = sh("list\nscan 't', {\nLIMIT => 1}\n", echo=True)
    assert out.startswith("hbase:001:0> list\nTABLE\n")
    assert "hbase:002:0> scan 't', {\nhbase:003:1* LIMIT => 1}\nROW  COLUMN+CELL\n" in out


def test_view_commands_and_their_errors(sh):
    sh("create 't', 'f'")
    sh("put 't', 'r', 'f:q', 'v'")
    assert sh("debug 'regions', 't'") == sh("regions 't'")
    assert sh("regions 't'").startswith("Table t: 1 region(s) on 1 server(s)\n  #  REGION")
    assert sh("store 't', 0, 'f'").startswith("Store t/1cc99389c5eedc8b4850b2251a56893e/f (")
    assert sh("store 't', '1cc9', 'f'") == sh("store 't', 0, 'f'")
    assert sh("store 't', 'zz', 'f'") == error("store", "Unknown region zz!")
    assert sh("store 't', 0, 'g'") == error(
        "store", "Unknown column family! Valid column names: f:*")
    assert sh("hfile 't', 0, 'f', 0") == error(
        "hfile", "java.lang.IllegalArgumentException: store f of region "
                 "1cc99389c5eedc8b4850b2251a56893e has 0 file(s); no file 0")
    assert sh("explain 'put', 't'") == error("explain", "explain works on get and scan, not put")
    out = sh("explain get 't', 'r'")
    assert out.startswith(f"COLUMN  CELL\n f:q timestamp={T0}, value=v\n1 row(s)\n"
                          "EXPLAIN get 't', 'r'\nRegion t,,")
    assert out.endswith(TOOK)
    assert sh("debug 'nope'") == error(
        "debug", "Unknown view: nope (regions, store, hfile or explain)")


def test_create_with_zstd_and_a_row_prefix_bloom_without_its_prefix_length(sh):
    assert sh("create 'z', {NAME => 'f', COMPRESSION => 'ZSTD'}").startswith("Created table z")
    sh("put 'z', 'r1', 'f:q', 'v'")
    sh("flush 'z'")
    assert "value=v" in sh("get 'z', 'r1'")
    assert "COMPRESSION => 'ZSTD'" in sh("describe 'z'")
    # TableDescriptorChecker.checkBloomFilterType: the prefix length is a CONFIGURATION key
    out = sh("create 'p', {NAME => 'f', BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH'}")
    assert ("ERROR: org.apache.hadoop.hbase.DoNotRetryIOException: Failed to get bloom filter "
            "param: Bloom filter type is ROWPREFIX_FIXED_LENGTH, RowPrefixBloomFilter."
            "prefix_length not specified.") in out


def test_data_block_encoding_in_create_alter_and_describe(sh):
    sh("create 't', {NAME => 'f', DATA_BLOCK_ENCODING => 'FAST_DIFF'}")
    assert "DATA_BLOCK_ENCODING => 'FAST_DIFF'" in sh("describe 't'")
    sh("alter 't', NAME => 'f', DATA_BLOCK_ENCODING => 'ROW_INDEX_V1'")
    assert "DATA_BLOCK_ENCODING => 'ROW_INDEX_V1'" in sh("describe 't'")
    out = sh("alter 't', NAME => 'f', DATA_BLOCK_ENCODING => 'PREFIX_TREE'")
    assert "No enum constant org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.PREFIX_TREE" \
        in out and "Traceback" not in out
    assert "DATA_BLOCK_ENCODING => 'ROW_INDEX_V1'" in sh("describe 't'")  # nothing changed
