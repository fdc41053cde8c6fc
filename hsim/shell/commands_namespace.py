"""The namespace group (hbase-shell shell/commands/*_namespace*.rb over Admin's namespaces):
create, drop, describe and list namespaces and their tables. `default` holds the tables named
without a namespace, `hbase` the system table hbase:meta."""

from __future__ import annotations

import re

from hsim.shell.args import ruby_class
from hsim.shell.parser import to_text
from hsim.shell.registry import ShellArgumentError, command
from hsim.shell.values import ruby_inspect


def _namespace(v) -> str:
    if not isinstance(v, str):
        raise ShellArgumentError(f"no implicit conversion of {ruby_class(v)} into String")
    return to_text(v)


@command("create_namespace", "namespace", """
Creates a namespace. HBase takes namespace properties in a hash; hsim does not model them.

  hbase> create_namespace 'ns1'
""")
def create_namespace(sh, namespace, *args):
    ns = _namespace(namespace)
    if args:
        raise ShellArgumentError("hsim does not model namespace properties: "
                                 + ruby_inspect(args[0]))
    sh.admin.create_namespace(ns)


@command("drop_namespace", "namespace", """
Drops a namespace; it must be empty. `default` and `hbase` cannot be dropped.

  hbase> drop_namespace 'ns1'
""")
def drop_namespace(sh, namespace):
    sh.admin.drop_namespace(_namespace(namespace))


@command("describe_namespace", "namespace", """
Describes a namespace (NamespaceDescriptor: its name).

  hbase> describe_namespace 'ns1'
""")
def describe_namespace(sh, namespace):
    from hsim.errors import NamespaceNotFoundError

    ns = _namespace(namespace)
    if ns not in sh.admin.list_namespaces():
        raise NamespaceNotFoundError(ns)
    sh.fmt.header(["DESCRIPTION"])
    sh.fmt.row([f"{{NAME => '{ns}'}}"])
    sh.fmt.line("Quota is disabled")


@command("list_namespace", "namespace", """
Lists the namespaces; an optional regular expression filters them.

  hbase> list_namespace
  hbase> list_namespace 'abc.*'
""")
def list_namespace(sh, regex=".*"):
    pattern = re.compile(to_text(_namespace(regex)))
    sh.fmt.column("NAMESPACE", [n for n in sh.admin.list_namespaces() if pattern.fullmatch(n)])
    # HBase's list_namespace returns its footer's nil: nothing is echoed (unlike `list`)


@command("list_namespace_tables", "namespace", """
Lists the tables of a namespace (their names without the namespace); the `hbase` namespace
holds the system table hbase:meta.

  hbase> list_namespace_tables 'ns1'
  hbase> list_namespace_tables 'default'
""")
def list_namespace_tables(sh, namespace):
    from hsim.errors import NamespaceNotFoundError
    from hsim.client.catalog import META_TABLE

    ns = _namespace(namespace)
    if ns not in sh.admin.list_namespaces():
        raise NamespaceNotFoundError(ns)
    names = sh.admin.list_tables() + [META_TABLE]
    return sh.fmt.column("TABLE", sorted(t.split(":", 1)[-1] for t in names
                                         if (t.split(":", 1)[0] if ":" in t else "default")
                                         == ns))
