"""The comparators of the filter language (ByteArrayComparable and the four ParseFilter knows).

`compare_to(data)` follows ByteArrayComparable.compareTo: its sign is comparator value
versus `data`; the regex and substring comparators return 0 on a match and 1 otherwise,
which is why only EQUAL and NOT_EQUAL make sense with them.
"""

from __future__ import annotations

import re

import regex

from hsim.cell import to_bytes_arg
from hsim.errors import InvalidArgumentError
from hsim.filters import java_regex, regex_budget
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
    UTF-8, with DOTALL by default, as HBase's Java engine does. Java's syntax and defaults
    (nested classes, `&&`, ASCII `\\w`, ...) as hsim.filters.java_regex reads them, matched
    within the request's time budget (hsim.filters.regex_budget: a runaway pattern raises
    TimeoutIOError)."""

    type_name = "regexstring"

    def __init__(self, expr: str, flags: int = re.DOTALL, charset: str = "utf-8"):
        expr = expr.decode("utf-8") if isinstance(expr, (bytes, bytearray)) else str(expr)
        super().__init__(expr.encode("utf-8"))
        self.expr = expr
        self.charset = charset
        pattern, sets = java_regex.translate(expr)
        try:
            self._match = regex_budget.Matcher(pattern, flags, sets=sets)
        except (re.error, regex.error) as e:  # Java: PatternSyntaxException
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
