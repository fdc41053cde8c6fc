"""HBase's bloom hashing, known answers first: MurmurHash and MurmurHash3 against published
vectors, the bloom bits against HBase's own TestBloomFilterChunk, the vectorised fill against
BloomFilterChunk.add spelled out in Java int arithmetic, and CompoundBloomWriter.add_many's
batches against one key at a time."""

from __future__ import annotations

import math
import random
import struct

import numpy as np
import pytest

from hsim.cell import Cell
from hsim.engine.bloom import (
    BloomFilterChunk, CompoundBloomWriter, chunk_bits, foldable_byte_size, java_float, rowcol_key,
)
from hsim.engine.murmur_hash import (
    MURMUR_HASH, MURMUR_HASH3, hash_many, murmur_hash, murmur_hash3,
)

# MurmurHash3_x86_32 vectors published with SMHasher (Appleby's verification values, quoted in
# the MurmurHash3 Wikipedia article and in Guava's Murmur3_32HashFunctionTest): (data, seed,
# hash as unsigned).
MURMUR3_VECTORS = [
    (b"", 0, 0),
    (b"", 1, 0x514E28B7),
    (b"", 0xFFFFFFFF, 0x81F16F39),
    (b"\0\0\0\0", 0, 0x2362F9DE),
    (b"aaaa", 0x9747B28C, 0x5A97808A),
    (b"abc", 0, 0xB3DD93FA),
    (b"Hello, world!", 0x9747B28C, 0x24884CBA),
    (b"The quick brown fox jumps over the lazy dog", 0x9747B28C, 0x2FA826CD),
]

# MurmurHash 2.0 (32-bit): the values of Appleby's C reference (SMHasher MurmurHash2.cpp,
# `MurmurHash2(key, len, seed)`, compiled and run on these ASCII keys). HBase's Java port agrees
# wherever the 1-3 tail bytes are below 0x80 (it sign-extends them; see the next test).
MURMUR2_VECTORS = [
    (b"", 0, 0), (b"", 0x9747B28C, 275646681),
    (b"a", 0, 2456313694), (b"a", 0x9747B28C, 2731586172),
    (b"ab", 0, 446775395), (b"abc", 0, 324500635), (b"abcd", 0, 646393889),
    (b"abcd", 0x9747B28C, 2971317748), (b"hello", 0, 3848350155),
    (b"The quick brown fox jumps over the lazy dog", 0, 556214736),
    (b"The quick brown fox jumps over the lazy dog", 0x9747B28C, 495243318),
    (b"row000123", 0, 1676612958), (b"row000123", 0x9747B28C, 494115431),
]


def _signed(h: int) -> int:
    return h - (1 << 32) if h >= 1 << 31 else h


@pytest.mark.parametrize("data,seed,want", MURMUR3_VECTORS)
def test_murmur_hash3_published_vectors(data, seed, want):
    assert murmur_hash3(data, _signed(seed)) == _signed(want)
    assert hash_many(MURMUR_HASH3, [data], np.array([seed], dtype=np.uint32))[0] == want


@pytest.mark.parametrize("data,seed,want", MURMUR2_VECTORS)
def test_murmur_hash_reference_vectors(data, seed, want):
    assert murmur_hash(data, _signed(seed)) == _signed(want)
    assert hash_many(MURMUR_HASH, [data], np.array([seed], dtype=np.uint32))[0] == want


def _java_murmur(data: bytes, seed: int) -> int:
    """MurmurHash.hash transcribed with Java's signed bytes and ints (wrapping at 32 bits)."""
    def i32(x):
        return ((x + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
    jbyte = [b - 256 if b > 127 else b for b in data]
    m, n = 0x5BD1E995, len(data)
    h = i32(seed ^ n)
    for i in range(n >> 2):
        k = jbyte[4 * i + 3]
        for j in (2, 1, 0):
            k = i32(k << 8) | (jbyte[4 * i + j] & 0xFF)
        k = i32(k * m)
        k ^= (k & 0xFFFFFFFF) >> 24
        k = i32(k * m)
        h = i32(h * m) ^ k
    left, base = n & 3, n & ~3
    if left:
        if left >= 3:
            h ^= i32(jbyte[base + 2] << 16)
        if left >= 2:
            h ^= i32(jbyte[base + 1] << 8)
        h ^= jbyte[base]
        h = i32(h * m)
    h ^= (h & 0xFFFFFFFF) >> 13
    h = i32(h * m)
    h ^= (h & 0xFFFFFFFF) >> 15
    return i32(h)


def test_murmur_hash_sign_extends_tail_bytes_as_hbase_does():
    """HBase's MurmurHash XORs the tail bytes as Java bytes (sign-extended): for a tail byte
    >= 0x80 that is not C MurmurHash2's value, and HBase's is the one its blooms hold."""
    rnd = random.Random(7)
    keys = [bytes([0x80]), bytes([0xFF, 0x01, 0xC3]), b"abcd\xfe\xfd"]
    keys += [rnd.randbytes(rnd.randrange(0, 24)) for _ in range(300)]
    seeds = [rnd.getrandbits(32) for _ in keys]
    vector = hash_many(MURMUR_HASH, keys, np.array(seeds, dtype=np.uint32))
    for key, seed, v in zip(keys, seeds, vector.tolist()):
        want = _java_murmur(key, _signed(seed))
        assert murmur_hash(key, _signed(seed)) == want
        assert _signed(v) == want


@pytest.mark.parametrize("hash_type,scalar", [(MURMUR_HASH, murmur_hash),
                                              (MURMUR_HASH3, murmur_hash3)])
def test_vectorised_hash_equals_one_key_at_a_time(hash_type, scalar):
    rnd = random.Random(hash_type)
    keys = [rnd.randbytes(rnd.choice((0, 1, 2, 3, 4, 5, 9, 16, 16, 16, 33))) for _ in range(2000)]
    seeds = np.array([rnd.getrandbits(32) for _ in keys], dtype=np.uint32)
    got = hash_many(hash_type, keys, seeds).tolist()
    assert got == [scalar(k, _signed(s)) & 0xFFFFFFFF for k, s in zip(keys, seeds.tolist())]


# --- the bits: HBase's TestBloomFilterChunk --------------------------------------------------


def _test_chunk(max_keys: int, err: float, fold: int) -> tuple[int, int]:
    """new BloomFilterChunk(maxKeys, errorRate, MURMUR_HASH, foldFactor): (byte size, hashes)."""
    bit_size = math.ceil(max_keys * (-math.log(err) / (math.log(2) ** 2)))
    return foldable_byte_size(bit_size, fold), math.ceil(math.log(2) * (bit_size // max_keys))


def _chunk(keys, size_and_count) -> BloomFilterChunk:
    byte_size, k = size_and_count
    return BloomFilterChunk(chunk_bits(keys, k, MURMUR_HASH, byte_size), k, MURMUR_HASH)


def test_hbase_test_bloom_filter_chunk_basic_bloom():
    """TestBloomFilterChunk.testBasicBloom: with MurmurHash these keys answer exactly so."""
    params = _test_chunk(1000, java_float(0.01), 0)
    key1, key2 = bytes([1, 2, 3, 4, 5, 6, 7, 8, 9]), bytes([1, 2, 3, 4, 5, 6, 7, 8, 7])
    bf1, bf2 = _chunk([key1], params), _chunk([key2], params)
    assert key1 in bf1 and key2 not in bf1 and key1 not in bf2 and key2 in bf2
    bkey, bval = bytes([1, 2, 3, 4]), b"this is a much larger byte array"
    bf1 = _chunk([key1, bkey, bval[1:]], params)
    assert bkey in bf1 and bval[1:] in bf1 and bval not in bf1


def test_hbase_test_bloom_filter_chunk_fold():
    """TestBloomFilterChunk.testBloomFold: 1204 bytes, 12 int keys, folded to a quarter, at most
    one false positive among the next 13 ints."""
    byte_size, k = _test_chunk(1003, java_float(0.01), 2)
    assert byte_size == 1204
    keys = [struct.pack(">i", i) for i in range(12)]
    folded = _chunk(keys, (byte_size >> 2, k))
    assert all(key in folded for key in keys)
    assert sum(struct.pack(">i", i) in folded for i in range(12, 25)) <= 1


def _java_chunk(keys, hash_count: int, byte_size: int, folded_size: int) -> bytes:
    """BloomFilterChunk.add + compactBloom transcribed: positions |(int)(h1 + i*h2)| % bits in
    the unfolded array, then the pieces ORed into the first."""
    bits = bytearray(byte_size)
    for key in keys:
        h1 = _java_murmur(key, 0)
        h2 = _java_murmur(key, h1)
        for i in range(hash_count):
            c = ((h1 + i * h2 + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
            loc = abs(math.fmod(c, byte_size * 8))
            bits[int(loc) >> 3] |= 1 << (int(loc) & 7)
    out = bytearray(bits[:folded_size])
    for p in range(1, byte_size // folded_size):
        for j in range(folded_size):
            out[j] |= bits[p * folded_size + j]
    return bytes(out)


@pytest.mark.parametrize("n,k,byte_size,folded_size", [
    (5, 7, 1024, 1024), (5, 7, 1024, 8), (15, 4, 640, 40),  # the per-key path
    (300, 7, 4096, 512), (2000, 8, 131072, 4096), (1500, 30, 2048, 2048),  # numpy
])
def test_chunk_bits_are_bloom_filter_chunk_add_then_fold(n, k, byte_size, folded_size):
    rnd = random.Random(n * k)
    keys = [rnd.randbytes(rnd.choice((0, 3, 8, 17, 24))) for _ in range(n)]
    assert chunk_bits(keys, k, MURMUR_HASH, folded_size) == \
        _java_chunk(keys, k, byte_size, folded_size)


def test_a_probe_uses_the_last_keys_hashes_as_a_fresh_hash_would():
    """A Get probes every file's bloom with the same key: the hashes are kept for the next
    probe (per hash type); the answers are a fresh computation's."""
    from hsim.engine import bloom as bloom_mod
    rnd = random.Random(3)
    keys = [b"row%d" % rnd.randrange(10 ** 6) for _ in range(60)]
    chunks = [BloomFilterChunk(chunk_bits(keys[:30], k, t, size), k, t)
              for t in (MURMUR_HASH, MURMUR_HASH3) for k, size in ((7, 64), (8, 4096))]
    for key in keys + keys[::-1]:
        for c in chunks:
            memo = key in c
            bloom_mod._last_hashed.clear()
            assert memo == (key in c)
    assert all(key in c for c in chunks for key in keys[:30])


# --- add_many ------------------------------------------------------------------------------------

def _stream(rnd: random.Random, n: int, rowcol: bool) -> tuple[list[bytes], list[Cell]]:
    """Sorted cells and the bloom keys the HFile writer would add for them."""
    cells = sorted(Cell.make(b"row%05d" % rnd.randrange(n), b"f", b"q%02d" % rnd.randrange(20),
                             1000, 4, b"v", i) for i in range(n))
    keys, kept, last = [], [], None
    for c in cells:
        k = rowcol_key(c[0], c[2]) if rowcol else c[0]
        if k != last:
            keys.append(k)
            kept.append(c)
            last = k
    return keys, kept


def _state(w: CompoundBloomWriter, ready: list) -> tuple:
    return (ready, w.last_key, w.key_count, w.byte_size, w.max_keys, w.num_chunks,
            w._keys, w._first_key)


@pytest.mark.parametrize("bloom_type", ["ROW", "ROWCOL"])
@pytest.mark.parametrize("chunk_bytes", [64, 512, 131072])
def test_add_many_in_batches_matches_one_key_at_a_time(bloom_type, chunk_bytes):
    rnd = random.Random(chunk_bytes)
    keys, cells = _stream(rnd, 6000, bloom_type == "ROWCOL")
    one = CompoundBloomWriter(bloom_type, 0.01, chunk_bytes, 7)
    many = CompoundBloomWriter(bloom_type, 0.01, chunk_bytes, 7)
    ready_one, ready_many = [], []
    sizes = (0, 1, 3, 50, one.chunk_max_keys, 3 * one.chunk_max_keys)
    i = 0
    while i < len(keys):
        # batches of 0 keys, within a chunk, and spanning several chunks
        j = min(len(keys), i + rnd.choice(sizes))
        for k in range(i, j):
            one.add_many([keys[k]], [cells[k]])
        many.add_many(keys[i:j], cells[i:j])
        ready_one += one.ready_chunks(False)
        ready_many += many.ready_chunks(False)
        assert _state(many, ready_many) == _state(one, ready_one)
        i = j
    ready_one += one.ready_chunks(True)
    ready_many += many.ready_chunks(True)
    assert _state(many, ready_many) == _state(one, ready_one)
    assert len(ready_one) == one.num_chunks >= (2 if chunk_bytes < 131072 else 1)
    for w in (one, many):
        for n, (first_key, body) in enumerate(ready_one):
            w.chunk_written(first_key, n * 1000, len(body))
    assert many.meta_body() == one.meta_body()


def test_row_prefix_writer_cuts_and_dedups_across_batches():
    """RowPrefixFixedLengthBloomContext: keys are the rows' first prefix_length bytes; a prefix
    equal to the previous one (in this batch or the last) is not added again."""
    rows = [b"aa1", b"aa2", b"ab", b"ab9", b"b", b"bz1"]
    cells = [Cell.make(r, b"f", b"q", 1, 4, b"", 1) for r in rows]
    w = CompoundBloomWriter("ROWPREFIX_FIXED_LENGTH", 0.01, 512, 7, prefix_length=2)
    w.add_many(rows[:3], cells[:3])
    w.add_many(rows[3:], cells[3:])
    [(first_key, body)] = w.ready_chunks(True)
    assert first_key == b"aa" and w.key_count == 4 and w.last_key == b"bz"
    chunk = BloomFilterChunk(body, w.hash_count, MURMUR_HASH)
    assert all(p in chunk for p in (b"aa", b"ab", b"b", b"bz"))


def test_add_many_rejects_mismatched_lengths():
    w = CompoundBloomWriter("ROW", 0.01, 512, 7)
    with pytest.raises(ValueError):
        w.add_many([b"a", b"b"], [Cell.make(b"a", b"f", b"", 1, 4, b"")])


@pytest.mark.parametrize("hash_type,scalar", [(MURMUR_HASH, murmur_hash),
                                              (MURMUR_HASH3, murmur_hash3)])
def test_probe_hash_pair_equals_the_scalar_hashes(hash_type, scalar):
    """hash_pair (C for most keys, Python for HBase's sign-extended tails) is (hash(key, 0),
    hash(key, that)), whichever path a key takes."""
    from hsim.engine.murmur_hash import _python_pair, hash_pair
    rnd = random.Random(11 + hash_type)
    keys = [rnd.randbytes(rnd.randrange(0, 30)) for _ in range(3000)] + [b"ab\x80", b"\xff"]
    for key in keys:
        h1 = scalar(key, 0)
        assert hash_pair(hash_type, key) == (h1, scalar(key, h1)) == _python_pair(hash_type, key)
