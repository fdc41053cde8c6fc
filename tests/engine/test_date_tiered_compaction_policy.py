"""DateTieredCompactionPolicy, ported from HBase's TestDateTieredCompactionPolicy (cases named
after the upstream methods, settings from its config() on top of TestCompactionPolicy's), and
the window arithmetic of ExponentialCompactionWindowFactory."""

from dataclasses import dataclass

import pytest

from hsim.config import LONG_MAX, Config
from hsim.engine.date_tiered_compaction_policy import (
    LONG_MIN,
    DateTieredCompactionPolicy,
    ExponentialCompactionWindowFactory,
)
from hsim.errors import InvalidArgumentError

# TestCompactionPolicy.config(): min size 10, max size 2100; TestDateTieredCompactionPolicy's:
# max age 100, incoming window min 3, base window 6, 4 windows per tier, two outputs for a
# minor compaction, min files 2, max files 12, ratio 1.2, 20 blocking files, major period 5.
CONF = Config(
    compaction_policy="date_tiered", compaction_min_size=10, compaction_max_size=2100,
    date_tiered_max_storefile_age_ms=100, date_tiered_incoming_window_min=3,
    date_tiered_base_window_ms=6, date_tiered_windows_per_tier=4,
    date_tiered_single_output_for_minor_compaction=False, compaction_min_files=2,
    compaction_max_files=12, compaction_ratio=1.2, blocking_store_files=20,
    major_compaction_period_ms=5,
)


@dataclass(eq=False)
class SF:
    """MockHStoreFile with a TimeRangeTracker: created at time 1 (AbstractTestDateTiered...'s
    sfCreate), not a reference, a major compaction's output only when the test says so."""

    size: int
    min_timestamp: int
    max_timestamp: int
    is_major: bool = False
    is_reference: bool = False
    create_time: int = 1
    name: str = "f"


def sf_create(mins, maxs, sizes):
    return [SF(s, lo, hi) for lo, hi, s in zip(mins, maxs, sizes)]


def compact_equals(now, candidates, expected_sizes, expected_boundaries, is_major=False,
                   to_compact=True):
    """AbstractTestDateTieredCompactionPolicy.compactEquals."""
    policy = DateTieredCompactionPolicy(CONF)
    if is_major:
        for f in candidates:
            f.is_major = True
        assert policy.should_perform_major_compaction(candidates, now) is to_compact
        sel = policy.select_major_compaction(candidates, now)
    else:
        assert policy.needs_compaction(candidates, [], now=now) is to_compact
        sel = policy.select_minor_compaction(candidates, False, False, now)
    assert [f.size for f in sel.files] == expected_sizes
    assert list(sel.boundaries) == expected_boundaries


ZEROS = [0] * 15
MIN = LONG_MIN


def test_incomingWindow():
    compact_equals(16, sf_create(ZEROS, range(1, 16),
                                 [30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11, 12, 13]),
                   [10, 11, 12, 13], [MIN, 12])


def test_NotIncomingWindow():
    compact_equals(16, sf_create(ZEROS, range(1, 14),
                                 [30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11]),
                   [20, 21, 22, 23, 24, 25], [MIN, 6])


def test_OnUpperBoundOfIncomingWindow():
    compact_equals(16, sf_create(ZEROS, [*range(1, 15), 18],
                                 [30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11, 12, 13]),
                   [10, 11, 12, 13], [MIN, 12])


def test_NewerThanIncomingWindow():
    compact_equals(16, sf_create(ZEROS, [*range(1, 15), 19],
                                 [30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11, 12, 13]),
                   [10, 11, 12, 13], [MIN, 12])


def test_NoT2():
    compact_equals(194, sf_create(ZEROS, [44, 60, 61, 97, 100, 193], [0, 20, 21, 22, 23, 1]),
                   [22, 23], [MIN, 96])


def test_T1():
    compact_equals(161, sf_create(ZEROS, [44, 60, 61, 96, 100, 104, 120, 124, 143, 145, 157],
                                  [0, 50, 51, 40, 41, 42, 30, 31, 32, 2, 1]),
                   [30, 31, 32], [MIN, 120])


def test_RatioT0():
    """Exploring logic on a window that is not the incoming one."""
    compact_equals(16, sf_create(ZEROS, range(1, 13),
                                 [30, 31, 32, 33, 34, 20, 21, 22, 280, 23, 24, 1]),
                   [20, 21, 22], [MIN])


def test_RatioT2():
    compact_equals(161, sf_create(ZEROS, [44, 60, 61, 96, 100, 104, 120, 124, 143, 145, 157],
                                  [0, 50, 51, 40, 41, 42, 350, 30, 31, 2, 1]),
                   [30, 31], [MIN])


def test_RatioT0Next():
    compact_equals(16, sf_create(ZEROS, [1, 2, 3, 4, 5, 8, 9, 10, 11, 12],
                                 [30, 31, 32, 33, 34, 22, 280, 23, 24, 1]),
                   [23, 24], [MIN])


def test_olderThanMaxAge():
    compact_equals(161, sf_create(ZEROS, [44, 60, 61, 96, 100, 104, 105, 106, 113, 145, 157],
                                  [0, 50, 51, 40, 41, 42, 33, 30, 31, 2, 1]),
                   [40, 41, 42, 33, 30, 31], [MIN, 96])


def test_outOfOrder():
    compact_equals(16, sf_create(ZEROS, [0, 13, 3, 10, 11, 1, 2, 12, 14, 15],
                                 [30, 31, 32, 33, 34, 22, 28, 23, 24, 1]),
                   [31, 32, 33, 34, 22, 28, 23, 24, 1], [MIN, 12])


def test_negativeEpochtime():
    compact_equals(1, sf_create([-1000] * 10, [-28, -11, -10, -9, -8, -7, -6, -5, -4, -3],
                                [30, 31, 32, 33, 34, 22, 25, 23, 24, 1]),
                   [31, 32, 33, 34, 22, 25, 23, 24, 1], [MIN, -24])


def test_majorCompation():
    sizes = [0, 50, 51, 40, 41, 42, 33, 30, 31, 2, 1]
    compact_equals(161, sf_create(ZEROS, [44, 60, 61, 96, 100, 104, 105, 106, 113, 145, 157],
                                  sizes),
                   sizes, [MIN, 24, 48, 72, 96, 120, 144, 150, 156], is_major=True)


def test_negativeForMajor():
    sizes = [0, 50, 51, 40, 41, 42, 33, 30, 31, 2, 1]
    compact_equals(16, sf_create([-155] + [-100] * 10, [-8, -7, -6, -5, -4, -3, -2, -1, 0, 6, 13],
                                 sizes),
                   sizes, [MIN, -144, -120, -96, -72, -48, -24, 0, 6, 12], is_major=True)


# -- beyond the upstream cases -------------------------------------------------------------------

def test_select_runs_the_pipeline_with_boundaries():
    """`select` is SortedCompactionPolicy's pipeline: a forced major takes every file and cuts
    it at every window; a minor is the date-tiered choice."""
    policy = DateTieredCompactionPolicy(CONF)
    files = sf_create(ZEROS, range(1, 16),
                      [30, 31, 32, 33, 34, 20, 21, 22, 23, 24, 25, 10, 11, 12, 13])
    minor = policy.select(files, now=16)
    assert [f.size for f in minor.files] == [10, 11, 12, 13] and minor.boundaries == (MIN, 12)
    assert not minor.is_major
    major = policy.select(files, force_major=True, user_requested=True, now=16)
    assert major.is_major and len(major.files) == 15
    assert major.boundaries == (MIN, 6, 12)


def test_a_major_output_per_window_needs_no_major_again():
    """One major-compacted file per window, none crossing a boundary: nothing more to do."""
    policy = DateTieredCompactionPolicy(CONF)
    files = [SF(10, 0, 5, is_major=True), SF(10, 6, 11, is_major=True),
             SF(10, 12, 15, is_major=True)]
    assert policy.should_perform_major_compaction(files, 16) is False
    files[1].max_timestamp = 12  # now it spans two windows
    assert policy.should_perform_major_compaction(files, 16) is True


def test_the_selection_needs_now():
    with pytest.raises(InvalidArgumentError, match="needs now"):
        DateTieredCompactionPolicy(CONF).select([SF(1, 0, 1)])


@pytest.mark.parametrize("now, expected", [
    # base 6, 4 per tier: the incoming window [156, 162), then 6-wide to a tier boundary, then
    # 24-wide, then 96-wide (the max tier age of 100 stops the growth only once it is passed)
    (161, [(156, 162), (150, 156), (144, 150), (120, 144), (96, 120), (72, 96), (48, 72),
           (24, 48), (0, 24)]),
])
def test_exponential_windows(now, expected):
    window = ExponentialCompactionWindowFactory(CONF).new_incoming_window(now)
    got = []
    for _ in expected:
        got.append((window.start_millis(), window.end_millis()))
        window = window.next_earlier_window()
    assert got == expected


def test_window_arithmetic_saturates_as_hbase():
    conf = CONF.replace(date_tiered_base_window_ms=LONG_MAX // 2 + 1)
    window = ExponentialCompactionWindowFactory(conf).new_incoming_window(LONG_MAX)
    assert window.end_millis() == LONG_MAX  # checkedMultiply overflows: Long.MAX_VALUE
    assert window.compare_to_timestamp(LONG_MIN) == 1
