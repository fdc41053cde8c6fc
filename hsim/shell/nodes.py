"""The parsed form of a shell statement that is more than a command with literal arguments:
local variables, method calls on values, and literals built from them.

The parser folds literals as it reads them (`60 * 60` is 3600, `[1, 'a']` a list), so a
command whose arguments are all literals stays a `Statement` of plain values; anything that
needs the session (a variable, a call's result) becomes one of these nodes, evaluated by the
shell when the statement runs (hsim.shell.ruby).
"""

from __future__ import annotations

from dataclasses import dataclass, field


class Node:
    """An expression whose value is known only when the statement runs."""


@dataclass
class Statement(Node):
    """A method call: `command arg, ...` on the session (receiver None), or
    `receiver.command arg, ...`. A name alone that is not a local variable is a call too
    (Ruby's vcall): `list`, or `t` before any `t = ...` (then a NameError when run)."""

    command: str
    args: list
    receiver: object = None
    vcall: bool = field(default=False, compare=False)  # a bare name: NameError if unknown
    block: object = None  # a Block: `{ |t| ... }` or `do |t| ... end`


@dataclass
class Var(Node):
    """A local variable read."""

    name: str


@dataclass
class Assign(Node):
    """`name = value`: defines the local variable, as Ruby does when it parses the line."""

    name: str
    value: object


@dataclass
class Literal(Node):
    """A plain value in receiver position (`'abc'.size`, `[1, 2].first`)."""

    value: object


@dataclass
class ArrayNode(Node):
    """A Ruby array literal `[a, b]`."""

    items: list


@dataclass
class HashNode(Node):
    """A Ruby hash literal `{K => v}`, its pairs in order."""

    pairs: list


@dataclass
class BinOp(Node):
    """`a op b` where a side is a node (or a literal fold Ruby would refuse at run time)."""

    op: str
    left: object
    right: object


@dataclass
class Index(Node):
    """`receiver[args]`."""

    receiver: object
    args: list


@dataclass
class Block(Node):
    """A block passed to a call: its parameters and its statements (the last one's value is
    the block's)."""

    params: list
    body: list


@dataclass
class Interpolation(Node):
    """A double-quoted string with `#{...}`: its parts, text and expressions."""

    parts: list


def has_nodes(values) -> bool:
    return any(isinstance(v, Node) for v in values)
