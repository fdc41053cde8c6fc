"""The REPL on a pseudo-terminal: prompts, line editing, history (also across sessions), tab
completion, continuation lines, Ctrl-C and exit."""

import os
import signal
import sys

import pytest

pytestmark = pytest.mark.slow  # a shell on a pseudo-terminal

pexpect = pytest.importorskip("pexpect")

UP, LEFT, RIGHT, HOME, BACKSPACE = "\x1b[A", "\x1b[D", "\x1b[C", "\x01", "\x7f"


def spawn(tmp_path):
    env = dict(os.environ, HSIM_SHELL_HISTORY=str(tmp_path / "history"), TERM="dumb")
    # SIGINT as a terminal gives it: a suite started in the background (nohup, `cmd &`) passes
    # an ignored SIGINT down, and Python would then never see Ctrl-C.
    child = pexpect.spawn(sys.executable, ["-m", "hsim.cli", "shell", "--width", "0"],
                          env=env, encoding="utf-8", timeout=None, dimensions=(40, 200),
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.expect_exact("Use \"exit\" to quit this interactive shell.")
    child.expect_exact("hbase:001:0> ")
    return child


def test_session_with_history_and_line_editing(tmp_path):
    child = spawn(tmp_path)
    child.sendline("create 't', 'f'")
    child.expect_exact("Created table t")
    child.expect_exact("=> Hbase::Table - t")
    child.expect_exact("hbase:002:0> ")
    child.sendline("put 't', 'r1', 'f:q', 'v1'")
    child.expect_exact("hbase:003:0> ")
    # Up recalls the put; Home, 12 x Right, Backspace and '2' turn 'r1' into 'r2'.
    child.send(UP + HOME + RIGHT * 12 + BACKSPACE + "2\r")
    child.expect_exact("hbase:004:0> ")
    # Editing in the middle of a fresh line: type, move left, insert.
    child.send("count 't" + "'" + LEFT + LEFT + "x" + BACKSPACE + "\r")
    child.expect_exact("2 row(s)")
    child.expect_exact("=> 2")
    child.expect_exact("hbase:005:0> ")
    # A statement over two lines: the continuation prompt shows the open brace.
    child.sendline("scan 't', {")
    child.expect_exact("hbase:006:1* ")
    child.sendline("LIMIT => 1}")
    child.expect(r" r1 column=f:q, timestamp=2026-01-01T00:00, value=v1\r\n1 row\(s\)")
    child.expect_exact("hbase:007:0> ")
    # Tab completes command names.
    child.send("descr\t 't'\r")
    child.expect_exact("Table t is ENABLED")
    child.expect_exact("hbase:008:0> ")
    # Ctrl-C drops a half-typed statement; errors do not end the session.
    child.sendline("get 't',")
    child.expect_exact("hbase:009:0* ")
    child.sendcontrol("c")
    child.expect_exact("^C")
    child.sendline("get 'nope', 'r'")
    child.expect_exact("ERROR: Unknown table nope!")
    child.sendline("exit")
    child.expect(pexpect.EOF)
    history = (tmp_path / "history").read_text().splitlines()
    assert history[:3] == ["create 't', 'f'", "put 't', 'r1', 'f:q', 'v1'",
                           "put 't', 'r2', 'f:q', 'v1'"]
    assert history[-1] == "exit"


def test_history_survives_the_session(tmp_path):
    (tmp_path / "history").write_text("list\nstatus 'summary'\n")
    child = spawn(tmp_path)
    child.send(UP + "\r")  # the last line of the previous session
    child.expect_exact("1 active master, 0 backup masters, 1 servers, 0 dead, 0.0000 average load")
    child.expect_exact("hbase:002:0> ")
    child.send(UP + UP + UP + "\r")  # status, then list
    child.expect_exact("TABLE")
    child.expect_exact("=> []")
    child.sendeof()  # Ctrl-D leaves, as IRB does
    child.expect(pexpect.EOF)
