"""The Python examples in the guides print what the guides say: each ```pycon block of
docs/scenarios.md and docs/cost-model.md runs as a doctest, outputs compared."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ("scenarios.md", "cost-model.md")
BLOCKS = [(guide, block) for guide in GUIDES
          for block in re.findall(r"```pycon\n(.*?)```", (ROOT / "docs" / guide).read_text(), re.S)]


def test_the_guide_has_a_checked_example():
    assert any("run_scenario(" in b for _, b in BLOCKS)
    assert {guide for guide, _ in BLOCKS} == set(GUIDES)


@pytest.mark.parametrize("guide, block", BLOCKS,
                         ids=[f"{g}:{i}" for i, (g, _) in enumerate(BLOCKS)])
def test_a_pycon_block_prints_what_the_guide_says(guide, block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the example writes its report under out/
    test = doctest.DocTestParser().get_doctest(block, {}, f"docs/{guide}", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)
    assert test.examples
