"""Namespace commands (hbase-shell shell/commands/list_namespace_tables.rb): the tables of a
namespace, with hbase:meta in the system namespace `hbase`."""

from __future__ import annotations

from hsim.shell.parser import to_text
from hsim.shell.registry import ShellArgumentError, command


@command("list_namespace_tables", "ddl", """
Lists the tables of a namespace (their names without the namespace); the `hbase` namespace
holds the system table hbase:meta.

  hbase> list_namespace_tables 'default'
  hbase> list_namespace_tables 'hbase'
""")
def list_namespace_tables(sh, namespace):
    from hsim.regions.meta import META_TABLE

    ns = to_text(namespace)
    names = sh.admin.list_tables() + [META_TABLE]
    spaces = {"default"} | {t.split(":", 1)[0] for t in names if ":" in t}
    if ns not in spaces:
        raise ShellArgumentError(f"Unknown namespace {ns}!")  # NamespaceNotFoundException
    tables = sorted(t.split(":", 1)[-1] for t in names
                    if (t.split(":", 1)[0] if ":" in t else "default") == ns)
    sh.fmt.header(["TABLE"])
    for t in tables:
        sh.fmt.row([t])
    sh.fmt.footer(len(tables))
    return tables
