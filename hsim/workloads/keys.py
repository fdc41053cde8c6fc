"""Row-key designs: the HBase book's "Rowkey Design" techniques (seed 000: hotspotting,
salting, hashing, reversing, monotonically increasing keys, reverse timestamps, the log-data
case study's bucketing) and seed 002's "swap your first two key levels", as plain functions
that return bytes, and as `KeyDesign`s that lay out time-series records.

A time-series record is (ts, entity): a timestamp in ms and the thing it is about (a host and
event, a metric), as bytes. Entities are concatenated without separators, so give them a fixed
width (the book's advice: substitute a hash or a number for long names).

A scan range is (start_row, stop_row): start inclusive, stop exclusive, b"" for an open end.
"""

from __future__ import annotations

import bisect
import hashlib
import inspect
import random
import struct

from hsim.config import LONG_MAX
from hsim.errors import InvalidArgumentError

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable
    from typing import Any

_Q = struct.Struct(">q")
_I = struct.Struct(">I")
_H = struct.Struct(">H")
_u24 = struct.Struct(">I").pack

FULL_SCAN = [(b"", b"")]
TS_DIGITS = 13  # decimal ms timestamps up to the year 2286
LONG_DIGITS = 19  # decimal width of Long.MAX_VALUE


# ---- composable pieces -------------------------------------------------------------------


def long_bytes(n: int) -> bytes:
    """A number as Bytes.toBytes(long): 8 bytes, big-endian, fixed width."""
    return _Q.pack(n)


def decimal_bytes(n: int, width: int = 0) -> bytes:
    """A number as a decimal string, zero-padded to `width` (width 0: "derp sort", 12 < 2)."""
    return str(n).zfill(width).encode()


def reverse_timestamp(ts: int) -> bytes:
    """Long.MAX_VALUE - ts as 8 bytes, so newer sorts first (the book's reverse timestamp)."""
    return _Q.pack(LONG_MAX - ts)


def reverse_timestamp_decimal(ts: int) -> bytes:
    """Long.MAX_VALUE - ts as a 19-digit decimal string."""
    return str(LONG_MAX - ts).zfill(LONG_DIGITS).encode()


def md5_prefix(key: bytes, k: int) -> bytes:
    """The first k bytes of the key's MD5: a deterministic, evenly spread prefix."""
    return hashlib.md5(key).digest()[:k]


def hashed(key: bytes, k: int = 1) -> bytes:
    """The key with its MD5 prefix prepended: spread like salt, yet rebuildable for a Get."""
    return md5_prefix(key, k) + key


def salt_bucket(key: bytes, buckets: int) -> int:
    """The salt bucket Phoenix gives a key (SaltingUtil.getSaltingByte): Java's array hash
    31*h + b over signed bytes, as a 32-bit int, then abs(hash % buckets)."""
    h = 1
    for b in key:
        h = (31 * h + (b - 256 if b > 127 else b)) & 0xFFFFFFFF
    if h > 0x7FFFFFFF:
        h -= 1 << 32
    return abs(h) % buckets  # = Java's Math.abs(hash % buckets)


def bucket_prefix(bucket: int, buckets: int) -> bytes:
    """A salt or time bucket as a fixed-width prefix: 1 byte up to 256 buckets, else 2."""
    return bytes((bucket,)) if buckets <= 256 else _H.pack(bucket)


def salted(key: bytes, buckets: int, rng: random.Random | None = None) -> bytes:
    """The key behind a salt prefix: the book's randomly assigned one when `rng` is given
    (a reader must then try every bucket), else Phoenix's hash of the key."""
    b = rng.randrange(buckets) if rng is not None else salt_bucket(key, buckets)
    return bucket_prefix(b, buckets) + key


def reverse_digits(n: int, width: int) -> bytes:
    """A fixed-width decimal number with its digits reversed: the least significant digit,
    the one that changes most often, leads."""
    return str(n).zfill(width)[::-1].encode()


def reverse_domain(host: str | bytes) -> bytes:
    """www.example.com -> com.example.www, so one organisation's hosts sort together."""
    if isinstance(host, bytes):
        host = host.decode()
    return ".".join(reversed(host.split("."))).encode()


def bucketed(ts: int, buckets: int, rest: bytes = b"") -> bytes:
    """The log-data case study's [bucket][timestamp][rest], bucket = timestamp % numBuckets."""
    return bucket_prefix(ts % buckets, buckets) + _Q.pack(ts) + rest


def buckets_for_time_range(start_ts: int, stop_ts: int, buckets: int) -> list[int]:
    """The time buckets holding [start_ts, stop_ts): all of them once the range spans
    `buckets` ms, since consecutive timestamps rotate through the buckets."""
    if stop_ts - start_ts >= buckets:
        return list(range(buckets))
    return sorted({t % buckets for t in range(start_ts, stop_ts)})


def opentsdb_row_key(metric_uid: int, ts_seconds: int, tags: tuple = ()) -> bytes:
    """OpenTSDB's row: [metric uid:3][base time:4, seconds rounded down to the hour]
    [tagk uid:3][tagv uid:3]... with tag pairs sorted by tagk uid."""
    base = ts_seconds - ts_seconds % 3600
    parts = [_u24(metric_uid)[1:], _I.pack(base)]
    for k, v in sorted(tags):
        parts.append(_u24(k)[1:])
        parts.append(_u24(v)[1:])
    return b"".join(parts)


def opentsdb_qualifier(ts_seconds: int, value_length: int = 8, is_float: bool = False) -> bytes:
    """OpenTSDB's 2-byte column for a point in its hour row: the offset in seconds in the
    top 12 bits, then a float flag and (value length - 1) in the low 4."""
    flags = (0x8 if is_float else 0) | (value_length - 1)
    return _H.pack(((ts_seconds % 3600) << 4) | flags)


def _even_splits(regions: int, space: int, encode) -> list[bytes]:
    out = []
    for i in range(1, regions):
        p = encode(i * space // regions)
        if not out or p != out[-1]:
            out.append(p)
    return out


def uniform_split_keys(regions: int, width: int = 1) -> list[bytes]:
    """Split points spreading `regions` evenly over the first `width` bytes of a binary key
    space (what a designer uses for hashed keys, like RegionSplitter's UniformSplit)."""
    return _even_splits(regions, 256**width, lambda n: n.to_bytes(width, "big"))


def decimal_split_keys(regions: int, width: int = 2) -> list[bytes]:
    """Split points spreading `regions` evenly over keys that start with `width` decimal
    digits (for reversed-digit keys)."""
    return _even_splits(regions, 10**width, lambda n: str(n).zfill(width).encode())


def quantile_split_keys(rows, regions: int) -> list[bytes]:
    """Split points at the quantiles of a sample of row keys: how one pre-splits a key space
    known only from data. For keys that grow with time, a sample of the past puts every
    future row in the last region, which is the book's point about timestamps."""
    keys = sorted(set(rows))
    if not keys:
        raise InvalidArgumentError("quantile split keys need a sample of row keys")
    out = []
    for i in range(1, regions):
        k = keys[i * len(keys) // regions]
        if k and (not out or k != out[-1]):
            out.append(k)
    return out


def entity_split_keys(entities, regions: int) -> list[bytes]:
    """Split points between entities, for keys that lead with one ([entity][ts]): the first
    key of every (len / regions)-th entity in sorted order, so every region holds whole
    entities and none is cut in two, as a designer who knows the entities would split."""
    names = sorted(set(entities))
    if not names:
        raise InvalidArgumentError("entity split keys need the entities")
    return _even_splits(min(regions, len(names)), len(names), names.__getitem__)


# ---- designs -----------------------------------------------------------------------------


class KeyDesign:
    """A row-key layout for (ts, entity) records. `encoding` is how a timestamp is written:
    "long" (8 bytes) or "string" (zero-padded decimal)."""

    name = ""
    description = ""
    time_ordered = False  # rows of one time range are contiguous (per prefix or entity)

    def __init__(self, encoding: str = "long"):
        if encoding == "long":
            self._ts = _Q.pack
        elif encoding == "string":
            self._ts = lambda ts: str(ts).zfill(TS_DIGITS).encode()
        else:
            raise InvalidArgumentError(f"timestamp encoding: 'long' or 'string', not {encoding!r}")
        self.encoding = encoding

    def row_key(self, ts: int, entity: bytes = b"") -> bytes:
        """The row key of a record at time `ts` for `entity`."""
        raise NotImplementedError

    def point_rows(self, ts: int, entity: bytes = b"") -> list[bytes]:
        """The rows a reader must try to Get one record: one, unless the key is random."""
        return [self.row_key(ts, entity)]

    def time_range_scans(self, start_ts: int, stop_ts: int,
                         entities: Iterable[bytes] | None = None) -> list[tuple]:
        """The scans that read every record with start_ts <= ts < stop_ts (for `entities`,
        when the design needs to know them). A full-table scan reads everything and must
        filter; it is returned when the layout keeps no time order."""
        return FULL_SCAN.copy()

    def split_keys(self, regions: int, sample: list[bytes] | None = None) -> list[bytes]:
        """Pre-split points a designer would pick: from the layout's prefix space if it has
        one, else from the quantiles of a `sample` of row keys."""
        if sample is None:
            raise InvalidArgumentError(f"{self.name} keys have no prefix space; give a sample")
        return quantile_split_keys(sample, regions)

    def __repr__(self) -> str:
        """The design and its constructor's arguments (each kept as the attribute of the same
        name), e.g. HashedPrefix(k=1, encoding='long')."""
        params = list(inspect.signature(type(self).__init__).parameters)[1:]
        args = ", ".join(f"{p}={getattr(self, p)!r}" for p in params)
        return f"{type(self).__name__}({args})"


class TimestampLead(KeyDesign):
    """A key led by the timestamp: every write goes to the last region, the hotspot the other
    designs avoid."""

    name = "timestamp_lead"
    description = "[ts or sequence][entity]: ever-increasing, all writes hit the last region"
    time_ordered = True

    def row_key(self, ts, entity=b""):
        return self._ts(ts) + entity

    def time_range_scans(self, start_ts, stop_ts, entities=None):
        return [(self._ts(start_ts), self._ts(stop_ts))]


class _Bucketed(KeyDesign):
    """A design whose rows sit behind one of `buckets` prefixes."""

    def __init__(self, buckets: int = 16, encoding: str = "long"):
        super().__init__(encoding)
        if not 1 <= buckets <= 65536:
            raise InvalidArgumentError(f"buckets must be in [1, 65536]: {buckets}")
        self.buckets = buckets
        self._prefixes = [bucket_prefix(b, buckets) for b in range(buckets)]

    def _scans(self, bucket_ids, start_ts, stop_ts):
        lo, hi = self._ts(start_ts), self._ts(stop_ts)
        return [(self._prefixes[b] + lo, self._prefixes[b] + hi) for b in bucket_ids]

    def split_keys(self, regions, sample=None):
        """One boundary per group of buckets; at most one region per bucket."""
        return _even_splits(min(regions, self.buckets), self.buckets, self._prefixes.__getitem__)


class Salted(_Bucketed):
    """A salted key: writes spread over `buckets` prefixes, a time range read as one scan per
    bucket."""

    name = "salted"
    description = "[salt][ts][entity]: N prefixes spread writes; a time-range read needs N scans"
    time_ordered = True

    def __init__(self, buckets: int = 16, encoding: str = "long", seed: int | None = None):
        """seed None: the salt is Phoenix's hash of the unsalted key; else a seeded random
        salt, the book's "randomly-assigned prefix"."""
        super().__init__(buckets, encoding)
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else None

    def row_key(self, ts, entity=b""):
        key = self._ts(ts) + entity
        if self._rng is not None:
            return self._prefixes[self._rng.randrange(self.buckets)] + key
        return self._prefixes[salt_bucket(key, self.buckets)] + key

    def point_rows(self, ts, entity=b""):
        if self._rng is None:
            return [self.row_key(ts, entity)]
        key = self._ts(ts) + entity
        return [p + key for p in self._prefixes]

    def time_range_scans(self, start_ts, stop_ts, entities=None):
        return self._scans(range(self.buckets), start_ts, stop_ts)


class BucketedTimestamp(_Bucketed):
    """A key bucketed by timestamp modulo N (the book's log-data case study)."""

    name = "bucketed"
    description = "[ts mod N][ts][entity]: the log-data case study's buckets, N scans a range"
    time_ordered = True

    def row_key(self, ts, entity=b""):
        return self._prefixes[ts % self.buckets] + self._ts(ts) + entity

    def time_range_scans(self, start_ts, stop_ts, entities=None):
        return self._scans(buckets_for_time_range(start_ts, stop_ts, self.buckets),
                           start_ts, stop_ts)


class HashedPrefix(KeyDesign):
    """A key led by a prefix of its MD5: a Get finds the row again, a time range needs a full scan.
    """

    name = "hashed_prefix"
    description = "[md5(key)[:k]][ts][entity]: deterministic spread, Gets work, time order lost"

    def __init__(self, k: int = 1, encoding: str = "long"):
        super().__init__(encoding)
        if not 1 <= k <= 16:
            raise InvalidArgumentError(f"an MD5 prefix has 1 to 16 bytes: {k}")
        self.k = k

    def row_key(self, ts, entity=b""):
        key = self._ts(ts) + entity
        return hashlib.md5(key).digest()[: self.k] + key

    def time_range_scans(self, start_ts, stop_ts, entities=None):
        """A one-byte prefix has 256 values, and behind each one the keys are in time order:
        256 bounded scans read only the range. Longer prefixes leave a full scan."""
        if self.k != 1:
            return FULL_SCAN.copy()
        lo, hi = self._ts(start_ts), self._ts(stop_ts)
        return [(bytes([p]) + lo, bytes([p]) + hi) for p in range(256)]

    def split_keys(self, regions, sample=None):
        return uniform_split_keys(regions, min(self.k, 2))


class ReversedDigits(KeyDesign):
    """A key led by the timestamp's digits reversed: writes spread, time order lost."""

    name = "reversed"
    description = "[ts digits reversed][entity]: the fastest-changing digit leads, order lost"

    def __init__(self, width: int = TS_DIGITS):
        super().__init__("string")
        self.width = width

    def row_key(self, ts, entity=b""):
        return str(ts).zfill(self.width)[::-1].encode() + entity

    def split_keys(self, regions, sample=None):
        return decimal_split_keys(regions, 2 if regions <= 100 else 3)


class FieldSwap(KeyDesign):
    """Entity first, then time (OpenTSDB's order): writes spread by entity, one scan per entity for
    a time range."""

    name = "field_swap"
    description = "[entity][ts]: metric-then-time (OpenTSDB order), one scan per entity"
    time_ordered = True

    def row_key(self, ts, entity=b""):
        return entity + self._ts(ts)

    def time_range_scans(self, start_ts, stop_ts, entities=None):
        if entities is None:
            return FULL_SCAN.copy()
        lo, hi = self._ts(start_ts), self._ts(stop_ts)
        return [(e + lo, e + hi) for e in sorted(entities)]


class ReverseTimestamp(KeyDesign):
    """Entity then Long.MAX_VALUE - ts: an entity's newest row comes first in a scan."""

    name = "reverse_timestamp"
    description = "[entity][MAX-ts]: newest first per entity, a scan's first row is the latest"
    time_ordered = True

    def __init__(self, encoding: str = "long"):
        super().__init__(encoding)
        self._rts = reverse_timestamp if encoding == "long" else reverse_timestamp_decimal

    def row_key(self, ts, entity=b""):
        return entity + self._rts(ts)

    def time_range_scans(self, start_ts, stop_ts, entities=None):
        if entities is None:
            return FULL_SCAN.copy()
        # newest (stop_ts - 1) sorts first; the oldest row, start_ts, is the last one included
        lo, hi = self._rts(stop_ts - 1), self._rts(start_ts) + b"\x00"
        return [(e + lo, e + hi) for e in sorted(entities)]


class OpenTsdb(KeyDesign):
    """OpenTSDB's row key: a 3-byte metric uid and the hour, one row per metric-hour."""

    name = "opentsdb"
    description = "[metric uid:3][hour:4]: OpenTSDB's row, one row per metric-hour"
    time_ordered = True

    def __init__(self):
        super().__init__("long")
        self._uids: dict[bytes, int] = {}

    def uid(self, entity: bytes) -> int:
        """UIDs are handed out 1, 2, ... in first-seen order, like OpenTSDB's tsdb-uid
        counter, so the same record stream gets the same UIDs."""
        u = self._uids.get(entity)
        if u is None:
            u = self._uids[entity] = len(self._uids) + 1
        return u

    def row_key(self, ts, entity=b""):
        return opentsdb_row_key(self.uid(entity), ts // 1000)

    def time_range_scans(self, start_ts, stop_ts, entities=None):
        if entities is None:
            return FULL_SCAN.copy()
        s0 = start_ts // 1000
        s1 = (stop_ts - 1) // 1000
        out = []
        for e in sorted(entities, key=self.uid):
            u = _u24(self.uid(e))[1:]
            out.append((u + _I.pack(s0 - s0 % 3600), u + _I.pack(s1 - s1 % 3600 + 3600)))
        return out

    def __repr__(self):
        return "OpenTsdb()"


KEY_DESIGNS = {
    cls.name: cls
    for cls in (TimestampLead, Salted, HashedPrefix, ReversedDigits, FieldSwap,
                ReverseTimestamp, BucketedTimestamp, OpenTsdb)
}


def key_design(name: str, **params: Any) -> KeyDesign:
    """A design from KEY_DESIGNS by name, with its parameters (buckets=, k=, encoding=...)."""
    try:
        cls = KEY_DESIGNS[name]
    except KeyError:
        raise InvalidArgumentError(
            f"unknown key design {name!r}; one of {', '.join(KEY_DESIGNS)}") from None
    try:
        return cls(**params)
    except TypeError as e:
        raise InvalidArgumentError(f"bad parameters for key design {name!r}: {e}") from None


def region_of(row: bytes, split_keys: list[bytes]) -> int:
    """The index of the region holding `row` in a table split at `split_keys` (sorted)."""
    return bisect.bisect_right(split_keys, row)
