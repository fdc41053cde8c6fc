"""happybase's own test suite (tests/test_api.py of the 1.3.0 sdist, unchanged), in-process and
over `hsim serve`, in every run of README's test command: the sdist is downloaded with pip from
PyPI (which CI reaches) at test time, never kept in the repository."""

import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "happybase_suite.py"


@pytest.mark.slow  # a whole suite in a subprocess, over `hsim serve` too
@pytest.mark.parametrize("mode", ["inprocess", "serve"])
def test_happybase_test_api_passes_whole(mode):
    result = subprocess.run([sys.executable, str(TOOL), "--mode", mode],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{mode}: 25 passed" in result.stdout
