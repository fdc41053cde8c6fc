"""`help`, `help 'COMMAND'` and `help 'GROUP'`, laid out as HBase's shell lays out its help
(hbase-shell shell.rb help_header, help_group, help_command), in hsim's own words."""

from __future__ import annotations

from hsim.shell.parser import to_text
from hsim.shell.registry import COMMANDS, GROUPS, commands_in

# The groups' comments, as `help 'GROUP'` ends with them (shell.rb load_command_group).
GROUP_COMMENTS = {
    "tools": "WARNING: Above commands are for 'experts'-only as misuse can damage an install",
    "security": "NOTE: Above commands are only applicable if running with the AccessController "
                "coprocessor",
    "visibility labels": "NOTE: Above commands are only applicable if running with the "
                         "VisibilityController coprocessor",
}


def print_help(sh, topic=None, *_ignored) -> None:
    w = sh.out.write
    if topic is None:
        from hsim.shell.commands_tools import HBASE_VERSION

        w(f"HBase Shell on hsim, version {HBASE_VERSION}\n"
          "Type 'help \"COMMAND\"', (e.g. 'help \"get\"' -- the quotes are necessary) for help on "
          "a specific command.\n"
          "Commands are grouped. Type 'help \"COMMAND_GROUP\"', (e.g. 'help \"general\"') for "
          "help on a command group.\n\nCOMMAND GROUPS:\n")
        for group in GROUPS:
            w(f"  Group name: {group}\n  Commands: {', '.join(commands_in(group))}\n\n")
        w("SYNTAX:\nNames (tables, rows, columns) are quoted strings; commas separate a command's\n"
          "arguments. Options are Ruby hashes, {KEY => value, ...}, whose keys are constants\n"
          "such as NAME or VERSIONS (no quotes needed); a hash that ends the arguments may\n"
          "leave out its braces. Raw bytes go in double quotes with escapes: \"row\\x00\\x14\".\n"
          "Ruby's local variables, blocks and table references work as in HBase's shell:\n"
          "  t = get_table 't1'; t.put 'r1', 'f1:q', 'v'; t.scan; 'help \"table_help\"'.\n")
        return
    name = to_text(str(topic))
    if name in GROUPS:
        w(f"Command: {name} -- {GROUPS[name]}\n")
        for c in commands_in(name):
            w(f"\nCommand: {c}\n{COMMANDS[c].help}\n")
        if name in GROUP_COMMENTS:
            w("-" * 80 + f"\n\n{GROUP_COMMENTS[name]}\n\n")
        return
    cmd = COMMANDS.get(name)
    if cmd is None:
        w(f"ERROR: Invalid command or command group name: {name}\n")
        return
    w(cmd.help + "\n")


# Hbase::Table.help, in short: what `t.help` prints.
TABLE_HELP = """Help for table-reference commands.

A table reference is what `create` and `get_table` return; keep it in a variable and call
the table commands on it without the table's name:

  hbase> t = create 't', 'cf'
  hbase> t = get_table 't'
  hbase> t.put 'r', 'cf:q', 'v'
  hbase> t.scan
  hbase> t.get 'r'

Its methods: put, get, scan, delete, deleteall, incr, append, count, get_counter,
get_splits, get_all_columns, and the admin actions enable, disable, flush, drop, describe,
snapshot. `t.help 'scan'` prints a command's help. After `t.drop` the reference is stale.
"""


DOCS = "docs/shell.md"
BEGIN, END = "<!-- hsim:shell-commands -->", "<!-- /hsim:shell-commands -->"


def command_table() -> str:
    """docs/shell.md's command table, from the registry: every command by group, with what it
    does on hsim."""
    lines = ["| group | command | on hsim |", "| --- | --- | --- |"]
    for group in GROUPS:
        for name in commands_in(group):
            lines.append(f"| {group} | `{name}` | {COMMANDS[name].status} |")
    return "\n".join(lines)


def docs_with_table(text: str) -> str:
    """`text` (docs/shell.md) with its command table regenerated."""
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{command_table()}\n{END}{tail}"


if __name__ == "__main__":  # python -m hsim.shell.help: rewrite docs/shell.md's table
    import hsim.shell  # noqa: F401 - registers the commands

    with open(DOCS, encoding="utf-8") as f:
        old = f.read()
    with open(DOCS, "w", encoding="utf-8") as f:
        f.write(docs_with_table(old))
