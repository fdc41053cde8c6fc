"""Verdicts that say what they rest on (issue 37): every claim carries the seed's proposition,
its extras (reported, never in the verdict), its gap (a mechanism hsim lacks: "not shown by
hsim"), its kind and what it measured; robustness is re-judged over seeds, parameters, the
size and the cost units, and each flip is put down to what caused it."""

import re

import pytest

from hsim.scenario import Scenario, run_scenario
from hsim.scenario.criteria import metric
from hsim.scenario.errors import ScenarioError
from hsim.scenario.loader import load_scenario, scenario_files
from hsim.scenario.model import KINDS
from hsim.scenario.results import HELD, NOT_HELD, NOT_SHOWN
from hsim.scenario.sensitivity import entry, grid, grid_entries, summary

from .test_scenarios import run

SCENARIOS = sorted(p.stem for p in scenario_files())
QUICK = ["hotspotting", "presplit", "column_families", "log_data", "key_encoding",
         "secondary_index", "order_object", "skew_and_import", "region_size"]


def _tiny(**claim):
    s = Scenario("tiny_verdicts", "a claim over two recorded numbers",
                 sizes={"small": 1, "default": 1})
    s.variant("a")

    @s.run
    def _run(ctx, variant):
        ctx.record("n", 3)
        ctx.record("m", 5)

    s.claim("a claim", seed="000", section="s", quote="the seed's words", **claim)
    return s


def _verdict(**claim):
    return run_scenario(_tiny(**claim), plots=False).claims[0]


def test_extras_are_reported_and_never_change_the_verdict():
    c = _verdict(criterion=metric("a", "n") < 4, extras=metric("a", "m") < 4)
    assert c.verdict == HELD and c.extras == [
        {"condition": "a.m < 4", "held": False, "detail": "a.m = 5 not < 4"}]
    c = _verdict(criterion=metric("a", "n") > 4, extras=metric("a", "m") > 4)
    assert c.verdict == NOT_HELD and c.extras[0]["held"] is True
    # the extras' variants are needed like the criterion's
    assert _tiny(criterion=metric("a", "n") < 4, extras=metric("b", "m") < 4).claims[0].needs \
        == ("a", "b")


def test_a_gap_makes_the_claim_not_shown_whatever_the_numbers_say():
    c = _verdict(criterion=metric("a", "n") < 4, gap="reads that stop at a filter's NEXT_ROW")
    assert c.verdict == NOT_SHOWN and c.gap == "reads that stop at a filter's NEXT_ROW"
    assert c.sensitivity == [] and not c.robust
    assert c.robustness == "not shown by hsim: reads that stop at a filter's NEXT_ROW"
    assert "a.n = 3 < 4" in c.detail  # the numbers are still shown


def test_proposition_must_be_the_seeds_words_and_kind_one_of_two():
    assert _verdict(criterion=metric("a", "n") < 4).proposition == "the seed's words"
    assert _verdict(criterion=metric("a", "n") < 4, proposition="seed's").proposition == "seed's"
    with pytest.raises(ScenarioError, match="proposition must be words of its quote"):
        _tiny(criterion=metric("a", "n") < 4, proposition="words the seed never wrote")
    with pytest.raises(ScenarioError, match="kind must be one of measured, arithmetic"):
        _tiny(criterion=metric("a", "n") < 4, kind="priced")
    with pytest.raises(ScenarioError, match="extras must be built"):
        _tiny(criterion=metric("a", "n") < 4, extras=True)


def test_a_claim_on_priced_figures_alone_is_no_measurement():
    from hsim.scenario.runner import _measures

    s = _tiny(criterion=metric("a", "n") < 4)
    report = run_scenario(s, plots=False, sensitivity="off")
    v = report.variants[0]
    assert _measures(s.claims[0], {"a": v}) == {"counted": ["a.n"], "priced": []}
    v.units["n"] = "ms"  # as a cost-model figure is recorded
    assert _measures(s.claims[0], {"a": v}) == {"counted": [], "priced": ["a.n"]}


@pytest.mark.parametrize("name", QUICK)
def test_every_claim_says_what_it_rests_on(name):
    """proposition, extras, gap, kind, sensitivity entries naming seed, size and param; a
    measured claim rests on a count the engine made; the verdict is the criterion's alone."""
    scenario = load_scenario(name)
    report = run(name)
    results = report.results
    for declared, c in zip(scenario.claims, report.to_dict()["claims"]):
        assert c["proposition"] and all(part.strip() in c["seed"]["quote"]
                                        for part in c["proposition"].split("..."))
        assert isinstance(c["extras"], list) and c["kind"] in KINDS and "gap" in c
        for s in c["sensitivity"]:
            assert {"seed", "size", "param", "vary", "verdict"} <= set(s)
        if c["kind"] == "measured":
            assert c["measures"]["counted"], f"{name}: {c['title']} rests on no count"
        if c["gap"]:
            assert c["verdict"] == NOT_SHOWN
        else:
            held, _ = declared.criterion.judge(results)
            assert c["verdict"] == (HELD if held else NOT_HELD), c["title"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(SCENARIOS) - set(QUICK)))
def test_every_claim_says_what_it_rests_on_in_the_other_scenarios(name):
    test_every_claim_says_what_it_rests_on(name)


def test_the_grid_is_five_seeds_then_each_key_parameter_value_at_each():
    s = load_scenario("hotspotting")
    g = grid(s, 1, {"regions": 16, "entities": 64})
    assert [p["seed"] for p in g[:5]] == [1, 2, 3, 4, 5]
    assert [p["params"]["regions"] for p in g] == [16] * 5 + [8] * 5 + [32] * 5


def _point(seed, verdicts, size="default", reads=("regions",), **params):
    return {"seed": seed, "size": size, "params": {"regions": 16, **params},
            "claims": [(v, list(reads)) for v in verdicts]}


def test_a_flip_at_the_small_size_is_put_down_to_size_not_seed():
    base = _point(1, [HELD])
    others = [_point(s, [HELD]) for s in (2, 3, 4, 5)]
    control = _point(1, [NOT_HELD], size="small")
    entries = grid_entries(base, others, control)[0]
    robust, line = summary(HELD, entries)
    assert not robust and line == ("depends on size: did not hold at the small size "
                                   "(1 of 5 variations)")


def test_a_flip_at_a_parameter_is_put_down_to_it_unless_its_seed_flips_anyway():
    base = _point(1, [HELD])
    others = [_point(2, [NOT_HELD]), _point(1, [NOT_HELD], regions=32),
              _point(2, [NOT_HELD], regions=32), _point(3, [NOT_HELD], regions=32)]
    entries = grid_entries(base, others)[0]
    assert [(e["vary"], e["seed"], e["param"]) for e in entries] == [
        ("seed", 2, ""), ("regions", 1, "regions=32"), ("regions", 2, "regions=32"),
        ("regions", 3, "regions=32")]
    _, line = summary(HELD, entries)
    assert line == ("depends on seed, regions: did not hold at seed 2; regions=32 (seed 1, 3) "
                    "(4 of 4 variations)")


def test_a_parameter_the_claims_variants_never_read_is_not_swept_for_it():
    base = _point(1, [HELD, HELD], reads=())
    base["claims"][1] = (HELD, ["regions"])
    other = _point(1, [NOT_HELD, NOT_HELD], reads=(), regions=32)
    entries = grid_entries(base, [other])
    assert entries[0] == [] and entries[1] == [entry("regions", 1, "default", "regions=32",
                                                     NOT_HELD)]


def test_cost_flips_name_the_unit():
    entries = [entry("seek_ms", 1, "default", "seek_ms x0.5", NOT_HELD),
               entry("seek_ms", 1, "default", "seek_ms x2", HELD)]
    assert summary(HELD, entries) == (False, "depends on seek_ms: did not hold at seek_ms x0.5 "
                                             "(1 of 2 variations)")
    assert summary(HELD, entries[1:]) == (True, "robust: held at all 1 variations")


@pytest.mark.slow
def test_run_and_sweep_agree_on_each_claims_robustness(tmp_path):
    """`hsim run hotspotting` and `hsim sweep hotspotting --seeds 1..5 --param
    regions=8,16,32` over the same grid (at the small size) give every claim the same line."""
    from hsim.scenario.sweep import points, run_sweep, summarize

    report = run_scenario("hotspotting", ops="small", plots=False, sensitivity="full", jobs=2)
    grid_points = points([1, 2, 3, 4, 5], {"regions": ["8", "16", "32"]})
    reports = run_sweep("hotspotting", grid_points, {"ops": "small"}, jobs=2)
    swept = summarize("hotspotting", grid_points, reports)
    assert swept["base"] == "seed=1 regions=16"
    assert [(c["title"], c["verdict"], c["robustness"]) for c in swept["claims"]] == \
        [(c.title, c.verdict, c.robustness) for c in report.claims]
    # not agreement by emptiness: each line counts at least the grid's 14 other points
    counts = [int(re.search(r"(\d+) variations", c.robustness)[1]) for c in report.claims]
    assert counts and min(counts) >= 14


ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
_ROBUSTNESS = __import__("re").compile(
    r"robust: held at all|at all \d+ variations|depends on [\w ,]+: (held|did not hold) at")


def test_robustness_is_quoted_only_in_generated_blocks():
    """README and the docs quote a claim's robustness only inside the blocks `hsim docs`
    generates from a run (so `hsim docs --check` holds them to the run)."""
    from hsim.scenario.docs import _BLOCK

    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        outside = _BLOCK.sub("", path.read_text())
        found = _ROBUSTNESS.search(outside)
        assert found is None, f"{path.name} quotes robustness by hand: {found.group(0)!r}"


@pytest.mark.slow
def test_readmes_robustness_lines_are_the_runs():
    """README's hotspotting block is what `hsim run hotspotting` (default size, full
    sensitivity) generates: verdicts and robustness lines alike."""
    from hsim.scenario.docs import _BLOCK, claims_block

    blocks = {m["name"]: m["body"] for m in _BLOCK.finditer((ROOT / "README.md").read_text())
              if m["kind"] == "scenario"}
    report = run_scenario("hotspotting", plots=False, sensitivity="full", jobs=2)
    assert blocks["hotspotting"] == claims_block(report)


def test_seed_coverage_gives_each_claim_one_of_three_outcomes(monkeypatch):
    """docs/seed-coverage.md: a finding on the seed, or a gap named, never a bare verdict."""
    from hsim.scenario import coverage

    page = (ROOT / coverage.PAGE).read_text()
    assert "(**did not hold**: a finding on the seed)" in page
    real = coverage.scenario_covers()
    gapped = {n: [(s, t, "reads that stop at a filter's NEXT_ROW") for s, t, _ in where]
              for n, where in real.items()}
    monkeypatch.setattr(coverage, "scenario_covers", lambda: gapped)
    text = coverage.render(ROOT)
    assert "(**not shown by hsim**: needs reads that stop at a filter's NEXT_ROW)" in text
    assert "a finding on the seed)" not in text and " 0 held, 0 did not hold" in text
