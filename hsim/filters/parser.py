"""The filter language: `parse_filter("PrefixFilter('r') AND KeyOnlyFilter()")`.

This follows ParseFilter's algorithm step by step, so hsim accepts exactly the strings HBase
accepts and builds the same filter tree:
  * a simple filter is `Name(args)`; the name ends at '(' or a space; arguments are
    single-quoted byte strings ('' is a quote), or bare words (ints, true/false,
    operators) ended by a space, ',' or ')';
  * AND, OR, SKIP, WHILE are keywords only with a space or parenthesis around them
    (AND/OR need one before and after; SKIP/WHILE may also start the string);
  * precedence SKIP = WHILE > AND > OR, all grouping left to right, a run of the same
    binary operator making one flat FilterList; parentheses group.

Two quirks of HBase's parser are kept on purpose (a string hsim accepts must work on HBase):
  * an unclosed '(' is accepted ("(PrefixFilter('a')" parses);
  * inside parentheses, a closing ')' reduces only the operators of the top precedence
    level and discards the next one, so "(A OR B AND C)" or "(A AND SKIP B)" fail with
    "Mismatched parenthesis" while the same without parentheses parses.

Two limits are hsim's own (docs/limits.md): a filter string of at most MAX_FILTER_LENGTH bytes
and a filter tree at most MAX_FILTER_DEPTH deep (`SKIP` x 1000 would overflow Python's stack
where Java's takes it).

Errors are FilterParseError (IllegalArgumentException): HBase's message, the position
(a byte offset into the UTF-8 string) and, where HBase is terse, what was expected.
"""

from __future__ import annotations

from hsim.cell import utf8
from hsim.errors import FilterParseError, InvalidArgumentError
from hsim.filters.base import Filter
from hsim.filters.column_filters import (
    ColumnCountGetFilter,
    ColumnPaginationFilter,
    ColumnPrefixFilter,
    ColumnRangeFilter,
    MultipleColumnPrefixFilter,
    TimestampsFilter,
)
from hsim.filters.compare_filters import (
    DependentColumnFilter,
    FamilyFilter,
    QualifierFilter,
    RowFilter,
    ValueFilter,
)
from hsim.filters.compare_op import CompareOperator
from hsim.filters.comparators import (
    BinaryComparator,
    BinaryPrefixComparator,
    RegexStringComparator,
    SubstringComparator,
)
from hsim.filters.filter_list import FilterList
from hsim.filters.row_filters import (
    FirstKeyOnlyFilter,
    InclusiveStopFilter,
    KeyOnlyFilter,
    PageFilter,
    PrefixFilter,
)
from hsim.filters.value_filters import (
    ColumnValueFilter,
    SingleColumnValueExcludeFilter,
    SingleColumnValueFilter,
)
from hsim.filters.wrappers import SkipFilter, WhileMatchFilter

_LPAREN, _RPAREN, _QUOTE, _SPACE, _TAB, _COMMA = 0x28, 0x29, 0x27, 0x20, 0x09, 0x2C
_PRECEDENCE = {"SKIP": 1, "WHILE": 1, "AND": 2, "OR": 3}
_LONG_MAX = (1 << 63) - 1
_MISMATCHED = "Mismatched parenthesis: ')' without a matching '('"
_MISMATCHED_GROUP = (
    "Mismatched parenthesis: HBase's parser reduces only one precedence level of the group "
    "this ')' closes (e.g. '(A OR B AND C)' or '(A AND SKIP B)'); add parentheses around "
    "the tighter-binding part"
)
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
#: The longest filter string parsed (bytes, UTF-8), and the deepest filter tree built (a simple
#: filter is 1 deep; each FilterList, SKIP or WHILE around it adds one). Both are hsim's limits:
#: HBase bounds a filter string only by the request size, and Java's stack takes deeper trees.
MAX_FILTER_LENGTH = 1 << 20
MAX_FILTER_DEPTH = 100


class _ArgError(Exception):
    """A bad argument inside a simple filter; becomes a FilterParseError with position."""


def parse_filter(filter_string: str | bytes) -> Filter:
    """Parse a filter string as ParseFilter.parseFilterString does; FilterParseError if bad."""
    buf = utf8(filter_string, "filter") if isinstance(filter_string, str) else bytes(filter_string)
    n = len(buf)
    if n > MAX_FILTER_LENGTH:
        raise FilterParseError(f"Filter string of {n} bytes is longer than {MAX_FILTER_LENGTH} "
                               "bytes (an hsim limit)")
    ops: list[tuple[str, int]] = []  # operators and '(' with their positions
    stack: list[tuple[object, int, int]] = []  # filters: where they start, how deep
    i = 0
    while i < n:
        ch = buf[i]
        if ch == _LPAREN:
            ops.append(("(", i))
        elif ch == _SPACE or ch == _TAB:
            pass
        elif (keyword := _keyword_at(buf, i)) is not None:
            _reduce(ops, stack, keyword)
            ops.append((keyword, i))
            i += len(keyword) - 1
        elif ch == _RPAREN:
            if not ops:
                raise _error(_MISMATCHED, i)
            if ops[-1][0] == "(":
                ops.pop()
            else:
                had_open = any(op == "(" for op, _ in ops)
                top = ops[-1][0]
                while top != "(":
                    # (HBase dies on an empty stack here; it is the same mismatch)
                    if ops:
                        stack.append(_pop_arguments(ops, stack))
                    if not ops:
                        raise _error(_MISMATCHED_GROUP if had_open else _MISMATCHED, i)
                    top = ops.pop()[0]
        else:
            expr = _extract_simple_expression(buf, i)
            stack.append((_parse_simple_expression(expr, i), i, 1))
            i += len(expr) - 1
        i += 1
    while ops:
        stack.append(_pop_arguments(ops, stack))
    if not stack:
        raise _error("Incorrect Filter String: no filter", 0)
    filt = stack.pop()[0]
    if stack:
        raise _error("Incorrect Filter String: two filters with no AND/OR between them",
                     stack[-1][1])
    return filt


def supported_filters() -> list[str]:
    """ParseFilter.getSupportedFilters: the names the language knows."""
    return sorted(_FILTERS)


# --- the operator-precedence machinery (ParseFilter.reduce / popArguments) -------------------
def _keyword_at(buf: bytes, i: int) -> str | None:
    """The operator starting at `i` (ParseFilter.checkForOr/And/Skip/While, in that order)."""
    for word, is_keyword in _KEYWORDS:
        if is_keyword(buf, i, word):
            return word.decode()
    return None


def _binary_keyword(buf: bytes, i: int, word: bytes) -> bool:
    end = i + len(word)
    return (
        i > 0
        and end < len(buf)
        and buf.startswith(word, i)
        and buf[i - 1] in (_SPACE, _RPAREN)
        and buf[end] in (_SPACE, _LPAREN)
    )


def _unary_keyword(buf: bytes, i: int, word: bytes) -> bool:
    end = i + len(word)
    return (
        end < len(buf)
        and buf.startswith(word, i)
        and (i == 0 or buf[i - 1] in (_SPACE, _RPAREN, _LPAREN))
        and buf[end] in (_SPACE, _LPAREN)
    )


_KEYWORDS = ((b"OR", _binary_keyword), (b"AND", _binary_keyword), (b"SKIP", _unary_keyword),
             (b"WHILE", _unary_keyword))


def _reduce(ops, stack, op: str) -> None:
    """Apply the pending operators that bind tighter than `op`."""
    prec = _PRECEDENCE[op]
    while ops and ops[-1][0] != "(" and _PRECEDENCE[ops[-1][0]] < prec:
        stack.append(_pop_arguments(ops, stack))


def _pop_arguments(ops, stack):
    """Apply the operator on top of `ops` to the filters it takes from `stack`; returns the
    new stack entry (filter, position, nesting depth)."""
    op, pos = ops[-1]
    if op in ("AND", "OR"):
        taken = []  # the operands, last first (appended, then reversed: linear in their count)
        while ops and ops[-1][0] == op:
            if not stack:
                raise _error(f"Incorrect input string - an {op} needs two filters", ops[-1][1])
            taken.append(stack.pop())
            pos = ops.pop()[1]
        if not stack:
            raise _error(f"Incorrect input string - an {op} needs two filters", pos)
        taken.append(stack.pop())
        taken.reverse()
        depth = _deeper(max(d for _, _, d in taken), taken[0][1])
        operator = FilterList.MUST_PASS_ALL if op == "AND" else FilterList.MUST_PASS_ONE
        return FilterList(operator, [f for f, _, _ in taken]), taken[0][1], depth
    if op in ("SKIP", "WHILE"):
        if not stack:
            raise _error(f"Incorrect input string - a {op} wraps a filter", pos)
        wrapped, _, depth = stack.pop()
        ops.pop()
        wrapper = SkipFilter(wrapped) if op == "SKIP" else WhileMatchFilter(wrapped)
        return wrapper, pos, _deeper(depth, pos)
    # '(' left open at the end of the string: HBase takes the filter inside as it is.
    if not stack:
        raise _error("Incorrect Filter String: '(' with no filter after it", pos)
    ops.pop()
    return stack.pop()


def _deeper(depth: int, pos: int) -> int:
    """One more level of FilterList / SKIP / WHILE around filters `depth` deep."""
    if depth >= MAX_FILTER_DEPTH:
        raise _error(f"Filter nested more than {MAX_FILTER_DEPTH} levels deep (an hsim limit: "
                     "filters are evaluated recursively)", pos)
    return depth + 1


# --- one simple filter expression -----------------------------------------------------------
def _extract_simple_expression(buf: bytes, start: int) -> bytes:
    """From `start` to the first ')' outside quotes (ParseFilter.extractFilterSimpleExpression)."""
    quotes = 0
    last_quote = -1
    i, n = start, len(buf)
    while i < n:
        if buf[i] == _QUOTE:
            if i == n - 1 or buf[i + 1] != _QUOTE:
                quotes += 1
                last_quote = i
            else:
                i += 1  # '' inside a string: an escaped quote
        if buf[i] == _RPAREN and quotes % 2 == 0:
            return buf[start : i + 1]
        i += 1
    if quotes % 2:
        raise _error("Incorrect Filter String: unterminated quote", last_quote)
    raise _error("Incorrect Filter String: no ')' ends this filter", start)


def _parse_simple_expression(expr: bytes, pos: int):
    end = len(expr)
    for i, ch in enumerate(expr):
        if ch == _LPAREN or ch == _SPACE:
            end = i
            break
    if end == 0 or end == len(expr):
        raise _error("Incorrect Filter Name", pos)
    name = expr[:end].decode("utf-8", "replace")
    args = _filter_arguments(expr, pos)
    create = _FILTERS.get(name)
    if create is None:
        raise _error(f"Filter Name {name} not supported", pos)
    try:
        return create(args)
    except _ArgError as e:
        raise _error(f"{e} (in {name})", pos) from None
    except InvalidArgumentError as e:
        raise _error(f"{e.message} (in {name})", pos) from None


def _filter_arguments(expr: bytes, pos: int) -> list[bytes]:
    """ParseFilter.getFilterArguments. Quoted arguments keep their quotes (unescaped inside);
    the filter's own converter strips them, so a quoted number is not a number."""
    start = expr.find(b"(")
    if start < 0:
        raise _error("Incorrect argument list", pos)
    args: list[bytes] = []
    n = len(expr)
    i = start + 1
    while i < n:
        ch = expr[i]
        if ch in (_SPACE, _COMMA, _RPAREN):
            i += 1
            continue
        if ch == _QUOTE:
            j = i + 1
            while j < n:
                if expr[j] == _QUOTE:
                    if j == n - 1 or expr[j + 1] != _QUOTE:
                        args.append(b"'" + expr[i + 1 : j].replace(b"''", b"'") + b"'")
                        i = j + 1  # HBase then steps over the character after the quote
                        break
                    j += 1
                elif j == n - 1:
                    raise _error("Incorrect argument list: unterminated quote", pos + i)
                j += 1
        else:
            j = i
            while j < n:
                if expr[j] in (_SPACE, _COMMA, _RPAREN):
                    args.append(expr[i:j])
                    i = j
                    break
                if j == n - 1:
                    raise _error("Incorrect argument list", pos + i)
                j += 1
        i += 1
    return args


def _error(message: str, pos: int) -> FilterParseError:
    err = FilterParseError(f"{message} at position {pos}")
    err.position = pos
    return err


# --- argument converters (ParseFilter.convertByteArrayTo*, createCompareOperator, ...) --------
def _count(args, *allowed: int) -> None:
    if len(args) not in allowed:
        expected = " or ".join(str(a) for a in allowed)
        raise _ArgError(f"Expected {expected} but got: {len(args)} arguments")


def _text(arg: bytes) -> str:
    return arg.decode("utf-8", "replace")


def _quoted(arg: bytes) -> bytes:
    if len(arg) < 2 or arg[0] != _QUOTE or arg[-1] != _QUOTE:
        raise _ArgError(f"expected a quoted string, got {_text(arg)}")
    return arg[1:-1]


def _long(arg: bytes) -> int:
    digits = arg[1:] if arg[:1] == b"-" else arg
    if not digits.isdigit():  # bytes.isdigit is ASCII-only, like ParseFilter's check
        raise _ArgError(f"Byte Array should only contain digits: expected a number, "
                        f"got {_text(arg)}")
    value = int(digits)
    if value > _LONG_MAX:
        raise _ArgError(f"Long Argument too large: {_text(arg)}")
    return -value if arg[:1] == b"-" else value


def _int(arg: bytes) -> int:
    value = _long(arg)
    if value > _INT_MAX:
        raise _ArgError(f"Integer Argument too large: {_text(arg)}")
    if value < _INT_MIN:
        raise _ArgError(f"Integer Argument too small: {_text(arg)}")
    return value


def _bool(arg: bytes) -> bool:
    word = arg.lower()
    if word == b"true":
        return True
    if word == b"false":
        return False
    raise _ArgError(f"Incorrect Boolean Expression: expected true or false, got {_text(arg)}")


def _operator(arg: bytes) -> CompareOperator:
    for op in CompareOperator:
        if op.value and arg == op.value.encode():
            return op
    raise _ArgError(f"Invalid compare operator {_text(arg)}: expected one of < <= = != >= >")


_COMPARATORS = {
    b"binary": BinaryComparator,
    b"binaryprefix": BinaryPrefixComparator,
    b"regexstring": lambda v: RegexStringComparator(v.decode("utf-8", "replace")),
    b"substring": lambda v: SubstringComparator(v.decode("utf-8", "replace")),
}


def _comparator(arg: bytes):
    spec = _quoted(arg)
    colon = spec.find(b":")
    if colon < 0:
        raise _ArgError(f"Incorrect comparator {_text(spec)}: expected 'type:value'")
    make = _COMPARATORS.get(spec[:colon])
    if make is None:
        raise _ArgError(f"Incorrect comparatorType {_text(spec[:colon])}: expected binary, "
                        "binaryprefix, regexstring or substring")
    return make(spec[colon + 1 :])


def _check_op_for(op: CompareOperator, comparator) -> None:
    if isinstance(comparator, (RegexStringComparator, SubstringComparator)) and op not in (
        CompareOperator.EQUAL,
        CompareOperator.NOT_EQUAL,
    ):
        raise _ArgError("A regexstring comparator and substring comparator can only be used "
                        f"with EQUAL and NOT_EQUAL, not {op.value}")


# --- createFilterFromArguments of each registered filter --------------------------------------
def _compare_filter(cls):
    def create(args):
        _count(args, 2)
        op = _operator(args[0])
        comparator = _comparator(args[1])
        _check_op_for(op, comparator)
        return cls(op, comparator)

    return create


def _single_column_value(cls):
    def create(args):
        _count(args, 4, 6)
        family, qualifier = _quoted(args[0]), _quoted(args[1])
        op = _operator(args[2])
        comparator = _comparator(args[3])
        _check_op_for(op, comparator)
        if len(args) == 6:
            return cls(family, qualifier, op, comparator, _bool(args[4]), _bool(args[5]))
        return cls(family, qualifier, op, comparator)

    return create


def _key_only(args):
    _count(args, 0, 1)
    return KeyOnlyFilter(_bool(args[0])) if args else KeyOnlyFilter()


def _first_key_only(args):
    _count(args, 0)
    return FirstKeyOnlyFilter()


def _one_quoted(cls):
    def create(args):
        _count(args, 1)
        return cls(_quoted(args[0]))

    return create


def _column_count_get(args):
    _count(args, 1)
    return ColumnCountGetFilter(_int(args[0]))


def _page(args):
    _count(args, 1)
    return PageFilter(_long(args[0]))


def _column_pagination(args):
    _count(args, 2)
    return ColumnPaginationFilter(_int(args[0]), _int(args[1]))


def _timestamps(args):
    return TimestampsFilter([_long(a) for a in args])


def _multiple_column_prefix(args):
    return MultipleColumnPrefixFilter([_quoted(a) for a in args])


def _column_range(args):
    _count(args, 4)
    lo, lo_incl = _quoted(args[0]), _bool(args[1])
    hi, hi_incl = _quoted(args[2]), _bool(args[3])
    return ColumnRangeFilter(lo or None, lo_incl, hi or None, hi_incl)


def _dependent_column(args):
    _count(args, 2, 3, 5)
    family, qualifier = _quoted(args[0]), _quoted(args[1])
    if len(args) == 2:
        return DependentColumnFilter(family, qualifier)
    drop = _bool(args[2])
    if len(args) == 3:
        return DependentColumnFilter(family, qualifier, drop)
    return DependentColumnFilter(family, qualifier, drop, _operator(args[3]),
                                 _comparator(args[4]))


def _column_value(args):
    _count(args, 4)
    family, qualifier = _quoted(args[0]), _quoted(args[1])
    op = _operator(args[2])
    comparator = _comparator(args[3])
    _check_op_for(op, comparator)
    return ColumnValueFilter(family, qualifier, op, comparator)


# ParseFilter's registry: the 19 filters of the language.
_FILTERS = {
    "KeyOnlyFilter": _key_only,
    "FirstKeyOnlyFilter": _first_key_only,
    "PrefixFilter": _one_quoted(PrefixFilter),
    "ColumnPrefixFilter": _one_quoted(ColumnPrefixFilter),
    "MultipleColumnPrefixFilter": _multiple_column_prefix,
    "ColumnCountGetFilter": _column_count_get,
    "PageFilter": _page,
    "ColumnPaginationFilter": _column_pagination,
    "InclusiveStopFilter": _one_quoted(InclusiveStopFilter),
    "TimestampsFilter": _timestamps,
    "RowFilter": _compare_filter(RowFilter),
    "FamilyFilter": _compare_filter(FamilyFilter),
    "QualifierFilter": _compare_filter(QualifierFilter),
    "ValueFilter": _compare_filter(ValueFilter),
    "ColumnRangeFilter": _column_range,
    "SingleColumnValueFilter": _single_column_value(SingleColumnValueFilter),
    "SingleColumnValueExcludeFilter": _single_column_value(SingleColumnValueExcludeFilter),
    "DependentColumnFilter": _dependent_column,
    "ColumnValueFilter": _column_value,
}
