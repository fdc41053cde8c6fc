"""A table reference, the Hbase::Table object of HBase's shell (hbase-shell hbase/table.rb)."""

from __future__ import annotations

from hsim.shell.registry import COMMANDS
from hsim.shell.values import RubyError


class TableRef:
    """A table reference, what `create` and `get_table` return (hbase-shell hbase/table.rb);
    IRB echoes it as `Hbase::Table - t1`. Its methods are the shell's table commands with the
    table's name put first (`t.put 'r', 'f:q', 'v'` is `put 't', 'r', 'f:q', 'v'`)."""

    ruby_class = "Hbase::Table"
    # Hbase::Table.add_shell_command (the dml commands) and add_admin_utils
    COMMANDS = ("put", "get", "scan", "delete", "deleteall", "incr", "append", "count",
                "get_counter", "get_splits", "enable", "disable", "flush", "drop", "describe",
                "snapshot")

    def __init__(self, name: str):
        self.name = name

    def __str__(self) -> str:
        return f"Hbase::Table - {self.name}"

    def __eq__(self, other) -> bool:
        return isinstance(other, TableRef) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def call(self, sh, method: str, args: list):
        from hsim.shell import ruby

        if method in self.COMMANDS:
            return sh.run_command(COMMANDS[method], [self.name, *args])
        if method == "help":
            if len(args) > 1:
                raise RubyError("ArgumentError",
                                f"wrong number of arguments (given {len(args)}, expected 0..1)")
            return sh.table_help(*args)
        plain = {"name": lambda: self.name, "to_s": lambda: str(self),
                 "inspect": lambda: str(self), "close": lambda: None,
                 "is_meta_table?": lambda: self.name == "hbase:meta",
                 "get_all_columns": lambda: self.columns(sh),
                 "nil?": lambda: False, "class": lambda: ruby.RubyClassRef(self.ruby_class)}
        func = plain.get(method)
        if func is None:
            raise ruby.no_method(method, self)
        if args:
            raise RubyError("ArgumentError",
                            f"wrong number of arguments (given {len(args)}, expected 0)")
        return func()

    def columns(self, sh) -> list[str]:
        """Hbase::Table#get_all_columns: `family:` for each family."""
        desc = sh.admin.describe(self.name)
        return [f.decode("utf-8", "surrogateescape") + ":" for f in desc.families]
