"""The comparators that read the data as a typed value or a bit pattern: NullComparator,
LongComparator, BitComparator, BigDecimalComparator and BinaryComponentComparator.

None of them has a filter-language form: ParseFilter (ParseConstants) knows only binary,
binaryprefix, regexstring and substring, so they are built in code, as in HBase.
"""

from __future__ import annotations

import decimal
import enum
import struct

from hsim.cell import to_bytes_arg
from hsim.errors import InvalidArgumentError
from hsim.filters.comparators import ByteArrayComparable

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from typing import Any

_LONG = struct.Struct(">q")


class NullComparator(ByteArrayComparable):
    """NullComparator: compare_to is 0 only for a missing (None) value. A cell's value is
    never missing, even when empty, so every present cell compares as 1 (HBase's
    compareTo(byte[]) is `value != null ? 1 : 0`)."""

    def __init__(self):
        super().__init__(b"")

    def compare_to(self, data: bytes | None) -> int:
        return 0 if data is None else 1

    def __repr__(self) -> str:
        return "NullComparator()"


class LongComparator(ByteArrayComparable):
    """LongComparator: the data as a signed big-endian 8-byte long (Bytes.toLong), compared
    numerically. Data of another length is an error, as Bytes.toLong's
    IllegalArgumentException."""

    def __init__(self, value: int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgumentError(f"LongComparator needs an int, got {value!r}")
        if not -(2**63) <= value < 2**63:
            raise InvalidArgumentError(f"LongComparator: {value} is out of a long's range")
        super().__init__(_LONG.pack(value))
        self.long_value = value

    def compare_to(self, data: bytes) -> int:
        if len(data) != 8:
            raise InvalidArgumentError(
                f"IllegalArgumentException: Wrong length: {len(data)}, expected 8 (Bytes.toLong)")
        that = _LONG.unpack(data)[0]
        return (self.long_value > that) - (self.long_value < that)

    def __repr__(self) -> str:
        return f"LongComparator({self.long_value})"


class BitwiseOp(enum.Enum):
    """BitComparator.BitwiseOp."""

    AND = "AND"
    OR = "OR"
    XOR = "XOR"


_BIT_OPS = {
    BitwiseOp.AND: lambda a, b: a & b,
    BitwiseOp.OR: lambda a, b: a | b,
    BitwiseOp.XOR: lambda a, b: a ^ b,
}


class BitComparator(ByteArrayComparable):
    """BitComparator: 0 ("equal") when `value OP data` has any bit set, else 1. Data of a
    different length than `value` is never equal."""

    def __init__(self, value: Any, op: BitwiseOp):
        if not isinstance(op, BitwiseOp):
            try:
                op = BitwiseOp(str(op).upper())
            except ValueError:
                raise InvalidArgumentError(f"BitComparator: no BitwiseOp {op!r}") from None
        super().__init__(to_bytes_arg(value))
        self.op = op
        self._bit = _BIT_OPS[op]

    def compare_to(self, data: bytes) -> int:
        if len(data) != len(self.value):
            return 1
        bit = self._bit
        return 0 if any(bit(a, b) for a, b in zip(self.value, data)) else 1

    def __eq__(self, other) -> bool:
        return super().__eq__(other) and other.op is self.op

    def __hash__(self) -> int:
        return hash((self.value, self.op))

    def __repr__(self) -> str:
        return f"BitComparator({self.value!r}, BitwiseOp.{self.op.name})"


def big_decimal_to_bytes(value: decimal.Decimal) -> bytes:
    """Bytes.toBytes(BigDecimal): the scale as a 4-byte int, then the unscaled value as
    BigInteger.toByteArray (minimal two's complement, big-endian)."""
    sign, digits, exponent = decimal.Decimal(value).as_tuple()
    if not isinstance(exponent, int):
        raise InvalidArgumentError(f"BigDecimal has no {value}")
    unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    size = (unscaled + (unscaled < 0)).bit_length() // 8 + 1
    return struct.pack(">i", -exponent) + unscaled.to_bytes(size, "big", signed=True)


def bytes_to_big_decimal(data: bytes) -> decimal.Decimal:
    """Bytes.toBigDecimal; fewer than 5 bytes is no number (HBase gets null and fails)."""
    if len(data) < 5:
        raise InvalidArgumentError(
            f"NullPointerException: {len(data)} bytes are no BigDecimal (Bytes.toBigDecimal)")
    scale = struct.unpack(">i", data[:4])[0]
    # Built from its text, exact at any precision: Decimal.scaleb rounds to the context's 28
    # digits, which made Double.MIN_VALUE as a BigDecimal compare unequal to itself.
    return decimal.Decimal(f"{int.from_bytes(data[4:], 'big', signed=True)}E{-scale}")


class BigDecimalComparator(ByteArrayComparable):
    """BigDecimalComparator: the data decoded by Bytes.toBigDecimal, compared numerically
    (BigDecimal.compareTo: 1.0 equals 1.00)."""

    def __init__(self, value: Any):
        try:
            self.big_decimal = decimal.Decimal(value)
        except (decimal.InvalidOperation, TypeError, ValueError):
            raise InvalidArgumentError(
                f"BigDecimalComparator needs a Decimal, got {value!r}") from None
        super().__init__(big_decimal_to_bytes(self.big_decimal))

    def compare_to(self, data: bytes) -> int:
        that = bytes_to_big_decimal(data)
        return (self.big_decimal > that) - (self.big_decimal < that)

    def __repr__(self) -> str:
        return f"BigDecimalComparator(Decimal({str(self.big_decimal)!r}))"


class BinaryComponentComparator(ByteArrayComparable):
    """BinaryComponentComparator: `value` compared with the data's bytes at `offset` (as
    many as `value` has), unsigned lexicographically. Data too short to hold the component
    compares what it has (HBase reads past the end there)."""

    def __init__(self, value: Any, offset: int):
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InvalidArgumentError(f"BinaryComponentComparator: bad offset {offset!r}")
        super().__init__(to_bytes_arg(value))
        self.offset = offset

    def compare_to(self, data: bytes) -> int:
        v = self.value
        d = data[self.offset : self.offset + len(v)]
        return (v > d) - (v < d)

    def __eq__(self, other) -> bool:
        return super().__eq__(other) and other.offset == self.offset

    def __hash__(self) -> int:
        return hash((self.value, self.offset))

    def __repr__(self) -> str:
        return f"BinaryComponentComparator({self.value!r}, {self.offset})"
