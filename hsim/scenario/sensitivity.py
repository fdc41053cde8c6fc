"""Sensitivity: each claim re-judged over a grid of seeds and key parameter values at the run's
own size, with every cost unit x0.5 and x2, and at the small size with the run's seed (the
size control), so that a flip is put down to what caused it.

Each entry names its `seed`, `size` and `param` (the parameter or cost unit changed, "" for
none), what it varied (`vary`: "seed", "size", a parameter or a cost unit) and the `verdict`.
A point that changes a parameter none of the claim's variants read (nor its criterion) is the
same run as the point without the change, so it is left out of that claim's entries.

Cost units are varied by re-pricing the counts a run recorded (ctx.record_cost): the counts do
not change when only prices do, so no workload runs again. Seeds, parameters and the size
change the counts, so those re-run the scenario. `hsim run` and `hsim sweep` build their
entries and robustness lines with the same functions, so the same grid gives the same line.
"""

from __future__ import annotations

from hsim.scenario.context import price
from hsim.scenario.results import HELD, NOT_HELD, NOT_RUN, NOT_SHOWN, Metrics, Results
from hsim.workloads.costmodel import CostModel

FACTORS = (0.5, 2.0)
SEEDS = 5  # the run's seed and the next four


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
    if claim.gap:
        return NOT_SHOWN
    held, _ = claim.criterion.judge(results)
    return HELD if held else NOT_HELD


def cost_sweep(scenario, report, model: CostModel) -> list[list[dict]]:
    """Per claim: an entry for each cost unit at each factor, at the run's seed and size."""
    ran = {v.name for v in report.variants}
    seed, size = report.options["seed"], report.options["size"]
    out = [[] for _ in scenario.claims]
    for unit in CostModel.UNITS:
        for f in FACTORS:
            results = repriced(report, model.scaled(unit, f))
            for i, c in enumerate(scenario.claims):
                out[i].append(entry(unit, seed, size, f"{unit} x{f:g}",
                                    judge(c, results, ran)))
    return out


def entry(vary: str, seed: int, size: str, param: str, verdict: str) -> dict:
    return {"vary": vary, "seed": seed, "size": size, "param": param, "verdict": verdict}


def grid(scenario, seed: int, params: dict) -> list[dict]:
    """`hsim run`'s grid, the base point first: seeds seed..seed+4 at the run's parameters,
    then each key parameter value (scenario.sweep) at each of those seeds."""
    seeds = range(seed, seed + SEEDS)
    out = [{"seed": s, "params": dict(params)} for s in seeds]
    for key, values in scenario.sweep.items():
        for value in values:
            if value != params.get(key):
                out += [{"seed": s, "params": {**params, key: value}} for s in seeds]
    return out


def point(report) -> dict:
    """What the entries need of one run (a Report or its report.json as a dict): its seed,
    size, parameters, and per claim the verdict and the parameters the claim reads."""
    if isinstance(report, dict):
        o, claims = report["options"], [(c["verdict"], c.get("reads", []))
                                         for c in report["claims"]]
    else:
        o, claims = report.options, [(c.verdict, c.reads) for c in report.claims]
    return {"seed": o["seed"], "size": o["size"], "params": o.get("params", {}),
            "claims": claims}


def grid_entries(base: dict, others: list[dict], size_control: dict | None = None) -> list:
    """Per claim of `base` (a `point`): an entry for each of `others` (points at the same size,
    other seeds or parameter values) that changes something the claim reads, then the size
    control (the base's seed and parameters at the small size) when given."""
    out = [[] for _ in base["claims"]]
    for p in others:
        changed = sorted(k for k in p["params"] if p["params"][k] != base["params"].get(k))
        for i, (verdict, reads) in enumerate(p["claims"]):
            read = set(reads) | set(base["claims"][i][1])
            if any(k not in read for k in changed):
                continue  # a parameter none of the claim's variants read: the same run
            if not changed and p["seed"] == base["seed"]:
                continue
            param = ", ".join(f"{k}={p['params'][k]}" for k in changed)
            out[i].append(entry(changed[0] if changed else "seed", p["seed"], p["size"],
                                param, verdict))
    if size_control is not None:
        for i, (verdict, _) in enumerate(size_control["claims"]):
            out[i].append(entry("size", size_control["seed"], size_control["size"], "",
                                verdict))
    return out


def summary(verdict: str, sensitivity: list[dict], gap: str | None = None) -> tuple[bool, str]:
    """(robust, one line): robust when the claim held at the run and at every variation. A
    flip at another seed and a parameter value is put down to the parameter only when that
    seed with the run's parameters gave the run's verdict; else to the seed."""
    if verdict == NOT_SHOWN:
        return False, f"not shown by hsim: {gap}"
    judged = [s for s in sensitivity if s["verdict"] != NOT_RUN]
    if not judged:
        return False, "no sensitivity sweep"
    flips = [s for s in judged if s["verdict"] != verdict]
    robust = verdict == HELD and not flips
    if not flips:
        return robust, (f"robust: held at all {len(judged)} variations" if verdict == HELD
                        else f"{verdict} at all {len(judged)} variations too")
    seed_flips = {s["seed"] for s in flips if s["vary"] == "seed"}
    where: dict[str, list[str]] = {}
    by_param: dict[str, dict[str, list[str]]] = {}
    for s in sorted(flips, key=_order):
        if s["vary"] == "seed":
            where.setdefault("seed", []).append(str(s["seed"]))
        elif s["vary"] == "size":
            where.setdefault("size", []).append(f"the {s['size']} size")
        elif s["param"].startswith(s["vary"] + " x"):  # a cost unit
            where.setdefault(s["vary"], []).append(s["param"])
        elif s["seed"] not in seed_flips:
            at = by_param.setdefault(s["vary"], {}).setdefault(s["param"], [])
            at.append(str(s["seed"]))
    for vary, params in by_param.items():
        where[vary] = [f"{p} (seed {', '.join(seeds)})" for p, seeds in params.items()]
    if "seed" in where:
        where["seed"] = ["seed " + ", ".join(where["seed"])]
    said = "; ".join(", ".join(v) for v in where.values())
    other = flips[0]["verdict"]
    return robust, (f"depends on {', '.join(where)}: {other} at {said} "
                    f"({len(flips)} of {len(judged)} variations)")


def _order(s: dict) -> tuple:
    rank = {"seed": 0, "size": 2}.get(s["vary"], 1)
    return (rank, s["vary"], str(s["param"]), s["seed"])
