"""Runs a scenario: each variant on a fresh cluster, then the claims over all results, then
the report files (report.json, report.md, PNG plots) when an output directory is given.

    report = run_scenario("hotspotting", ops="small", out="hsim-report/hotspotting")
    report.results["timestamp_lead"]["max_server_write_share"]
"""

from __future__ import annotations

import time
from pathlib import Path

from hsim.scenario.errors import ScenarioError, ScenarioFailed, UsageError
from hsim.scenario.loader import load_scenario
from hsim.scenario.model import Scenario
from hsim.scenario.results import ClaimResult, Report, jsonable
from hsim.scenario.parallel import VariantJob, Workers, check_jobs, run_jobs
from hsim.scenario.sensitivity import cost_sweep, grid, grid_entries, point, summary
from hsim.workloads.costmodel import CostModel

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Callable, Iterable

MAX_OPS = 100_000_000
SENSITIVITY = ("costs", "full", "off")
PRICED_UNITS = ("ms", "ops/s")  # what a cost-model figure is recorded in


def resolve_ops(scenario: Scenario, ops) -> tuple[int, str]:
    """--ops: a size name the scenario declares ("small", "default", ...) or a positive int."""
    if ops is None:
        ops = "default"
    if isinstance(ops, str) and not ops.strip().lstrip("+-").isdigit():
        if ops not in scenario.sizes:
            raise UsageError(f"--ops {ops!r}: not a number nor one of the sizes "
                                f"{', '.join(scenario.sizes)} of {scenario.name!r}")
        return int(scenario.sizes[ops]), ops
    try:
        n = int(ops)
    except (TypeError, ValueError):
        raise UsageError(f"--ops {ops!r} is not a number") from None
    if not 1 <= n <= MAX_OPS:
        raise UsageError(f"--ops must be between 1 and {MAX_OPS:,}: {n}")
    return n, "custom"


def resolve_params(scenario: Scenario, given: dict | None) -> dict:
    """--param KEY=VALUE: only keys the scenario declares, converted to the default's type."""
    params = dict(scenario.params)
    for key, raw in (given or {}).items():
        if key not in scenario.params:
            known = ", ".join(scenario.params) or "none"
            raise UsageError(f"--param {key}: {scenario.name!r} has no such parameter "
                                f"(its parameters: {known})")
        params[key] = _convert(key, raw, scenario.params[key])
    return params


def _convert(key: str, raw, default):
    if not isinstance(raw, str):
        return raw
    try:
        if isinstance(default, bool):
            low = raw.lower()
            if low not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(raw)
            return low in ("true", "1", "yes")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, (list, tuple)):
            return [x.strip() for x in raw.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--param {key}={raw!r}: expected a {type(default).__name__}") \
            from None
    return raw


def _positive(name: str, value, kind):
    try:
        v = kind(value)
    except (TypeError, ValueError):
        raise UsageError(f"--{name} {value!r} is not a {kind.__name__}") from None
    if not v > 0:
        raise UsageError(f"--{name} must be positive: {value}")
    return v


def run_scenario(target: str | Scenario, *, ops: int | str | None = None, seed: int | None = None,
                 scale: float | str | None = None, servers: int | None = None,
                 params: dict | None = None,
                 variants: Iterable[str] | str | None = None, out: str | Path | None = None,
                 progress: Callable[[str, float], None] | None = None, plots: bool = True,
                 cost_model: CostModel | None = None, record: dict | None = None,
                 sensitivity: str = "costs", jobs: int = 1,
                 workers: Workers | None = None) -> Report:
    """Run `target` (a scenario name, a path to a scenario file, or a Scenario) and return its
    Report; write report.json, report.md and the plots into `out` when given. `progress` is
    a callable (description, fraction) or None. `record`: a dict that receives, per variant,
    (its client calls, its cluster), for a replay on a real target (hsim.scenario.target).
    `sensitivity`: "costs" re-judges each claim with each cost unit x0.5 and x2 (re-priced
    counts, no re-run); "full" also re-runs at the run's size under the next four seeds and
    the scenario's key parameter values at each of the five (sensitivity.grid), and at the
    small size with the run's seed (the size control); "off" skips both. `jobs` > 1 runs the
    variants and the re-runs in that many processes (hsim.scenario.parallel), or on
    `workers` when given; the report is the same. A Scenario not loaded from a file, or a run
    that records, runs here."""
    if sensitivity not in SENSITIVITY:
        raise UsageError(f"--sensitivity {sensitivity!r}: one of {', '.join(SENSITIVITY)}")
    jobs = check_jobs(jobs)
    scenario = target if isinstance(target, Scenario) else load_scenario(target)
    scenario.validate()
    resolve_ops(scenario, ops)  # the options checked in the order they always were
    scale = scenario.scale if scale is None else _positive("scale", scale, float)
    servers = scenario.servers if servers is None else _positive("servers", servers, int)
    if servers > 64:
        raise UsageError(f"--servers must be at most 64: {servers}")
    given = resolve_params(scenario, params)
    seed = scenario.seed if seed is None else int(seed)
    chosen = [v.name for v in _choose_variants(scenario, variants)]
    options, todo = _plan(scenario, ops, seed, scale, servers, given, chosen)
    reruns = []
    if sensitivity == "full":  # the grid at the run's size, then the size control
        for p in grid(scenario, seed, given)[1:]:
            label = " ".join([f"seed {p['seed']}"] + [f"{k}={v}" for k, v in p["params"].items()
                                                      if v != given.get(k)])
            reruns.append(_plan(scenario, ops, p["seed"], scale, servers, p["params"], chosen,
                                label))
        if options["ops"] > scenario.sizes["small"]:
            reruns.append(_plan(scenario, "small", seed, scale, servers, given, chosen,
                                "small size"))

    started = time.perf_counter()
    every = todo + [job for _o, more in reruns for job in more]
    remote = (jobs > 1 or workers is not None) and record is None and scenario.path
    if remote and workers is None:
        with Workers(min(jobs, len(every))) as own:
            results = run_jobs(scenario, every, cost_model, progress, own)
    else:
        results = run_jobs(scenario, every, cost_model, progress, workers if remote else None,
                           record)
    report = Report(scenario.name, scenario.description, scenario.ops_meaning, options,
                    results[:len(todo)], [])
    report.claims = _check_claims(scenario, report)
    sweeps = [[] for _ in scenario.claims]
    if sensitivity != "off":
        sweeps = cost_sweep(scenario, report, cost_model or CostModel())
    if reruns:
        others, at = [], len(todo)
        for o, more in reruns:
            other = Report(scenario.name, scenario.description, scenario.ops_meaning, o,
                           results[at:at + len(more)], [])
            other.claims = _check_claims(scenario, other)
            others.append(point(other))
            at += len(more)
        control = others.pop() if others[-1]["size"] != options["size"] else None
        for mine, more in zip(sweeps, grid_entries(point(report), others, control)):
            mine.extend(more)
    judge_robustness(report, sweeps)
    report.elapsed_s = time.perf_counter() - started
    if out is not None:
        write_report(report, scenario, Path(out), plots=plots)
    return report


def _plan(scenario: Scenario, ops, seed: int, scale: float, servers: int, given: dict,
          chosen: list[str], label: str = "") -> tuple[dict, list[VariantJob]]:
    """A run's options (as its report shows them) and one job per chosen variant. `given`:
    the parameters as given; the scenario may derive more from the size."""
    n_ops, size = resolve_ops(scenario, ops)
    params = given
    if scenario.derive is not None:
        params = {**given, **scenario.derive(dict(given), n_ops)}
    options = {"ops": n_ops, "size": size, "seed": seed, "scale": scale, "servers": servers,
               "params": jsonable(params), "variants": list(chosen)}
    return options, [VariantJob(v, n_ops, seed, scale, servers, params, label) for v in chosen]


def _choose_variants(scenario: Scenario, names) -> list:
    if not names:
        return list(scenario.variants)
    if isinstance(names, str):
        names = [x.strip() for x in names.split(",") if x.strip()]
    by_name = {v.name: v for v in scenario.variants}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise UsageError(f"--variants: {scenario.name!r} has no variant "
                            f"{', '.join(map(repr, missing))} (it has: {', '.join(by_name)})")
    return [by_name[n] for n in names]


def _check_claims(scenario: Scenario, report: Report) -> list:
    """Each claim judged on the report's results: verdict, extras, what it rests on."""
    ran = {v.name: v for v in report.variants}
    results = report.results
    out = []
    for c in scenario.claims:
        s = c.seed
        base = dict(title=c.title, document=s.document, link=s.link, source_title=s.title,
                    section=s.section, quote=s.quote, criterion=str(c.criterion),
                    proposition=c.proposition, gap=c.gap, kind=c.kind)
        read = set(c.criterion.options()) | (c.extras.options() if c.extras is not None else set())
        for v in c.needs:
            read |= set(ran[v].params_read) if v in ran else set()
        base["reads"] = sorted(read & set(scenario.params))
        if not set(c.needs) <= set(ran):
            out.append(ClaimResult(held=None, detail="needs variants that were not run", **base))
            continue
        try:
            held, detail = c.criterion.judge(results)
            extras = [dict(zip(("condition", "held", "detail"), (str(p), *p.judge(results))))
                      for p in (c.extras.parts if c.extras is not None else ())]
        except ScenarioError:
            raise
        except Exception as e:
            raise ScenarioFailed(scenario.name, f"claim {c.title!r}", e) from e
        out.append(ClaimResult(held=held, detail=detail, extras=extras,
                               measures=_measures(c, ran), **base))
    return out


def _measures(claim, ran: dict) -> dict:
    """The criterion's metrics, as counted by the engine or priced by the cost model."""
    out = {"counted": [], "priced": []}
    for variant, key in claim.criterion.metrics():
        v = ran[variant]
        priced = key in v.priced or v.units.get(key) in PRICED_UNITS
        out["priced" if priced else "counted"].append(f"{variant}.{key}")
    return out


def judge_robustness(report: Report, sweeps: list) -> None:
    """Each claim's sensitivity entries and its one-line robustness."""
    for claim, sweep in zip(report.claims, sweeps):
        if claim.held is None:
            continue
        claim.sensitivity = [] if claim.gap else sweep
        claim.robust, claim.robustness = summary(claim.verdict, claim.sensitivity, claim.gap)


def write_report(report: Report, scenario: Scenario, out: Path, plots: bool = True) -> None:
    from hsim.scenario.markdown import to_markdown

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScenarioError(f"--out {str(out)!r}: {e.strerror or e}") from None
    report.out = str(out)
    if plots:
        from hsim.scenario.plots import draw_plots

        report.plots = draw_plots(report, scenario, out)
    (out / "report.json").write_text(report.to_json())
    (out / "report.md").write_text(to_markdown(report))
    from hsim.scenario.html import to_html

    (out / "report.html").write_text(to_html(report, out))
