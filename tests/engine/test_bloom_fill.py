"""The bulk bloom fill and CompoundBloomWriter.add_many: fast paths that must set exactly the
bits, and close exactly the chunks, of the straightforward per-key ones."""

from __future__ import annotations

import hashlib
import random
import struct

import pytest

from hsim.cell import Cell
from hsim.engine import bloom
from hsim.engine.bloom import CompoundBloomWriter, _fill, _fill_keys, _pybloom, rowcol_key

# (error rate, slices): k <= 8 takes the digest's words as they are, k > 8 derives the rest.
RATES = [(0.01, 7), (0.005, 8), (0.001, 10), (1e-6, 20)]


def reference_fill(bf, keys) -> None:
    """The formula, spelled out: BLAKE2b of 8*min(k, 8) bytes as little-endian uint64 words,
    words 8.. as h1 + i*h2 + (i^3 - i)/6 (Python ints), slice i's bit at i*bps + w_i % bps."""
    k, bps = bf.num_slices, bf.bits_per_slice
    n = min(k, 8)
    for key in keys:
        w = list(struct.unpack(f"<{n}Q", hashlib.blake2b(key, digest_size=8 * n).digest()))
        for i in range(8, k):
            w.append(w[0] + i * w[1] + (i * i * i - i) // 6)
        for i in range(k):
            bf.bitarray[i * bps + w[i] % bps] = 1
    bf.count += len(keys)


def _keys(rnd: random.Random, n: int) -> list[bytes]:
    """Random keys of mixed lengths: empty, short, and past BLAKE2b's 128-byte block."""
    return [rnd.randbytes(rnd.choice((0, 1, 9, 16, 16, 16, 40, 127, 128, 129, 300)))
            for _ in range(n)]


@pytest.mark.parametrize("err,k", RATES)
@pytest.mark.parametrize("capacity", [1, 10, 17, 100, 1000, 20000, 109306])
def test_fill_sets_the_reference_bits(err, k, capacity):
    rnd = random.Random(capacity * 1000 + k)
    for n in sorted({1, 5, capacity // 3, capacity, 2 * capacity + 1}):
        if n > 30000:
            continue
        keys = _keys(rnd, n)
        want = _pybloom(capacity, err)
        assert want.num_slices == k
        reference_fill(want, keys)
        for fill in (_fill, _fill_keys):
            got = _pybloom(capacity, err)
            fill(got, keys)
            assert got.bitarray == want.bitarray, (fill.__name__, n)
            assert got.count == want.count == n


@pytest.mark.parametrize("err,k", RATES)
def test_fill_adds_to_bits_already_set(err, k):
    keys = _keys(random.Random(k), 3000)
    want = _pybloom(3000, err)
    reference_fill(want, keys)
    got = _pybloom(3000, err)
    _fill(got, keys[:1000])
    _fill(got, keys[1000:1007])  # below the numpy threshold
    _fill(got, keys[1007:])
    assert got.bitarray == want.bitarray and got.count == 3000


@pytest.mark.parametrize("err,k", RATES)
def test_filled_keys_are_members(err, k):
    keys = _keys(random.Random(7 + k), 2000)
    bf = _pybloom(2000, err)
    _fill(bf, keys)
    assert all(key in bf for key in keys)


def _counter_keys(seed: int, n: int) -> list[bytes]:
    return [hashlib.blake2b(b"%d:%d" % (seed, i), digest_size=4 + i % 29).digest()
            for i in range(n)]


@pytest.mark.parametrize("capacity,err,digest", [
    (1000, 0.01, "80d7ea56653b5cc0"),
    (5000, 0.005, "78b8783a592c208a"),
    (3000, 0.001, "f3df6a8633bf34c4"),
    (2000, 1e-6, "59e1c6e957c74438"),
])
def test_fill_bits_are_pinned(capacity, err, digest):
    # Digests of the bits the per-key fill set before the bulk fill existed: chunk bodies are
    # on-"disk" bytes, so they must not drift between versions.
    bf = _pybloom(capacity, err)
    _fill(bf, _counter_keys(capacity, capacity))
    assert hashlib.sha256(bf.bitarray.tobytes()).hexdigest()[:16] == digest


def test_fill_below_the_numpy_threshold_uses_the_per_key_path(monkeypatch):
    keys = _keys(random.Random(3), 500)
    want = _pybloom(500, 0.001)
    reference_fill(want, keys)
    monkeypatch.setattr(bloom, "_NUMPY_MIN_KEYS", 10**9)
    got = _pybloom(500, 0.001)
    _fill(got, keys)
    assert got.bitarray == want.bitarray


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
    return (ready, w.last_key, w.key_count, w.byte_size, w.max_keys, w.chunk_counts,
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
    assert len(ready_one) == len(one.chunk_counts) >= (2 if chunk_bytes < 131072 else 1)
    for w in (one, many):
        for n, (first_key, body) in enumerate(ready_one):
            w.chunk_written(first_key, n * 1000, len(body))
    assert many.meta_body() == one.meta_body()


def test_batches_of_different_sizes_continue_the_same_chunk():
    keys, cells = _stream(random.Random(5), 2000, False)
    one = CompoundBloomWriter("ROW", 0.01, 512, 7)
    mixed = CompoundBloomWriter("ROW", 0.01, 512, 7)
    for k, c in zip(keys, cells):
        one.add_many([k], [c])
    mixed.add_many(keys[:700], cells[:700])
    for k, c in zip(keys[700:900], cells[700:900]):
        mixed.add_many([k], [c])
    mixed.add_many(keys[900:], cells[900:])
    assert mixed.ready_chunks(True) == one.ready_chunks(True)
    assert _state(mixed, []) == _state(one, [])


def test_add_many_rejects_mismatched_lengths():
    w = CompoundBloomWriter("ROW", 0.01, 512, 7)
    with pytest.raises(ValueError):
        w.add_many([b"a", b"b"], [Cell.make(b"a", b"f", b"", 1, 4, b"")])
