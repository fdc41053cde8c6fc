"""How a table is pre-split: RegionSplitter's split algorithms
(org.apache.hadoop.hbase.util.RegionSplitter: HexStringSplit, DecimalStringSplit, UniformSplit)
and the split keys of Admin.createTable(desc, startKey, endKey, numRegions).

Each algorithm gives the `num_regions - 1` split keys of a pre-split table (`split`) and the
point where one region is cut in two (`split_point`), over a configurable key space
(`first_row` .. `last_row`, RegionSplitter's setFirstRow/setLastRow).
"""

from __future__ import annotations

import re

from hsim.bytes import split as bytes_split
from hsim.bytes import to_bytes, to_bytes_binary, to_string_binary
from hsim.errors import InvalidArgumentError

_DIGITS = re.compile(r"[+-]?[0-9A-Za-z]+")


class NumberStringSplit:
    """RegionSplitter.NumberStringSplit: rows are numbers written in `radix`, left-padded with
    '0' to the width of the last row, so their byte order is their numeric order."""

    radix = 16
    default_first_row = "00000000"
    default_last_row = "FFFFFFFF"

    def __init__(self, first_row: str | bytes | None = None, last_row: str | bytes | None = None):
        self._first = 0
        self._last = self._parse(self.default_last_row)
        self._width = len(self.default_last_row)
        if first_row is not None:
            self.set_first_row(first_row)
        if last_row is not None:
            self.set_last_row(last_row)

    def set_first_row(self, row: str | bytes) -> None:
        self._first = self._parse(row)

    def set_last_row(self, row: str | bytes) -> None:
        # The last row's width is the width of every key (HBase: rowComparisonLength).
        text = _text(row)
        self._last = self._parse(text)
        self._width = len(text)

    def first_row(self) -> bytes:
        return self._to_row(self._first)

    def last_row(self) -> bytes:
        return self._to_row(self._last)

    def split(self, num_regions: int) -> list[bytes]:
        """The num_regions - 1 split keys: the range [first, last] (last inclusive) cut into
        equal steps by floor division, so the last region gets the remainder."""
        if self._last <= self._first:
            raise InvalidArgumentError(
                f"last row ({self._to_row(self._last)!r}) is configured less than first row "
                f"({self._to_row(self._first)!r})")
        size = self._last - self._first + 1
        if num_regions <= 0 or size < num_regions:
            raise InvalidArgumentError(
                f"split granularity ({num_regions}) is greater than the range ({size})")
        step = size // num_regions
        return [self._to_row(self._first + step * i) for i in range(1, num_regions)]

    def split_point(self, start: bytes, end: bytes) -> bytes:
        """Where region [start, end) is cut in two: the numeric midpoint. An empty start or end
        (the table's first or last region) stands for first_row/last_row, as RegionSplitter
        substitutes them before calling SplitAlgorithm.split."""
        s = self._parse(start or self.first_row())
        e = self._parse(end or self.last_row())
        if e == 0:
            raise InvalidArgumentError("split end must not be 0")
        return self._to_row(abs(s + e) // 2)  # BigInteger: (s + e) / 2 truncated, then abs

    def _parse(self, row: str | bytes) -> int:
        text = _text(row)
        if not text:
            return 0  # convertToBigInteger: an empty row is 0
        if not _DIGITS.fullmatch(text):
            raise InvalidArgumentError(f"{text!r} is not a base-{self.radix} number")
        try:
            return int(text, self.radix)
        except ValueError:
            raise InvalidArgumentError(f"{text!r} is not a base-{self.radix} number") from None

    def _to_row(self, n: int) -> bytes:
        digits = format(n, "x" if self.radix == 16 else "d")
        return digits.rjust(self._width, "0").encode("ascii")

    def __repr__(self) -> str:
        first, last = to_string_binary(self.first_row()), to_string_binary(self.last_row())
        return f"{type(self).__name__} [{first},{last}]"


class HexStringSplit(NumberStringSplit):
    """Rows are lower-case hex strings, "00000000" .. "ffffffff" by default: the format of an
    MD5 prefix or any uniformly distributed hex value."""

    radix = 16
    default_first_row = "00000000"
    default_last_row = "FFFFFFFF"


class DecimalStringSplit(NumberStringSplit):
    """Rows are decimal strings, "00000000" .. "99999999" by default."""

    radix = 10
    default_first_row = "00000000"
    default_last_row = "99999999"


class UniformSplit:
    """RegionSplitter.UniformSplit: rows are raw bytes, the key space [] .. FF x 8 divided
    evenly by Bytes.split. The natural choice for keys that are uniform random bytes (hashes)."""

    def __init__(self, first_row: str | bytes | None = None, last_row: str | bytes | None = None):
        self._first = b""
        self._last = b"\xff" * 8
        if first_row is not None:
            self.set_first_row(first_row)
        if last_row is not None:
            self.set_last_row(last_row)

    def set_first_row(self, row: str | bytes) -> None:
        """A str is read as Bytes.toStringBinary output (`\\xHH` escapes), as HBase reads it."""
        self._first = _binary(row)

    def set_last_row(self, row: str | bytes) -> None:
        self._last = _binary(row)

    def first_row(self) -> bytes:
        return self._first

    def last_row(self) -> bytes:
        return self._last

    def split(self, num_regions: int) -> list[bytes]:
        """Bytes.split(first, last, inclusive=True, num_regions - 1) without its two ends."""
        if self._last <= self._first:
            raise InvalidArgumentError(
                f"last row ({to_string_binary(self._last)}) is configured less than first row "
                f"({to_string_binary(self._first)})")
        return bytes_split(self._first, self._last, num_regions - 1, inclusive=True)[1:-1]

    def split_point(self, start: bytes, end: bytes) -> bytes:
        """Bytes.split(start, end, 1)[1]; an empty start or end stands for first_row/last_row."""
        return bytes_split(start or self._first, end or self._last, 1)[1]

    def __repr__(self) -> str:
        return f"UniformSplit [{to_string_binary(self._first)},{to_string_binary(self._last)}]"


def admin_split_keys(start: bytes, end: bytes, num_regions: int) -> list[bytes]:
    """The split keys Admin.createTable(desc, startKey, endKey, numRegions) creates
    (getSplitKeys): at least 3 regions; with 3 the keys are [start, end]; otherwise
    Bytes.split(start, end, num_regions - 3), which *includes* start and end, so the table
    gets a region below start, num_regions - 2 between them, and one from end up."""
    start, end = to_bytes(start), to_bytes(end)
    if num_regions < 3:
        raise InvalidArgumentError("Must create at least three regions")
    if start >= end:
        raise InvalidArgumentError("Start key must be smaller than end key")
    if num_regions == 3:
        return [start, end]
    return bytes_split(start, end, num_regions - 3)


def _text(row: str | bytes) -> str:
    return row if isinstance(row, str) else bytes(row).decode("utf-8")


def _binary(row: str | bytes) -> bytes:
    return to_bytes_binary(row) if isinstance(row, str) else bytes(row)
