"""CompareOperator (org.apache.hadoop.hbase.CompareOperator) and CompareFilter.compare.

The operator reads "cell OP comparator value": ValueFilter(LESS, BinaryComparator(b"m"))
keeps values below "m". A comparator's compare_to(cell_bytes) returns the sign of
comparator_value - cell_bytes (ByteArrayComparable.compareTo), and the predicate built by
`out_predicate` is true ("filter the cell out") when the operator's relation does *not*
hold, exactly as CompareFilter.compare.
"""

from __future__ import annotations

import enum

from hsim.errors import InvalidArgumentError


class CompareOperator(enum.Enum):
    """HBase's CompareOperator: how a filter compares a cell's bytes with its comparator."""

    LESS = "<"
    LESS_OR_EQUAL = "<="
    EQUAL = "="
    NOT_EQUAL = "!="
    GREATER_OR_EQUAL = ">="
    GREATER = ">"
    NO_OP = ""  # no symbol in the filter language; filters everything out

    @property
    def symbol(self) -> str:
        """The operator as the filter language writes it (<, <=, =, !=, >=, >)."""
        return self.value

    @classmethod
    def of(cls, op: CompareOperator | str) -> "CompareOperator":
        """Accept a CompareOperator, its name ("GREATER_OR_EQUAL") or its symbol (">=")."""
        if isinstance(op, CompareOperator):
            return op
        if isinstance(op, str):
            if op in _BY_SYMBOL:
                return _BY_SYMBOL[op]
            try:
                return cls[op.upper()]
            except KeyError:
                pass
        raise InvalidArgumentError(f"Invalid compare operator {op!r}")


_BY_SYMBOL = {op.value: op for op in CompareOperator if op.value}

# CompareFilter.compare: op -> predicate on compare_to's result that means "filter out".
_FILTERS_OUT = {
    CompareOperator.LESS: lambda r: r <= 0,
    CompareOperator.LESS_OR_EQUAL: lambda r: r < 0,
    CompareOperator.EQUAL: lambda r: r != 0,
    CompareOperator.NOT_EQUAL: lambda r: r == 0,
    CompareOperator.GREATER_OR_EQUAL: lambda r: r > 0,
    CompareOperator.GREATER: lambda r: r >= 0,
    CompareOperator.NO_OP: lambda r: True,
}


def out_predicate(op: CompareOperator, comparator):
    """CompareFilter.compareRow/Family/Qualifier/Value as a one-argument function: data ->
    True when `data` fails `op` (the cell is filtered out). Built once per filter, so the
    per-cell cost is one call; comparators may offer a faster specialised predicate."""
    if op is CompareOperator.NO_OP:
        return _always
    fast = comparator.out_predicate(op)
    if fast is not None:
        return fast
    pred = _FILTERS_OUT[op]
    compare_to = comparator.compare_to
    return lambda data: pred(compare_to(data))


def _always(data) -> bool:
    return True
