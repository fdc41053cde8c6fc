"""The Python examples in the guides print what the guides say: each ```pycon block of
docs/scenarios.md runs as a doctest, outputs compared."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```pycon\n(.*?)```", (ROOT / "docs" / "scenarios.md").read_text(), re.S)


def test_the_guide_has_a_checked_example():
    assert any("run_scenario(" in b for b in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_a_pycon_block_prints_what_the_guide_says(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the example writes its report under out/
    test = doctest.DocTestParser().get_doctest(block, {}, "docs/scenarios.md", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)
    assert test.examples
