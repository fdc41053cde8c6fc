"""easybase's own test suite (tests/test_api.py of the 2.0.1 sdist, unchanged) against the
Thrift2 gateway, in-process (hsim.thrift2) and over `hsim serve --thrift2`: the sdist is
downloaded with pip at test time (tools/easybase_suite.py), never kept in the repository."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "easybase_suite.py"


@pytest.mark.slow  # a whole suite in a subprocess, over `hsim serve --thrift2` too
@pytest.mark.parametrize("mode", ["inprocess", "serve"])
def test_easybase_test_api_passes_whole(mode, upstream_suite):
    # 20: the file's 21 tests but test_table_region, which upstream marks @nottest
    assert f"{mode}: 20 passed" in upstream_suite("easybase_suite.py", mode)


def test_an_unreachable_registry_is_a_skip_with_pips_reason():
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "PIP_EXTRA_INDEX_URL": ""}
    result = subprocess.run([sys.executable, str(TOOL), "--mode", "inprocess"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 3
    assert result.stdout.startswith("SKIPPED: pip download easybase==2.0.1 failed")
