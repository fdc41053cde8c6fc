"""The comparators of the filter language (ByteArrayComparable and the four ParseFilter knows).

`compare_to(data)` follows ByteArrayComparable.compareTo: its sign is comparator value
versus `data`; the regex and substring comparators return 0 on a match and 1 otherwise,
which is why only EQUAL and NOT_EQUAL make sense with them.
"""

from __future__ import annotations

import re

from hsim.cell import to_bytes_arg
from hsim.errors import FilterParseError, InvalidArgumentError
from hsim.filters import regex_budget
from hsim.filters.compare_op import CompareOperator

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Callable


class ByteArrayComparable:
    """Base of the comparators: a value and compare_to."""

    type_name = ""  # the comparator's prefix in the filter language ("binary", ...)

    def __init__(self, value: bytes):
        self.value = value

    def compare_to(self, data: bytes) -> int:
        """compareTo: 0 when the cell's bytes match, negative or positive otherwise (as HBase's
        comparators)."""
        raise NotImplementedError

    def out_predicate(self, op: CompareOperator) -> Callable[[bytes], bool] | None:
        """A faster data -> filtered-out function for `op`, or None for the generic one."""
        return None

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.value == self.value

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.value))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r})"


class BinaryComparator(ByteArrayComparable):
    """Lexicographic unsigned-byte comparison (Bytes.compareTo), as Python's bytes order."""

    type_name = "binary"

    def __init__(self, value: bytes | str):
        super().__init__(to_bytes_arg(value))

    def compare_to(self, data: bytes) -> int:
        v = self.value
        return (v > data) - (v < data)

    def out_predicate(self, op: CompareOperator) -> Callable[[bytes], bool] | None:
        # "filtered out" is the negation of "data OP value", i.e. a bytes method of value.
        v = self.value
        return {
            CompareOperator.LESS: v.__le__,
            CompareOperator.LESS_OR_EQUAL: v.__lt__,
            CompareOperator.EQUAL: v.__ne__,
            CompareOperator.NOT_EQUAL: v.__eq__,
            CompareOperator.GREATER_OR_EQUAL: v.__gt__,
            CompareOperator.GREATER: v.__ge__,
        }.get(op)


class BinaryPrefixComparator(ByteArrayComparable):
    """Compares only the first len(value) bytes of the data (a shorter datum is compared
    whole, so it sorts before the prefix it starts)."""

    type_name = "binaryprefix"

    def __init__(self, value: bytes | str):
        super().__init__(to_bytes_arg(value))

    def compare_to(self, data: bytes) -> int:
        v = self.value
        d = data[: len(v)]
        return (v > d) - (v < d)


class RegexStringComparator(ByteArrayComparable):
    """A regular expression searched (Matcher.find, not matches) in the data decoded as
    UTF-8, with DOTALL by default, as HBase's Java engine does. Patterns are checked with
    Python's `re` and matched within the request's time budget (hsim.filters.regex_budget:
    a runaway pattern raises TimeoutIOError).

    The Java pattern is run by Python's `re` after translating the Java-only syntax HBase
    users meet most: named groups `(?<name>...)` and `\\k<name>`, `\\Q...\\E` quoting,
    `\\z`, `\\Z`, and the POSIX classes `\\p{Alpha}`, `\\p{Digit}`, `\\p{Alnum}`,
    `\\p{Lower}`, `\\p{Upper}`, `\\p{Punct}`, `\\p{Space}`, `\\p{XDigit}`, ... (and
    `\\P{...}` outside brackets), and inline flags `(?imsx-imsx)` anywhere (Java applies
    them to the rest of the enclosing group, written as a scoped `(?i:...)` group).
    Refused with FilterParseError: nested classes `[a[b]]`, class intersection `&&`, and
    the flags `d`, `u`, `U`, `c`. Read differently: Unicode categories and scripts
    (`\\p{L}`, `\\p{IsLatin}`) and Java's wider set of line terminators for `$`.
    """

    type_name = "regexstring"

    def __init__(self, expr: str, flags: int = re.DOTALL, charset: str = "utf-8"):
        expr = expr.decode("utf-8") if isinstance(expr, (bytes, bytearray)) else str(expr)
        super().__init__(expr.encode("utf-8"))
        self.expr = expr
        self.charset = charset
        try:
            self._match = regex_budget.Matcher(java_regex_to_python(expr), flags)
        except re.error as e:  # Java: PatternSyntaxException (an IllegalArgumentException)
            raise InvalidArgumentError(f"Invalid regular expression {expr!r}: {e}") from None

    def _found(self, data: bytes) -> bool:
        """Matcher.find over the decoded value, within the request's regex budget."""
        return self._match(data.decode(self.charset, "replace")) is not None

    def compare_to(self, data: bytes) -> int:
        return 0 if self._found(data) else 1

    def out_predicate(self, op: CompareOperator) -> Callable[[bytes], bool] | None:
        found = self._found
        if op is CompareOperator.EQUAL:
            return lambda data: not found(data)
        if op is CompareOperator.NOT_EQUAL:
            return found
        return None

    def __repr__(self) -> str:
        return f"RegexStringComparator({self.expr!r})"


class SubstringComparator(ByteArrayComparable):
    """Case-insensitive "contains" on the data decoded as UTF-8 (both sides lower-cased)."""

    type_name = "substring"

    def __init__(self, substr: str):
        substr = substr.decode("utf-8") if isinstance(substr, (bytes, bytearray)) else str(substr)
        self.substr = substr.lower()
        super().__init__(self.substr.encode("utf-8"))

    def compare_to(self, data: bytes) -> int:
        return 0 if self.substr in data.decode("utf-8", "replace").lower() else 1

    def out_predicate(self, op: CompareOperator) -> Callable[[bytes], bool] | None:
        substr = self.substr
        if op is CompareOperator.EQUAL:
            return lambda data: substr not in data.decode("utf-8", "replace").lower()
        if op is CompareOperator.NOT_EQUAL:
            return lambda data: substr in data.decode("utf-8", "replace").lower()
        return None

    def __repr__(self) -> str:
        return f"SubstringComparator({self.substr!r})"


# --- Java regex syntax that Python's re spells differently --------------------------------
_POSIX = {
    "Lower": "a-z",
    "Upper": "A-Z",
    "ASCII": "\\x00-\\x7F",
    "Alpha": "a-zA-Z",
    "Digit": "0-9",
    "Alnum": "a-zA-Z0-9",
    "Punct": "!-/:-@\\[-`{-~",
    "Graph": "!-~",
    "Print": " -~",
    "Blank": " \\t",
    "Cntrl": "\\x00-\\x1F\\x7F",
    "XDigit": "0-9a-fA-F",
    "Space": " \\t\\n\\x0B\\f\\r",
}


_INLINE_FLAGS = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)")


def java_regex_to_python(expr: str) -> str:
    """Rewrite the Java-only constructs listed on RegexStringComparator; leave the rest;
    refuse, with FilterParseError, what `re` cannot express the same way."""
    out = []
    i, n = 0, len(expr)
    in_class = False
    depth = 0  # open groups
    scoped: list[tuple[int, str]] = []  # inline flag groups opened: (depth, their opening)
    while i < n:
        ch = expr[i]
        if in_class and (ch == "[" or expr.startswith("&&", i)):
            what = "nested character classes" if ch == "[" else "class intersection &&"
            raise FilterParseError(f"Regular expression {expr!r}: {what} (Java-only syntax "
                                   "with no exact Python equivalent) is not supported")
        if not in_class:
            m = _INLINE_FLAGS.match(expr, i)
            if m:  # Java: flags from here to the end of the group (all its alternatives)
                on, off = m.group(1), m.group(2) or ""
                bad = set(on + off) - set("imsx")
                if bad:
                    raise FilterParseError(f"Regular expression {expr!r}: inline flag(s) "
                                           f"{''.join(sorted(bad))} have no Python equivalent")
                opening = "(?" + on + ("-" + off if off else "") + ":"
                out.append(opening)
                scoped.append((depth, opening))
                i = m.end()
                continue
            if ch == "(":
                depth += 1
            elif ch in ")|":
                reopen = [o for d, o in scoped if d == depth] if ch == "|" else []
                while scoped and scoped[-1][0] == depth:
                    out.append(")")
                    scoped.pop()
                if ch == ")":
                    depth -= 1
                else:
                    out.append("|")
                    out.extend(reopen)
                    scoped.extend((depth, o) for o in reopen)
                    i += 1
                    continue
        if ch == "\\" and i + 1 < n:
            nxt = expr[i + 1]
            if nxt == "Q":  # \Q...\E: a literal run
                end = expr.find("\\E", i + 2)
                lit = expr[i + 2 :] if end < 0 else expr[i + 2 : end]
                out.append(re.escape(lit))
                i = n if end < 0 else end + 2
                continue
            if nxt == "k" and expr.startswith("<", i + 2):  # \k<name>: named back-reference
                close = expr.find(">", i + 3)
                if close > 0:
                    out.append("(?P=" + expr[i + 3 : close] + ")")
                    i = close + 1
                    continue
            if nxt == "z":
                out.append("\\Z")
                i += 2
                continue
            if nxt == "Z":  # end of input but for a final line terminator
                out.append("(?=\\n?\\Z)")
                i += 2
                continue
            if nxt in "pP" and i + 2 < n and expr[i + 2] == "{":
                close = expr.find("}", i + 3)
                body = _POSIX.get(expr[i + 3 : close]) if close > 0 else None
                if body is not None and not (in_class and nxt == "P"):
                    if in_class:
                        out.append(body)
                    else:
                        out.append(("[^" if nxt == "P" else "[") + body + "]")
                    i = close + 1
                    continue
            out.append(expr[i : i + 2])
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            # a ']' or '^]' right after '[' is a literal, not the end of the class
            if i < n and expr[i] == "^":
                out.append("^")
                i += 1
            if i < n and expr[i] == "]":
                out.append("\\]")
                i += 1
            continue
        elif expr.startswith("(?<", i) and i + 3 < n and expr[i + 3] not in "=!":
            out.append("(?P<")
            i += 3
            continue
        out.append(ch)
        i += 1
    out.append(")" * len(scoped))
    return "".join(out)
