"""Request distributions: which item a workload touches next.

Each generator follows the YCSB class of the same name (brianfrankcooper/YCSB,
site.ycsb.generator.*) so that a "zipfian" or "latest" hsim run skews the way a YCSB run
does. YCSB draws from unseeded thread-local randoms; here every generator takes a seeded
`random.Random`, so the same seed gives the same sequence.
"""

from __future__ import annotations

import random

from hsim.errors import InvalidArgumentError

ZIPFIAN_CONSTANT = 0.99  # ZipfianGenerator.ZIPFIAN_CONSTANT

_M64 = (1 << 64) - 1
_FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325
_FNV_PRIME_64 = 1099511628211


def fnv_hash64(val: int) -> int:
    """YCSB's Utils.fnvhash64: FNV-1a over the 8 low-first bytes of a Java long, then
    Math.abs. Java's 64-bit wrap-around is reproduced, so key names built from it ("user" +
    hash) match YCSB's. (Its arithmetic `>> 8` only fills bits it never reads back.)"""
    h = _FNV_OFFSET_BASIS_64
    for octet in (val & _M64).to_bytes(8, "little"):
        h = ((h ^ octet) * _FNV_PRIME_64) & _M64
    if h >= 1 << 63:  # to a signed long, then Math.abs (which leaves Long.MIN_VALUE as is)
        h -= 1 << 64
        if h != -(1 << 63):
            h = -h
    return h


def zeta(start: int, n: int, theta: float, initial: float = 0.0) -> float:
    """ZipfianGenerator.zetastatic: initial + sum of 1/i^theta for i in (start, n]. Summed
    one term at a time, in order, as Java does (no compensated summation)."""
    s = initial
    for i in range(start + 1, n + 1):
        s += 1.0 / (i**theta)
    return s


def _items(kind: str, lo: int, hi: int) -> int:
    """How many integers [lo, hi] holds; InvalidArgumentError if none (reversed bounds)."""
    if hi < lo:
        raise InvalidArgumentError(f"{kind} bounds reversed: [{lo}, {hi}]")
    return hi - lo + 1


class Uniform:
    """UniformLongGenerator: every integer in [lb, ub] equally likely."""

    __slots__ = ("lb", "ub", "last_value", "_randrange", "_interval")

    def __init__(self, lb: int, ub: int, rng: random.Random):
        self._interval = _items("uniform", lb, ub)
        self.lb, self.ub = lb, ub
        self._randrange = rng.randrange
        self.last_value = None

    def next(self) -> int:
        v = self.lb + self._randrange(self._interval)
        self.last_value = v
        return v


class Zipfian:
    """ZipfianGenerator (Gray et al., SIGMOD 1994): item `min` is the most popular, min+1 the
    next, and so on, with P(rank i) proportional to 1/i^constant.

    `next_long(itemcount)` may grow the item count; zeta then grows incrementally, as in YCSB.
    YCSB recomputes eta from the *constructor's* item count even then; that is kept, since
    it is what YCSB's "latest" distribution draws from."""

    __slots__ = (
        "base", "items", "theta", "zetan", "eta", "alpha", "zeta2theta", "count_for_zeta",
        "allow_itemcount_decrease", "last_value", "_random", "_half_pow_theta",
    )

    def __init__(
        self,
        min_value: int,
        max_value: int,
        rng: random.Random,
        constant: float = ZIPFIAN_CONSTANT,
        zetan: float | None = None,
    ):
        items = _items("zipfian", min_value, max_value)
        self.base = min_value
        self.items = items
        self.theta = constant
        self.zeta2theta = zeta(0, 2, constant)
        self.alpha = 1.0 / (1.0 - constant)
        self.zetan = zeta(0, items, constant) if zetan is None else zetan
        self.count_for_zeta = items
        self.eta = self._eta()
        self.allow_itemcount_decrease = False
        self._half_pow_theta = 0.5**constant
        self._random = rng.random
        self.last_value = None

    def _eta(self) -> float:
        return (1 - (2.0 / self.items) ** (1 - self.theta)) / (1 - self.zeta2theta / self.zetan)

    def next_long(self, itemcount: int) -> int:
        if itemcount != self.count_for_zeta:
            if itemcount > self.count_for_zeta:
                self.zetan = zeta(self.count_for_zeta, itemcount, self.theta, self.zetan)
                self.count_for_zeta = itemcount
                self.eta = self._eta()
            elif self.allow_itemcount_decrease:
                self.zetan = zeta(0, itemcount, self.theta)
                self.count_for_zeta = itemcount
                self.eta = self._eta()
        u = self._random()
        uz = u * self.zetan
        if uz < 1.0:
            return self.base  # YCSB returns the first two ranks without recording last_value
        if uz < 1.0 + self._half_pow_theta:
            return self.base + 1
        eta = self.eta
        ret = self.base + int(itemcount * (eta * u - eta + 1) ** self.alpha)
        self.last_value = ret
        return ret

    def next(self) -> int:
        return self.next_long(self.items)


class ScrambledZipfian:
    """ScrambledZipfianGenerator: zipfian popularity, but the popular items are scattered over
    [min, max] by an FNV hash instead of clustered at `min`. Draws from a zipfian over 10^10
    items with YCSB's precomputed zeta, then hashes into the range (so only constant 0.99)."""

    ITEM_COUNT = 10_000_000_000  # 10^10, the count YCSB precomputed ZETAN for
    ZETAN = 26.46902820178302

    __slots__ = ("min", "max", "item_count", "last_value", "_gen")

    def __init__(self, min_value: int, max_value: int, rng: random.Random):
        self.item_count = _items("scrambled zipfian", min_value, max_value)
        self.min, self.max = min_value, max_value
        self._gen = Zipfian(0, self.ITEM_COUNT, rng, ZIPFIAN_CONSTANT, self.ZETAN)
        self.last_value = None

    def next(self) -> int:
        v = self.min + fnv_hash64(self._gen.next()) % self.item_count
        self.last_value = v
        return v


class Counter:
    """CounterGenerator: start, start+1, ...; `last_value` is the last one handed out. Also
    stands in for YCSB's AcknowledgedCounterGenerator, since a single-threaded simulation
    acknowledges every insert before the next operation."""

    __slots__ = ("_next",)

    def __init__(self, start: int = 0):
        self._next = start

    def next(self) -> int:
        v = self._next
        self._next = v + 1
        return v

    @property
    def last_value(self) -> int:
        return self._next - 1


class SkewedLatest:
    """SkewedLatestGenerator: zipfian over the distance back from the newest item of `basis`,
    so the most recently inserted items are the most popular (YCSB workload D)."""

    __slots__ = ("basis", "last_value", "_zipfian")

    def __init__(self, basis: Counter, rng: random.Random):
        self.basis = basis
        self._zipfian = Zipfian(0, basis.last_value - 1, rng)
        self.last_value = None

    def next(self) -> int:
        newest = self.basis.last_value
        v = newest - self._zipfian.next_long(newest)
        self.last_value = v
        return v


class Hotspot:
    """HotspotIntegerGenerator: a fraction `hot_op_fraction` of draws fall uniformly in the
    hot set, the lowest `hot_set_fraction` of [lb, ub]; the rest fall uniformly in the cold
    set above it. YCSB silently zeroes out-of-range fractions; here they are an error."""

    __slots__ = ("lb", "ub", "hot_interval", "cold_interval", "hot_set_fraction",
                 "hot_op_fraction", "last_value", "_random", "_randrange")

    def __init__(self, lb: int, ub: int, hot_set_fraction: float, hot_op_fraction: float,
                 rng: random.Random):
        if not (0.0 <= hot_set_fraction <= 1.0 and 0.0 <= hot_op_fraction <= 1.0):
            raise InvalidArgumentError(
                f"hotspot fractions must lie in [0, 1]: {hot_set_fraction}, {hot_op_fraction}")
        if ub < lb:
            lb, ub = ub, lb  # YCSB swaps reversed bounds
        interval = ub - lb + 1
        self.lb, self.ub = lb, ub
        self.hot_interval = int(interval * hot_set_fraction)
        self.cold_interval = interval - self.hot_interval
        if (self.hot_interval == 0 and hot_op_fraction > 0) or (
                self.cold_interval == 0 and hot_op_fraction < 1):
            raise InvalidArgumentError(
                f"hotspot over {interval} items leaves the hot or cold set empty")
        self.hot_set_fraction = hot_set_fraction
        self.hot_op_fraction = hot_op_fraction
        self._random = rng.random
        self._randrange = rng.randrange
        self.last_value = None

    def next(self) -> int:
        if self._random() < self.hot_op_fraction:
            v = self.lb + self._randrange(self.hot_interval)
        else:
            v = self.lb + self.hot_interval + self._randrange(self.cold_interval)
        self.last_value = v
        return v


class Sequential:
    """SequentialGenerator: start, start+1, ..., end, then around again."""

    __slots__ = ("start", "interval", "last_value", "_count")

    def __init__(self, start: int, end: int):
        self.interval = _items("sequential", start, end)
        self.start = start
        self._count = 0
        self.last_value = None

    def next(self) -> int:
        v = self.start + self._count % self.interval
        self._count += 1
        self.last_value = v
        return v
