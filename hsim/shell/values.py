"""Ruby values as the shell holds them: Python str (bytes as surrogates), int, float, bool,
None, list, dict and the shell's own objects (Hbase::Table); their class names, `inspect`,
`to_s` and operators, as Ruby has them, and the errors Ruby raises (printed as IRB prints
them: `NoMethodError (undefined method `x' for nil:NilClass)`)."""

from __future__ import annotations


class RubyError(Exception):
    """A Ruby exception: IRB prints `Class (message)` and the statement stops."""

    def __init__(self, ruby_class: str, message: str):
        super().__init__(message)
        self.ruby_class = ruby_class
        self.message = message


def ruby_class(v) -> str:
    if isinstance(v, bool):
        return "TrueClass" if v else "FalseClass"
    if v is None:
        return "NilClass"
    return {int: "Integer", float: "Float", str: "String", bytes: "String", list: "Array",
            dict: "Hash"}.get(type(v), getattr(v, "ruby_class", type(v).__name__))


def flatten(values: list) -> list:
    """Ruby's Array#flatten: nested lists (the shell's arrays) to one level."""
    out = []
    for x in values:
        out.extend(flatten(x) if isinstance(x, list) else [x])
    return out


def ruby_to_s(v) -> str:
    """Ruby's `to_s` (nil.to_s is "", an Array's or Hash's is its inspect)."""
    if v is None:
        return ""
    if v is True or v is False:
        return ruby_literal(v)
    if isinstance(v, (list, dict)):
        return ruby_inspect(v)
    if isinstance(v, float):
        return _float(v)
    return v if isinstance(v, str) else str(v)


def _float(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(v)




def arith(a, op, b):
    """Ruby's + - * / % on Integer, Float, String and Array, and its comparisons."""
    if op in ("==", "!="):
        same = a is b if isinstance(a, bool) or isinstance(b, bool) else a == b
        return same == (op == "==")
    if op in ("<", ">", "<=", ">="):
        return _compare(a, op, b)
    num = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    if num:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if isinstance(a, int) and isinstance(b, int):
            if b == 0:
                raise RubyError("ZeroDivisionError", "divided by 0")
            return a // b if op == "/" else a % b  # Ruby's integer division floors
        return a / b if op == "/" else a % b
    if isinstance(a, str) and op == "+":
        if isinstance(b, str):
            return a + b
        raise RubyError("TypeError", f"no implicit conversion of {ruby_class(b)} into String")
    if isinstance(a, list) and op == "+":
        if isinstance(b, list):
            return a + b
        raise RubyError("TypeError", f"no implicit conversion of {ruby_class(b)} into Array")
    if isinstance(a, (str, list)) and op == "*":
        if isinstance(b, int) and not isinstance(b, bool):
            return a * b
        raise RubyError("TypeError", f"no implicit conversion of {ruby_class(b)} into Integer")
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        raise RubyError("TypeError", f"{ruby_class(b)} can't be coerced into {ruby_class(a)}")
    raise RubyError("NoMethodError", f"undefined method `{op}' for {inspect_for_error(a)}")


def _compare(a, op, b) -> bool:
    num = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b))
    if not num and not (isinstance(a, str) and isinstance(b, str)):
        if not isinstance(a, (int, float, str)) or isinstance(a, bool):
            raise RubyError("NoMethodError", f"undefined method `{op}' for "
                                             f"{inspect_for_error(a)}")
        raise RubyError("ArgumentError", f"comparison of {ruby_class(a)} with "
                                         f"{ruby_inspect(b) if b is None else ruby_class(b)} "
                                         "failed")
    return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def inspect_for_error(v) -> str:
    """How a NoMethodError names its receiver: `nil:NilClass`, `"abc":String`,
    `Hbase::Table - t:Hbase::Table` (the inspect text when short, as Ruby does)."""
    text = ruby_inspect(v)
    if len(text) > 65:
        return f"#<{ruby_class(v)}>"
    return f"{text}:{ruby_class(v)}"


def ruby_literal(v: bool | None) -> str:
    """How Ruby writes true, false and nil."""
    return "nil" if v is None else ("true" if v else "false")


def ruby_inspect(v) -> str:
    """Ruby's `inspect`, which IRB uses to echo a command's return value (`=> ...`)."""
    if v is True or v is False or v is None:
        return ruby_literal(v)
    if isinstance(v, str):
        return '"' + _inspect_chars(v) + '"'
    if isinstance(v, bytes):
        return '"' + _inspect_chars(v.decode("utf-8", "surrogateescape")) + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(ruby_inspect(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{ruby_inspect(k)}=>{ruby_inspect(x)}" for k, x in v.items()) + "}"
    if isinstance(v, float):
        return _float(v)
    return str(v)


_INSPECT_ESC = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\x1b": "\\e", "\0": "\\u0000",
                '"': '\\"', "\\": "\\\\", "#": "#"}


def _inspect_chars(s: str) -> str:
    out = []
    for ch in s:
        o = ord(ch)
        if ch in _INSPECT_ESC:
            out.append(_INSPECT_ESC[ch])
        elif 0xDC80 <= o <= 0xDCFF:
            out.append(f"\\x{o - 0xDC00:02X}")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02X}")
        else:
            out.append(ch)
    return "".join(out)


