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

from hsim.bytes import utf8
from hsim.errors import FilterParseError, InvalidArgumentError
from hsim.filters.base import Filter
from hsim.filters.filter_list import FilterList
from hsim.filters.filter_registry import FILTERS, ArgError
from hsim.filters.wrappers import SkipFilter, WhileMatchFilter

_LPAREN, _RPAREN, _QUOTE, _SPACE, _TAB, _COMMA = 0x28, 0x29, 0x27, 0x20, 0x09, 0x2C
_PRECEDENCE = {"SKIP": 1, "WHILE": 1, "AND": 2, "OR": 3}
_MISMATCHED = "Mismatched parenthesis: ')' without a matching '('"
_MISMATCHED_GROUP = (
    "Mismatched parenthesis: HBase's parser reduces only one precedence level of the group "
    "this ')' closes (e.g. '(A OR B AND C)' or '(A AND SKIP B)'); add parentheses around "
    "the tighter-binding part"
)
#: The longest filter string parsed (bytes, UTF-8), and the deepest filter tree built (a simple
#: filter is 1 deep; each FilterList, SKIP or WHILE around it adds one). Both are hsim's limits:
#: HBase bounds a filter string only by the request size, and Java's stack takes deeper trees.
MAX_FILTER_LENGTH = 1 << 20
MAX_FILTER_DEPTH = 100


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
    return sorted(FILTERS)


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
    create = FILTERS.get(name)
    if create is None:
        raise _error(f"Filter Name {name} not supported", pos)
    try:
        return create(args)
    except ArgError as e:
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
