"""The protobuf wire format, as much as HBase's files and catalog need: varints and
length-delimited fields (the HFile trailer and file info, RegionInfo in hbase:meta). Written
here instead of pulling in a protobuf library, since only these two wire types occur."""

from __future__ import annotations


def varint(n: int) -> bytes:
    """A base-128 varint; a negative int is written as its 64-bit two's complement."""
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def read_varint(buf, pos: int) -> tuple[int, int]:
    """(the varint at `pos`, the position after it); IndexError when the buffer ends first."""
    shift = result = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def field_varint(number: int, value: int) -> bytes:
    """Field `number` as wire type 0 (ints, bools, enums)."""
    return varint(number << 3) + varint(value)


def field_bytes(number: int, value: bytes) -> bytes:
    """Field `number` as wire type 2 (bytes, strings, nested messages)."""
    return varint(number << 3 | 2) + varint(len(value)) + value


def read_fields(buf, pos: int, end: int) -> list[tuple[int, int | bytes]]:
    """The (field number, value) pairs of a message in buf[pos:end]; ValueError for a wire
    type other than 0 and 2, IndexError when the message is cut short."""
    out = []
    while pos < end:
        tag, pos = read_varint(buf, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = read_varint(buf, pos)
        elif wire == 2:
            n, pos = read_varint(buf, pos)
            if pos + n > end:
                raise IndexError("protobuf field runs past its message")
            value = bytes(buf[pos : pos + n])
            pos += n
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.append((number, value))
    return out


def delimited(message: bytes) -> bytes:
    """A message with its varint length in front (writeDelimitedTo)."""
    return varint(len(message)) + message


def read_delimited(buf, pos: int) -> tuple[list, int]:
    """(the fields of the delimited message at `pos`, the position after it)."""
    n, pos = read_varint(buf, pos)
    return read_fields(buf, pos, pos + n), pos + n
