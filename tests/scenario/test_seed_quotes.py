"""Every claim quotes its seed document word for word ('...' marks an elision), and names a
section; the seed documents live outside the repository, so the check needs them."""

import re
from pathlib import Path

import pytest

from hsim.scenario.loader import load_scenario, scenario_files

SEEDS = Path("/work/shared/seeds")


def _normalise(text: str) -> str:
    # the documents are diffs and wrapped text: drop diff '+' markers and join the lines
    lines = [line[1:] if line.startswith("+") else line for line in text.splitlines()]
    return re.sub(r"\s+", " ", " ".join(lines))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not on this machine")
@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.stem)
def test_claims_quote_their_seed_documents(path):
    scenario = load_scenario(str(path))
    assert scenario.claims
    for claim in scenario.claims:
        doc = _normalise(next(SEEDS.glob(f"{claim.seed.document}_*.txt")).read_text())
        assert claim.seed.section
        for part in claim.seed.quote.split("..."):
            part = re.sub(r"\s+", " ", part.strip())
            if part:
                assert part in doc, f"{path.stem}: {claim.title!r} misquotes: {part[:60]!r}"
