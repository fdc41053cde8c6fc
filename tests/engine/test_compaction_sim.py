"""The compaction simulator: flushes in, file lists and write amplification out."""

from hsim.config import Config
from hsim.engine.compaction_policy import ExploringCompactionPolicy, RatioBasedCompactionPolicy
from hsim.engine.compaction_sim import simulate

SMALL = Config(compaction_min_files=3, compaction_max_files=10, compaction_min_size=1,
               compaction_ratio=1.2, major_compaction_period_ms=0)
NO_MINOR = SMALL.replace(compaction_min_files=100)


def test_equal_flushes_step_by_step():
    result = simulate(ExploringCompactionPolicy(SMALL), [10] * 6)
    assert [s.sizes for s in result.steps] == [
        [10], [10, 10], [30], [30, 10],
        [30, 10, 10],  # 30 > 1.2 x 20: not in ratio, and two small files are too few
        [60],  # 30 <= 1.2 x 30: all four files
    ]
    assert [s.bytes_rewritten for s in result.steps] == [0, 0, 30, 0, 0, 60]
    assert result.steps[2].compactions[0].is_major
    assert result.bytes_flushed == 60 and result.bytes_rewritten == 90
    assert result.write_amplification == 2.5
    assert result.compactions == 2 and result.max_files == 3


def test_policies_differ_on_the_same_flushes():
    flushes = [100, 90, 80, 10, 10, 10, 10, 10] * 3
    explore = simulate(ExploringCompactionPolicy(SMALL), flushes)
    ratio = simulate(RatioBasedCompactionPolicy(SMALL), flushes)
    assert explore.bytes_flushed == ratio.bytes_flushed == sum(flushes)
    # Every step's files add up to what was flushed (outputs are the sum of their inputs).
    for r in (explore, ratio):
        for s in r.steps:
            assert sum(s.sizes) == sum(flushes[:s.step + 1])
    assert [s.sizes for s in explore.steps] != [s.sizes for s in ratio.steps]
    assert explore.write_amplification > 1 and ratio.write_amplification > 1


def test_user_major_compaction_merges_everything():
    result = simulate(ExploringCompactionPolicy(NO_MINOR), [5, 6, 7, 8], major_steps=[2])
    assert [s.sizes for s in result.steps] == [[5], [5, 6], [18], [18, 8]]
    sel = result.steps[2].compactions[0]
    assert sel.is_major and sel.tried_major
    assert result.steps[2].files[0].is_major


def test_files_past_the_ttl_are_dropped_whole():
    result = simulate(ExploringCompactionPolicy(NO_MINOR), [1, 2, 3, 4, 5], interval_ms=1000,
                      ttl_ms=2500)
    assert [s.sizes for s in result.steps] == [[1], [1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]]
    assert [len(s.expired) for s in result.steps] == [0, 0, 0, 1, 1]
    assert result.bytes_rewritten == 0
    # MIN_VERSIONS keeps them.
    kept = simulate(ExploringCompactionPolicy(NO_MINOR), [1, 2, 3, 4, 5], interval_ms=1000,
                    ttl_ms=2500, min_versions=1)
    assert kept.steps[-1].sizes == [1, 2, 3, 4, 5]


def test_periodic_major_compaction_follows_the_clock():
    conf = NO_MINOR.replace(major_compaction_period_ms=5000, major_compaction_jitter=0.0)
    result = simulate(ExploringCompactionPolicy(conf), [1] * 14, interval_ms=1000)
    majors = [s.step for s in result.steps if s.compactions]
    # The oldest file (created at 1 ms) is older than 5 s at step 6 (6001 ms); the output is
    # created then, so the next one comes 6 steps later.
    assert majors == [6, 12]
    assert result.steps[6].sizes == [7] and result.steps[12].sizes == [13]


def test_off_peak_ratio_is_used_on_off_peak_steps():
    conf = SMALL.replace(compaction_ratio_offpeak=5.0)
    flushes = [100, 10, 10]
    assert simulate(ExploringCompactionPolicy(conf), flushes).steps[-1].sizes == [100, 10, 10]
    off = simulate(ExploringCompactionPolicy(conf), flushes, off_peak=lambda step: True)
    assert off.steps[-1].sizes == [120]
