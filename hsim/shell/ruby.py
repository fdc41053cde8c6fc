"""Running a parsed statement: local variables, calls on the session (the shell's commands,
`puts`, `p`, `print`), methods on values (Array#size, String#length, Hash#keys, ...) and on
table references (hbase-shell hbase/table.rb: `t.put`, `t.scan`, `t.count`, `t.describe`)."""

from __future__ import annotations

from hsim.shell import nodes
from hsim.shell.registry import arity_error
from hsim.shell.values import (RubyError, arith, flatten, inspect_for_error, ruby_class,
                               ruby_inspect, ruby_to_s)


class StopSession(Exception):
    """`exit` / `quit`: the rest of the script does not run."""


class RubyClassRef:
    """What `x.class` returns; IRB echoes it as its name (`=> Array`)."""

    ruby_class = "Class"

    def __init__(self, name: str):
        self.name = name

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other) -> bool:
        return isinstance(other, RubyClassRef) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def evaluate(node, sh):
    """The value of a node (a plain value is its own value)."""
    if not isinstance(node, nodes.Node):
        return node
    if isinstance(node, nodes.Literal):
        return node.value
    if isinstance(node, nodes.Var):
        return sh.locals.get(node.name)  # read before assigned: nil, as in Ruby
    if isinstance(node, nodes.Assign):
        value = evaluate(node.value, sh)
        sh.locals[node.name] = value
        return value
    if isinstance(node, nodes.ArrayNode):
        return [evaluate(x, sh) for x in node.items]
    if isinstance(node, nodes.HashNode):
        return {evaluate(k, sh): evaluate(v, sh) for k, v in node.pairs}
    if isinstance(node, nodes.BinOp):
        if node.op == "-@":
            right = evaluate(node.right, sh)
            if isinstance(right, (int, float)) and not isinstance(right, bool):
                return -right
            raise no_method("-@", right)
        left = evaluate(node.left, sh)  # Ruby evaluates left to right
        return arith(left, node.op, evaluate(node.right, sh))
    if isinstance(node, nodes.Interpolation):
        return "".join(ruby_to_s(evaluate(p, sh)) for p in node.parts)
    if isinstance(node, nodes.Index):
        receiver = evaluate(node.receiver, sh)
        return call_method(sh, receiver, "[]", [evaluate(a, sh) for a in node.args])
    if isinstance(node, nodes.Statement):
        if node.receiver is None:
            return sh.call_function(node.command, [evaluate(a, sh) for a in node.args],
                                    node.vcall)  # a command ignores a block, as in Ruby
        receiver = evaluate(node.receiver, sh)
        args = [evaluate(a, sh) for a in node.args]
        if node.block is not None:
            method = _block_method(receiver, node.command)
            if method is not None:
                _check_arity(method, args, skip=3)
                return method(sh, receiver, node.block, *args)
        return call_method(sh, receiver, node.command, args)
    raise TypeError(f"not a shell node: {node!r}")


def no_method(name: str, receiver) -> RubyError:
    return RubyError("NoMethodError", f"undefined method `{name}' for "
                                      f"{inspect_for_error(receiver)}")


# --- the session's own functions (Kernel#puts, #p, #print) ------------------------------------
def puts(sh, *values):
    """Kernel#puts: each value on its line (an Array's items each on theirs), nil as a blank."""
    if not values:
        sh.out.write("\n")
    for v in values:
        if isinstance(v, list):
            if not v:
                sh.out.write("\n")
            puts(sh, *v)
            continue
        text = ruby_to_s(v)
        sh.out.write(_printable(text) + ("" if text.endswith("\n") else "\n"))


def p(sh, *values):
    """Kernel#p: each value's inspect on its line; returns the value (or the values)."""
    for v in values:
        sh.out.write(ruby_inspect(v) + "\n")
    if not values:
        return None
    return values[0] if len(values) == 1 else list(values)


def print_(sh, *values):
    """Kernel#print: the values' to_s, no newline."""
    sh.out.write("".join(_printable(ruby_to_s(v)) for v in values))


def _printable(text: str) -> str:
    from hsim.shell.parser import to_text

    return to_text(text)


FUNCTIONS = {"puts": puts, "p": p, "print": print_}


# --- blocks ------------------------------------------------------------------------------------
def call_block(sh, block, *args):
    """Run a block with its parameters bound (`|k, v|` takes a pair apart, as Ruby does); the
    parameters are local to it. Returns the last statement's value."""
    params = block.params
    if len(params) > 1 and len(args) == 1 and isinstance(args[0], list):
        args = tuple(args[0])
    saved = {p: sh.locals[p] for p in params if p in sh.locals}
    for i, name in enumerate(params):
        sh.locals[name] = args[i] if i < len(args) else None
    try:
        result = None
        for st in block.body:
            result = evaluate(st, sh)
        return result
    finally:
        for name in params:
            sh.locals.pop(name, None)
        sh.locals.update(saved)


def truthy(v) -> bool:
    """Ruby: everything but nil and false is true."""
    return v is not None and v is not False


def _each(sh, v, block):
    for x in list(v):
        call_block(sh, block, x)
    return v


def _pairs(v) -> list:
    return [[k, x] for k, x in v.items()] if isinstance(v, dict) else list(v)


_LIST_BLOCKS = {
    "each": _each,
    "map": lambda sh, v, b: [call_block(sh, b, x) for x in _pairs(v)],
    "collect": lambda sh, v, b: [call_block(sh, b, x) for x in _pairs(v)],
    "select": lambda sh, v, b: [x for x in v if truthy(call_block(sh, b, x))],
    "filter": lambda sh, v, b: [x for x in v if truthy(call_block(sh, b, x))],
    "reject": lambda sh, v, b: [x for x in v if not truthy(call_block(sh, b, x))],
    "each_with_index": lambda sh, v, b: [call_block(sh, b, x, i) for i, x in enumerate(v)]
    and v,
    "find": lambda sh, v, b: next((x for x in v if truthy(call_block(sh, b, x))), None),
    "detect": lambda sh, v, b: next((x for x in v if truthy(call_block(sh, b, x))), None),
    "any?": lambda sh, v, b: any(truthy(call_block(sh, b, x)) for x in v),
    "all?": lambda sh, v, b: all(truthy(call_block(sh, b, x)) for x in v),
    "count": lambda sh, v, b: sum(1 for x in v if truthy(call_block(sh, b, x))),
}
_HASH_BLOCKS = {
    "each": lambda sh, v, b: [call_block(sh, b, k, x) for k, x in list(v.items())] and v,
    "each_pair": lambda sh, v, b: [call_block(sh, b, k, x) for k, x in list(v.items())] and v,
    "map": _LIST_BLOCKS["map"], "collect": _LIST_BLOCKS["map"],
    "select": lambda sh, v, b: {k: x for k, x in v.items() if truthy(call_block(sh, b, k, x))},
    "reject": lambda sh, v, b: {k: x for k, x in v.items()
                                if not truthy(call_block(sh, b, k, x))},
}


def _times(sh, n, block):
    for i in range(n):
        call_block(sh, block, i)
    return n


def _block_method(receiver, name: str):
    """The Ruby method taking a block for this receiver, or None."""
    if isinstance(receiver, list):
        return _LIST_BLOCKS.get(name)
    if isinstance(receiver, dict):
        return _HASH_BLOCKS.get(name)
    if isinstance(receiver, int) and not isinstance(receiver, bool) and name == "times":
        return _times
    return None


# --- methods on values ------------------------------------------------------------------------
def _index(v, i, n=None):
    """Array#[] / String#[]: an index (negative from the end) or a start and a length."""
    if isinstance(v, dict):
        if n is not None:
            raise RubyError("ArgumentError", "wrong number of arguments (given 2, expected 1)")
        return v.get(i)
    if not isinstance(i, int) or isinstance(i, bool):
        raise RubyError("TypeError", f"no implicit conversion of {ruby_class(i)} into Integer")
    size = len(v)
    start = i + size if i < 0 else i
    if n is None:
        return v[start] if 0 <= start < size else None
    if start < 0 or start > size or n < 0:
        return None
    return v[start:start + n]


def _join(v, sep=""):
    return sep.join(ruby_to_s(x) if not isinstance(x, list) else _join(x, sep) for x in v)


def _compare_all(v, pick):
    try:
        return pick(v) if v else None
    except TypeError:
        raise RubyError("ArgumentError", "comparison of elements failed") from None


def _sorted(v):
    try:
        return sorted(v)
    except TypeError:
        raise RubyError("ArgumentError", "comparison of elements failed") from None


def _to_i(s: str) -> int:
    """String#to_i: the leading integer, 0 if none."""
    import re

    m = re.match(r"\s*([+-]?\d[\d_]*)", s)
    return int(m.group(1).replace("_", "")) if m else 0


def _to_f(s: str) -> float:
    import re

    m = re.match(r"\s*([+-]?\d+(\.\d+)?([eE][+-]?\d+)?)", s)
    return float(m.group(1)) if m else 0.0


def _split(s: str, sep=None):
    return s.split() if sep is None or sep == " " else s.split(sep)


_COMMON = {
    "nil?": lambda v: v is None,
    "class": lambda v: RubyClassRef(ruby_class(v)),
    "inspect": lambda v: ruby_inspect(v),
    "to_s": lambda v: ruby_to_s(v),
    "is_a?": lambda v, c: _is_a(v, c),
    "kind_of?": lambda v, c: _is_a(v, c),
    "frozen?": lambda v: False,
}
_SIZED = {
    "size": lambda v: len(v), "length": lambda v: len(v), "empty?": lambda v: not v,
}
_ARRAY = {
    **_SIZED,
    "count": lambda v: len(v), "first": lambda v: v[0] if v else None,
    "last": lambda v: v[-1] if v else None,
    "include?": lambda v, x: x in v, "sort": _sorted, "reverse": lambda v: v[::-1],
    "uniq": lambda v: [x for i, x in enumerate(v) if x not in v[:i]],
    "flatten": flatten, "compact": lambda v: [x for x in v if x is not None],
    "join": _join, "to_a": lambda v: list(v), "min": lambda v: _compare_all(v, min),
    "max": lambda v: _compare_all(v, max), "[]": _index,
}
_STRING = {
    **_SIZED,
    "to_i": _to_i, "to_f": _to_f, "to_sym": lambda v: v, "to_str": lambda v: v,
    "upcase": lambda v: v.upper(), "downcase": lambda v: v.lower(),
    "reverse": lambda v: v[::-1], "strip": lambda v: v.strip(),
    "include?": lambda v, x: _str_arg(x) in v,
    "start_with?": lambda v, x: v.startswith(_str_arg(x)),
    "end_with?": lambda v, x: v.endswith(_str_arg(x)), "split": _split, "[]": _index,
}
_HASH = {
    **_SIZED,
    "keys": lambda v: list(v), "values": lambda v: list(v.values()),
    "key?": lambda v, k: k in v, "has_key?": lambda v, k: k in v,
    "include?": lambda v, k: k in v, "to_a": lambda v: [[k, x] for k, x in v.items()],
    "[]": _index,
}
_NUMBER = {
    "to_i": lambda v: int(v), "to_f": lambda v: float(v), "abs": lambda v: abs(v),
    "zero?": lambda v: v == 0,
}


def _str_arg(x) -> str:
    if not isinstance(x, str):
        raise RubyError("TypeError", f"no implicit conversion of {ruby_class(x)} into String")
    return x


def _is_a(v, cls) -> bool:
    """`x.is_a?(Array)`: the shell reads a constant as its name, so the class is its name."""
    name = cls.name if isinstance(cls, RubyClassRef) else ruby_to_s(cls)
    ancestors = {"Integer": ("Integer", "Numeric"), "Float": ("Float", "Numeric")}
    return name in ancestors.get(ruby_class(v), (ruby_class(v),)) or name in ("Object",
                                                                            "BasicObject")


def _methods_of(v) -> dict:
    if isinstance(v, list):
        return _ARRAY
    if isinstance(v, str):
        return _STRING
    if isinstance(v, dict):
        return _HASH
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return _NUMBER
    return {}


def call_method(sh, receiver, name: str, args: list):
    """`receiver.name(*args)`: a table reference's commands, or a Ruby method of the value."""
    from hsim.shell.shell import TableRef

    if isinstance(receiver, TableRef):
        return receiver.call(sh, name, args)
    func = _methods_of(receiver).get(name) or _COMMON.get(name)
    if func is None:
        raise no_method(name, receiver)
    _check_arity(func, args, skip=1)
    try:
        return func(receiver, *args)
    except (TypeError, ValueError, AttributeError) as e:  # e.g. 'abc'.split(1)
        raise RubyError("TypeError", f"{name}: {e}") from None


def _check_arity(func, args: list, skip: int) -> None:
    message = arity_error(func, len(args), skip=skip)
    if message:
        raise RubyError("ArgumentError", message)
