"""Row-key designs: each layout's shape, spread and read side."""

import collections
import hashlib
import struct

import pytest

from hsim.config import LONG_MAX
from hsim.errors import InvalidArgumentError
from hsim.workloads.keys import (
    KEY_DESIGNS,
    FULL_SCAN,
    bucketed,
    buckets_for_time_range,
    decimal_bytes,
    hashed,
    key_design,
    long_bytes,
    opentsdb_qualifier,
    opentsdb_row_key,
    quantile_split_keys,
    region_of,
    reverse_digits,
    reverse_domain,
    reverse_timestamp,
    salt_bucket,
    salted,
    uniform_split_keys,
)

T0 = 1_700_000_000_000
HOSTS = [b"host%03d" % i for i in range(20)]


def records(n, hosts=HOSTS, start=T0, step=7):
    """n time-series records: ts ascending, hosts round-robin."""
    return [(start + i * step, hosts[i % len(hosts)]) for i in range(n)]


def region_shares(rows, splits):
    counts = collections.Counter(region_of(r, splits) for r in rows)
    return [counts[i] / len(rows) for i in range(len(splits) + 1)]


def test_every_design_is_registered_with_a_one_line_description():
    assert set(KEY_DESIGNS) >= {"timestamp_lead", "salted", "hashed_prefix", "reversed",
                                "field_swap", "reverse_timestamp", "bucketed", "opentsdb"}
    for name, cls in KEY_DESIGNS.items():
        assert cls.name == name
        assert cls.description and "\n" not in cls.description
        assert isinstance(key_design(name).row_key(T0, b"h"), bytes)


def test_a_design_shows_its_constructor_arguments():
    assert repr(key_design("salted", buckets=4, seed=3)) == \
        "Salted(buckets=4, encoding='long', seed=3)"
    assert repr(key_design("hashed_prefix", k=2)) == "HashedPrefix(k=2, encoding='long')"
    assert repr(key_design("reversed")) == "ReversedDigits(width=13)"
    assert repr(key_design("opentsdb")) == "OpenTsdb()"
    for name in KEY_DESIGNS:  # every design's arguments are attributes repr can read
        assert repr(key_design(name)).startswith(type(key_design(name)).__name__ + "(")


def test_unknown_design_or_bad_parameters_are_clear_errors():
    with pytest.raises(InvalidArgumentError, match="unknown key design"):
        key_design("nope")
    with pytest.raises(InvalidArgumentError, match="bad parameters"):
        key_design("timestamp_lead", buckets=3)
    with pytest.raises(InvalidArgumentError):
        key_design("salted", buckets=0)
    with pytest.raises(InvalidArgumentError):
        key_design("field_swap", encoding="hex")


def test_designs_are_compositions_of_the_key_functions():
    t, e = T0 + 12_345, b"host007"
    assert key_design("timestamp_lead").row_key(t, e) == long_bytes(t) + e
    assert key_design("salted", buckets=8).row_key(t, e) == salted(long_bytes(t) + e, 8)
    assert key_design("hashed_prefix", k=3).row_key(t, e) == hashed(long_bytes(t) + e, 3)
    assert key_design("reversed").row_key(t, e) == reverse_digits(t, 13) + e
    assert key_design("field_swap").row_key(t, e) == e + long_bytes(t)
    assert key_design("reverse_timestamp").row_key(t, e) == e + reverse_timestamp(t)
    assert key_design("bucketed", buckets=10).row_key(t, e) == bucketed(t, 10, e)
    assert bucketed(t, 10, e)[:1] == bytes((t % 10,))
    assert key_design("opentsdb").row_key(t, e) == opentsdb_row_key(1, t // 1000)
    assert len(key_design("salted", buckets=300).row_key(t, e)) == 2 + 8 + len(e)


def test_keys_are_deterministic():
    for name in KEY_DESIGNS:
        extra = {"seed": 9} if name == "salted" else {}
        a, b = key_design(name, **extra), key_design(name, **extra)
        assert [a.row_key(t, h) for t, h in records(200)] == \
               [b.row_key(t, h) for t, h in records(200)]


def test_timestamp_lead_keys_increase_with_time_in_both_encodings():
    for enc, width in (("long", 8), ("string", 13)):
        d = key_design("timestamp_lead", encoding=enc)
        rows = [d.row_key(t, b"h01") for t, _ in records(1000)]
        assert rows == sorted(rows) and len(set(rows)) == len(rows)
        assert len(rows[0]) == width + 3


def test_binary_long_vs_decimal_string_sizes_and_order():
    assert long_bytes(1234567890) == struct.pack(">q", 1234567890)
    assert len(long_bytes(1234567890)) == 8 and len(decimal_bytes(1234567890)) == 10
    assert len(decimal_bytes(2**63 - 1)) == 19  # "nearly 3x" the 8 bytes at the top of the range
    # unpadded decimals sort as text: 1, 119, 12, 2, 7 (seed 002's "derp sort")
    assert sorted(decimal_bytes(n) for n in (1, 2, 7, 12, 119)) == [b"1", b"119", b"12", b"2", b"7"]
    assert sorted(decimal_bytes(n, 5) for n in (1, 2, 7, 12, 119)) == \
        [decimal_bytes(n, 5) for n in (1, 2, 7, 12, 119)]


def test_salted_keys_spread_over_n_prefixes():
    d = key_design("salted", buckets=8)
    rows = [d.row_key(t, h) for t, h in records(8000)]
    counts = collections.Counter(r[0] for r in rows)
    assert sorted(counts) == list(range(8))
    assert max(counts.values()) / min(counts.values()) < 1.3
    # the same record always gets the same salt when it comes from the key's hash
    assert d.row_key(T0, b"x") == d.row_key(T0, b"x")
    assert d.point_rows(T0, b"x") == [d.row_key(T0, b"x")]


def test_random_salt_is_seeded_and_makes_a_get_try_every_bucket():
    a, b = key_design("salted", buckets=4, seed=1), key_design("salted", buckets=4, seed=1)
    rows_a = [a.row_key(t, h) for t, h in records(400)]
    assert rows_a == [b.row_key(t, h) for t, h in records(400)]
    assert {r[0] for r in rows_a} == {0, 1, 2, 3}
    candidates = a.point_rows(T0, b"h")
    assert len(candidates) == 4 and {c[1:] for c in candidates} == {long_bytes(T0) + b"h"}


def test_book_salting_example_rotates_consecutive_keys_over_the_salts():
    # Phoenix's hash (31*h + b) moves by one per last-byte step: foo0001..4 get 4 salts
    salts = [salt_bucket(b"foo000%d" % i, 4) for i in range(1, 5)]
    assert sorted(salts) == [0, 1, 2, 3]
    assert salted(b"foo0003", 4) == bytes((salt_bucket(b"foo0003", 4),)) + b"foo0003"


def test_hashed_prefix_spreads_uniformly_and_rebuilds_for_gets():
    d = key_design("hashed_prefix", k=2)
    rows = [d.row_key(t, h) for t, h in records(16_000)]
    shares = region_shares(rows, d.split_keys(16))
    assert len(shares) == 16 and max(shares) < 1.25 / 16 and min(shares) > 0.75 / 16
    natural = long_bytes(T0) + b"h"
    assert d.row_key(T0, b"h") == hashlib.md5(natural).digest()[:2] + natural == hashed(natural, 2)


def test_reversed_digits_lead_with_the_fastest_changing_digit():
    assert reverse_digits(1234, 6) == b"432100"
    assert reverse_domain("www.example.com") == b"com.example.www"
    d = key_design("reversed")
    rows = [d.row_key(t, b"") for t in range(T0, T0 + 1000)]
    assert collections.Counter(r[:1] for r in rows) == {str(i).encode(): 100 for i in range(10)}
    shares = region_shares(rows, d.split_keys(10))
    assert shares == [0.1] * 10


def test_reverse_timestamps_sort_newest_first():
    assert reverse_timestamp(0) == long_bytes(LONG_MAX)
    d = key_design("reverse_timestamp")
    recs = records(500, hosts=[b"h1"])
    rows = sorted((d.row_key(t, h), t) for t, h in recs)
    assert [t for _, t in rows] == sorted((t for t, _ in recs), reverse=True)
    s = key_design("reverse_timestamp", encoding="string")
    rows = sorted((s.row_key(t, b"h1"), t) for t, _ in recs)
    assert [t for _, t in rows] == sorted((t for t, _ in recs), reverse=True)


def test_opentsdb_rows_are_metric_then_hour():
    key = opentsdb_row_key(1, 1_356_998_400 + 1800, tags=((2, 4), (1, 1)))
    assert key.hex().upper() == "00000150E22700" + "000001000001" + "000002000004"
    assert opentsdb_qualifier(1_356_998_400 + 5) == struct.pack(">H", (5 << 4) | 7)
    d = key_design("opentsdb")
    # one row per metric and hour; uids in first-seen order
    assert d.row_key(3_600_000, b"cpu") == d.row_key(3_600_000 + 59_000, b"cpu")
    assert d.row_key(0, b"mem")[:3] == b"\x00\x00\x02"
    assert len(d.row_key(0, b"mem")) == 7


def scanned(records_by_row, scans):
    """The records a set of (start, stop) scans reads, b"" for an open end."""
    out = set()
    for row, recs in records_by_row.items():
        if any(row >= start and (not stop or row < stop) for start, stop in scans):
            out |= recs
    return out


@pytest.mark.parametrize("name", sorted(KEY_DESIGNS))
def test_time_range_scans_read_every_record_in_range(name):
    d = key_design(name)
    recs = records(3000, step=1_001)
    rows = collections.defaultdict(set)  # OpenTSDB puts a metric's hour in one row
    for t, h in recs:
        rows[d.row_key(t, h)].add((t, h))
    lo, hi = T0 + 1_000_000, T0 + 1_500_000
    wanted = {(t, h) for t, h in recs if lo <= t < hi}
    scans = d.time_range_scans(lo, hi, entities=HOSTS)
    got = scanned(rows, scans)
    assert wanted <= got
    if scans == FULL_SCAN:
        assert not d.time_ordered  # the layout lost time order: read everything
    elif name == "opentsdb":
        # whole hour rows: the scan reads the hours the range touches
        assert all(lo // 3_600_000 * 3_600_000 <= t < hi + 3_600_000 for t, _ in got)
    else:
        assert got == wanted


def test_time_range_read_needs_n_scans_when_salted_or_bucketed():
    assert len(key_design("timestamp_lead").time_range_scans(0, 10_000)) == 1
    assert len(key_design("salted", buckets=12).time_range_scans(0, 10_000)) == 12
    assert len(key_design("bucketed", buckets=12).time_range_scans(0, 10_000)) == 12
    # a range shorter than the bucket count only touches the buckets its timestamps fall in
    assert buckets_for_time_range(100, 103, 12) == [4, 5, 6]
    assert len(key_design("bucketed", buckets=12).time_range_scans(100, 103)) == 3
    assert len(key_design("field_swap").time_range_scans(0, 10, entities=HOSTS)) == len(HOSTS)
    assert key_design("field_swap").time_range_scans(0, 10) == FULL_SCAN


def test_future_writes_pile_onto_one_region_only_with_a_timestamp_lead():
    """Pre-split on a sample of past rows, then write new ones: the book's monotonically
    increasing key problem, and the layouts that avoid it."""
    past, future = records(4000), records(4000, start=T0 + 10**9)
    share = {}
    for name in ("timestamp_lead", "salted", "hashed_prefix", "reversed", "field_swap",
                 "bucketed"):
        d = key_design(name)
        splits = d.split_keys(8, sample=[d.row_key(t, h) for t, h in past])
        share[name] = max(region_shares([d.row_key(t, h) for t, h in future], splits))
    assert share["timestamp_lead"] == 1.0
    for name in ("salted", "hashed_prefix", "reversed", "field_swap", "bucketed"):
        assert share[name] < 0.25, name


def test_split_key_helpers():
    assert uniform_split_keys(4) == [b"\x40", b"\x80", b"\xc0"]
    assert uniform_split_keys(2, width=2) == [b"\x80\x00"]
    assert quantile_split_keys([b"a", b"b", b"c", b"d"], 2) == [b"c"]
    assert key_design("salted", buckets=8).split_keys(4) == [b"\x02", b"\x04", b"\x06"]
    assert len(key_design("salted", buckets=4).split_keys(16)) == 3  # one region per bucket
    with pytest.raises(InvalidArgumentError):
        key_design("timestamp_lead").split_keys(4)
    with pytest.raises(InvalidArgumentError):
        quantile_split_keys([], 4)
