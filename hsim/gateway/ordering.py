"""Java's byte order for the maps a gateway returns.

HBase's Thrift handlers build a row's columns (and a table's families) as a Java TreeMap keyed
by ByteBuffer, whose compareTo compares *signed* bytes: that is the order the map goes on the
wire in, and the order a Python dict read from it keeps.
"""

from __future__ import annotations

# Maps each byte to its rank as a Java (signed) byte, so sorting translated keys sorts as
# ByteBuffer.compareTo does.
_SIGNED = bytes((b + 128) & 0xFF for b in range(256))


def java_order(key: bytes) -> bytes:
    """A sort key that orders byte strings as ByteBuffer.compareTo does."""
    return key.translate(_SIGNED)
