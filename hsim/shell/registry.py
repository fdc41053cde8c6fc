"""The shell's command table: each command is a function `f(shell, *args)` registered with its
group and help text, as HBase's shell registers Shell::Commands classes in groups."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable


class ShellArgumentError(Exception):
    """Ruby's ArgumentError raised by a shell command: printed as `ERROR: <message>`."""


# What a command does on hsim, as docs/shell.md's command table states it.
WORKS = "works"
SWITCH_ONLY = "works, not modelled (switch only)"
NOT_MODELLED = "not modelled"


@dataclass
class Command:
    """A shell command: its function, help group and text, and whether hsim runs it, runs it as
    a switch only or refuses it as not modelled (status)."""

    name: str
    func: Callable
    group: str
    help: str
    status: str = WORKS

    def check_arity(self, given: int) -> None:
        message = arity_error(self.func, given, skip=1)
        if message:
            raise ShellArgumentError(message)


def arity_error(func, given: int, skip: int) -> str | None:
    """Ruby's `wrong number of arguments (given 1, expected 2..3)` for calling `func` with
    `given` arguments after its first `skip` (the shell, the receiver); None when it fits."""
    params = list(inspect.signature(func).parameters.values())[skip:]
    positional = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.POSITIONAL_ONLY)
    required = sum(1 for p in params if p.default is p.empty and p.kind in positional)
    variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
    optional = sum(1 for p in params if p.default is not p.empty)
    if given >= required and (variadic or given <= required + optional):
        return None
    if variadic:
        expected = f"{required}+"
    elif optional:
        expected = f"{required}..{required + optional}"
    else:
        expected = str(required)
    return f"wrong number of arguments (given {given}, expected {expected})"


COMMANDS: dict[str, Command] = {}

# HBase 2.5's command groups (hbase-shell shell.rb load_command_group), in the order `help`
# lists them, with their full names; then hsim's own group.
GROUPS = {
    "general": "GENERAL HBASE SHELL COMMANDS",
    "ddl": "TABLES MANAGEMENT COMMANDS",
    "namespace": "NAMESPACE MANAGEMENT COMMANDS",
    "dml": "DATA MANIPULATION COMMANDS",
    "tools": "HBASE SURGERY TOOLS",
    "replication": "CLUSTER REPLICATION TOOLS",
    "snapshots": "CLUSTER SNAPSHOT TOOLS",
    "configuration": "ONLINE CONFIGURATION TOOLS",
    "quotas": "CLUSTER QUOTAS TOOLS",
    "security": "SECURITY TOOLS",
    "procedures": "PROCEDURES & LOCKS MANAGEMENT",
    "visibility labels": "VISIBILITY LABEL TOOLS",
    "rsgroup": "RSGroups",
    "hsim": "HSIM'S OWN: THE CLOCK, THE VIEWS INSIDE THE ENGINE, SERVER FAILURES",
}


def command(name: str, group: str, help: str, aliases: tuple = (), status: str = WORKS):
    def register(func):
        for n in (name, *aliases):
            COMMANDS[n] = Command(n, func, group, help.strip("\n"), status)
        return func

    return register


def commands_in(group: str) -> list[str]:
    return sorted(n for n, c in COMMANDS.items() if c.group == group)
