"""HBase's `Bytes` helpers that schemas use (org.apache.hadoop.hbase.util.Bytes), and the
pre-split algorithms of RegionSplitter."""

from __future__ import annotations

import struct

from hsim.errors import InvalidArgumentError

_q = struct.Struct(">q")
_i = struct.Struct(">i")
_h = struct.Struct(">h")


def to_bytes(x: float) -> bytes:
    """Bytes.toBytes: an int becomes an 8-byte big-endian signed long, a str its UTF-8 bytes,
    a bool one byte (-1 for true, as Java's Bytes.toBytes(boolean)), bytes stay bytes."""
    if isinstance(x, bool):
        return b"\xff" if x else b"\x00"
    if isinstance(x, int):
        return _q.pack(x)
    if isinstance(x, str):
        return x.encode("utf-8")
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


# RegionSplitter's algorithms live in hsim.presplit; the storage-core issue names them here.
_PRESPLIT = ("HexStringSplit", "DecimalStringSplit", "UniformSplit", "admin_split_keys")


def __getattr__(name: str):
    # Resolved lazily: hsim.presplit imports this module.
    if name in _PRESPLIT:
        from hsim import presplit

        return getattr(presplit, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
