"""Values checked when given (issue 33): every numeric Config field's range, NaN and infinities,
clocks past Java's Long.MAX_VALUE, a pre-split of 10^9 regions, `hsim serve --config` errors.
Each refusal is an hsim error naming the HBase exception, and changes nothing."""

import dataclasses
import subprocess
import sys

import pytest

import hsim
from hsim.client.admin import MAX_PRESPLIT_REGIONS
from hsim.clock import LONG_MAX, ManualClock, SystemClock, TickingClock
from hsim.config import _RANGES, Config

ILLEGAL = "java.lang.IllegalArgumentException"
_NUMERIC = [f for f in dataclasses.fields(Config)
            if f.default is None or type(f.default) in (int, float)]


def test_every_numeric_field_has_a_range():
    assert sorted(f.name for f in _NUMERIC) == sorted(_RANGES)


@pytest.mark.parametrize("field", _NUMERIC, ids=lambda f: f.name)
def test_each_numeric_field_refuses_values_outside_its_range(field):
    lo, hi, brackets = _RANGES[field.name]
    is_float = isinstance(field.default, float)
    bad = [lo - 1 if isinstance(lo, int) else lo - 0.5, hi + 1 if isinstance(hi, int) else hi * 2]
    if brackets[0] == "(":
        bad.append(lo)
    if brackets[1] == ")":
        bad.append(hi)
    if is_float:
        bad += [float("nan"), float("inf"), float("-inf")]
    for value in bad:
        with pytest.raises(hsim.InvalidArgumentError) as e:
            Config(**{field.name: value})
        assert e.value.hbase_exception == ILLEGAL and field.name in e.value.message
    inside = lo if brackets[0] == "[" else hi if brackets[1] == "]" else (lo + hi) / 2
    assert getattr(Config(**{field.name: inside}), field.name) == inside


@pytest.mark.parametrize("changes", [
    {"bloom_error_rate": 0.0}, {"bloom_error_rate": float("nan")}, {"bloom_error_rate": 1.5},
    {"bytes_per_checksum": 0}, {"max_filesize_jitter": float("nan")},
    {"major_compaction_jitter": float("nan")}, {"memstore_flush_size": 1 << 63},
])
def test_the_reported_bad_configs_are_refused_and_change_nothing(changes):
    base = Config(memstore_flush_size=1 << 20)
    with pytest.raises(hsim.InvalidArgumentError):
        base.replace(**changes)
    assert base == Config(memstore_flush_size=1 << 20)


def test_scaled_refuses_a_factor_that_is_not_positive_and_finite():
    for factor in (float("inf"), float("nan"), 0, -1, True):
        with pytest.raises(hsim.InvalidArgumentError, match="scale must be a positive finite"):
            Config().scaled(factor)
    assert Config().scaled(1e30).memstore_flush_size == LONG_MAX  # sizes stay Java longs


@pytest.mark.parametrize("make", [
    lambda: ManualClock(1 << 63), lambda: ManualClock(-1), lambda: TickingClock(1 << 63),
    lambda: TickingClock(0, step_ms=1 << 63),
], ids=["manual", "manual-negative", "ticking", "ticking-step"])
def test_clocks_refuse_times_past_long_max(make):
    with pytest.raises(hsim.InvalidArgumentError) as e:
        make()
    assert e.value.hbase_exception == ILLEGAL


@pytest.mark.parametrize("clock", [ManualClock(5), TickingClock(5), SystemClock()],
                         ids=["manual", "ticking", "system"])
def test_set_and_advance_past_long_max_change_nothing(clock):
    before = clock.now()
    for move in (lambda: clock.set(1 << 63), lambda: clock.advance(LONG_MAX)):
        with pytest.raises(hsim.InvalidArgumentError, match="Long.MAX_VALUE"):
            move()
        assert clock.now() - before < 60_000  # unchanged (the system clock moves on its own)


def test_a_ticking_clock_stops_at_long_max():
    clock = TickingClock(LONG_MAX, step_ms=1)
    assert clock.tick() == LONG_MAX
    with pytest.raises(hsim.InvalidArgumentError, match="would pass Long.MAX_VALUE"):
        clock.tick()
    assert clock.now() == LONG_MAX


@pytest.mark.parametrize("presplit", [
    {"presplit": ("HexStringSplit", 10 ** 9)},
    {"start_key": b"a", "end_key": b"z", "num_regions": 10 ** 9},
    {"split_keys": [b"%06d" % i for i in range(MAX_PRESPLIT_REGIONS)]},
], ids=["algorithm", "admin-range", "split-keys"])
def test_a_pre_split_past_the_region_cap_is_refused_at_once(presplit):
    cluster = hsim.Cluster(clock=ManualClock(0))
    with pytest.raises(hsim.InvalidArgumentError, match="at most 10000 regions") as e:
        cluster.admin.create_table("t", ["f"], **presplit)
    assert e.value.hbase_exception == ILLEGAL
    assert cluster.admin.list_tables() == []


@pytest.mark.parametrize("text, says", [
    ('{"scale": Infinity}', "scale must be a positive finite number, not inf"),
    ('{"scale": NaN}', "scale must be a positive finite number, not nan"),
    ('{"bloom_error_rate": 1.5}', "bloom_error_rate must be in (0.0, 1.0), not 1.5"),
    ('{"bytes_per_checksum": 0}', "bytes_per_checksum must be in [1, 2147483647], not 0"),
    ('[' * 100_000 + ']' * 100_000, "argument --config"),
], ids=["inf-scale", "nan-scale", "bloom", "checksum", "deep-json"])
def test_serve_config_errors_are_one_line_and_exit_2(text, says, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(text)
    r = subprocess.run([sys.executable, "-m", "hsim.cli", "serve", "--port", "0",
                        "--config", str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert lines[0] == "usage: hsim serve [options] (see --help)" and len(lines) == 2
    assert says in lines[1] and "Traceback" not in r.stderr
