"""Compaction selection, ported from HBase's TestDefaultCompactSelection (whose settings come from
TestCompactionPolicy.config()), plus the rules around it: the periodic major compaction and its
Java-exact jitter, compacting files, the stuck store, expired files, and the ratio policy."""

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hsim.config import LONG_MAX, Config
from hsim.engine.compaction_policy import (
    CompactionSelection,
    ExploringCompactionPolicy,
    RatioBasedCompactionPolicy,
    java_float,
    java_random_next_double,
    java_round,
    java_string_hash,
)
from hsim.errors import InvalidArgumentError

NOW = 1_000_000
DAY = 24 * 3600 * 1000

# TestCompactionPolicy.config(): minFiles 3, maxFiles 5, minSize 10, maxSize 2100, ratio 1.0F,
# no periodic major compaction. Its stuck-store cases need exactly 10 blocking files (10 files
# stuck, 9 not): hbase-default.xml's hbase.hstore.blockingStoreFiles when the test was written.
TEST_CONF = Config(
    compaction_min_files=3, compaction_max_files=5, compaction_min_size=10,
    compaction_max_size=2100, compaction_ratio=1.0, major_compaction_period_ms=0,
    blocking_store_files=10,
)
MIN_SIZE, MAX_SIZE = 10, 2100


@dataclass(eq=False)
class SF:
    """A store-file record (MockHStoreFile): a size, and what the periodic major reads."""

    size: int
    is_reference: bool = False
    max_timestamp: int = NOW
    min_timestamp: int | None = None
    name: str = "f"
    create_time: int = NOW
    is_major: bool = False


def sf_create(*sizes, is_reference=False):
    return [SF(s, is_reference=is_reference, name=f"sf{i}") for i, s in enumerate(sizes)]


def compact_equals(candidates, *expected, force_major=False, off_peak=False, conf=TEST_CONF,
                   now=None):
    """TestCompactionPolicy.compactEquals: isUserCompaction false, nothing compacting."""
    sel = ExploringCompactionPolicy(conf).select(candidates, force_major, off_peak, now=now)
    if off_peak and not force_major:
        assert sel.is_off_peak
    assert [f.size for f in sel.files] == list(expected)
    return sel


# -- TestDefaultCompactSelection -----------------------------------------------------------------


def test_compaction_ratio():
    """TestDefaultCompactSelection.testCompactionRatio (minor part)."""
    too_big = MAX_SIZE + 1
    # default case. preserve user ratio on size
    compact_equals(sf_create(100, 50, 23, 12, 12), 23, 12, 12)
    # less than compact threshold = don't compact
    compact_equals(sf_create(100, 50, 25, 12, 12))
    # greater than compact size = skip those
    compact_equals(sf_create(too_big, too_big, 700, 700, 700), 700, 700, 700)
    # big size + threshold
    compact_equals(sf_create(too_big, too_big, 700, 700))
    # small files = don't care about ratio
    compact_equals(sf_create(7, 1, 1), 7, 1, 1)
    # don't exceed max file compact threshold
    compact_equals(sf_create(7, 6, 5, 4, 3, 2, 1), 5, 4, 3, 2, 1)
    compact_equals(sf_create(50, 10, 10, 10, 10), 10, 10, 10, 10)
    compact_equals(sf_create(10, 10, 10, 10, 50), 10, 10, 10, 10)
    compact_equals(sf_create(251, 253, 251, MAX_SIZE - 1), 251, 253, 251)
    compact_equals(sf_create(MAX_SIZE - 1, MAX_SIZE - 1, MAX_SIZE - 1))
    # Always try and compact something to get below blocking storefile count
    compact_equals(sf_create(512, 256, 128, 64, 32, 16, 8, 4, 2, 1), 4, 2, 1,
                   conf=TEST_CONF.replace(compaction_min_size=1))


def test_compaction_ratio_major():
    """TestDefaultCompactSelection.testCompactionRatio (MAJOR COMPACTION part)."""
    too_big = MAX_SIZE + 1
    # if a major compaction has been forced, then compact everything
    sel = compact_equals(sf_create(50, 25, 12, 12), 50, 25, 12, 12, force_major=True)
    assert sel.is_major and sel.tried_major
    # also choose files < threshold on major compaction
    compact_equals(sf_create(12, 12), 12, 12, force_major=True)
    # even if one of those files is too big
    compact_equals(sf_create(too_big, 12, 12), too_big, 12, 12, force_major=True)
    # don't exceed max file compact threshold, even with major compaction
    # (HBase sets store.forceMajor here, which compactEquals resets: a plain selection)
    compact_equals(sf_create(7, 6, 5, 4, 3, 2, 1), 5, 4, 3, 2, 1)
    # if we exceed maxCompactSize, downgrade to minor
    # if not, it creates a 'snowball effect' when files >> maxCompactSize:
    # the last file in compaction is the aggregate of all previous compactions
    sel = compact_equals(sf_create(100, 50, 23, 12, 12), 23, 12, 12, force_major=True)
    assert not sel.is_major and not sel.tried_major
    # trigger an aged major compaction: period 1 ms, no jitter, files 2 ms old
    aged = TEST_CONF.replace(major_compaction_period_ms=1, major_compaction_jitter=0.0)
    sel = compact_equals(sf_create(50, 25, 12, 12), 50, 25, 12, 12, conf=aged, now=NOW + 2)
    assert sel.is_major and sel.tried_major
    # major sure exceeding maxCompactSize also downgrades aged minors
    compact_equals(sf_create(100, 50, 23, 12, 12), 23, 12, 12, conf=aged, now=NOW + 2)


def test_compaction_ratio_references():
    """TestDefaultCompactSelection.testCompactionRatio (REFERENCES part), with the 1-day period
    and 0.2 jitter its finally-block leaves."""
    conf = TEST_CONF.replace(major_compaction_period_ms=DAY, major_compaction_jitter=0.2)
    too_big = MAX_SIZE + 1
    # treat storefiles that have references like a major compaction
    sel = compact_equals(sf_create(100, 50, 25, 12, 12, is_reference=True),
                         100, 50, 25, 12, 12, conf=conf, now=NOW)
    assert sel.after_split and sel.is_major and not sel.tried_major
    # reference files shouldn't obey max threshold
    compact_equals(sf_create(too_big, 12, 12, is_reference=True), too_big, 12, 12, conf=conf,
                   now=NOW)
    # reference files should obey max file compact to avoid OOM
    sel = compact_equals(sf_create(7, 6, 5, 4, 3, 2, 1, is_reference=True), 7, 6, 5, 4, 3,
                         conf=conf, now=NOW)
    assert not sel.is_major
    # empty case
    compact_equals([])
    # empty case (because all files are too big)
    compact_equals(sf_create(too_big, too_big))


def test_off_peak_compaction_ratio():
    """TestDefaultCompactSelection.testOffPeakCompactionRatio: off-peak ratio 5.0."""
    conf = TEST_CONF.replace(compaction_ratio_offpeak=5.0)
    compact_equals(sf_create(999, 50, 12, 12, 1), 50, 12, 12, 1, off_peak=True, conf=conf)
    sel = compact_equals(sf_create(999, 50, 12, 12, 1), 12, 12, 1, conf=conf)
    assert not sel.is_off_peak


def test_stuck_store_compaction():
    """TestDefaultCompactSelection.testStuckStoreCompaction."""
    # Select the smallest compaction if the store is stuck.
    compact_equals(sf_create(99, 99, 99, 99, 99, 99, 30, 30, 30, 30), 30, 30, 30)
    # If not stuck, standard policy applies.
    compact_equals(sf_create(99, 99, 99, 99, 99, 30, 30, 30, 30), 99, 30, 30, 30, 30)
    # Add sufficiently small files to compaction, though
    compact_equals(sf_create(99, 99, 99, 99, 99, 99, 30, 30, 30, 15), 30, 30, 30, 15)
    # Prefer earlier compaction to latter if the benefit is not significant
    compact_equals(sf_create(99, 99, 99, 99, 30, 26, 26, 29, 25, 25), 30, 26, 26)
    # Prefer later compaction if the benefit is significant.
    compact_equals(sf_create(99, 99, 99, 99, 27, 27, 27, 20, 20, 20), 20, 20, 20)


def test_compaction_empty_hfile():
    """TestDefaultCompactSelection.testCompactionEmptyHFile: TTL 600 ms, one empty file whose
    time range is (-1, -1): nothing is selected."""
    empty = [SF(0, max_timestamp=-1, min_timestamp=-1)]
    sel = ExploringCompactionPolicy(TEST_CONF).select(empty, now=NOW, ttl_ms=600)
    assert sel.files == () and not sel


# -- Java arithmetic the jitter depends on (values printed by a JVM) ---------------------------


def test_java_string_hash():
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("Aa") == java_string_hash("BB") == 2112
    assert java_string_hash("0a1b2c3d4e5f60718293a4b5c6d7e8f9") == 477647680
    assert java_string_hash("f_0000001") == -542994600
    assert java_string_hash("héllo") == 103094734


@pytest.mark.parametrize("seed, expected", [
    (0, 0.730967787376657), (42, 0.7275636800328681), (-1, 0.26894263088050496),
    (2112, 0.9086971442628111), (99162322, 0.3571948252764453),
    (-(1 << 31), 0.37980963831837855), ((1 << 31) - 1, 0.6201007799387834)])
def test_java_random_next_double(seed, expected):
    assert java_random_next_double(seed) == expected


def test_java_round_and_float():
    assert java_round(0.49999999999999994) == 0
    assert java_round(-2.5) == -2 and java_round(2.5) == 3
    assert java_float(1.2) == 1.2000000476837158
    assert java_float(0.5) == 0.5


# -- the periodic major compaction -------------------------------------------------------------


def test_next_major_compaction_time_matches_hbase_for_the_same_names():
    policy = ExploringCompactionPolicy(Config())  # 7 days, jitter 0.5
    files = [SF(10, name="hello"), SF(10, name="other")]
    # JVM: period + jitter - Math.round(2 * jitter * new Random("hello".hashCode()).nextDouble())
    assert policy.next_major_compaction_ms(files) == 691168570
    # The seed is the first file's name only, and the interval stays within period +- 50%.
    assert policy.next_major_compaction_ms(files[:1]) == 691168570
    for name in ("a", "b", "c", "d"):
        t = policy.next_major_compaction_ms([SF(1, name=name)])
        assert 3.5 * DAY <= t <= 10.5 * DAY
    assert policy.next_major_compaction_ms([]) == 0
    assert ExploringCompactionPolicy(Config(major_compaction_jitter=0.0)) \
        .next_major_compaction_ms(files) == 7 * DAY
    assert ExploringCompactionPolicy(Config(major_compaction_period_ms=0)) \
        .next_major_compaction_ms(files) == 0


def periodic(**kw):
    return ExploringCompactionPolicy(Config(major_compaction_period_ms=DAY,
                                            major_compaction_jitter=0.0, **kw))


def test_periodic_major_when_the_oldest_file_is_older_than_the_period():
    p = periodic()
    files = [SF(1000, name="a", create_time=5), SF(10, name="b", create_time=DAY)]
    assert not p.should_perform_major_compaction(files, now=DAY + 5)
    assert p.should_perform_major_compaction(files, now=DAY + 6)
    sel = p.select(files, now=DAY + 6)
    assert sel.is_major and sel.tried_major and len(sel.files) == 2
    # Without the clock there is no periodic major compaction.
    assert not p.select(files).files
    # HBase requires the lowest modification time to be > 0.
    assert not p.should_perform_major_compaction([SF(1, create_time=0)] * 2, now=10 * DAY)


def test_periodic_major_of_a_single_file():
    """RatioBasedCompactionPolicy.shouldPerformMajorCompaction, filesToCompact.size() == 1."""
    p, now = periodic(), 10 * DAY
    old_major = SF(10, create_time=1, is_major=True, min_timestamp=now - 2000)
    # Already major compacted, no TTL (or data within it): nothing to gain.
    assert not p.should_perform_major_compaction([old_major], now)
    assert not p.should_perform_major_compaction([old_major], now, ttl_ms=5000)
    # Its oldest cell is past the TTL: rewrite it to drop what expired.
    assert p.should_perform_major_compaction([old_major], now, ttl_ms=1000)
    # ... unless MIN_VERSIONS keeps expired cells (HStore.getStoreFileTtl is then FOREVER).
    assert not p.should_perform_major_compaction([old_major], now, ttl_ms=1000, min_versions=1)
    # A single file that is not a major compaction's output is only rewritten for the TTL.
    minor = SF(10, create_time=1, is_major=False, min_timestamp=now - 2000)
    assert not p.should_perform_major_compaction([minor], now)
    assert p.should_perform_major_compaction([minor], now, ttl_ms=1000)
    # With no time range the file counts as infinitely young.
    assert not p.should_perform_major_compaction([SF(10, create_time=1)], now, ttl_ms=1)
    sel = p.select([minor], now=now, ttl_ms=1000)
    assert sel.files == (minor,) and sel.is_major


# -- the pipeline --------------------------------------------------------------------------------


def test_user_requested_major_ignores_max_files():
    files = sf_create(7, 6, 5, 4, 3, 2, 1)
    p = ExploringCompactionPolicy(TEST_CONF)
    sel = p.select(files, force_major=True, user_requested=True)
    assert sel.files == tuple(files) and sel.is_major and sel.tried_major
    # A system-requested forced major with too many files is a minor compaction.
    sel = p.select(files, force_major=True)
    assert [f.size for f in sel.files] == [5, 4, 3, 2, 1] and not sel.tried_major


def test_files_compacting_keeps_selections_contiguous():
    files = sf_create(12, 12, 12, 12, 12, 12)
    p = ExploringCompactionPolicy(TEST_CONF)
    sel = p.select(files, files_compacting=files[:2])
    assert sel.files == tuple(files[2:]) and not sel.is_major
    # A forced major needs every file: with some compacting it is not a major compaction.
    assert not p.select(files, force_major=True, files_compacting=files[:2]).is_major
    assert p.select(files, files_compacting=files[:4]).files == ()  # only 2 left
    with pytest.raises(InvalidArgumentError):
        p.select(files, files_compacting=[SF(1)])


def test_might_be_stuck_counts_a_running_compaction_as_one_file():
    # Three eligible files, none in ratio: a store that is not stuck selects nothing.
    files = sf_create(5, 5, 5, 5, 5, 5, 5, 900, 250, 60)
    p = ExploringCompactionPolicy(TEST_CONF)
    assert p.select(files, files_compacting=files[:7]).files == ()  # 10 - 7 + 1 = 4
    # 10 files, one compacting: 10 - 1 + 1 = 10 >= 10 blocking, so the store might be stuck
    # and the smallest window is taken even out of ratio.
    assert p.select(files, files_compacting=files[6:7]).files == tuple(files[7:])


def test_large_files_are_skipped_only_up_to_a_reference():
    too_big = MAX_SIZE + 1
    files = [SF(too_big), SF(too_big, is_reference=True), SF(12), SF(12)]
    sel = ExploringCompactionPolicy(TEST_CONF).select(files)
    assert [f.size for f in sel.files] == [too_big, 12, 12] and sel.after_split
    assert not sel.is_major


def test_max_compact_size_bounds_the_window_total():
    # A window may total max_size (700 x 3 = 2100 is taken above) but not one byte more.
    compact_equals(sf_create(700, 700, 701))
    compact_equals(sf_create(700, 700, 701), 700, 700, 701, force_major=True)


def test_needs_compaction():
    p = ExploringCompactionPolicy(TEST_CONF)
    files = sf_create(1, 2, 3)
    assert p.needs_compaction(files)
    assert not p.needs_compaction(files[:2])
    assert not p.needs_compaction(files, files_compacting=files[:1])
    # hbase.hstore.compaction.min is floored at 2
    assert ExploringCompactionPolicy(Config(compaction_min_files=1)).needs_compaction(files[:2])


def test_select_expired_files():
    """HStore.removeUnneededFiles / DefaultStoreFileManager.getUnneededFiles."""
    p = ExploringCompactionPolicy(Config())
    files = [SF(1, max_timestamp=100), SF(1, max_timestamp=500), SF(1, max_timestamp=200)]
    # Every file but the newest (last) whose max timestamp < now - ttl.
    assert p.select_expired_files(files, now=1000, ttl_ms=600) == [files[0]]
    assert p.select_expired_files(files, now=1000, ttl_ms=100) == files[:2]
    assert p.select_expired_files(files, now=1000, ttl_ms=100, files_compacting=files[:1]) \
        == files[1:2]
    assert p.select_expired_files(files, now=1000, ttl_ms=100, min_versions=1) == []
    assert p.select_expired_files(files, now=1000, ttl_ms=None) == []
    assert p.select_expired_files(files, now=1000, ttl_ms=LONG_MAX) == []
    off = ExploringCompactionPolicy(Config(delete_expired_storefile=False))
    assert off.select_expired_files(files, now=1000, ttl_ms=100) == []
    # an empty file's time range reads as [0, Long.MAX_VALUE): never expired (HBASE-21504)
    empty = SF(1, max_timestamp=-1)
    empty.entry_count = 0
    assert p.select_expired_files([empty, *files], now=1000, ttl_ms=100) == files[:2]


def test_ratio_is_a_java_float():
    # 120000001 <= 100000000 * 1.2F (120000004.77) but > 100000000 * 1.2 (double).
    conf = Config(compaction_min_files=2, compaction_min_size=1, compaction_ratio=1.2)
    files = [SF(120_000_001), SF(100_000_000)]
    assert ExploringCompactionPolicy(conf).select(files).files == tuple(files)


def test_selection_value():
    sel = CompactionSelection(files=(SF(3), SF(4)))
    assert sel.size == 7 and sel
    assert not CompactionSelection()


# -- the ratio-based policy (the pre-0.96 default) -----------------------------------------------


def test_ratio_based_takes_the_oldest_run_exploring_the_cheapest():
    ratio = RatioBasedCompactionPolicy(TEST_CONF)
    explore = ExploringCompactionPolicy(TEST_CONF)

    def sizes(policy, *s):
        return [f.size for f in policy.select(sf_create(*s)).files]

    assert sizes(ratio, 100, 50, 23, 12, 12) == [23, 12, 12]
    assert sizes(ratio, 100, 50, 25, 12, 12) == []
    # Small files skip the ratio test; then the first max_files files are taken.
    assert sizes(ratio, 7, 6, 5, 4, 3, 2, 1) == [7, 6, 5, 4, 3]
    assert sizes(explore, 7, 6, 5, 4, 3, 2, 1) == [5, 4, 3, 2, 1]
    assert sizes(ratio, 50, 10, 10, 10, 10) == [10, 10, 10, 10]
    # 10 <= max(minSize, ratio * sum of the next four): all five, so a major compaction.
    sel = ratio.select(sf_create(10, 10, 10, 10, 50))
    assert [f.size for f in sel.files] == [10, 10, 10, 10, 50] and sel.is_major
    assert sizes(explore, 10, 10, 10, 10, 50) == [10, 10, 10, 10]
    assert sizes(ratio, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1) == [8, 4, 2, 1]
    # The ratio walk has no working stuck fallback: with min size 1 the stuck store of
    # testCompactionRatio selects nothing, where the exploring policy takes 4, 2, 1.
    conf = TEST_CONF.replace(compaction_min_size=1)
    stuck = sf_create(512, 256, 128, 64, 32, 16, 8, 4, 2, 1)
    assert RatioBasedCompactionPolicy(conf).select(stuck).files == ()
    assert [f.size for f in ExploringCompactionPolicy(conf).select(stuck).files] == [4, 2, 1]


def test_ratio_based_window_sum_and_off_peak():
    conf = TEST_CONF.replace(compaction_ratio_offpeak=5.0)
    ratio = RatioBasedCompactionPolicy(conf)
    files = sf_create(999, 50, 12, 12, 1)
    # 50 > max(10, 1.0 * (12 + 12 + 1)) but <= 5.0 * 25
    assert [f.size for f in ratio.select(files).files] == [12, 12, 1]
    sel = ratio.select(files, off_peak=True)
    assert [f.size for f in sel.files] == [50, 12, 12, 1] and sel.is_off_peak
    # Only the max_files - 1 files after a file count: 60 > 1.0 * (10 + 10 + 10 + 10), though
    # all five files after it sum to 70.
    assert [f.size for f in ratio.select(sf_create(60, 10, 10, 10, 10, 30)).files] == [
        10, 10, 10, 10, 30]


# -- the exploring search equals HBase's exhaustive loop -----------------------------------------


def hbase_exploring(sizes, stuck, min_files, max_files, min_size, max_size, ratio):
    """ExploringCompactionPolicy.applyCompactionPolicy as HBase 2 writes it: every window."""
    best, best_size, smallest, smallest_size = [], 0, [], LONG_MAX
    for start in range(len(sizes)):
        for end in range(start + min_files - 1, len(sizes)):
            window = sizes[start:end + 1]
            if len(window) < min_files or len(window) > max_files:
                continue
            size = sum(window)
            if stuck and size < smallest_size:
                smallest, smallest_size = list(range(start, end + 1)), size
            if size > max_size:
                continue
            if size >= min_size and len(window) >= 2 and \
                    any(s > (size - s) * ratio for s in window):
                continue
            if stuck and best_size > 0 and size > 0:
                better = len(best) / best_size * 1.05 < len(window) / size
            else:
                better = len(window) > len(best) or (len(window) == len(best) and size < best_size)
            if better:
                best, best_size = list(range(start, end + 1)), size
    if not best and stuck:
        return smallest
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 300), max_size=14), st.booleans(), st.integers(2, 4),
       st.integers(2, 7), st.integers(0, 100), st.integers(50, 2000),
       st.sampled_from([1.0, 1.2, 2.0, 5.0]))
def test_pruned_exploring_selects_what_hbase_selects(sizes, stuck, min_files, max_files,
                                                     min_size, max_size, ratio):
    conf = Config(compaction_min_files=min_files, compaction_max_files=max_files,
                  compaction_min_size=min_size, compaction_max_size=max_size,
                  compaction_ratio=ratio)
    files = [SF(s) for s in sizes]
    got = ExploringCompactionPolicy(conf).apply_compaction_policy(files, False, stuck)
    want = hbase_exploring(sizes, stuck, min_files, max_files, min_size, max_size,
                           java_float(ratio))
    assert [files.index(f) for f in got] == want
