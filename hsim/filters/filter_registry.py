"""The filter language's registry: each of ParseFilter's 19 filters built from its argument
list (createFilterFromArguments), with the argument converters it uses
(ParseFilter.convertByteArrayTo*, createCompareOperator, createComparator). hsim.filters.parser
reads the expression; this module turns a name and its arguments into a filter."""

from __future__ import annotations

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

_QUOTE = 0x27
_LONG_MAX = (1 << 63) - 1
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1


class ArgError(Exception):
    """A bad argument inside a simple filter; the parser makes it a FilterParseError with the
    filter's position."""


# --- argument converters (ParseFilter.convertByteArrayTo*, createCompareOperator, ...) --------
def _count(args, *allowed: int) -> None:
    if len(args) not in allowed:
        expected = " or ".join(str(a) for a in allowed)
        raise ArgError(f"Expected {expected} but got: {len(args)} arguments")


def _text(arg: bytes) -> str:
    return arg.decode("utf-8", "replace")


def _quoted(arg: bytes) -> bytes:
    if len(arg) < 2 or arg[0] != _QUOTE or arg[-1] != _QUOTE:
        raise ArgError(f"expected a quoted string, got {_text(arg)}")
    return arg[1:-1]


def _long(arg: bytes) -> int:
    digits = arg[1:] if arg[:1] == b"-" else arg
    if not digits.isdigit():  # bytes.isdigit is ASCII-only, like ParseFilter's check
        raise ArgError(f"Byte Array should only contain digits: expected a number, "
                        f"got {_text(arg)}")
    value = int(digits)
    if value > _LONG_MAX:
        raise ArgError(f"Long Argument too large: {_text(arg)}")
    return -value if arg[:1] == b"-" else value


def _int(arg: bytes) -> int:
    value = _long(arg)
    if value > _INT_MAX:
        raise ArgError(f"Integer Argument too large: {_text(arg)}")
    if value < _INT_MIN:
        raise ArgError(f"Integer Argument too small: {_text(arg)}")
    return value


def _bool(arg: bytes) -> bool:
    word = arg.lower()
    if word == b"true":
        return True
    if word == b"false":
        return False
    raise ArgError(f"Incorrect Boolean Expression: expected true or false, got {_text(arg)}")


def _operator(arg: bytes) -> CompareOperator:
    for op in CompareOperator:
        if op.value and arg == op.value.encode():
            return op
    raise ArgError(f"Invalid compare operator {_text(arg)}: expected one of < <= = != >= >")


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
        raise ArgError(f"Incorrect comparator {_text(spec)}: expected 'type:value'")
    make = _COMPARATORS.get(spec[:colon])
    if make is None:
        raise ArgError(f"Incorrect comparatorType {_text(spec[:colon])}: expected binary, "
                        "binaryprefix, regexstring or substring")
    return make(spec[colon + 1 :])


def _check_op_for(op: CompareOperator, comparator) -> None:
    if isinstance(comparator, (RegexStringComparator, SubstringComparator)) and op not in (
        CompareOperator.EQUAL,
        CompareOperator.NOT_EQUAL,
    ):
        raise ArgError("A regexstring comparator and substring comparator can only be used "
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
FILTERS = {
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
