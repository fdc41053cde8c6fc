"""Same seed, same report: two runs in separate processes (with different hash seeds, so any
iteration over a set or dict of bytes that leaks into the results would show) write identical
report.json and report.md apart from their wall-clock lines."""

import os
import subprocess
import sys
import pytest

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


def _run(tmp_path, name, hash_seed, *args):
    out = tmp_path / "-".join([name, str(hash_seed), *args])
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    proc = subprocess.run([sys.executable, "-m", "hsim.cli", "run", name, "--out", str(out),
                           "--no-plots", "--format", "json", "--sensitivity", "costs", *args],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return out


def _without_timing(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if '"elapsed_s"' not in line and not line.startswith("Elapsed:")]


def test_same_seed_gives_the_same_report(tmp_path):
    a = _run(tmp_path, "hotspotting", 1, "--ops", "1500")
    b = _run(tmp_path, "hotspotting", 2, "--ops", "1500")
    for name in ("report.json", "report.md"):
        left, right = (p.joinpath(name).read_text() for p in (a, b))
        assert _without_timing(left) == _without_timing(right)
        assert len(_without_timing(left)) < len(left.splitlines())  # timing lines existed


def test_another_seed_gives_other_numbers(tmp_path):
    a = _run(tmp_path, "presplit", 1, "--ops", "800", "--seed", "1")
    b = _run(tmp_path, "presplit", 1, "--ops", "800", "--seed", "2")
    assert _without_timing((a / "report.json").read_text()) != \
        _without_timing((b / "report.json").read_text())
