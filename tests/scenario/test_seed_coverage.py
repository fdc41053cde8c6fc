"""docs/seed-coverage.md is generated from the seed claims and the scenarios' `covers=`: it
cannot drift, name a claim that does not exist, or leave a claim unaccounted for."""

from pathlib import Path

import pytest

from hsim.scenario import coverage
from hsim.scenario.docs import main as docs_main
from hsim.scenario.errors import ScenarioError
from hsim.scenario.seed_claims import SEED_CLAIMS
from hsim.scenario.seeds import SEED_DOCUMENTS

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_is_up_to_date():
    assert (ROOT / coverage.PAGE).read_text() == coverage.render(ROOT), \
        "docs/seed-coverage.md is stale: run `hsim docs --coverage --write`"


def test_the_claims_are_numbered_1_to_93_with_a_seed_and_section():
    assert sorted(SEED_CLAIMS) == list(range(1, 94))
    for c in SEED_CLAIMS.values():
        assert c.quote and c.section and c.seeds and set(c.seeds) <= set(SEED_DOCUMENTS)
    # the table is a data file beside its module: an installed package must ship it
    assert '"hsim.scenario" = ["seed_claims.json"]' in (ROOT / "pyproject.toml").read_text()


def test_every_claim_is_shown_or_accounted_for_and_labs_exist():
    shown = coverage.scenario_covers()
    labs = {n for ns in coverage.LABS.values() for n in ns}
    for n in SEED_CLAIMS:
        assert n in shown or n in labs or n in coverage.PLANNED or n in coverage.REASONS, n
    assert all((ROOT / "labs" / f"{lab}.hb").is_file() for lab in coverage.LABS)
    # a covered claim lists the scenario claim that shows it, with its generated verdict
    page = (ROOT / coverage.PAGE).read_text()
    assert ("| 33 |" in page and "`presplit`: Bytes.split cuts the hex range at the book's "
            "split points (**held**)" in page)


def test_a_covers_number_that_is_no_seed_claim_fails(tmp_path, monkeypatch):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "zz_bad_covers.py").write_text(
        "from hsim.scenario import Scenario\nfrom hsim.scenario.criteria import metric\n"
        "scenario = Scenario('zz_bad_covers', 'x', sizes={'small': 1, 'default': 1})\n"
        "scenario.variant('a')\nscenario.run(lambda ctx, v: None)\n"
        "scenario.claim('t', seed='000', section='s', quote='q', "
        "criterion=metric('a', 'm') > 0, covers=(94,))\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScenarioError, match="covers=94"):
        coverage.scenario_covers()


def test_a_claim_shown_nowhere_without_a_reason_fails(monkeypatch):
    monkeypatch.setitem(coverage.LABS, "byte_patterns", (26,))  # the lab no longer shows 28
    with pytest.raises(ScenarioError, match="seed claim 28 .* no reason"):
        coverage.render(ROOT)


def test_check_fails_on_a_stale_page_and_write_fixes_it(tmp_path, capsys):
    for d in ("docs", "labs", "scenarios"):
        (tmp_path / d).mkdir()
    (tmp_path / "docs" / "scenarios.md").write_text((ROOT / "docs/scenarios.md").read_text())
    for lab in coverage.LABS:
        (tmp_path / "labs" / f"{lab}.hb").write_text("")
    (tmp_path / coverage.PAGE).write_text("stale\n")
    assert coverage.sync(tmp_path, write=False) is True
    assert (tmp_path / coverage.PAGE).read_text() == "stale\n"
    assert coverage.sync(tmp_path, write=True) is True
    assert coverage.sync(tmp_path, write=False) is False
    assert docs_main(["--coverage", "--check"]) == 0
    assert "checked docs/seed-coverage.md" in capsys.readouterr().out
