"""HBase's `Bytes` helpers that schemas use (org.apache.hadoop.hbase.util.Bytes), and the
pre-split algorithms of RegionSplitter built on Bytes.split
(org.apache.hadoop.hbase.util.RegionSplitter: HexStringSplit, DecimalStringSplit, UniformSplit)
with the split keys of Admin.createTable(desc, startKey, endKey, numRegions).

Each algorithm gives the `num_regions - 1` split keys of a pre-split table (`split`) and the
point where one region is cut in two (`split_point`), over a configurable key space
(`first_row` .. `last_row`, RegionSplitter's setFirstRow/setLastRow). `hsim.presplit` names
the same algorithms.
"""

from __future__ import annotations

import re
import struct

from hsim.errors import InvalidArgumentError

_q = struct.Struct(">q")
_i = struct.Struct(">i")
_h = struct.Struct(">h")
_FLOAT32 = struct.Struct(">f")


def java_float(x: float) -> float:
    """x as Java's Configuration.getFloat hands it over: rounded to single precision, then
    widened back to a double (the compaction ratios, a bloom's error rate)."""
    return _FLOAT32.unpack(_FLOAT32.pack(x))[0]


def utf8(text: str, arg: str | None = None) -> bytes:
    """A str argument's UTF-8 bytes (Bytes.toBytes(String)). A lone surrogate has none: Java
    would write '?' in its place; hsim refuses it, naming the argument."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidArgumentError(f"{arg or 'a str argument'} {text!r} is not UTF-8 text: a "
                                   f"lone surrogate at index {e.start}") from None


def to_bytes(x: float) -> bytes:
    """Bytes.toBytes: an int becomes an 8-byte big-endian signed long, a str its UTF-8 bytes,
    a bool one byte (-1 for true, as Java's Bytes.toBytes(boolean)), bytes stay bytes."""
    if isinstance(x, bool):
        return b"\xff" if x else b"\x00"
    if isinstance(x, int):
        return _q.pack(x)
    if isinstance(x, str):
        return utf8(x)
    if isinstance(x, (bytes, bytearray, memoryview)):
        return bytes(x)
    raise TypeError(f"cannot convert {type(x).__name__} to bytes")


def to_long(b: bytes, offset: int = 0) -> int:
    """Bytes.toLong: 8 bytes, big-endian, signed."""
    try:
        return _q.unpack_from(b, offset)[0]
    except struct.error:
        raise _wrong_length(b, offset, 8) from None


def to_int(b: bytes, offset: int = 0) -> int:
    """Bytes.toInt: 4 bytes, big-endian, signed."""
    try:
        return _i.unpack_from(b, offset)[0]
    except struct.error:
        raise _wrong_length(b, offset, 4) from None


def to_short(b: bytes, offset: int = 0) -> int:
    """Bytes.toShort: 2 bytes, big-endian, signed."""
    try:
        return _h.unpack_from(b, offset)[0]
    except struct.error:
        raise _wrong_length(b, offset, 2) from None


def _wrong_length(b: bytes, offset: int, size: int) -> InvalidArgumentError:
    """Bytes.explainWrongLengthOrOffset: too few bytes is an IllegalArgumentException."""
    return InvalidArgumentError(
        f"offset ({offset}) + length ({size}) exceed the capacity of the array: {len(b)}")


def to_string(b: bytes) -> str:
    """Bytes.toString: UTF-8, a bad byte becomes U+FFFD."""
    return b.decode("utf-8", errors="replace")


_PRINTABLE = frozenset(
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    b"`~!@#$%^&*()-_=+[]{}|;:'\",.<>/? "
)


# What Bytes.toStringBinary writes for each byte value.
_BINARY_TEXT = [chr(c) if c in _PRINTABLE else f"\\x{c:02X}" for c in range(256)]


def to_string_binary(b: bytes) -> str:
    """Bytes.toStringBinary: printable ASCII but the backslash as is, everything else as \\xHH
    (upper-case hex)."""
    if b is None:
        return "null"
    return "".join(map(_BINARY_TEXT.__getitem__, bytes(b)))


_HEX_UPPER = frozenset(b"0123456789ABCDEF")


def to_bytes_binary(s: str) -> bytes:
    """Bytes.toBytesBinary, the inverse of to_string_binary: `\\xHH` (upper-case hex only) is one
    byte; in a `\\x` not followed by two such digits only the backslash is dropped; every other
    char is its low 8 bits."""
    out = bytearray()
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch == "\\" and i + 1 < n and s[i + 1] == "x":
            if i + 3 >= n:
                raise InvalidArgumentError(f"truncated \\x escape in {s!r}")
            hd = s[i + 2 : i + 4]
            if all(ord(c) in _HEX_UPPER for c in hd):
                out.append(int(hd, 16))
                i += 4
                continue
            i += 1  # a bogus escape: HBase skips the backslash only
            continue
        out.append(ord(ch) & 0xFF)
        i += 1
    return bytes(out)


def split(start: bytes, end: bytes, num: int, inclusive: bool = False) -> list[bytes]:
    """Bytes.split(a, b, inclusive, num) (iterateOnSplits): `num + 2` keys, `start`, then `num`
    keys evenly spaced between them, then `end`.

    The shorter key is right-padded with zero bytes, both are read as big-endian integers and
    the gap (plus one if `inclusive`) is cut into `num + 1` equal intervals (floor division).
    Every inner key has the padded length. When the gap is smaller than `num + 1`, HBase
    appends a zero byte to both padded keys and tries again; the result then starts and ends
    with those *padded* keys instead of the originals (split(b"aaa", b"aab", 1) is
    [b"aaa\\0", b"aaa\\x80", b"aab\\0"])."""
    a, b = bytes(start), bytes(end)
    width = max(len(a), len(b))
    a_pad, b_pad = a.ljust(width, b"\0"), b.ljust(width, b"\0")
    if a_pad >= b_pad:
        raise InvalidArgumentError("b <= a")
    if num <= 0:
        raise InvalidArgumentError("num cannot be <= 0")
    lo, hi = int.from_bytes(a_pad, "big"), int.from_bytes(b_pad, "big")
    first, last = a, b
    while hi - lo + inclusive < num + 1:
        # The too-small-range recursion of iterateOnSplits: one more zero byte on both sides.
        width += 1
        lo, hi = lo << 8, hi << 8
        first, last = lo.to_bytes(width, "big"), hi.to_bytes(width, "big")
    interval = (hi - lo + inclusive) // (num + 1)
    inner = [(lo + interval * i).to_bytes(width, "big") for i in range(1, num + 1)]
    return [first, *inner, last]


# --- RegionSplitter's algorithms --------------------------------------------------------------
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
        """RegionSplitter's setFirstRow: the key space starts at this number."""
        self._first = self._parse(row)

    def set_last_row(self, row: str | bytes) -> None:
        """RegionSplitter's setLastRow: the key space ends at this number."""
        # The last row's width is the width of every key (HBase: rowComparisonLength).
        text = _text(row)
        self._last = self._parse(text)
        self._width = len(text)

    def first_row(self) -> bytes:
        """The first row of the key space, as a padded row key."""
        return self._to_row(self._first)

    def last_row(self) -> bytes:
        """The last row of the key space, as a padded row key."""
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
        """A str is read as Bytes.toStringBinary output, as for set_first_row."""
        self._last = _binary(row)

    def first_row(self) -> bytes:
        """The first row of the key space."""
        return self._first

    def last_row(self) -> bytes:
        """The last row of the key space."""
        return self._last

    def split(self, num_regions: int) -> list[bytes]:
        """Bytes.split(first, last, inclusive=True, num_regions - 1) without its two ends."""
        if self._last <= self._first:
            raise InvalidArgumentError(
                f"last row ({to_string_binary(self._last)}) is configured less than first row "
                f"({to_string_binary(self._first)})")
        return split(self._first, self._last, num_regions - 1, inclusive=True)[1:-1]

    def split_point(self, start: bytes, end: bytes) -> bytes:
        """Bytes.split(start, end, 1)[1]; an empty start or end stands for first_row/last_row."""
        return split(start or self._first, end or self._last, 1)[1]

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
    return split(start, end, num_regions - 3)


def _text(row: str | bytes) -> str:
    return row if isinstance(row, str) else bytes(row).decode("utf-8")


def _binary(row: str | bytes) -> bytes:
    return to_bytes_binary(row) if isinstance(row, str) else bytes(row)
