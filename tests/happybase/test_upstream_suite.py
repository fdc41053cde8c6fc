"""happybase's own test suite (tests/test_api.py of the 1.3.0 sdist, unchanged), in-process and
over `hsim serve`: opt-in (HSIM_HAPPYBASE_SUITE=1), since it downloads the sdist with pip."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "happybase_suite.py"


@pytest.mark.slow  # a whole suite in a subprocess, over `hsim serve` too
@pytest.mark.skipif(not os.environ.get("HSIM_HAPPYBASE_SUITE"),
                    reason="opt-in: set HSIM_HAPPYBASE_SUITE=1 (downloads happybase's sdist)")
@pytest.mark.parametrize("mode", ["inprocess", "serve"])
def test_happybase_test_api_passes_whole(mode):
    result = subprocess.run([sys.executable, str(TOOL), "--mode", mode],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{mode}: 25 passed" in result.stdout
