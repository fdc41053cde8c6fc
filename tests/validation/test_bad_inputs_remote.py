"""Bad inputs through happybase (in-process and over a socket to the Thrift server), the shell
and `hsim serve`'s flags. Each data case asserts the error's type and message, that contents,
schema and metrics are unchanged, and that the table still works after it."""

import io
import re

import happybase
import pytest
from thriftpy2.thrift import TApplicationException

import hsim.happybase
from hsim.shell import Shell
from hsim.thrift import serve
from hsim.thrift.idl import ttypes
from hsim.thrift.server import ThriftServer
from tests.validation.test_bad_inputs import make_cluster, snapshot, still_works

BIG = 1 << 63
IOE, IAE, APP = ttypes.IOError, ttypes.IllegalArgument, TApplicationException

# (id, call on (connection, table), error type, message regex) -- the same for both transports
HAPPYBASE_CASES = [
    ("put-unknown-family", lambda c, t: t.put(b"r", {b"x:a": b"v"}), IOE,
     "RetriesExhaustedWithDetailsException: Failed 1 action.*Column family x does not exist"),
    ("put-empty-row", lambda c, t: t.put(b"", {b"f:a": b"v"}), APP, "Row length is 0"),
    ("put-long-row", lambda c, t: t.put(b"r" * 32768, {b"f:a": b"v"}), APP,
     "Row length 32768 is > 32767"),
    ("put-huge-value", lambda c, t: t.put(b"r", {b"f:a": b"x" * (10 << 20)}), IAE,
     "KeyValue size too large"),
    ("put-ts-negative", lambda c, t: t.put(b"r", {b"f:a": b"v"}, timestamp=-1), APP,
     "Timestamp cannot be negative"),
    ("put-no-qualifier", lambda c, t: t.put(b"r", {b"f": b"v"}), APP,
     "Internal error processing mutateRows .*Invalid famAndQf"),
    ("batch-unknown-family", lambda c, t: _hb_batch(t), IOE,
     r"RetriesExhaustedWithDetailsException: Failed 1 action\(s\): b'n2'"),
    ("counter-not-long", lambda c, t: t.counter_inc(b"r1", b"f:a"), IOE,
     "Field is not a long"),
    ("delete-unknown-family", lambda c, t: t.delete(b"r1", columns=[b"x:a"]), IOE,
     "Column family x does not exist"),
    ("row-unknown-family", lambda c, t: t.row(b"r1", columns=[b"x:a"]), IOE,
     "NoSuchColumnFamilyException"),
    ("scan-unknown-family", lambda c, t: list(t.scan(columns=[b"x"])), IOE,
     "NoSuchColumnFamilyException"),
    ("scan-bad-filter", lambda c, t: list(t.scan(filter=b"Nope()")), APP,
     "Filter Name Nope not supported"),
    ("missing-table-put", lambda c, t: c.table("nope").put(b"r", {b"f:a": b"v"}), IOE,
     "TableNotFoundException"),
    ("bad-table-name", lambda c, t: c.table("a b").put(b"r", {b"f:a": b"v"}), IAE,
     "Illegal character"),
    ("create-exists", lambda c, t: c.create_table("t", {"f": {}}), ttypes.AlreadyExists,
     "table name already in use"),
    ("create-unknown-ns", lambda c, t: c.create_table("nons:t2", {"f": {}}), IOE,
     "NamespaceNotFoundException"),
    ("create-hbase-ns", lambda c, t: c.create_table("hbase:x", {"f": {}}), IOE,
     "ConstraintException"),
    ("create-bad-family", lambda c, t: c.create_table("t2", {".f": {}}), IAE,
     "cannot start with a period"),
    ("create-versions-zero", lambda c, t: c.create_table("t2", {"f": {"max_versions": 0}}), IAE,
     "Maximum versions must be positive"),
    ("delete-enabled-table", lambda c, t: c.delete_table("t"), IOE, "TableNotDisabledException"),
]


def _hb_batch(t):
    with t.batch() as b:
        b.put(b"n1", {b"f:a": b"1"})
        b.put(b"n2", {b"x:a": b"2"})


def _check(c, call, exc, message):
    before = snapshot(c)
    metrics = c.metrics()
    with pytest.raises(exc) as info:
        call()
    text = getattr(info.value, "message", None) or ""
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    assert re.search(message, text), text
    return before, metrics


@pytest.mark.parametrize("call,exc,message", [x[1:] for x in HAPPYBASE_CASES],
                         ids=[x[0] for x in HAPPYBASE_CASES])
def test_happybase_in_process(call, exc, message):
    c = make_cluster()
    hsim.happybase.attach(c, "validation", 1)
    conn = hsim.happybase.Connection("validation", 1)
    before, metrics = _check(c, lambda: call(conn, conn.table("t")), exc, message)
    _unchanged_except_batch(c, before, metrics, call)
    still_works(c)


@pytest.fixture
def served():
    c = make_cluster()
    srv = ThriftServer(c, port=0, read_timeout_ms=5_000).start()
    conn = happybase.Connection("127.0.0.1", srv.port)
    yield c, conn
    conn.close()
    srv.stop()


@pytest.mark.parametrize("call,exc,message", [x[1:] for x in HAPPYBASE_CASES],
                         ids=[x[0] for x in HAPPYBASE_CASES])
def test_thrift_over_a_socket(served, call, exc, message):
    c, conn = served
    before, metrics = _check(c, lambda: call(conn, conn.table("t")), exc, message)
    _unchanged_except_batch(c, before, metrics, call)
    still_works(c)


def _unchanged_except_batch(c, before, metrics, call):
    """A batch's good rows are applied (HBase's per-row batch semantics); all else unchanged."""
    if call is HAPPYBASE_CASES[6][1]:
        assert c.table("t").get(b"n1")[0].value == b"1" and c.table("t").get(b"n2") == []
        return
    assert writes(c.metrics()) == writes(metrics)
    assert snapshot(c) == before


def writes(m):
    """The metrics a failed request must leave alone: an increment of a non-counter cell reads
    the cell before it fails (as HRegion.reckonDeltas does), so read counts may move."""
    return [(r.name, r.write_requests, r.memstore_heap_bytes, r.store_files, r.store_file_bytes)
            for r in m.regions]


# --- the shell: `ERROR: ...`, the session goes on, the failure is counted ----------------------
SHELL_CASES = [
    ("put-unknown-table", "put 'nope', 'r', 'f:a', 'v'", r"ERROR: Unknown table nope!"),
    ("put-unknown-family", "put 't', 'r', 'x:a', 'v'",
     r"ERROR: Unknown column family! Valid column names: f:\*, g:\*"),
    ("put-empty-row", "put 't', '', 'f:a', 'v'", "ERROR: .*Row length is 0"),
    ("put-ts-huge", "put 't', 'r', 'f:a', 'v', 9223372036854775808",
     "ERROR: .*does not fit a signed 64-bit long"),
    ("put-ts-negative", "put 't', 'r', 'f:a', 'v', -1", "ERROR: .*Timestamp cannot be negative"),
    ("incr-huge", "incr 't', 'r', 'f:n', 9223372036854775808", "ERROR: .*out of range"),
    ("incr-not-long", "incr 't', 'r1', 'f:a'", "ERROR: .*Field is not a long"),
    ("create-exists", "create 't', 'f'", "ERROR: Table already exists: t!"),
    ("create-default-ns", "create 'default:t', 'f'", "ERROR: Table already exists"),
    ("create-no-ns", "create 'nons:t2', 'f'", "ERROR: Unknown namespace nons!"),
    ("create-hbase-ns", "create 'hbase:x', 'f'", "ERROR: .*Namespace hbase is reserved"),
    ("create-no-family", "create 't2'", "ERROR: Table must have at least one column family"),
    ("create-ttl-minus-1", "create 't2', {NAME => 'f', TTL => -1}",
     "ERROR: .*TTL for column family must be positive"),
    ("alter-versions-str", "alter 't', {NAME => 'f', VERSIONS => 'x'}",
     'ERROR: For input string: "x"'),
    ("alter-ttl-minus-1", "alter 't', {NAME => 'f', TTL => -1}",
     "ERROR: .*DoNotRetryIOException: TTL for column family must be positive"),
    ("get-empty-row", "get 't', ''", "ERROR: java.lang.IllegalArgumentException: Row length is 0"),
    ("alter-max-filesize", "alter 't', MAX_FILESIZE => -5", "ERROR: .*MAX_FILESIZE"),
    ("drop-enabled", "drop 't'", "ERROR: Table t is enabled. Disable it first."),
    ("unicode-too-large", 'put "t", "\\u{110000}", "f:a", "v"',
     r"SyntaxError .*invalid Unicode codepoint \(too large\)"),
    ("unicode-huge", 'put "t", "\\u{FFFFFFFFFFFF}", "f:a", "v"', "SyntaxError .*too large"),
    ("unicode-surrogate", 'put "t", "\\u{D800}", "f:a", "v"',
     "SyntaxError .*invalid Unicode codepoint"),
    ("deep-nesting", "list " + "[" * 250 + "]" * 250, "SyntaxError .*nesting deeper than 100"),
    ("unknown-command", "frobnicate 't'", "NoMethodError .*frobnicate"),
    ("bad-syntax", "put 't' 'r'", "SyntaxError"),
]


@pytest.mark.parametrize("statement,message", [x[1:] for x in SHELL_CASES],
                         ids=[x[0] for x in SHELL_CASES])
def test_shell_bad_statement(statement, message):
    c = make_cluster()
    out = io.StringIO()
    sh = Shell(cluster=c, out=out)
    before = snapshot(c)
    metrics = c.metrics()
    sh.feed(statement)
    assert re.search(message, out.getvalue()), out.getvalue()
    assert "Traceback" not in out.getvalue()
    assert sh.failures == 1
    assert writes(c.metrics()) == writes(metrics) and snapshot(c) == before
    sh.feed("put 't', 'after', 'f:z', 'ok'")  # the session goes on
    assert sh.failures == 1
    still_works(c)


def test_shell_trailing_comma_and_open_bracket_continue():
    c = make_cluster()
    out = io.StringIO()
    sh = Shell(cluster=c, out=out)
    sh.run_script("put 't',\n  'r9',\n  'f:a', 'v'\nscan 't', {COLUMNS => [\n'f:a']}\n")
    assert sh.failures == 0, out.getvalue()
    assert c.table("t").get(b"r9")[0].value == b"v"
    assert "row(s)" in out.getvalue()


def test_shell_script_exit_status(tmp_path, capsys):
    from hsim.shell.main import main

    ok = tmp_path / "ok.hb"
    ok.write_text("create 't', 'f'\nput 't', 'r', 'f:a', 'v'\n")
    bad = tmp_path / "bad.hb"
    bad.write_bytes(b"create 't', 'f'\nput 't', '\xff\xfe', 'x:a', 'v'\nput 't', 'r', 'f:a', 'v'\n")
    assert main([str(ok)]) == 0
    assert main([str(bad)]) == 1
    out = capsys.readouterr().out
    assert "ERROR: Unknown column family" in out and "Traceback" not in out
    assert out.count("Took") == 3 + 2  # the statement after the failed one still ran


# --- hsim serve's flags: exit 2, one usage line, the reason ----------------------------------
SERVE_CASES = [
    ("port-too-big", ["--port", "70000"],
     "argument --port: must be between 0 and 65535, not 70000"),
    ("port-negative", ["--port", "-1"], "argument --port: must be between 0 and 65535, not -1"),
    ("port-not-int", ["--port", "x"], "argument --port: invalid int value: 'x'"),
    ("servers-zero", ["--servers", "0"], "argument --servers: must be between 1 and 1000"),
    ("max-message-zero", ["--max-message-size", "0"],
     "argument --max-message-size: must be at least 1024, not 0"),
    ("max-frame-negative", ["--max-frame-size", "-4"], "argument --max-frame-size: must be"),
    ("max-connections-zero", ["--max-connections", "0"], "argument --max-connections: must be"),
    ("transport-bogus", ["--transport", "http"], "argument --transport: invalid choice"),
    ("config-not-json", ["--config", "{nope"], "argument --config: Expecting property name"),
    ("config-unknown-field", ["--config", '{"colour": 1}'],
     r"argument --config: unknown Config field\(s\): colour"),
    ("config-wrong-type", ["--config", '{"memstore_flush_size": "x"}'],
     "Config field memstore_flush_size must be int, not str"),
    ("config-negative", ["--config", '{"blocking_store_files": -1}'],
     r"Config field blocking_store_files must be in \[1, 2147483647\], not -1"),
    ("config-not-object", ["--config", "[1]"], "must be a JSON object"),
    ("config-bad-scale", ["--config", '{"scale": 0}'], "scale must be a positive finite number"),
    ("config-bad-policy", ["--config", '{"flush_policy": "x"}'], "unknown flush_policy"),
    ("unknown-flag", ["--bogus"], "unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize("argv,message", [x[1:] for x in SERVE_CASES],
                         ids=[x[0] for x in SERVE_CASES])
def test_serve_bad_flags(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        serve.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert lines[0] == "usage: hsim serve [options] (see --help)" and len(lines) == 2, err
    assert re.search(message, lines[1]), err
