"""One Thrift request read off a connection and checked whole before thriftpy2 decodes it.

thriftpy2 trusts what a message declares: a list of 2^31-1 elements of a type that takes no
bytes (an unknown type code, or STOP) is skipped by a native loop that reads nothing and holds
the GIL for seconds, so no byte limit ever trips and every other client waits. libthrift
(TBinaryProtocol.checkReadBytesAvailable, TProtocolUtil.skip) refuses such a message before
walking it; so does this reader. It walks the message's structure over its bytes and refuses:

- a container whose declared size times its element's smallest encoding is more than the bytes
  left (in the frame, or up to the message-size limit on the buffered transport);
- a string or binary longer than the bytes left, a negative size, an unknown type code;
- nesting deeper than 64 structs and containers (thriftpy2's and libthrift's default depth);
- a frame larger than the frame limit or with a negative size, a message larger than the
  message limit, a message that runs past its frame or leaves bytes after it.

Only a message that passes is handed, as bytes, to thriftpy2's own (fast, native) decoder.
The refusals are libthrift's TTransportException / TProtocolException codes; the server closes
the connection, as libthrift's server does on a protocol error.
"""

from __future__ import annotations

import struct

from thriftpy2.protocol.exc import TProtocolException
from thriftpy2.transport import TTransportException

# TTransportException's NEGATIVE_SIZE / SIZE_LIMIT codes (Apache Thrift's Python library);
# thriftpy2 lacks the names, so they are spelled here.
NEGATIVE_SIZE, SIZE_LIMIT = 5, 6
DEPTH_LIMIT = 6  # TProtocolException.DEPTH_LIMIT
MAX_DEPTH = 64
_RECV = 65536

_I32 = struct.Struct(">i").unpack_from
_VERSION_MASK, _VERSION_1 = -65536, -2147418112

# Binary protocol: the fewest bytes an element of each type takes (an empty struct is its STOP
# byte; an empty list/set its type and size, a map its two types and size); a type code not
# listed is refused. Fixed-size types are skipped in one step.
_BIN_MIN = {2: 1, 3: 1, 6: 2, 8: 4, 10: 8, 4: 8, 11: 4, 18: 4, 12: 1, 13: 6, 14: 5, 15: 5}
_BIN_FIXED = {2: 1, 3: 1, 6: 2, 8: 4, 10: 8, 4: 8}
_STRING, _STRUCT, _MAP, _SET, _LIST = 11, 12, 13, 14, 15

# Compact protocol type codes (TCompactProtocol.Types); every element takes at least one byte.
_C_TRUE, _C_FALSE, _C_BYTE, _C_I16, _C_I32, _C_I64, _C_DOUBLE = 1, 2, 3, 4, 5, 6, 7
_C_BINARY, _C_LIST, _C_SET, _C_MAP, _C_STRUCT = 8, 9, 10, 11, 12
_C_VARINT = (_C_I16, _C_I32, _C_I64)


def _invalid(message: str) -> TProtocolException:
    return TProtocolException(TProtocolException.INVALID_DATA, message)


class RequestReader:
    """Reads requests from `sock`: `next()` returns one message's bytes, checked."""

    def __init__(self, sock, framed: bool, compact: bool, max_message: int, max_frame: int):
        self.sock = sock
        self.framed, self.compact = framed, compact
        self.max_message, self.max_frame = max_message, max_frame
        self._pending = bytearray()  # received, not yet returned
        self._buf = self._pending  # what the walker reads: the frame, or the pending bytes
        self._limit = max_message  # bytes the message may take (frame size when framed)

    def next(self) -> bytes:
        """The next message; TTransportException(END_OF_FILE) when the peer closed cleanly
        between messages."""
        if not self.framed:
            self._buf, self._limit = self._pending, self.max_message
            end = self._message()
            data = bytes(self._pending[:end])
            del self._pending[:end]
            return data
        self._fill(4, self._pending)
        size = _I32(self._pending, 0)[0]
        if size < 0:
            raise TTransportException(NEGATIVE_SIZE, f"Read a negative frame size ({size})!")
        if size > self.max_frame:
            raise TTransportException(
                SIZE_LIMIT, f"Frame size ({size}) larger than max length ({self.max_frame})!")
        self._fill(4 + size, self._pending)
        frame = bytes(self._pending[4:4 + size])
        del self._pending[:4 + size]
        self._buf, self._limit = frame, size
        end = self._message()
        if end != size:
            raise _invalid(f"{size - end} bytes after the message in its frame")
        return frame

    # --- bytes --------------------------------------------------------------------------------
    def _fill(self, n: int, buf: bytearray) -> None:
        """Receive until `buf` holds n bytes."""
        while len(buf) < n:
            data = self.sock.recv(max(_RECV, n - len(buf)))
            if not data:
                if buf:
                    raise TTransportException(TTransportException.END_OF_FILE,
                                              "connection closed in the middle of a message")
                raise TTransportException(TTransportException.END_OF_FILE, "end of file")
            buf += data

    def _need(self, end: int) -> None:
        """The message reaches byte `end`: refuse it past the limit, else have the bytes."""
        if end > self._limit:
            if self.framed:
                raise _invalid("the message runs past the end of its frame")
            raise TTransportException(SIZE_LIMIT, "MaxMessageSize reached")
        if len(self._buf) < end:
            self._fill(end, self._buf)

    def _room(self, pos: int, count: int, each: int) -> None:
        """A declared size must fit in the bytes left (checkReadBytesAvailable)."""
        if count < 0:
            raise TProtocolException(TProtocolException.NEGATIVE_SIZE, f"Negative length: {count}")
        if count * each > self._limit - pos:
            raise TProtocolException(
                TProtocolException.SIZE_LIMIT,
                f"declared size {count} needs at least {count * each} bytes; "
                f"{max(self._limit - pos, 0)} left in the message")

    def _byte(self, pos: int) -> int:
        self._need(pos + 1)
        return self._buf[pos]

    def _i32(self, pos: int) -> int:
        self._need(pos + 4)
        return _I32(self._buf, pos)[0]

    def _message(self) -> int:
        return self._compact_message() if self.compact else self._binary_message()

    # --- binary protocol ----------------------------------------------------------------------
    def _binary_message(self) -> int:
        version = self._i32(0)
        if version >= 0 or (version & _VERSION_MASK) != _VERSION_1:
            raise TProtocolException(TProtocolException.BAD_VERSION,
                                     "No protocol version header")
        pos = self._bin_value(_STRING, 4, MAX_DEPTH)  # the method name
        return self._bin_struct(pos + 4, MAX_DEPTH)  # after the sequence id

    def _bin_struct(self, pos: int, depth: int) -> int:
        if depth <= 0:
            raise TProtocolException(DEPTH_LIMIT, "maximum nesting depth exceeded")
        while True:
            ftype = self._byte(pos)
            if ftype == 0:
                return pos + 1
            pos = self._bin_value(ftype, pos + 3, depth - 1)

    def _bin_value(self, ttype: int, pos: int, depth: int) -> int:
        fixed = _BIN_FIXED.get(ttype)
        if fixed is not None:
            self._need(pos + fixed)
            return pos + fixed
        if ttype == _STRING or ttype == 18:
            n = self._i32(pos)
            self._room(pos + 4, n, 1)
            self._need(pos + 4 + n)
            return pos + 4 + n
        if ttype == _STRUCT:
            return self._bin_struct(pos, depth)
        if depth <= 0:
            raise TProtocolException(DEPTH_LIMIT, "maximum nesting depth exceeded")
        if ttype == _LIST or ttype == _SET:
            etype = self._byte(pos)
            n = self._i32(pos + 1)
            pos += 5
            self._room(pos, n, self._bin_min(etype))
            fixed = _BIN_FIXED.get(etype)
            if fixed is not None:
                self._need(pos + n * fixed)
                return pos + n * fixed
            for _ in range(n):
                pos = self._bin_value(etype, pos, depth - 1)
            return pos
        if ttype == _MAP:
            ktype, vtype = self._byte(pos), self._byte(pos + 1)
            n = self._i32(pos + 2)
            pos += 6
            self._room(pos, n, self._bin_min(ktype) + self._bin_min(vtype))
            for _ in range(n):
                pos = self._bin_value(ktype, pos, depth - 1)
                pos = self._bin_value(vtype, pos, depth - 1)
            return pos
        raise _invalid(f"Unrecognized type {ttype}")

    @staticmethod
    def _bin_min(ttype: int) -> int:
        each = _BIN_MIN.get(ttype)
        if each is None:
            raise _invalid(f"Unrecognized type {ttype}")
        return each

    # --- compact protocol ---------------------------------------------------------------------
    def _varint(self, pos: int) -> tuple[int, int]:
        """(value, position after it); at most 10 bytes, as TCompactProtocol.readVarint64."""
        value = shift = 0
        for i in range(10):
            b = self._byte(pos + i)
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value, pos + i + 1
            shift += 7
        raise _invalid("Variable-length int over 10 bytes.")

    def _compact_message(self) -> int:
        if self._byte(0) != 0x82 or self._byte(1) & 0x1F != 1:
            raise TProtocolException(TProtocolException.BAD_VERSION,
                                     "Bad protocol id or version in the message")
        _seqid, pos = self._varint(2)
        pos = self._c_value(_C_BINARY, pos, MAX_DEPTH)  # the method name
        return self._c_struct(pos, MAX_DEPTH)

    def _c_struct(self, pos: int, depth: int) -> int:
        if depth <= 0:
            raise TProtocolException(DEPTH_LIMIT, "maximum nesting depth exceeded")
        while True:
            header = self._byte(pos)
            pos += 1
            ctype = header & 0x0F
            if ctype == 0:
                return pos
            if header >> 4 == 0:  # no field-id delta: the id follows as a varint
                _fid, pos = self._varint(pos)
            if ctype not in (_C_TRUE, _C_FALSE):  # a bool field's value is in its header
                pos = self._c_value(ctype, pos, depth - 1)

    def _c_value(self, ctype: int, pos: int, depth: int) -> int:
        if ctype in (_C_TRUE, _C_FALSE, _C_BYTE):
            self._need(pos + 1)
            return pos + 1
        if ctype in _C_VARINT:
            return self._varint(pos)[1]
        if ctype == _C_DOUBLE:
            self._need(pos + 8)
            return pos + 8
        if ctype == _C_BINARY:
            n, pos = self._varint(pos)
            self._room(pos, n, 1)
            self._need(pos + n)
            return pos + n
        if ctype == _C_STRUCT:
            return self._c_struct(pos, depth)
        if depth <= 0:
            raise TProtocolException(DEPTH_LIMIT, "maximum nesting depth exceeded")
        if ctype == _C_LIST or ctype == _C_SET:
            header = self._byte(pos)
            n, etype, pos = header >> 4, header & 0x0F, pos + 1
            if n == 15:
                n, pos = self._varint(pos)
            self._c_element(etype)
            self._room(pos, n, 1)
            for _ in range(n):
                pos = self._c_value(etype, pos, depth - 1)
            return pos
        if ctype == _C_MAP:
            n, pos = self._varint(pos)
            if n == 0:
                return pos
            types = self._byte(pos)
            ktype, vtype = types >> 4, types & 0x0F
            self._c_element(ktype)
            self._c_element(vtype)
            self._room(pos + 1, n, 2)
            pos += 1
            for _ in range(n):
                pos = self._c_value(ktype, pos, depth - 1)
                pos = self._c_value(vtype, pos, depth - 1)
            return pos
        raise _invalid(f"Unrecognized type {ctype}")

    @staticmethod
    def _c_element(ctype: int) -> None:
        if not 1 <= ctype <= _C_STRUCT:
            raise _invalid(f"Unrecognized type {ctype}")
