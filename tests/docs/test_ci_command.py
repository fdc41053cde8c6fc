"""CI runs exactly README's test command, which runs every test (slow ones too) on every core;
`slow` is a registered marker, so `-m "not slow"` (the developer loop) is a real selection."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text()
    return re.search(r"Run the tests:\n\n```\n(.*?)\n```", readme, re.S).group(1)


def test_ci_runs_readmes_test_command():
    command = _readme_test_command()
    assert (ROOT / ".ci" / "run").read_text().rstrip().splitlines()[-1] == command
    assert "-n auto" in command and "slow" not in command  # everything, on every core


def test_the_slow_marker_is_registered_and_xdist_is_a_dev_dependency():
    project = (ROOT / "pyproject.toml").read_text()  # (tomllib is Python 3.11+)
    assert re.search(r'^markers = \[\n    "slow: ', project, re.M)
    dev = re.search(r"^dev = \[(.*?)\]", project, re.M | re.S).group(1)
    assert '"pytest-xdist>=' in dev
