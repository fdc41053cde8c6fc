"""Cell: HBase's KeyValue, and its sort order.

A Cell is a tuple whose field order *is* HBase's order (CellComparatorImpl): row, family,
qualifier ascending as unsigned bytes, then timestamp descending, type code descending and
sequence id descending. Timestamp, type and sequence id are stored negated, so plain tuple
comparison, done in C, sorts cells exactly as HBase does. That is what makes the memstore,
the k-way merges and the HFile writer fast in pure Python.

The MemStore holds each cell as a *plain* tuple of the same fields (`fields`), and hands out
Cells (`from_fields`) to whoever reads it: CPython's cyclic collector stops tracking a plain
tuple of bytes and ints the first time it looks at it (gcmodule's untrack_tuples checks
PyTuple_CheckExact), but tracks a tuple subclass for good, so millions of buffered Cells would
be walked by every full collection. A Cell and its plain tuple compare equal and sort together.

Cells are therefore compared *with* their sequence id: two writes of the same key are different
cells. Compare `cell.coordinates()` (row, family, qualifier, timestamp, type, value) when only
what a client sees matters.
"""

from __future__ import annotations

import enum
import struct
from collections import namedtuple
from typing import NamedTuple

from hsim.bytes import to_string_binary, utf8
from hsim.errors import InvalidArgumentError

# Field positions, for engine code that reads the tuple directly on hot paths.
ROW, FAMILY, QUALIFIER, NEG_TS, NEG_TYPE, NEG_SEQ, VALUE, TTL = range(8)

LATEST_TIMESTAMP = (1 << 63) - 1  # HConstants.LATEST_TIMESTAMP (Long.MAX_VALUE)
MAX_ROW_LENGTH = 32767  # HConstants.MAX_ROW_LENGTH (Short.MAX_VALUE)
NO_TTL = -1  # a cell without a TTL tag


class CellType(enum.IntEnum):
    """KeyValue.Type codes."""

    MINIMUM = 0
    PUT = 4
    DELETE = 8
    DELETE_FAMILY_VERSION = 10
    DELETE_COLUMN = 12
    DELETE_FAMILY = 14
    MAXIMUM = 255

    @property
    def hbase_name(self) -> str:
        """The type's name as HBase prints it (e.g. DeleteColumn)."""
        return _HBASE_NAMES[self]

    @property
    def is_delete(self) -> bool:
        """True for the delete marker types."""
        return DELETE <= self <= DELETE_FAMILY


_HBASE_NAMES = {
    CellType.MINIMUM: "Minimum",
    CellType.PUT: "Put",
    CellType.DELETE: "Delete",
    CellType.DELETE_FAMILY_VERSION: "DeleteFamilyVersion",
    CellType.DELETE_COLUMN: "DeleteColumn",
    CellType.DELETE_FAMILY: "DeleteFamily",
    CellType.MAXIMUM: "Maximum",
}
_TYPE_BY_CODE = {int(t): t for t in CellType}

# The codes as module names, for hot loops that compare a tuple's -neg_type without an
# attribute lookup on the enum per cell.
PUT = CellType.PUT
DELETE = CellType.DELETE
DELETE_FAMILY_VERSION = CellType.DELETE_FAMILY_VERSION
DELETE_COLUMN = CellType.DELETE_COLUMN
DELETE_FAMILY = CellType.DELETE_FAMILY

# A TTL tag as HBase writes it: [tagLen:2][type:1 = TTL_TAG_TYPE 8][ttl:8] -> 11 bytes,
# plus the 2-byte tags length in the KeyValue.
TTL_TAG_TYPE = 8
TTL_TAGS_BYTES = 2 + 11

_CellBase = namedtuple(
    "_CellBase", ["row", "family", "qualifier", "neg_ts", "neg_type", "neg_seq", "value", "ttl"]
)
_new = tuple.__new__


def check_row(row: bytes) -> None:
    """Mutation.checkRow: 'Row length is 0' / 'Row length N is > 32767' (the one place; the
    put path's fast guards in client/table.py and regions/region.py fall back to it)."""
    if not row:
        raise InvalidArgumentError("Row length is 0")
    if len(row) > MAX_ROW_LENGTH:
        raise InvalidArgumentError(f"Row length {len(row)} is > {MAX_ROW_LENGTH}")


def _b(x) -> bytes:
    if isinstance(x, bytes):
        return x
    if isinstance(x, str):
        return utf8(x)
    if isinstance(x, (bytearray, memoryview)):
        return bytes(x)
    raise TypeError(f"expected bytes or str, got {type(x).__name__}")


class Cell(_CellBase):
    """One KeyValue: row, family, qualifier, timestamp (ms), type, value, sequence id, cell TTL."""

    __slots__ = ()

    def __new__(
        cls,
        row,
        family,
        qualifier=b"",
        timestamp: int = LATEST_TIMESTAMP,
        type: CellType | int = CellType.PUT,
        value=b"",
        seq_id: int = 0,
        ttl_ms: int | None = None,
    ):
        return _new(
            cls,
            (
                _b(row),
                _b(family),
                _b(qualifier),
                -int(timestamp),
                -int(type),
                -int(seq_id),
                _b(value),
                NO_TTL if ttl_ms is None else int(ttl_ms),
            ),
        )

    @staticmethod
    def make(row: bytes, family: bytes, qualifier: bytes, timestamp: int, code: int, value: bytes,
             seq_id: int = 0, ttl: int = NO_TTL) -> "Cell":
        """Fast constructor for engine code: bytes already, `code` an int, no checks."""
        return _new(Cell, (row, family, qualifier, -timestamp, -code, -seq_id, value, ttl))

    @property
    def timestamp(self) -> int:
        """The cell's timestamp, in ms."""
        return -self[3]

    @property
    def type(self) -> CellType:
        """The cell's KeyValue.Type (Put, Delete, DeleteColumn, DeleteFamily, ...)."""
        return _TYPE_BY_CODE[-self[4]]

    @property
    def type_code(self) -> int:
        """The KeyValue.Type code byte as HBase writes it."""
        return -self[4]

    @property
    def seq_id(self) -> int:
        """The MVCC sequence id of the write that made the cell."""
        return -self[5]

    @property
    def ttl_ms(self) -> int | None:
        """The cell's own TTL (a TTL tag), or None."""
        t = self[7]
        return None if t == NO_TTL else t

    @property
    def is_delete(self) -> bool:
        """True for delete markers."""
        return self[4] <= -8

    @property
    def key_length(self) -> int:
        """KeyValue key length: 2 + row + 1 + family + qualifier + 8 + 1."""
        return 12 + len(self[0]) + len(self[1]) + len(self[2])

    @property
    def serialized_size(self) -> int:
        """KeyValue length exactly as HBase counts it (KeyValueUtil.length), tags included."""
        size = 20 + len(self[0]) + len(self[1]) + len(self[2]) + len(self[6])
        return size if self[7] == NO_TTL else size + TTL_TAGS_BYTES

    def __reduce__(self):
        # namedtuple's pickling passes the fields positionally to __new__, whose signature
        # differs; rebuild from the raw tuple instead (also what copy.deepcopy uses).
        return (from_fields, (tuple(self),))

    def with_seq_id(self, seq_id: int) -> "Cell":
        """The same cell with another sequence id."""
        return _new(Cell, self[:5] + (-seq_id,) + self[6:])

    def coordinates(self) -> tuple:
        """What a client sees: (row, family, qualifier, timestamp, type, value)."""
        return (self[0], self[1], self[2], -self[3], _TYPE_BY_CODE[-self[4]], self[6])

    def column(self) -> bytes:
        """`family:qualifier`, as the shell prints a column."""
        return self[1] + b":" + self[2]

    def __repr__(self) -> str:
        tsb = to_string_binary
        extra = f", ttl_ms={self[7]}" if self[7] != NO_TTL else ""
        return (
            f"Cell({tsb(self[0])}/{tsb(self[1])}:{tsb(self[2])}/{-self[3]}/"
            f"{_HBASE_NAMES[_TYPE_BY_CODE[-self[4]]]}/seq={-self[5]}, value={tsb(self[6])}{extra})"
        )

    # --- KeyValue byte layout -------------------------------------------------------------
    def key_bytes(self) -> bytes:
        """The KeyValue *key*: rowlen:2 row famlen:1 family qualifier timestamp:8 type:1."""
        r, f = self[0], self[1]
        return b"".join(
            (
                SHORT.pack(len(r)), r, FAMILY_LENGTH.pack(len(f)), f, self[2],
                TIMESTAMP_TYPE.pack(-self[3], -self[4]),
            )
        )

    def to_keyvalue(self) -> bytes:
        """The full KeyValue: keylen:4 vallen:4 key value, and [tagslen:2 tags] when the cell
        has a TTL tag (so len(to_keyvalue()) == serialized_size)."""
        key = self.key_bytes()
        v = self[6]
        parts = [KV_LENGTHS.pack(len(key), len(v)), key, v]
        if self[7] != NO_TTL:
            parts.append(TTL_TAG.pack(11, 9, TTL_TAG_TYPE, self[7]))
        return b"".join(parts)

    @staticmethod
    def from_keyvalue(buf: bytes, offset: int = 0, has_tags: bool = False,
                      seq_id: int = 0) -> tuple[Cell, int]:
        """Decode one KeyValue at `offset`; returns (cell, offset after it). With `has_tags`
        (HFile v3 files that include tags) a tags length and tags follow the value."""
        klen, vlen = KV_LENGTHS.unpack_from(buf, offset)
        p = offset + 8
        rlen = SHORT.unpack_from(buf, p)[0]
        row = bytes(buf[p + 2 : p + 2 + rlen])
        fp = p + 2 + rlen
        flen = buf[fp]
        family = bytes(buf[fp + 1 : fp + 1 + flen])
        qend = p + klen - 9
        qualifier = bytes(buf[fp + 1 + flen : qend])
        ts, code = TIMESTAMP_TYPE.unpack_from(buf, qend)
        vstart = p + klen
        value = bytes(buf[vstart : vstart + vlen])
        end = vstart + vlen
        ttl = NO_TTL
        if has_tags:
            tags_len = SHORT.unpack_from(buf, end)[0]
            tp = end + 2
            end = tp + tags_len
            while tp < end:  # [tagLen:2][type:1][value]
                tlen = SHORT.unpack_from(buf, tp)[0]
                if buf[tp + 2] == TTL_TAG_TYPE:
                    ttl = TAG_LONG.unpack_from(buf, tp + 3)[0]
                tp += 2 + tlen
        return Cell.make(row, family, qualifier, ts, code, value, seq_id, ttl), end


# KeyValue's byte layout, field group by field group (KeyValue, KeyValueUtil), used by Cell's
# own encoding here, the HFile writer's block loop and the data-block decoder: one definition.
KV_LENGTHS = struct.Struct(">ii")  # keyLength, valueLength
KV_HEAD = struct.Struct(">iiH")  # keyLength, valueLength, rowLength
SHORT = struct.Struct(">H")  # rowLength, tagsLength, a tag's length
FAMILY_LENGTH = struct.Struct(">B")
TIMESTAMP_TYPE = struct.Struct(">qB")  # the key's last 9 bytes
TTL_TAG = struct.Struct(">HHBq")  # tagsLength, tagLength, tag type, the TTL (a long)
TAG_LONG = struct.Struct(">q")  # a TTL tag's value


def fields(row: bytes, family: bytes, qualifier: bytes, timestamp: int, code: int, value: bytes,
           seq_id: int, ttl: int = NO_TTL) -> tuple:
    """A cell as the plain tuple the MemStore holds (Cell.make's fields, not a Cell)."""
    return (row, family, qualifier, -timestamp, -code, -seq_id, value, ttl)


class Entry(NamedTuple):
    """One cell of a row mutation as the client hands it to its region (a cell of HBase's
    Mutation.familyCellMap), before the region stamps it: `timestamp` None is the request's
    time (a Delete's None: the column's latest version, HRegion.prepareDeleteTimestamps),
    `code` a CellType as an int, `ttl` NO_TTL or the cell's TTL in ms. The put path builds
    plain tuples in this order (a NamedTuple costs a call per cell) and the region unpacks
    them by these names; an Entry is such a tuple."""

    family: bytes
    qualifier: bytes
    timestamp: int | None
    code: int
    value: bytes
    ttl: int


def from_fields(values: tuple) -> Cell:
    """The Cell of a plain tuple of its fields (or a copy of a Cell)."""
    return _new(Cell, values)


def type_of(code: int) -> CellType:
    return _TYPE_BY_CODE[code]


def to_bytes_arg(x) -> bytes:
    """Accept bytes or str (UTF-8) at API boundaries."""
    return _b(x)
