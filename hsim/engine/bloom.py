"""Compound Bloom filters (CompoundBloomFilterWriter / CompoundBloomFilter), sized as HBase
sizes them, with membership answered by pybloom-live.

HBase splits a file's bloom into chunks of `io.storefile.bloom.block.size` (128 KiB): each chunk
takes up to `maxKeys` keys (BloomFilterUtil.createBySize: 109,306 keys and 7 hashes at 1%),
is closed when full or when the file closes, then *folded* (halved while it is more than twice
as big as its keys need) and written as an inline BLMFBLK2 block at the next data-block
boundary. The BLMFMET2 meta block (load-on-open) holds the totals and an index of the chunks'
first keys. ROWCOL hashes `[rowlen:2][row][0][qualifier][LATEST_TIMESTAMP][0xFF]` and runs
at `1 - sqrt(1 - err)` so a row+column check stays at the configured rate.

What hsim stores in a chunk block is pybloom-live's bit array for that chunk's keys (sized at
the chunk's rate), zero-padded to the byte size HBase would write, so block sizes and the
reported `byte_size` are HBase's. (pybloom rounds its bits per slice up, so at some error rates
a full chunk needs a few bytes more than HBase's 128 KiB; the block then holds those few bytes
more, and `byte_size` still reports HBase's.) After HBase's meta fields, the meta block carries a
small hsim extension (the pybloom error rate and each chunk's key count) that a reader needs to
rebuild the pybloom filters; `meta_size` excludes it. The bit positions come from BLAKE2b, not
HBase's Murmur hash: the sizes, fold and false-positive rates are HBase's, the bits are not.

Filling a chunk uses numpy (declared in pyproject.toml's dependencies) for the per-bit arithmetic:
3.5-7x faster than doing it per key in Python, and blooms are rebuilt on every flush and
compaction. The bits set are the per-key formula's, bit for bit.
"""

from __future__ import annotations

import hashlib
import math
import struct
from itertools import repeat

import numpy as np
from bitarray import bitarray
from pybloom_live import BloomFilter

from hsim.cell import LATEST_TIMESTAMP
from hsim.engine.block_index import IndexChunk, key_bytes, parse_key, parse_root

VERSION = 3  # CompoundBloomFilterBase.VERSION
# The meta block's hash-type field says MURMUR_HASH (Hash.MURMUR_HASH, hbase.hash.type's
# default) so the block's layout and values are HBase's; the bits themselves come from BLAKE2b
# (see `_positions`), so HBase's reader would not find hsim's keys in them.
MURMUR_HASH = 1
ROWCOL_COMPARATOR = b"org.apache.hadoop.hbase.CellComparatorImpl"
_LN2 = math.log(2)
_LN2_SQUARED = _LN2 * _LN2
_HEAD = struct.Struct(">iqiiqqi")
_F = struct.Struct(">f")
_ROWCOL_SUFFIX = struct.pack(">qB", LATEST_TIMESTAMP, 255)
_H = struct.Struct(">H")


def java_float(x: float) -> float:
    """Round to a Java float, as Configuration.getFloat hands the error rate to HBase."""
    return _F.unpack(_F.pack(x))[0]


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


_blake2b = hashlib.blake2b
_copy, _update, _digest = _blake2b.copy, _blake2b.update, _blake2b.digest
_DIGEST_BATCH = 1024
_NUMPY_MIN_KEYS = 16  # below this, _fill_keys is faster than numpy's set-up


def _pybloom(capacity: int, err: float) -> BloomFilter:
    """A pybloom-live filter (its slices, bit array and sizing) whose k slice positions come
    from one BLAKE2b digest of the key cut into k independent 64-bit words. pybloom's own
    hashing (salted SHA-256 digests of the key's repr) costs ~3x more per key, and blooms are
    rebuilt on every flush and compaction."""
    bf = BloomFilter(capacity=max(1, capacity), error_rate=err)
    bf.make_hashes = _positions(bf.num_slices, bf.bits_per_slice)
    return bf


def _words(k: int):
    """Digest size and unpacker giving k 64-bit words (beyond 8 words: enhanced double
    hashing from the first two, h1 + i*h2 + (i^3 - i)/6)."""
    n = min(k, 8)
    unpack = struct.Struct(f"<{n}Q").unpack
    if k <= 8:
        return 8 * n, unpack

    def more(digest: bytes) -> tuple:
        w = unpack(digest)
        h1, h2 = w[0], w[1]
        return w + tuple(h1 + i * h2 + (i * i * i - i) // 6 for i in range(8, k))
    return 8 * n, more


# The last key hashed and its words: a Get probes the bloom of every store file with the same
# key, and every chunk of one error rate takes the same words (only the modulus differs), so
# the digest is computed once per request rather than once per file.
_last_hashed: list = [None, 0, ()]  # key, digest size, words


def _positions(k: int, bits_per_slice: int):
    size, words = _words(k)
    last = _last_hashed

    def make_hashes(key: bytes) -> list[int]:
        if key == last[0] and size == last[1]:
            w = last[2]
        else:
            w = words(_blake2b(key, digest_size=size).digest())
            last[0], last[1], last[2] = key, size, w
        return [x % bits_per_slice for x in w]
    return make_hashes


def _digests(keys: list, size: int) -> bytes:
    """The keys' BLAKE2b digests, concatenated. Copying a prepared hasher costs less than
    constructing one (keyword parsing), and map() keeps the loop in C; batches of
    _DIGEST_BATCH keep the live hashers in cache."""
    h0 = _blake2b(digest_size=size)
    parts = []
    for s in range(0, len(keys), _DIGEST_BATCH):
        batch = keys[s : s + _DIGEST_BATCH]
        hashers = list(map(_copy, repeat(h0, len(batch))))
        any(map(_update, hashers, batch))  # update() returns None: any() just drains the map
        parts.append(b"".join(map(_digest, hashers)))
    return b"".join(parts)


def _fill(bf: BloomFilter, keys: list) -> None:
    """Add many keys at once (the same bits as bf.add(key) for each). numpy does the
    per-position arithmetic and the bit setting; small batches, where its fixed cost
    dominates, and absurdly wide slices, where uint64 arithmetic could overflow, take the
    per-key path."""
    k = bf.num_slices
    bps = bf.bits_per_slice
    if len(keys) < _NUMPY_MIN_KEYS or bps * (k + 2) >= 1 << 64:
        _fill_keys(bf, keys)
        return
    size, _ = _words(k)
    w = np.frombuffer(_digests(keys, size), dtype="<u8").reshape(len(keys), size // 8)
    m = np.uint64(bps)
    pos = np.empty((len(keys), k), dtype=np.uint64)
    np.remainder(w, m, out=pos[:, : w.shape[1]])
    if k > 8:
        # h1 + i*h2 + (i^3 - i)/6 is unbounded in Python; reduce each term mod bps first
        # (exact: bps * (k + 2) < 2^64, so no sum or product below overflows).
        h1, h2 = pos[:, 0], pos[:, 1]
        for i in range(8, k):
            col = pos[:, i]
            np.multiply(h2, np.uint64(i), out=col)
            col += h1
            col += np.uint64((i * i * i - i) // 6 % bps)
            col %= m
    pos += np.arange(0, k * bps, bps, dtype=np.uint64)
    bits = np.zeros(bf.num_bits, dtype=np.bool_)
    bits[pos.ravel()] = True
    # bf.bitarray is little-endian: bit j lives in byte j // 8 at (1 << j % 8).
    np.frombuffer(bf.bitarray, dtype=np.uint8)[:] |= np.packbits(bits, bitorder="little")
    bf.count += len(keys)


def _fill_keys(bf: BloomFilter, keys: list) -> None:
    """_fill one key at a time through the filter's own slice positions (`_positions`), with
    no numpy set-up cost and no capacity check."""
    bps = bf.bits_per_slice
    offsets = range(0, bf.num_slices * bps, bps)
    positions = bf.make_hashes
    if keys:
        bf.bitarray[[off + p for key in keys for off, p in zip(offsets, positions(key))]] = 1
    bf.count += len(keys)


class CompoundBloomWriter:
    """Collects one bloom's keys chunk by chunk; the HFile writer asks for ready chunks at each
    data-block boundary (`ready_chunks`) and for the meta block at close."""

    def __init__(self, bloom_type: str, configured_error_rate: float, chunk_byte_size: int,
                 max_fold: int):
        self.bloom_type = bloom_type
        self.error_rate = error_rate_for(bloom_type, configured_error_rate)
        self.chunk_byte_size, self.hash_count, self.chunk_max_keys = chunk_params(
            chunk_byte_size, self.error_rate, max_fold)
        self.key_count = 0
        self.byte_size = 0  # sum of the (folded) chunk sizes, as the meta reports it
        self.max_keys = 0
        self.chunk_counts: list[int] = []
        self.index = IndexChunk()
        self._keys: list[bytes] = []
        self._first_key: bytes | None = None
        self._ready: list[tuple[bytes, bytes]] = []
        self.last_key: bytes | None = None

    def add_many(self, hash_keys: list, cells: list) -> None:
        """Add keys in order (`cells[i]` is the cell key i comes from). A chunk closes when it
        holds `chunk_max_keys`; the key that opens a chunk gives it its index key (the row for
        ROW, first-on-row-col for ROWCOL). One slice per chunk: only a key that opens a chunk
        has its cell looked at."""
        n = len(hash_keys)
        if len(cells) != n:
            raise ValueError(f"{n} hash keys but {len(cells)} cells")
        i = 0
        while i < n:
            keys = self._keys
            if not keys:
                self._first_key = self._chunk_key(cells[i])
            take = hash_keys[i : i + max(1, self.chunk_max_keys - len(keys))]
            keys += take
            i += len(take)
            if len(keys) >= self.chunk_max_keys:
                self._close_chunk()
        if n:
            self.last_key = hash_keys[-1]

    def _chunk_key(self, cell) -> bytes:
        """A chunk's index key: the row for ROW, first-on-row-col serialized for ROWCOL."""
        if self.bloom_type == "ROWCOL":
            # PrivateCellUtil.createFirstOnRowCol(cell): row and qualifier, an EMPTY family
            return key_bytes((cell[0], b"", cell[2], -LATEST_TIMESTAMP, -255))
        return cell[0]

    def _close_chunk(self) -> None:
        keys = self._keys
        n = len(keys)
        byte_size, max_keys = folded(self.chunk_byte_size, self.chunk_max_keys, n)
        bf = _pybloom(n, self.error_rate)
        _fill(bf, keys)
        body = bf.bitarray.tobytes()
        if len(body) < byte_size:
            body += bytes(byte_size - len(body))
        self._ready.append((self._first_key, body))
        self.key_count += n
        self.byte_size += byte_size
        self.max_keys += max_keys
        self.chunk_counts.append(n)
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

    def meta_body(self) -> tuple[bytes, int]:
        """The BLMFMET2/DFBLMET2 body and the size of its HBase part."""
        comparator = ROWCOL_COMPARATOR if self.bloom_type == "ROWCOL" else b""
        hbase_part = b"".join((
            _HEAD.pack(VERSION, self.byte_size, self.hash_count, MURMUR_HASH, self.key_count,
                       self.max_keys, len(self.chunk_counts)),
            bytes((len(comparator),)), comparator,
            self.index.write_root(),
        ))
        n = len(self.chunk_counts)
        extension = struct.pack(f">d{n}i", self.error_rate, *self.chunk_counts)
        return hbase_part + extension, len(hbase_part)


class CompoundBloomMeta:
    """A bloom's meta block, parsed: totals, the chunk index, and how to rebuild a chunk."""

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
        n = self.num_chunks
        ext = struct.unpack_from(f">d{n}i", body, pos)
        self.error_rate = ext[0]
        self.chunk_counts = list(ext[1:])

    def chunk_filter(self, i: int, body: bytes) -> BloomFilter:
        """Rebuild chunk i's pybloom filter from its block body."""
        bf = _pybloom(self.chunk_counts[i], self.error_rate)
        bits = bitarray(endian="little")
        bits.frombytes(body)
        del bits[bf.num_bits :]
        bf.bitarray = bits
        bf.count = self.chunk_counts[i]
        return bf
