"""The examples/ application suites run as a user runs them: `pytest examples/`, with hsim's
pytest plugin found through its entry point."""

import importlib.metadata
import pathlib
import re
import subprocess
import sys
import pytest

pytestmark = pytest.mark.slow  # the examples' own suite in a subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _plugin_args() -> list:
    """`-p hsim.pytest_plugin` only when hsim is not installed with its pytest11 entry point."""
    eps = importlib.metadata.entry_points(group="pytest11")
    return [] if any(ep.value == "hsim.pytest_plugin" for ep in eps) else ["-p",
                                                                           "hsim.pytest_plugin"]


def test_examples_suite_passes():
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rN",
                        *_plugin_args(), str(ROOT / "examples")],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"\b[1-9]\d* passed", r.stdout), r.stdout
