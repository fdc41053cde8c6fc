"""Request distributions: exact agreement with YCSB's generators, and their shapes."""

import collections
import random

import pytest

from hsim.errors import InvalidArgumentError
from hsim.workloads.distributions import (
    Counter,
    Hotspot,
    ScrambledZipfian,
    Sequential,
    SkewedLatest,
    Uniform,
    Zipfian,
    fnv_hash64,
    zeta,
)


class JavaRandom:
    """java.util.Random's documented 48-bit LCG and nextDouble, to drive the generators with
    the same stream YCSB's classes saw when the expected sequences below were recorded."""

    def __init__(self, seed):
        self.s = (seed ^ 0x5DEECE66D) & ((1 << 48) - 1)

    def _next(self, bits):
        self.s = (self.s * 0x5DEECE66D + 0xB) & ((1 << 48) - 1)
        return self.s >> (48 - bits)

    def random(self):
        return ((self._next(26) << 27) + self._next(27)) * 2.0**-53


# Recorded by running YCSB's site.ycsb.Utils / generator classes (master) with their
# ThreadLocalRandom replaced by java.util.Random(seed). Their constructors draw once
# (SkewedLatestGenerator twice), which the tests skip.
JAVA_FNV = {
    0: 6284781860667377211, 1: 8517097267634966620, 999: 2071219101098386137,
    -1: 8289690350564177859, -123456789: 5585977156554308304,
    (1 << 63) - 1: 8289549613075766851, -(1 << 63): 6284922598155788219,
}
JAVA_ZIPF_1000 = [10, 2, 5, 785, 0, 761, 637, 673, 623, 9, 6, 4, 23, 0, 177, 75, 1, 8, 1, 99]
JAVA_ZIPF_5_100004_SEED7 = [5194, 42, 30091, 3177, 44, 7, 17213, 6, 43541, 1424, 7943, 753]
JAVA_SCRAMBLED_1000 = [864, 16, 279, 8, 211, 99, 486, 337, 726, 690, 864, 335, 209, 964, 726,
                       751, 834, 584, 308, 513]
JAVA_LATEST = [997, 994, 215, 999, 239, 363, 327, 377, 991, 995, 997, 978, 1001, 824, 926,
               1001, 994, 1001, 903, 772]


def test_fnv_hash64_matches_java():
    for val, expected in JAVA_FNV.items():
        assert fnv_hash64(val) == expected


def test_zeta_matches_java_sum():
    assert zeta(0, 1000, 0.99) == 7.728953217284729
    # incremental: the same additions in the same order
    assert zeta(100, 1000, 0.99, zeta(0, 100, 0.99)) == zeta(0, 1000, 0.99)


def test_zipfian_matches_ycsb():
    r = JavaRandom(1)
    z = Zipfian(0, 999, r)
    r.random()
    assert [z.next() for _ in range(20)] == JAVA_ZIPF_1000
    r = JavaRandom(7)
    z = Zipfian(5, 100004, r)
    r.random()
    assert [z.next() for _ in range(12)] == JAVA_ZIPF_5_100004_SEED7


def test_scrambled_zipfian_matches_ycsb():
    r = JavaRandom(1)
    s = ScrambledZipfian(0, 999, r)
    r.random()
    assert [s.next() for _ in range(20)] == JAVA_SCRAMBLED_1000


def test_skewed_latest_matches_ycsb_as_inserts_grow_the_item_count():
    r = JavaRandom(1)
    c = Counter(1000)
    latest = SkewedLatest(c, r)
    r.random()
    r.random()
    out = []
    for i in range(20):
        if i % 5 == 4:
            c.next()
        out.append(latest.next())
    assert out == JAVA_LATEST


def test_same_seed_same_sequence_other_seed_differs():
    def draw(seed):
        rng = random.Random(seed)
        gens = [Uniform(0, 99, rng), Zipfian(0, 99, rng), ScrambledZipfian(0, 99, rng),
                Hotspot(0, 99, 0.2, 0.8, rng), SkewedLatest(Counter(100), rng)]
        return [g.next() for _ in range(200) for g in gens]

    assert draw(5) == draw(5)
    assert draw(5) != draw(6)


def test_zipfian_head_frequencies_are_ycsbs():
    # ranks 0 and 1 are drawn exactly: P = 1/zeta(n) and 0.5^theta/zeta(n)
    n, draws = 1000, 100_000
    z = Zipfian(0, n - 1, random.Random(1))
    counts = collections.Counter(z.next() for _ in range(draws))
    zn = zeta(0, n, 0.99)
    assert counts[0] / draws == pytest.approx(1 / zn, abs=0.005)
    assert counts[1] / draws == pytest.approx(0.5**0.99 / zn, abs=0.004)
    assert counts.most_common(1)[0][0] == 0
    assert all(0 <= v < n for v in counts)
    # heavy head: the 10 most popular of 1000 items get over a third of the draws
    assert sum(c for _, c in counts.most_common(10)) / draws > 0.33


def test_scrambled_zipfian_scatters_a_skewed_head():
    n, draws = 1000, 50_000
    s = ScrambledZipfian(0, n - 1, random.Random(2))
    counts = collections.Counter(s.next() for _ in range(draws))
    assert all(0 <= v < n for v in counts)
    top, top_count = counts.most_common(1)[0]
    # the head item gets at least its zipfian share 1/ZETAN, and is not item 0
    assert top_count / draws >= 1 / ScrambledZipfian.ZETAN - 0.005
    assert top != 0
    # still skewed, if less than a plain zipfian (10^10 ranks fold onto n items): the top
    # 10% of items take well over the 10% a uniform draw gives them
    assert sum(c for _, c in counts.most_common(n // 10)) / draws > 0.25
    # and scattered: the popular items are not clustered at the low end
    hot = [v for v, _ in counts.most_common(20)]
    assert max(hot) > n // 2


def test_latest_favours_recent_items():
    c = Counter(10_000)
    latest = SkewedLatest(c, random.Random(3))
    draws = [latest.next() for _ in range(20_000)]
    newest = c.last_value
    assert all(0 < d <= newest for d in draws)
    recent = sum(1 for d in draws if d > newest - 100)
    assert recent / len(draws) > 0.5  # the newest 1% of items get most of the draws
    assert collections.Counter(draws).most_common(1)[0][0] >= newest - 1


def test_hotspot_fractions():
    h = Hotspot(100, 1099, 0.2, 0.8, random.Random(4))
    assert h.hot_interval == 200 and h.cold_interval == 800
    draws = [h.next() for _ in range(50_000)]
    assert all(100 <= d <= 1099 for d in draws)
    hot = sum(1 for d in draws if d < 300)
    assert hot / len(draws) == pytest.approx(0.8, abs=0.01)


def test_hotspot_rejects_bad_fractions_and_swaps_bounds():
    with pytest.raises(InvalidArgumentError):
        Hotspot(0, 99, 1.5, 0.8, random.Random())
    with pytest.raises(InvalidArgumentError):
        Hotspot(0, 9, 0.01, 0.8, random.Random())  # hot set of 0 items
    h = Hotspot(99, 0, 0.5, 0.5, random.Random())
    assert (h.lb, h.ub) == (0, 99)


def test_uniform_is_flat_and_bounded():
    u = Uniform(10, 19, random.Random(5))
    counts = collections.Counter(u.next() for _ in range(50_000))
    assert sorted(counts) == list(range(10, 20))
    assert max(counts.values()) / min(counts.values()) < 1.1


def test_sequential_and_counter():
    s = Sequential(5, 7)
    assert [s.next() for _ in range(7)] == [5, 6, 7, 5, 6, 7, 5]
    c = Counter(10)
    assert c.last_value == 9
    assert [c.next(), c.next()] == [10, 11] and c.last_value == 11


def test_zipfian_grows_item_count_incrementally():
    z = Zipfian(0, 99, random.Random(6))
    z.next_long(200)
    assert z.count_for_zeta == 200
    assert z.zetan == zeta(0, 200, 0.99)
    z.next_long(150)  # a smaller count keeps zeta, as YCSB does by default
    assert z.count_for_zeta == 200


def test_bad_bounds_are_rejected():
    rng = random.Random()
    for make in (lambda: Uniform(5, 4, rng), lambda: Zipfian(5, 4, rng),
                 lambda: ScrambledZipfian(5, 4, rng), lambda: Sequential(5, 4)):
        with pytest.raises(InvalidArgumentError, match=r"bounds reversed: \[5, 4\]"):
            make()
