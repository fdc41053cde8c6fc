"""The hash functions HBase's blooms use (hbase.hash.type): MurmurHash (MurmurHash 2.0, type 1,
"murmur", the default) and MurmurHash3 (x86_32, type 2, "murmur3"), as Java ints.

Each comes twice: one key at a time in Python (a Get's probe), and vectorised over many keys
with numpy (a chunk's worth at flush or compaction), keys grouped by length so each group is a
matrix of 4-byte words hashed column by column. numpy's uint32 arithmetic wraps as Java's int
arithmetic does. One quirk is HBase's own: its MurmurHash sign-extends the 1-3 tail bytes
(`h ^= hashKey.get(i) << 16` on a Java byte), so for tail bytes >= 0x80 it differs from
Appleby's C MurmurHash2; hsim follows HBase.
"""

from __future__ import annotations

import struct

import numpy as np
from murmurhash2 import murmurhash2 as _c_murmur2, murmurhash3 as _c_murmur3

MURMUR_HASH = 1  # Hash.MURMUR_HASH
MURMUR_HASH3 = 2  # Hash.MURMUR_HASH3
# hbase.hash.type's names (Hash.parseHashType); "jenkins" (type 0) is not modelled.
HASH_TYPES = {"murmur": MURMUR_HASH, "murmur3": MURMUR_HASH3}

_MASK = 0xFFFFFFFF
_M = 0x5BD1E995
_C1, _C2 = 0xCC9E2D51, 0x1B873593
_U32 = np.uint32


def _signed(h: int) -> int:
    return h - (1 << 32) if h & 0x80000000 else h


def _words(data: bytes, n: int) -> tuple:
    return _unpacker(n >> 2)(data)


def murmur_hash(data: bytes, seed: int) -> int:
    """MurmurHash.hash(HashKey, seed) of `data`, a signed 32-bit int."""
    n = len(data)
    h = (seed ^ n) & _MASK
    for k in _words(data, n):
        k = (k * _M) & _MASK
        k ^= k >> 24
        h = ((h * _M) & _MASK) ^ ((k * _M) & _MASK)
    left = n & 3
    if left:
        i = n - left
        if left >= 3:
            h ^= (_sbyte(data[i + 2]) << 16) & _MASK
        if left >= 2:
            h ^= (_sbyte(data[i + 1]) << 8) & _MASK
        h ^= _sbyte(data[i]) & _MASK
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return _signed(h)


def _sbyte(b: int) -> int:
    return b - 256 if b & 0x80 else b


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _MASK


def murmur_hash3(data: bytes, seed: int) -> int:
    """MurmurHash3.hash(HashKey, seed) (MurmurHash3_x86_32) of `data`, a signed 32-bit int."""
    n = len(data)
    h = seed & _MASK
    for k in _words(data, n):
        k = (_rotl((k * _C1) & _MASK, 15) * _C2) & _MASK
        h = (_rotl(h ^ k, 13) * 5 + 0xE6546B64) & _MASK
    left = n & 3
    if left:
        i = n - left
        k = int.from_bytes(data[i:], "little")
        h ^= (_rotl((k * _C1) & _MASK, 15) * _C2) & _MASK
    h ^= n
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    h ^= h >> 16
    return _signed(h)


_UNPACKERS: dict = {}


def _unpacker(n_words: int):
    """struct's little-endian word unpacker for n_words, made once per key length."""
    u = _UNPACKERS.get(n_words)
    if u is None:
        u = _UNPACKERS[n_words] = struct.Struct(f"<{n_words}I").unpack_from
    return u


def _mix3(k: int) -> int:
    return (_rotl((k * _C1) & _MASK, 15) * _C2) & _MASK


def _tail2(data: bytes, n: int) -> int:
    left = n & 3
    i = n - left
    t = 0
    if left >= 3:
        t ^= (_sbyte(data[i + 2]) << 16) & _MASK
    if left >= 2:
        t ^= (_sbyte(data[i + 1]) << 8) & _MASK
    return t ^ (_sbyte(data[i]) & _MASK) if left else -1


def _seeded2(ks: list, tail: int, n: int, seed: int) -> int:
    h = (seed ^ n) & _MASK
    for k in ks:
        h = ((h * _M) & _MASK) ^ k
    if tail >= 0:
        h = ((h ^ tail) * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    return _signed(h ^ (h >> 15))


def _seeded3(ks: list, tail: int, n: int, seed: int) -> int:
    h = seed & _MASK
    for k in ks:
        h = (_rotl(h ^ k, 13) * 5 + 0xE6546B64) & _MASK
    h ^= tail
    h ^= n
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    return _signed(h ^ (h >> 16))


def _python_pair(hash_type: int, data: bytes) -> tuple[int, int]:
    """hash_pair in Python: each word's mixing does not depend on the seed, so it is done
    once for both hashes."""
    n = len(data)
    words = _unpacker(n >> 2)(data)
    if hash_type == MURMUR_HASH:
        m, mask = _M, _MASK
        ks = []
        for k in words:
            k = (k * m) & mask
            ks.append(((k ^ (k >> 24)) * m) & mask)
        tail, seeded = _tail2(data, n), _seeded2
    else:
        left = n & 3
        tail = _mix3(int.from_bytes(data[n - left:], "little")) if left else 0
        ks, seeded = [_mix3(k) for k in words], _seeded3
    h1 = seeded(ks, tail, n, 0)
    return h1, seeded(ks, tail, n, h1)


def hash_pair(hash_type: int, data: bytes) -> tuple[int, int]:
    """(hash(data, 0), hash(data, that)): a bloom probe's two hashes, as Java ints. The
    murmurhash2 package's C functions compute them (Appleby's MurmurHash2 and MurmurHash3_x86_32)
    except where HBase's MurmurHash differs from C's, a tail byte >= 0x80 (see the module's
    docstring): those keys are hashed in Python."""
    n = len(data)
    left = n & 3
    if hash_type == MURMUR_HASH:
        if left and max(data[n - left:]) >= 0x80:
            return _python_pair(hash_type, data)
        c = _c_murmur2
    else:
        c = _c_murmur3
    h1 = c(data, 0)
    h2 = c(data, h1)
    return (h1 - (1 << 32) if h1 & 0x80000000 else h1,
            h2 - (1 << 32) if h2 & 0x80000000 else h2)


# --- vectorised ----------------------------------------------------------------------------


def _group_murmur(mat: np.ndarray, h: np.ndarray, length: int) -> np.ndarray:
    """murmur_hash of each row of `mat` (n x length bytes), seeds already mixed into h."""
    nw = length >> 2
    if nw:
        words = np.ascontiguousarray(mat[:, : nw * 4]).view("<u4")
        m = _U32(_M)
        for j in range(nw):
            k = words[:, j] * m
            k ^= k >> _U32(24)
            k *= m
            h *= m
            h ^= k
    left = length & 3
    if left:
        i = nw * 4
        tail = mat[:, i:].view(np.int8).astype(np.int32).view(np.uint32)  # sign-extended
        if left >= 3:
            h ^= tail[:, 2] << _U32(16)
        if left >= 2:
            h ^= tail[:, 1] << _U32(8)
        h ^= tail[:, 0]
        h *= _U32(_M)
    h ^= h >> _U32(13)
    h *= _U32(_M)
    h ^= h >> _U32(15)
    return h


def _vrotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << _U32(r)) | (x >> _U32(32 - r))


def _group_murmur3(mat: np.ndarray, h: np.ndarray, length: int) -> np.ndarray:
    nw = length >> 2
    c1, c2 = _U32(_C1), _U32(_C2)
    if nw:
        words = np.ascontiguousarray(mat[:, : nw * 4]).view("<u4")
        for j in range(nw):
            k = _vrotl(words[:, j] * c1, 15) * c2
            h = _vrotl(h ^ k, 13) * _U32(5) + _U32(0xE6546B64)
    left = length & 3
    if left:
        i = nw * 4
        k = np.zeros(len(h), dtype=np.uint32)
        for b in range(left - 1, -1, -1):
            k = (k << _U32(8)) | mat[:, i + b].astype(np.uint32)
        h ^= _vrotl(k * c1, 15) * c2
    h ^= _U32(length)
    h ^= h >> _U32(16)
    h *= _U32(0x85EBCA6B)
    h ^= h >> _U32(13)
    h *= _U32(0xC2B2AE35)
    h ^= h >> _U32(16)
    return h


def hash_many(hash_type: int, keys: list, seeds: np.ndarray | None = None) -> np.ndarray:
    """The hash of each key (uint32 bit patterns of HBase's ints), `seeds[i]` for key i (0 when
    None). Keys of one length are hashed together, as the rows of a byte matrix."""
    group = _group_murmur if hash_type == MURMUR_HASH else _group_murmur3
    n = len(keys)
    out = np.empty(n, dtype=np.uint32)
    seeds = np.zeros(n, dtype=np.uint32) if seeds is None else seeds.astype(np.uint32)
    lengths = np.fromiter(map(len, keys), dtype=np.int64, count=n)
    for length in np.unique(lengths).tolist():
        idx = np.flatnonzero(lengths == length)
        if len(idx) == n:
            picked = keys
        else:
            picked = [keys[i] for i in idx.tolist()]
        mat = np.frombuffer(b"".join(picked), dtype=np.uint8).reshape(len(idx), length)
        h = seeds[idx]
        if hash_type == MURMUR_HASH:
            h = h ^ _U32(length)
        out[idx] = group(mat, h, length)
    return out


HASH_FUNCTIONS = {MURMUR_HASH: murmur_hash, MURMUR_HASH3: murmur_hash3}
