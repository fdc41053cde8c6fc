"""`hsim sweep NAME --seeds 1..5 --param regions=8,16,32 [--jobs N | --cluster ADDRESS]`: a
scenario over a grid of seeds and parameter values, each point a plain `hsim run`, collected
into one summary of where each claim's verdict flips.

The points run in local processes (`--jobs`), or on an existing Dask distributed scheduler
(`--cluster tcp://HOST:8786`; `pip install 'hsim[sweep]'`): hsim has no executor of its own.
Every point is deterministic by its seed and parameters, so the summary is the same whatever
order the points finish in, and equal to running the points one by one.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from hsim.scenario.errors import ScenarioError, UsageError


# --- the grid ----------------------------------------------------------------------------------
def parse_seeds(text: str) -> list[int]:
    """'1..5' (inclusive), '1,3,7', or a mix: '1..3,9'."""
    seeds: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        lo, sep, hi = part.partition("..")
        try:
            seeds.extend(range(int(lo), int(hi) + 1) if sep else [int(part)])
        except ValueError:
            raise UsageError(f"--seeds {text!r}: expected numbers like 1..5 or 1,3,7") \
                from None
    if not seeds:
        raise UsageError("--seeds names no seed")
    return list(dict.fromkeys(seeds))


def parse_grid(items: list[str]) -> dict[str, list[str]]:
    """['regions=8,16', 'entities=64'] -> {'regions': ['8', '16'], 'entities': ['64']}."""
    grid: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        vals = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not key.strip() or not vals:
            raise UsageError(f"--param {item!r}: expected KEY=V1,V2,...")
        grid[key.strip()] = vals
    return grid


def points(seeds: list[int], grid: dict[str, list[str]]) -> list[dict]:
    """Every (seed, params) of the grid, in a fixed order."""
    keys = sorted(grid)
    combos = itertools.product(*(grid[k] for k in keys)) if keys else [()]
    return [{"seed": s, "params": dict(zip(keys, c))} for c in combos for s in seeds]


def point_label(point: dict) -> str:
    parts = [f"seed={point['seed']}"] + [f"{k}={v}" for k, v in sorted(point["params"].items())]
    return " ".join(parts)


# --- one point ---------------------------------------------------------------------------------
def run_point(scenario: str, point: dict, options: dict) -> dict:
    """Run one grid point as `hsim run` would (no plots) and return its report as a dict.
    A plain module-level function so process pools and Dask workers can pickle it."""
    from hsim.scenario.runner import run_scenario

    out = options.get("out")
    report = run_scenario(scenario, seed=point["seed"], params=dict(point["params"]),
                          ops=options.get("ops"), scale=options.get("scale"),
                          servers=options.get("servers"), variants=options.get("variants"),
                          out=None if out is None else Path(out) / _slug(point), plots=False)
    return json.loads(report.to_json())


def _slug(point: dict) -> str:
    return point_label(point).replace(" ", "_").replace("=", "-")


def run_sweep(scenario: str, grid_points: list[dict], options: dict, jobs: int = 1,
              cluster: str | None = None) -> list[dict]:
    """Reports in grid order, computed locally (jobs processes) or on a Dask scheduler."""
    if cluster is not None:
        return _on_dask(scenario, grid_points, options, cluster)
    if jobs <= 1:
        return [run_point(scenario, p, options) for p in grid_points]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_point, scenario, p, options) for p in grid_points]
        return [f.result() for f in futures]


def _on_dask(scenario, grid_points, options, address):
    try:
        from distributed import Client
    except ImportError:
        raise ScenarioError("--cluster needs Dask distributed: pip install 'hsim[sweep]'") \
            from None
    client = address if not isinstance(address, str) else Client(address)
    try:
        futures = [client.submit(run_point, scenario, p, options, pure=False)
                   for p in grid_points]
        return client.gather(futures)
    finally:
        if isinstance(address, str):
            client.close()


# --- the summary -------------------------------------------------------------------------------
def summarize(scenario: str, grid_points: list[dict], reports: list[dict],
              control: dict | None = None) -> dict:
    """Claims x grid: each claim's verdict at each point, the majority verdict, the points
    where it differs (`flips_at`), and the verdict at the base point (the first seed at the
    scenario's own parameter values) with its robustness line, worked out as `hsim run` works
    out its own (hsim.scenario.sensitivity): the same grid gives the same line. `control`: the
    base point's report at the small size, when the grid ran at another."""
    from hsim.scenario.sensitivity import grid_entries, point, summary

    titles: list[str] = []
    for r in reports:
        for c in r.get("claims", []):
            if c["title"] not in titles:
                titles.append(c["title"])
    labels = [point_label(p) for p in grid_points]
    at = base_index(scenario, grid_points, reports)
    base = reports[at]
    entries = grid_entries(point(base), [point(r) for i, r in enumerate(reports) if i != at],
                           None if control is None else point(control))
    claims = []
    for title in titles:
        verdicts = []
        for r in reports:
            found = [c["verdict"] for c in r.get("claims", []) if c["title"] == title]
            verdicts.append(found[0] if found else "absent")
        majority = Counter(verdicts).most_common(1)[0][0]
        flips = [lab for lab, v in zip(labels, verdicts) if v != majority]
        mine = [i for i, c in enumerate(base["claims"]) if c["title"] == title]
        c = base["claims"][mine[0]] if mine else None
        robust, line = (False, "not run at the base point") if c is None else \
            summary(c["verdict"], c["sensitivity"] + entries[mine[0]], c.get("gap"))
        claims.append({"title": title, "verdicts": dict(zip(labels, verdicts)),
                       "majority": majority, "flips_at": flips,
                       "verdict": "absent" if c is None else c["verdict"],
                       "robust": robust, "robustness": line})
    return {"scenario": Path(scenario).stem, "points": grid_points, "labels": labels,
            "base": labels[at], "claims": claims}


def base_index(scenario: str, grid_points: list[dict], reports: list[dict]) -> int:
    """The grid point `hsim run` would make its base: the first seed, each parameter at the
    scenario's default (else the first point)."""
    from hsim.scenario.loader import load_scenario
    from hsim.scenario.results import jsonable

    defaults = jsonable(load_scenario(scenario).params)
    first = grid_points[0]["seed"]
    for i, r in enumerate(reports):
        params = r["options"]["params"]
        if r["options"]["seed"] == first and all(params[k] == defaults[k]
                                                 for k in grid_points[i]["params"]):
            return i
    return 0


def to_markdown(summary: dict) -> str:
    labels = summary["labels"]
    lines = [f"# Sweep of `{summary['scenario']}`: {len(labels)} runs", "",
             "| claim | " + " | ".join(labels) + " | flips at | robustness |",
             "|---|" + "---|" * len(labels) + "---|---|"]
    for c in summary["claims"]:
        cells = [c["verdicts"][lab] for lab in labels]
        flips = ", ".join(c["flips_at"]) if c["flips_at"] else "never"
        lines.append(f"| {c['title']} | " + " | ".join(cells) +
                     f" | {flips} | {c['verdict']}; {c['robustness']} |")
    return "\n".join(lines) + "\n"


def plot(summary: dict, path: Path) -> None:
    """A claims x grid chart: green where the claim held, red where it did not."""
    from hsim.scenario.plots import sweep_figure

    sweep_figure(summary).savefig(path, dpi=100, metadata={"Software": None})


def write_summary(summary: dict, out: Path, plots: bool = True) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    (out / "summary.md").write_text(to_markdown(summary))
    if plots:
        plot(summary, out / "summary.png")


# --- the command -------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """`hsim sweep`'s argument parser: a bad argument raises UsageError (one line) instead of
    argparse's exit."""
    def error(self, message):
        raise UsageError(message)


def _parser() -> _Parser:
    p = _Parser(prog="hsim sweep", description="Run a scenario over a grid of seeds and "
                "parameter values and summarise where each claim's verdict flips.")
    p.add_argument("scenario")
    p.add_argument("--seeds", default="1", help="e.g. 1..5 or 1,3,7 (default 1)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=V1,V2",
                   help="a parameter and its values (repeatable)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--jobs", type=int, default=1, help="local processes (default 1)")
    how.add_argument("--cluster", metavar="ADDRESS", help="a Dask scheduler, tcp://HOST:8786")
    p.add_argument("--ops", help="operations per variant (as hsim run)")
    p.add_argument("--scale")
    p.add_argument("--servers", type=int)
    p.add_argument("--variants")
    p.add_argument("--out", help="directory (default hsim-sweep/NAME)")
    p.add_argument("--no-plots", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    from hsim.errors import HsimError
    from hsim.scenario.cli import _scale
    from hsim.scenario.loader import load_scenario

    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parser().parse_args(argv)
        if args.jobs < 1:
            raise UsageError("--jobs must be at least 1")
        grid_points = points(parse_seeds(args.seeds), parse_grid(args.param))
        out = Path(args.out) if args.out else Path("hsim-sweep") / Path(args.scenario).stem
        options = {"ops": args.ops, "scale": _scale(args.scale), "servers": args.servers,
                   "variants": args.variants, "out": str(out / "runs")}
        reports = run_sweep(args.scenario, grid_points, options, jobs=args.jobs,
                            cluster=args.cluster)
        base = grid_points[base_index(args.scenario, grid_points, reports)]
        control = None  # the base point at the small size, as `hsim run` re-runs it
        if reports[0]["options"]["ops"] > load_scenario(args.scenario).sizes["small"]:
            control = run_point(args.scenario, base, {**options, "ops": "small", "out": None})
        summary = summarize(args.scenario, grid_points, reports, control)
        write_summary(summary, out, plots=not args.no_plots)
    except (ScenarioError, HsimError, OSError) as e:
        print(f"hsim sweep: {e}", file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    sys.stdout.write(to_markdown(summary))
    print(f"\nwrote {out / 'summary.json'}, summary.md"
          + ("" if args.no_plots else ", summary.png"))
    return 0
