"""disable_all, enable_all, drop_all: a command on every table a regex matches, after asking
y/n (hbase-shell shell/commands/disable_all.rb and friends). The answer is the next line of
input: typed on a terminal, or the script's next line, as `gets` reads it in HBase's shell."""

from __future__ import annotations

import re

from hsim.shell.parser import to_text
from hsim.shell.registry import ShellArgumentError, command
from hsim.shell.values import ruby_to_s


def _on_all(sh, regex, verb: str, past: str, action) -> None:
    if not isinstance(regex, str):  # Pattern.compile(String) from JRuby
        from hsim.shell.commands_regions import _java

        raise ShellArgumentError(f"cannot convert instance of class org.jruby.{_java(regex)} "
                                 "to class java.lang.String")
    pattern = re.compile(to_text(regex))
    tables = [t for t in sh.admin.list_tables() if pattern.fullmatch(t)]
    for t in tables:
        sh.fmt.row([t])
    if not tables:
        sh.fmt.line(f"No tables matched the regex {to_text(ruby_to_s(regex))}")
        return
    sh.fmt.line(f"\n{verb} the above {len(tables)} tables (y/n)?")
    answer = sh.gets() or "n"
    if not re.match(r"y", answer.strip(), re.IGNORECASE):
        return
    failed = []
    for t in tables:  # Admin#disable_all: each table alone; the failures are listed
        try:
            action(t)
        except Exception:
            failed.append(t)
    sh.fmt.line(f"{len(tables) - len(failed)} tables successfully {past}")
    if failed:
        sh.fmt.line(f"{len(failed)} tables not {past} due to an exception: {','.join(failed)}")


@command("disable_all", "ddl", """
Disables every table matching a regular expression, after listing them and asking y/n (the
answer is the next line of input).

  hbase> disable_all 't.*'
  hbase> disable_all 'ns:.*'
""")
def disable_all(sh, regex):
    _on_all(sh, regex, "Disable", "disabled", sh.admin.disable_table)


@command("enable_all", "ddl", """
Enables every table matching a regular expression, after listing them and asking y/n.

  hbase> enable_all 't.*'
""")
def enable_all(sh, regex):
    _on_all(sh, regex, "Enable", "enabled", sh.admin.enable_table)


@command("drop_all", "ddl", """
Drops every table matching a regular expression (they must be disabled), after listing them
and asking y/n.

  hbase> drop_all 't.*'
""")
def drop_all(sh, regex):
    _on_all(sh, regex, "Drop", "dropped", sh.admin.delete_table)
