"""HBase's bloom against a textbook one: a full chunk sized by BloomFilterUtil.createBySize at
1% and pybloom-live's filter for the same keys and error rate (an independent implementation
of the same mathematics) both keep their false positives near 1%, and HBase's measured rate is
what BloomFilterUtil.actualErrorRate predicts for the chunk."""

import random

from pybloom_live import BloomFilter

from hsim.engine.bloom import BloomFilterChunk, actual_error_rate, chunk_bits, chunk_params
from hsim.engine.murmur_hash import MURMUR_HASH


def false_positive_rate(contains, probes: list) -> float:
    return sum(1 for k in probes if contains(k)) / len(probes)


def test_hbase_bloom_and_a_textbook_bloom_agree_on_false_positives():
    rnd = random.Random(7)
    byte_size, hash_count, max_keys = chunk_params(8 * 1024, 0.01, 7)
    keys = [b"row-%d" % rnd.getrandbits(48) for _ in range(max_keys)]
    probes = [b"other-%d" % rnd.getrandbits(48) for _ in range(40_000)]

    chunk = BloomFilterChunk(chunk_bits(keys, hash_count, MURMUR_HASH, byte_size), hash_count,
                             MURMUR_HASH)
    textbook = BloomFilter(capacity=max_keys, error_rate=0.01)
    for k in keys:
        textbook.add(k)

    assert all(k in chunk for k in keys) and all(k in textbook for k in keys)
    hbase_rate = false_positive_rate(chunk.__contains__, probes)
    textbook_rate = false_positive_rate(textbook.__contains__, probes)
    predicted = actual_error_rate(max_keys, byte_size * 8, hash_count)
    assert 0.005 < hbase_rate < 0.02 and 0.003 < textbook_rate < 0.02
    assert abs(hbase_rate - predicted) < 0.004
