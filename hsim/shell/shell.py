"""The shell: reads statements, runs commands against an in-process cluster, and prints what
HBase's shell prints (hbase-shell shell/commands.rb `command_safe`, bin/hirb.rb).

Every command prints its output, then `Took 0.0123 seconds`; a command that fails prints a blank
line, `ERROR: <message>`, a blank line, `For usage try 'help "cmd"'` and a blank line before
that footer, and the session goes on. A statement's non-nil value is echoed as IRB echoes it
(`=> true`, `=> ["t1"]`, `=> Hbase::Table - t1`).
"""

from __future__ import annotations

import shutil
import sys
import time

from hsim.clock import CLOCKS, DEFAULT_START_MS
from hsim.errors import (HsimError, NamespaceNotFoundError, NoSuchColumnFamilyError,
                         TableExistsError, TableNotFoundError, UnknownRegionError)
from hsim.shell import parser
from hsim.shell.continuation import open_state
from hsim.shell.formatter import Formatter, took
from hsim.shell.registry import COMMANDS, ShellArgumentError
from hsim.shell.table_ref import TableRef  # noqa: F401 - what `create` returns
from hsim.shell.values import RubyError, ruby_to_s
from hsim.suggest import close_matches

DEFAULT_CLOCK_START = DEFAULT_START_MS  # 2026-01-01T00:00Z


def java_class(name: str) -> str:
    """How JRuby names a Java class: org.apache.hadoop.hbase.TableNotFoundException is
    Java::OrgApacheHadoopHbase::TableNotFoundException."""
    package, _, cls = name.rpartition(".")
    return "Java::" + "".join(p[:1].upper() + p[1:] for p in package.split(".")) + "::" + cls


def usage_hint(name: str) -> str:
    """What HBase 2's shell prints after a command's ERROR line, instead of its whole help."""
    return f"For usage try 'help \"{name}\"'"


class Shell:
    """One shell session on one cluster.

    `width` is the terminal width the formatter lays columns out in (0: no padding, as HBase
    prints when its output is not a terminal; None: the terminal's width when `out` is one).
    `timestamps` is "iso" (HBase 2.3+) or "epoch" (before 2.3). `clock` is "tick" (the
    default: 1 ms per request from `clock_start`, so put/delete/put behaves as on a cluster),
    "manual" (time stands still at `clock_start`) or "system" (wall time)."""

    prompt_name = "hbase"

    def __init__(self, cluster=None, out=None, timestamps: str = "iso", width: int | None = None,
                 servers: int = 1, config=None, clock_start: int = DEFAULT_CLOCK_START,
                 timer=time.perf_counter, clock: str = "tick", data_dir=None):
        if timestamps not in ("iso", "epoch"):
            raise ValueError("timestamps must be 'iso' or 'epoch'")
        if cluster is None:
            from hsim.client.cluster import Cluster

            if clock not in CLOCKS:
                raise ValueError(f"clock must be one of {', '.join(CLOCKS)}")
            made = CLOCKS[clock]() if clock == "system" else CLOCKS[clock](clock_start)
            cluster = Cluster(region_servers=servers, config=config, clock=made,
                              data_dir=data_dir)
        self.cluster = cluster
        self.out = out if out is not None else sys.stdout
        self.timestamps = timestamps
        self.width = width
        self.timer = timer
        self.line_no = 1  # IRB's %n: the number of the next line read
        self.buffer = ""
        self.fmt = Formatter(self.out, 0)
        self.exited = False
        self.failures = 0  # statements that printed ERROR, SyntaxError or NameError
        self.debug = False  # True: a failing command also prints its Python traceback
        self.locals: dict = {}  # the session's local variables and their values
        self.local_names: set = set()  # the names the parser has seen assigned
        self.switches: dict = {}  # admin switches' states (commands_admin)
        self.last_value = None  # the last statement's value, IRB's `_`
        self._script = None  # the lines a running script has left (for gets)
        self._echo = True

    # --- properties commands use ---------------------------------------------------------------
    @property
    def admin(self):
        return self.cluster.admin

    @property
    def clock(self):
        return self.cluster.clock

    def table(self, name):
        return self.cluster.table(parser.to_text(name))

    def _width(self) -> int:
        if self.width is not None:
            return self.width
        isatty = getattr(self.out, "isatty", None)
        if isatty is not None and isatty():
            return shutil.get_terminal_size().columns
        return 0

    # --- reading lines ---------------------------------------------------------------------------
    def prompt(self) -> str:
        """IRB's prompt: `hbase:001:0> `, `hbase:002:1* ` inside an open bracket or after a
        trailing comma, `hbase:002:0' ` inside an open string."""
        n = f"{self.prompt_name}:{self.line_no:03d}"
        if not self.buffer:
            return f"{n}:0> "
        depth, quote = open_state(self.buffer)
        return f"{n}:{depth}{quote}" + " " if quote else f"{n}:{depth}* "

    def feed(self, line: str) -> bool:
        """Take one line of input; run the statements it completes. Returns True when more
        input is needed to finish a statement."""
        self.line_no += 1
        self.buffer += line if line.endswith("\n") else line + "\n"
        try:
            statements = parser.parse_statements(self.buffer, self.local_names)
        except parser.Incomplete:
            return True
        except (parser.ShellSyntaxError, RecursionError) as e:
            self.buffer = ""
            self.failures += 1
            self.out.write(f"SyntaxError (({self.prompt_name}):{self.line_no - 1}: {e})\n")
            return False
        self.buffer = ""
        for st in statements:
            if self.exited:
                break
            self.execute(st)
        return False

    def run_script(self, text: str, echo: bool = True) -> None:
        """Run a script line by line, printing each line after its prompt (as a terminal shows
        what was typed), so the output reads like the interactive session."""
        self._script = iter(text.splitlines())
        self._echo = echo
        try:
            for line in self._script:
                if self.exited:
                    break
                if echo:
                    self.out.write(self.prompt() + parser.to_text(line) + "\n")
                self.feed(line)
        finally:
            self._script = None
        if self.buffer.strip():
            self.buffer = ""
            self.failures += 1
            self.out.write(f"SyntaxError (({self.prompt_name}):{self.line_no - 1}: "
                           "unexpected end-of-input)\n")

    def gets(self) -> str | None:
        """Kernel#gets, for a command that asks (disable_all's y/n): the script's next line
        (shown as the terminal would show it typed), or a line from the terminal; None at the
        end of the input."""
        if self._script is not None:
            line = next(self._script, None)
            if line is not None and self._echo:
                self.out.write(parser.to_text(line) + "\n")
            return line
        try:
            return input()
        except EOFError:
            return None

    def _name_error(self, name: str, vcall: bool) -> RubyError:
        """Ruby's NameError (a bare name) or NoMethodError (a call with arguments) for an
        unknown name, with the did_you_mean gem's suggestions (which JRuby's irb, and so
        HBase's shell, prints inside the message)."""
        from hsim.shell.ruby import FUNCTIONS

        matches = close_matches(name, [*COMMANDS, *FUNCTIONS, "exit", "quit", "help"])
        hint = "\nDid you mean?  " + "\n               ".join(matches) if matches else ""
        if vcall:
            return RubyError("NameError", f"undefined local variable or method `{name}' "
                                          f"for main:Object{hint}")
        return RubyError("NoMethodError", f"undefined method `{name}' for main:Object{hint}")

    # --- running statements ----------------------------------------------------------------------
    def execute(self, node) -> None:
        """Run one statement; IRB echoes its value unless nil (hirb.rb output_value)."""
        from hsim.shell import ruby

        try:
            result = ruby.evaluate(node, self)
        except ruby.StopSession:
            self.exited = True
            return
        except RubyError as e:
            self.failures += 1
            self.out.write(f"{e.ruby_class} ({e.message})\n")
            return
        except RecursionError:
            self.failures += 1
            self.out.write("SystemStackError (stack level too deep)\n")
            return
        except HsimError as e:  # a Java exception outside a command, as JRuby names it
            self.failures += 1
            self.out.write(f"{java_class(e.hbase_exception)} ({e.message})\n")
            return
        except Exception as e:  # never a Python traceback (but with --debug)
            self.failures += 1
            if self.debug:
                import traceback

                traceback.print_exc(file=self.out)
            self.out.write(f"RuntimeError ({type(e).__name__}: {e})\n")
            return
        self.last_value = result  # IRB's `_`
        if result is not None:
            self.out.write("=> " + parser.ruby_inspect(result) + "\n")

    def call_function(self, name: str, args: list, vcall: bool = False):
        """A call on the session: exit, help, puts/p/print, or a shell command."""
        from hsim.shell import ruby

        if name in ("exit", "quit"):
            raise ruby.StopSession()
        if name == "_" and vcall:
            return self.last_value
        if name == "help":
            from hsim.shell.help import print_help

            print_help(self, *args)
            return None
        func = ruby.FUNCTIONS.get(name)
        if func is not None:
            return func(self, *args)
        cmd = COMMANDS.get(name)
        if cmd is None:
            raise self._name_error(name, vcall)
        return self.run_command(cmd, args)

    def run_command(self, cmd, args: list):
        """Shell::Commands::Command#command_safe: run, print `ERROR: ...` and where to find
        the usage if it fails, then `Took ...`. Returns the command's value (nil on error)."""
        self.fmt = Formatter(self.out, self._width())
        start = self.timer()
        result = None
        try:
            cmd.check_arity(len(args))
            result = cmd.func(self, *args)
        except Exception as e:  # errors never end the session
            self.failures += 1
            if self.debug:
                import traceback

                traceback.print_exc(file=self.out)
            fmt = self.fmt
            fmt.line()
            fmt.line(f"ERROR: {self.error_message(e, args)}")
            fmt.line()
            fmt.line(usage_hint(cmd.name))
            fmt.line()
            result = None
        self.out.write(took(self.timer() - start) + "\n")
        return result

    def table_help(self, command=None):
        """Hbase::Table#help: a command's help, or what table references are."""
        from hsim.shell.help import TABLE_HELP

        if command is None:
            self.out.write(TABLE_HELP)
            return None
        cmd = COMMANDS.get(parser.to_text(ruby_to_s(command)))
        if cmd is None:
            self.out.write(f"Command '{parser.to_text(ruby_to_s(command))}' does not exist. "
                           "Please see general table help.\n")
            return None
        self.out.write(cmd.help + "\n")
        return None

    def error_message(self, e: Exception, args: list) -> str:
        """Shell::Commands::Command#translate_hbase_exceptions, then the root cause's message
        (a Java exception prints as `class: message`)."""
        first = parser.to_text(args[0]) if args else ""
        if isinstance(e, ShellArgumentError):
            return str(e)
        if isinstance(e, TableNotFoundError):
            return f"Unknown table {first}!"
        if isinstance(e, UnknownRegionError):
            return f"Unknown region {e.message or first}!"
        if isinstance(e, TableExistsError):
            return f"Table already exists: {first}!"
        if isinstance(e, NamespaceNotFoundError):
            return f"Unknown namespace {first.split(':')[0]}!"
        if isinstance(e, NoSuchColumnFamilyError):
            try:
                fams = self.admin.describe(first).families
                cols = ", ".join(f"{f.decode('utf-8', 'replace')}:*" for f in fams)
                return f"Unknown column family! Valid column names: {cols}"
            except HsimError:
                pass
        if isinstance(e, HsimError):
            return f"{e.hbase_exception}: {e.message}"
        return f"{type(e).__name__}: {e}"
