"""Compound Bloom filters (CompoundBloomFilterWriter / CompoundBloomFilter) in HBase's bytes.

HBase splits a file's bloom into chunks of `io.storefile.bloom.block.size` (128 KiB): each chunk
takes up to `maxKeys` keys (BloomFilterUtil.createBySize: 109,306 keys and 7 hashes at 1%),
is closed when full or when the file closes, then *folded* (halved while it is more than twice
as big as its keys need) and written as an inline BLMFBLK2 block at the next data-block
boundary. The BLMFMET2 meta block (load-on-open) holds the totals, the hash type and an index of
the chunks' first keys, and nothing else. The bits are HBase's: MurmurHash (hbase.hash.type
"murmur", the default) or MurmurHash3 ("murmur3") of the key, combined as BloomFilterChunk does
(hsim/engine/murmur_hash.py), so HBase's reader finds hsim's keys and hsim's finds HBase's.

What a bloom hashes (RowBloomHashKey, RowColBloomHashKey, RowPrefixFixedLengthBloomContext):
ROW the row; ROWCOL `[rowlen:2][row][0][qualifier][LATEST_TIMESTAMP][0xFF]`, at an error rate of
`1 - sqrt(1 - err)` so a row+column check stays at the configured rate; ROWPREFIX_FIXED_LENGTH
the row's first `RowPrefixBloomFilter.prefix_length` bytes (the whole row when shorter).

Files hsim wrote before its blooms were HBase's carry a few hsim-only bytes after the meta
block's chunk index (and BLAKE2b bits): their blooms are not used (every probe passes, which
changes no read's result), see `CompoundBloomMeta.usable`.

Filling a chunk uses numpy (declared in pyproject.toml's dependencies): both hashes of every
key of a chunk and all their bit positions in a few array operations.
"""

from __future__ import annotations

from hsim.bytes import java_float

import math
import struct

import numpy as np

from hsim.cell import LATEST_TIMESTAMP, QUALIFIER, ROW
from hsim.engine.block_index import IndexChunk, key_bytes, parse_key, parse_root
from hsim.engine.murmur_hash import HASH_FUNCTIONS, MURMUR_HASH, hash_many, hash_pair

VERSION = 3  # CompoundBloomFilterBase.VERSION
ROWCOL_COMPARATOR = b"org.apache.hadoop.hbase.CellComparatorImpl"
_LN2 = math.log(2)
_LN2_SQUARED = _LN2 * _LN2
_HEAD = struct.Struct(">iqiiqqi")
_ROWCOL_SUFFIX = struct.pack(">qB", LATEST_TIMESTAMP, 255)
_H = struct.Struct(">H")


def error_rate_for(bloom_type: str, configured: float) -> float:
    """BloomFilterFactory.createGeneralBloomAtWrite: ROWCOL runs at 1 - sqrt(1 - err)."""
    err = java_float(configured)
    if bloom_type == "ROWCOL":
        err = java_float(1 - math.sqrt(1 - err))
    return err


def foldable_byte_size(bit_size: int, fold: int) -> int:
    """BloomFilterUtil.computeFoldableByteSize: bytes rounded up to a multiple of 2^fold."""
    n = (bit_size + 7) // 8
    mask = (1 << fold) - 1
    if n & mask:
        n = ((n >> fold) + 1) << fold
    return n


def chunk_params(chunk_byte_size: int, err: float, fold: int) -> tuple[int, int, int]:
    """BloomFilterUtil.createBySize -> (byte size, hash count, max keys) of a full chunk."""
    byte_size = foldable_byte_size(foldable_byte_size(chunk_byte_size * 8, fold) * 8, fold)
    bits = byte_size * 8
    ideal_max_keys = int(bits * (_LN2_SQUARED / -math.log(err)))
    hash_count = math.ceil(_LN2 * (bits // ideal_max_keys))
    max_keys = int(-bits / hash_count * math.log(1 - math.exp(math.log(err) / hash_count)))
    return byte_size, hash_count, max_keys


def actual_error_rate(keys: int, bits: int, hash_count: int) -> float:
    """BloomFilterUtil.actualErrorRate: a filter's false-positive rate with these many keys."""
    return math.exp(math.log(1 - math.exp(-hash_count * keys / bits)) * hash_count)


def folded(byte_size: int, max_keys: int, key_count: int) -> tuple[int, int]:
    """BloomFilterChunk.compactBloom: halve while even and more than twice the keys fit."""
    while byte_size & 1 == 0 and max_keys > key_count << 1:
        byte_size >>= 1
        max_keys >>= 1
    return byte_size, max_keys


def rowcol_key(row: bytes, qualifier: bytes) -> bytes:
    """RowColBloomHashKey: the bytes a ROWCOL bloom hashes (the family left out)."""
    return _H.pack(len(row)) + row + b"\x00" + qualifier + _ROWCOL_SUFFIX


def _raw_key(buf, off: int, length: int) -> bytes:
    return bytes(buf[off : off + length])


_WRAP = 1 << 31
_NUMPY_MIN_KEYS = 16  # below this, the per-key path is faster than numpy's set-up


def chunk_bits(keys: list, hash_count: int, hash_type: int, byte_size: int) -> bytes:
    """A chunk's bit array: BloomFilterChunk.add of each key (hash1 = hash(key, 0), hash2 =
    hash(key, hash1), bit |hash1 + i * hash2| mod the chunk's bits for i < hash_count, in Java
    int arithmetic), then compactBloom's fold down to `byte_size`. Folding ORs the halves
    together, which sets the same bits as taking each position mod the folded size (it divides
    the unfolded one), so the positions are taken mod the folded size directly. Bit j is bit
    (j % 8) of byte j // 8, least significant first (BloomFilterUtil.bitvals)."""
    bits = byte_size * 8
    if len(keys) < _NUMPY_MIN_KEYS:
        out = bytearray(byte_size)
        for key in keys:
            for pos in _positions(hash_type, key, hash_count, bits):
                out[pos >> 3] |= 1 << (pos & 7)
        return bytes(out)
    h1 = hash_many(hash_type, keys)
    h2 = hash_many(hash_type, keys, h1)
    h1 = h1.view(np.int32).astype(np.int64)
    h2 = h2.view(np.int32).astype(np.int64)
    comp = h1[:, None] + np.arange(hash_count, dtype=np.int64)[None, :] * h2[:, None]
    comp = ((comp + _WRAP) & 0xFFFFFFFF) - _WRAP  # the int sum's wrap-around
    np.abs(comp, out=comp)
    comp %= bits
    flags = np.zeros(bits, dtype=np.bool_)
    flags[comp.ravel()] = True
    return np.packbits(flags, bitorder="little").tobytes()


# The last key hashed, per hash type: a Get probes the bloom of every store file with the same
# key, so its two hashes are computed once per request rather than once per file.
_last_hashed: dict = {}


def _hashes(hash_type: int, key: bytes) -> tuple[int, int]:
    last = _last_hashed.get(hash_type)
    if last is not None and last[0] == key:
        return last[1]
    pair = hash_pair(hash_type, key)
    _last_hashed[hash_type] = (key, pair)
    return pair


def _positions(hash_type: int, key: bytes, hash_count: int, bits: int) -> list[int]:
    """The bit positions of `key` in a chunk of `bits` bits (BloomFilterChunk.setHashLoc,
    BloomFilterUtil.contains): |(int)(hash1 + i * hash2)| mod bits."""
    h1, h2 = _hashes(hash_type, key)
    out = []
    for i in range(hash_count):
        c = (h1 + i * h2 + _WRAP) & 0xFFFFFFFF
        out.append((c - _WRAP if c >= _WRAP else _WRAP - c) % bits)
    return out


class BloomFilterChunk:
    """One chunk's bits as read from its BLMFBLK2 block: `key in chunk` is
    BloomFilterUtil.contains (the same positions, mod the chunk's own, folded, size)."""

    __slots__ = ("body", "bits", "hash_count", "hash_type")

    def __init__(self, body: bytes, hash_count: int, hash_type: int):
        self.body = body
        self.bits = len(body) * 8
        self.hash_count = hash_count
        self.hash_type = hash_type

    def __contains__(self, key: bytes) -> bool:
        h1, h2 = _hashes(self.hash_type, key)
        body, bits = self.body, self.bits
        for i in range(self.hash_count):
            c = (h1 + i * h2 + _WRAP) & 0xFFFFFFFF
            p = (c - _WRAP if c >= _WRAP else _WRAP - c) % bits
            if not body[p >> 3] >> (p & 7) & 1:
                return False
        return True


class CompoundBloomWriter:
    """Collects one bloom's keys chunk by chunk; the HFile writer asks for ready chunks at each
    data-block boundary (`ready_chunks`) and for the meta block at close. `prefix_length`: a
    ROWPREFIX_FIXED_LENGTH bloom's (its keys are rows, cut here)."""

    def __init__(self, bloom_type: str, configured_error_rate: float, chunk_byte_size: int,
                 max_fold: int, hash_type: int = MURMUR_HASH, prefix_length: int | None = None):
        self.bloom_type = bloom_type
        self.hash_type = hash_type
        self.prefix_length = prefix_length
        self.error_rate = error_rate_for(bloom_type, configured_error_rate)
        self.chunk_byte_size, self.hash_count, self.chunk_max_keys = chunk_params(
            chunk_byte_size, self.error_rate, max_fold)
        self.key_count = 0
        self.byte_size = 0  # sum of the (folded) chunk sizes, as the meta reports it
        self.max_keys = 0
        self.num_chunks = 0
        self.index = IndexChunk()
        self._keys: list[bytes] = []
        self._first_key: bytes | None = None
        self._ready: list[tuple[bytes, bytes]] = []
        self.last_key: bytes | None = None

    def add_many(self, hash_keys: list, cells: list) -> None:
        """Add keys in order (`cells[i]` is the cell key i comes from). A chunk closes when it
        holds `chunk_max_keys`; the key that opens a chunk gives it its index key (the row, or
        row prefix, for ROW blooms, first-on-row-col for ROWCOL). One slice per chunk: only a key
        that opens a chunk has its cell looked at."""
        n = len(hash_keys)
        if len(cells) != n:
            raise ValueError(f"{n} hash keys but {len(cells)} cells")
        if self.prefix_length is not None:
            hash_keys, cells = self._prefixes(hash_keys, cells)
            n = len(hash_keys)
        i = 0
        while i < n:
            keys = self._keys
            if not keys:
                self._first_key = self._chunk_key(hash_keys[i], cells[i])
            take = hash_keys[i : i + max(1, self.chunk_max_keys - len(keys))]
            keys += take
            i += len(take)
            if len(keys) >= self.chunk_max_keys:
                self._close_chunk()
        if n:
            self.last_key = hash_keys[-1]

    def _prefixes(self, rows: list, cells: list) -> tuple[list, list]:
        """RowPrefixFixedLengthBloomContext: each row cut to the prefix, a prefix equal to the
        one before it dropped (BloomContext adds only a new key)."""
        p = self.prefix_length
        last = self.last_key
        keys, kept = [], []
        for row, cell in zip(rows, cells):
            key = row[:p]
            if key != last:
                keys.append(key)
                kept.append(cell)
                last = key
        return keys, kept

    def _chunk_key(self, hash_key: bytes, cell) -> bytes:
        """A chunk's index key: first-on-row-col serialized for ROWCOL, else the key itself."""
        if self.bloom_type == "ROWCOL":
            # PrivateCellUtil.createFirstOnRowCol(cell): row and qualifier, an EMPTY family
            return key_bytes((cell[ROW], b"", cell[QUALIFIER], -LATEST_TIMESTAMP, -255))
        return hash_key

    def _close_chunk(self) -> None:
        keys = self._keys
        n = len(keys)
        byte_size, max_keys = folded(self.chunk_byte_size, self.chunk_max_keys, n)
        body = chunk_bits(keys, self.hash_count, self.hash_type, byte_size)
        self._ready.append((self._first_key, body))
        self.key_count += n
        self.byte_size += byte_size
        self.max_keys += max_keys
        self.num_chunks += 1
        self._keys = []
        self._first_key = None

    def ready_chunks(self, closing: bool) -> list[tuple[bytes, bytes]]:
        """Chunks to write now as inline blocks: (first key, body)."""
        if closing and self._keys:
            self._close_chunk()
        ready, self._ready = self._ready, []
        return ready

    def chunk_written(self, first_key: bytes, offset: int, on_disk_size: int) -> None:
        self.index.add(first_key, offset, on_disk_size)

    def meta_body(self) -> bytes:
        """The BLMFMET2/DFBLMET2 body (CompoundBloomFilterWriter.MetaWriter): version, total
        byte size, hash count, hash type, key count, max keys, chunk count, the comparator's
        class name (ROWCOL only) and the chunks' single-level index."""
        comparator = ROWCOL_COMPARATOR if self.bloom_type == "ROWCOL" else b""
        return b"".join((
            _HEAD.pack(VERSION, self.byte_size, self.hash_count, self.hash_type, self.key_count,
                       self.max_keys, self.num_chunks),
            bytes((len(comparator),)), comparator,
            self.index.write_root(),
        ))


class CompoundBloomMeta:
    """A bloom's meta block, parsed: totals, the hash, the chunk index. `usable` is False for
    a meta this reader cannot probe with (hsim's old format, with bytes after the index, or a
    hash type hsim does not model): the reader then treats the file as having no bloom."""

    def __init__(self, body: bytes, bloom_type: str):
        (self.version, self.byte_size, self.hash_count, self.hash_type, self.key_count,
         self.max_keys, self.num_chunks) = _HEAD.unpack_from(body, 0)
        pos = _HEAD.size
        clen = body[pos]
        self.comparator = body[pos + 1 : pos + 1 + clen].decode() or None
        pos += 1 + clen
        self.bloom_type = bloom_type
        # ROWCOL chunks are indexed by first-on-row-col KeyValue keys, ROW chunks by rows.
        decode = parse_key if bloom_type == "ROWCOL" else _raw_key
        self.first_keys, self.offsets, self.sizes, pos = parse_root(
            body, self.num_chunks, decode, pos)
        self.meta_size = pos
        self.usable = pos == len(body) and self.hash_type in HASH_FUNCTIONS

    def chunk_filter(self, body: bytes) -> BloomFilterChunk:
        """A chunk's bits, from its block body."""
        return BloomFilterChunk(body, self.hash_count, self.hash_type)
