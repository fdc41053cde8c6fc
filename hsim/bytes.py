"""HBase's `Bytes` helpers that schemas use (org.apache.hadoop.hbase.util.Bytes), and the
pre-split algorithms of RegionSplitter."""

from __future__ import annotations

import struct

_q = struct.Struct(">q")
_i = struct.Struct(">i")
_h = struct.Struct(">h")


def to_bytes(x) -> bytes:
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
    return _q.unpack_from(b, offset)[0]


def to_int(b: bytes, offset: int = 0) -> int:
    return _i.unpack_from(b, offset)[0]


def to_short(b: bytes, offset: int = 0) -> int:
    return _h.unpack_from(b, offset)[0]


def to_string(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


_PRINTABLE = frozenset(
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    b"`~!@#$%^&*()-_=+[]{}|;:'\",.<>/? "
)


def to_string_binary(b: bytes) -> str:
    """Bytes.toStringBinary: printable ASCII as is, everything else as \\xHH (upper-case hex)."""
    if b is None:
        return "null"
    out = []
    for ch in bytes(b):
        if ch in _PRINTABLE:
            out.append(chr(ch))
        else:
            out.append("\\x%02X" % ch)
    return "".join(out)
