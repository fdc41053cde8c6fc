"""The HFile block index (HFileBlockIndex): index keys, the multi-level writer, and parsing.

An index key is a KeyValue *key* (`rowlen:2 row famlen:1 family qualifier ts:8 type:1`); in
memory hsim keeps it as the 5-tuple (row, family, qualifier, -ts, -type), the prefix of a Cell,
so it compares with cells exactly as HBase's comparator does when it ignores the mvcc.

HBase 2 does not index a data block by its first key but by `getMidpoint(last cell of the
previous block, first cell of this block)` (HFileWriterImpl.getMidpoint): the shortest key that
sorts between them, often a synthetic short row. That is why long keys grow the index less than
one would think, and why a split point may be a row that was never written.
"""

from __future__ import annotations

import struct

from hsim.cell import LATEST_TIMESTAMP, Cell
from hsim.engine.block import (
    INTERMEDIATE_INDEX,
    LEAF_INDEX,
    ROOT_INDEX,
    read_vlong,
    vint_size,
    write_vlong,
)

_NEG_LATEST = -LATEST_TIMESTAMP
_NEG_MAXIMUM = -255  # KeyValue.Type.Maximum: "first on" keys sort before every real cell
_H = struct.Struct(">H")
_QB = struct.Struct(">qB")
_QI = struct.Struct(">qi")
_QII = struct.Struct(">qii")
_I = struct.Struct(">i")
MID_KEY_METADATA_SIZE = 16  # long offset, int on-disk size, int entry index


def key_bytes(key) -> bytes:
    """Serialize a 5-tuple (or a Cell) as a KeyValue key."""
    row, fam, qual, neg_ts, neg_type = key[0], key[1], key[2], key[3], key[4]
    return b"".join((_H.pack(len(row)), row, bytes((len(fam),)), fam, qual,
                     _QB.pack(-neg_ts, -neg_type)))


def parse_key(buf, off: int = 0, length: int | None = None) -> tuple:
    """A KeyValue key back to the 5-tuple."""
    if length is None:
        length = len(buf) - off
    rlen = _H.unpack_from(buf, off)[0]
    p = off + 2
    row = bytes(buf[p : p + rlen])
    p += rlen
    flen = buf[p]
    fam = bytes(buf[p + 1 : p + 1 + flen])
    end = off + length
    qual = bytes(buf[p + 1 + flen : end - 9])
    ts, code = _QB.unpack_from(buf, end - 9)
    return (row, fam, qual, -ts, -code)


def key_to_cell(key) -> Cell:
    return Cell.make(key[0], key[1], key[2], -key[3], -key[4], b"")


def first_on_row(row: bytes) -> tuple:
    """CellUtil.createFirstOnRow as a key: sorts before every cell of `row`."""
    return (row, b"", b"", _NEG_LATEST, _NEG_MAXIMUM)


def _minimum_midpoint(left: bytes, right: bytes) -> bytes:
    """HFileWriterImpl.getMinimumMidpointArray, for left < right."""
    n = min(len(left), len(right))
    d = 0
    while d < n and left[d] == right[d]:
        d += 1
    if d >= n:  # left is a prefix of right
        return right[: d + 1]
    b = left[d]
    # HBase tests `(byte)b + 1 < right[d] & 0xff` with a signed b; for b >= 0x80 that is always
    # true, and then b + 1 <= right[d] makes the result equal right[:d+1] anyway.
    if b < 0xFF and b + 1 < right[d]:
        return left[:d] + bytes((b + 1,))
    return right[: d + 1]


def get_midpoint(left, right) -> tuple:
    """HFileWriterImpl.getMidpoint: a short key k with left < k <= right (cells or 5-tuples)."""
    if left is None:
        return tuple(right[:5])
    if left[0] != right[0]:
        return first_on_row(_minimum_midpoint(left[0], right[0]))
    if left[1] != right[1]:
        return (right[0], _minimum_midpoint(left[1], right[1]), b"", _NEG_LATEST, _NEG_MAXIMUM)
    if left[2] != right[2]:
        return (right[0], right[1], _minimum_midpoint(left[2], right[2]), _NEG_LATEST,
                _NEG_MAXIMUM)
    return tuple(right[:5])


def search_key(start) -> tuple:
    """Pad a cell-prefix tuple such as (row,) to the "first on" key it stands for, so it lands
    on the block HBase's seek would pick (no real cell sorts between the two)."""
    n = len(start)
    if n >= 5:
        return tuple(start[:5])
    return tuple(start) + (b"", b"", _NEG_LATEST, _NEG_MAXIMUM)[n - 1 :]


# --- chunks -----------------------------------------------------------------------------------


class IndexChunk:
    """HFileBlockIndex.BlockIndexChunk: entries of one index level or block, with both sizes."""

    __slots__ = ("keys", "offsets", "sizes", "sub_entries", "root_size", "_entries_size")

    def __init__(self):
        self.keys: list[bytes] = []
        self.offsets: list[int] = []
        self.sizes: list[int] = []
        self.sub_entries: list[int] = []  # cumulative leaf entries (root chunk of a multi-level)
        self.root_size = 0
        self._entries_size = 0

    def add(self, key: bytes, offset: int, size: int, sub_entries: int = -1) -> None:
        self.keys.append(key)
        self.offsets.append(offset)
        self.sizes.append(size)
        if sub_entries >= 0:
            self.sub_entries.append(sub_entries)
        n = len(key)
        self.root_size += 12 + vint_size(n) + n
        self._entries_size += 12 + n

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def non_root_size(self) -> int:
        """int count, int secondary index [n+1], entries (offset:8 size:4 key)."""
        return 4 + 4 * (len(self.keys) + 1) + self._entries_size

    def write_non_root(self) -> bytes:
        n = len(self.keys)
        secondary = []
        pos = 0
        for k in self.keys:
            secondary.append(pos)
            pos += 12 + len(k)
        secondary.append(pos)
        parts = [struct.pack(f">i{n + 1}i", n, *secondary)]
        for k, off, size in zip(self.keys, self.offsets, self.sizes):
            parts.append(_QI.pack(off, size))
            parts.append(k)
        return b"".join(parts)

    def write_root(self) -> bytes:
        parts = []
        for k, off, size in zip(self.keys, self.offsets, self.sizes):
            parts.append(_QI.pack(off, size))
            parts.append(write_vlong(len(k)))
            parts.append(k)
        return b"".join(parts)

    def mid_key_metadata(self) -> bytes:
        """BlockIndexChunk.getMidKeyMetadata: where leaf entry (N-1)/2 lives."""
        total = self.sub_entries[-1]
        mid = (total - 1) // 2
        i = 0
        while self.sub_entries[i] <= mid:
            i += 1
        before = self.sub_entries[i - 1] if i > 0 else 0
        return _QII.pack(self.offsets[i], self.sizes[i], mid - before)


class BlockIndexWriter:
    """HFileBlockIndex.BlockIndexWriter: leaf chunks written inline among the data blocks once
    their non-root size reaches `max_chunk_size`; at close, intermediate levels while the root
    is larger than that (and has more than `min_entries` entries), then the root."""

    def __init__(self, max_chunk_size: int, min_entries: int):
        self.max_chunk_size = max_chunk_size
        self.min_entries = min_entries
        self.leaf = IndexChunk()
        self.root = IndexChunk()
        self.levels = 1
        self.total_entries = 0
        self.uncompressed_size = 0  # body bytes of all index blocks (trailer's field)
        self.block_count = 0

    def add_entry(self, key: bytes, offset: int, on_disk_size: int) -> None:
        self.leaf.add(key, offset, on_disk_size)
        self.total_entries += 1

    def should_write_leaf(self, closing: bool) -> bool:
        """shouldWriteBlock; at close with no leaf written yet, the leaf chunk becomes the root."""
        if not len(self.leaf):
            return False
        if closing:
            if not len(self.root):
                self.root, self.leaf = self.leaf, IndexChunk()
                return False
            return True
        return self.leaf.non_root_size >= self.max_chunk_size

    def write_leaf(self, write_block) -> None:
        """Write the current leaf chunk through `write_block(magic, body) -> (offset, size)`."""
        first = self.leaf.keys[0]
        body = self.leaf.write_non_root()
        offset, on_disk = write_block(LEAF_INDEX, body)
        self.uncompressed_size += len(body)
        self.block_count += 1
        self.levels = 2
        self.root.add(first, offset, on_disk, self.total_entries)
        self.leaf = IndexChunk()

    def write_index_blocks(self, write_block) -> int:
        """Intermediate levels and the root; returns the root block's offset."""
        mid_meta = self.root.mid_key_metadata() if self.levels > 1 else b""
        while (self.levels > 1 and self.root.root_size > self.max_chunk_size
               and len(self.root) > self.min_entries and self.levels < 16):
            parent = IndexChunk()
            chunk = IndexChunk()
            current = self.root
            for i in range(len(current)):
                chunk.add(current.keys[i], current.offsets[i], current.sizes[i])
                if i >= self.min_entries and chunk.root_size >= self.max_chunk_size:
                    self._write_intermediate(write_block, parent, chunk)
                    chunk = IndexChunk()
            if len(chunk):
                self._write_intermediate(write_block, parent, chunk)
            self.root = parent
            self.levels += 1
        body = self.root.write_root() + mid_meta
        offset, _ = write_block(ROOT_INDEX, body)
        self.uncompressed_size += len(body)
        self.block_count += 1
        return offset

    def _write_intermediate(self, write_block, parent: IndexChunk, chunk: IndexChunk):
        body = chunk.write_non_root()
        offset, on_disk = write_block(INTERMEDIATE_INDEX, body)
        self.uncompressed_size += len(body)
        self.block_count += 1
        parent.add(chunk.keys[0], offset, on_disk)


# --- reading ------------------------------------------------------------------------------------


def parse_root(body: bytes, count: int, decode_key=parse_key,
               pos: int = 0) -> tuple[list, list, list, int]:
    """(keys, offsets, on-disk sizes, position after the entries) of a root-format index that
    starts at `pos`; keys are decoded by `decode_key(buf, offset, length)` (5-tuples)."""
    keys, offsets, sizes = [], [], []
    unpack = _QI.unpack_from
    for _ in range(count):
        off, size = unpack(body, pos)
        klen, pos = read_vlong(body, pos + 12)
        keys.append(decode_key(body, pos, klen))
        offsets.append(off)
        sizes.append(size)
        pos += klen
    return keys, offsets, sizes, pos


def parse_non_root(body: bytes) -> tuple[list, list, list]:
    """(keys as 5-tuples, offsets, on-disk sizes) of a leaf or intermediate index block."""
    n = _I.unpack_from(body, 0)[0]
    secondary = struct.unpack_from(f">{n + 1}i", body, 4)
    base = 4 + 4 * (n + 1)
    keys, offsets, sizes = [], [], []
    for i in range(n):
        start = base + secondary[i]
        off, size = _QI.unpack_from(body, start)
        keys.append(parse_key(body, start + 12, secondary[i + 1] - secondary[i] - 12))
        offsets.append(off)
        sizes.append(size)
    return keys, offsets, sizes


def parse_mid_key_metadata(body: bytes, pos: int) -> tuple[int, int, int]:
    """(leaf block offset, leaf block on-disk size, entry index in it)."""
    return _QII.unpack_from(body, pos)
