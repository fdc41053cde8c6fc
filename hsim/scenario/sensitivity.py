"""Sensitivity: each claim re-judged with every cost unit x0.5 and x2, under other seeds, and
over the scenario's key parameters.

Cost units are varied by re-pricing the counts a run recorded (ctx.record_cost): the counts do
not change when only prices do, so no workload runs again. Seeds and parameters change the
counts, so those re-run the scenario, at its "sweep" size (else "small") to keep `hsim run`
within a minute.
"""

from __future__ import annotations

from hsim.scenario.context import price
from hsim.scenario.results import HELD, NOT_HELD, NOT_RUN, Metrics, Results
from hsim.workloads.costmodel import CostModel

FACTORS = (0.5, 2.0)
EXTRA_SEEDS = 2  # besides the run's own: three seeds in all


def repriced(report, model: CostModel) -> Results:
    """The report's results with every priced metric worked out again under `model`."""
    out = Results()
    out.options = report.options
    for v in report.variants:
        m = Metrics(v.metrics)
        m.variant = v.name
        for key, (loads, ops, measure, per) in v.priced.items():
            m[key] = price(model, loads, ops, measure, per)
        out[v.name] = m
    return out


def judge(claim, results, ran: set) -> str:
    if not set(claim.needs) <= ran:
        return NOT_RUN
    held, _ = claim.criterion.judge(results)
    return HELD if held else NOT_HELD


def cost_sweep(scenario, report, model: CostModel) -> list[list[dict]]:
    """Per claim: {vary, value, verdict} for each cost unit at each factor."""
    ran = {v.name for v in report.variants}
    out = [[] for _ in scenario.claims]
    for unit in CostModel.UNITS:
        for f in FACTORS:
            results = repriced(report, model.scaled(unit, f))
            for i, c in enumerate(scenario.claims):
                out[i].append({"vary": unit, "value": f"x{f:g}",
                               "verdict": judge(c, results, ran)})
    return out


def rerun_points(scenario, seed: int, params: dict) -> list[tuple]:
    """(vary, value, run arguments) of each re-run: two more seeds, then each key parameter
    value; `params`: the run's own, as given (before the scenario derives any from the size)."""
    points = [("seed", seed + k, {"seed": seed + k}) for k in range(1, EXTRA_SEEDS + 1)]
    for key, values in scenario.sweep.items():
        for value in values:
            points.append((key, value, {"params": {**params, key: value}}))
    return points


def rerun_sweep(scenario, points: list[tuple], reports: list) -> list[list[dict]]:
    """Per claim: {vary, value, verdict} at each of `points` (rerun_points), from the Reports
    of their re-runs at a smaller size, in the same order."""
    out = [[] for _ in scenario.claims]
    for (vary, value, _kw), other in zip(points, reports):
        ran = {v.name for v in other.variants}
        results = other.results
        for i, c in enumerate(scenario.claims):
            out[i].append({"vary": vary, "value": value, "verdict": judge(c, results, ran)})
    return out


def summary(verdict: str, sensitivity: list[dict]) -> tuple[bool, str]:
    """(robust, one line): robust when the claim held at the run and at every variation."""
    flips = [s for s in sensitivity if s["verdict"] != verdict and s["verdict"] != NOT_RUN]
    robust = verdict == HELD and not flips
    if not sensitivity:
        return robust, "no sensitivity sweep"
    if not flips:
        return robust, (f"robust: {verdict} at all {len(sensitivity)} variations"
                        if verdict == HELD else
                        f"{verdict} at all {len(sensitivity)} variations too")
    where = {}
    for s in flips:
        where.setdefault(s["vary"], []).append(f"{s['value']}")
    said = "; ".join(f"{k} {', '.join(map(str, v))}" for k, v in where.items())
    other = flips[0]["verdict"]
    small = " (re-run at a smaller size)" if any(s["vary"] not in CostModel.UNITS
                                                  for s in flips) else ""
    return robust, f"depends on {', '.join(where)}: {other} at {said}{small}"
