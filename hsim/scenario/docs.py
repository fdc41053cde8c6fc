"""`hsim docs --check` / `hsim docs --write`: the verdicts and figures quoted in README.md
and docs/scenarios.md come from runs, so they cannot go stale.

Two kinds of marked block in a Markdown file:

    <!-- hsim:scenario hotspotting -->
    ...generated: the claims table of `hsim run hotspotting`...
    <!-- /hsim:scenario -->

    <!-- hsim:figures hotspotting write_hotspot_ratio time_range_scans -->
    ...generated: those metrics of every variant that recorded them...
    <!-- /hsim:figures -->

Both come from one run per scenario (default size and seed unless --ops says otherwise), in
the reports' number format. `--write` regenerates every block; `--check` regenerates them and
exits 1, naming the stale blocks, when a file differs. Prose around the blocks quotes no
figure of its own.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from hsim.scenario.errors import ScenarioError, UsageError

FILES = ("README.md", "docs/scenarios.md")
_BLOCK = re.compile(r"(?P<open><!-- hsim:(?P<kind>scenario|figures) (?P<name>[\w.-]+)"
                    r"(?P<keys>(?: [\w.-]+)*) -->\n)(?P<body>.*?)"
                    r"(?P<close><!-- /hsim:(?P=kind) -->)", re.S)


def claims_block(report) -> str:
    """A scenario's claims as the docs quote them: verdict, robustness, the measured criterion."""
    lines = [_heading(report), "", "| claim | verdict | sensitivity |", "| --- | --- | --- |"]
    for c in report.claims:
        lines.append(f"| {_cell(c.title)} | {c.verdict} | {_cell(c.robustness)} |")
    return "\n".join(lines) + "\n"


def figures_block(report, keys: list[str]) -> str:
    """The metrics `keys` of every variant that recorded one, labelled and formatted as the
    report's comparison table prints them."""
    from hsim.scenario.markdown import comparison_rows

    variants = [v for v in report.variants if any(k in v.metrics for k in keys)]
    missing = [k for k in keys if not any(k in v.metrics for v in variants)]
    if missing or not keys:
        raise ScenarioError(f"hsim:figures {report.scenario}: no variant recorded "
                            f"{', '.join(missing) or 'the metrics it names'}")
    lines = [_heading(report), "",
             "| figure | " + " | ".join(_cell(v.name) for v in variants) + " |",
             "| --- |" + " ---: |" * len(variants)]
    for label, values in comparison_rows(report, keys, variants):
        lines.append(f"| {_cell(label)} | " + " | ".join(_cell(x) for x in values) + " |")
    return "\n".join(lines) + "\n"


def _heading(report) -> str:
    o = report.options
    return (f"`hsim run {report.scenario}` ({o['size']} size, {o['ops']:,} "
            f"{report.ops_meaning}, seed {o['seed']}):")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def regenerate(text: str, run, only: set | None = None) -> tuple[str, list[str]]:
    """(the text with every block regenerated, the names of the blocks that changed);
    `run(name)` returns a scenario's Report. With `only`, the blocks of other scenarios are
    left as they are (not run)."""
    changed = []

    def fill(m):
        if only and m["name"] not in only:
            return m[0]
        report = run(m["name"])
        body = (claims_block(report) if m["kind"] == "scenario"
                else figures_block(report, m["keys"].split()))
        if body != m["body"]:
            changed.append(f"{m['kind']} {m['name']}")
        return m["open"] + body + m["close"]

    return _BLOCK.sub(fill, text), changed


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hsim docs", description=__doc__.split("\n\n")[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 if a block is stale")
    mode.add_argument("--write", action="store_true", help="rewrite the blocks")
    p.add_argument("--ops", default="default", help="the size to run each scenario at")
    p.add_argument("--sensitivity", choices=("full", "costs", "off"), default="full")
    p.add_argument("--jobs", type=int, default=None,
                   help="processes for each scenario's variants and re-runs (default: the "
                        "machine's cores)")
    p.add_argument("--only", action="append", metavar="SCENARIO",
                   help="regenerate or check only this scenario's blocks (repeatable)")
    p.add_argument("--coverage", action="store_true",
                   help="docs/seed-coverage.md only: where each seed claim is shown (no runs)")
    p.add_argument("files", nargs="*", help=f"Markdown files (default: {', '.join(FILES)})")
    return p


def main(argv: list[str]) -> int:
    """`hsim docs --check | --write`."""
    args = _parser().parse_args(argv)
    if args.coverage:
        return coverage_main(args.write)
    from hsim.scenario.parallel import Workers, check_jobs, default_jobs

    try:
        jobs = check_jobs(default_jobs() if args.jobs is None else args.jobs)
    except ScenarioError as e:
        print(f"hsim docs: {e}", file=sys.stderr)
        return 2
    if jobs == 1:
        return _regenerate_files(args, None)
    with Workers(jobs) as workers:  # one pool for every scenario
        return _regenerate_files(args, workers)


def _regenerate_files(args, workers) -> int:
    from hsim.scenario.runner import run_scenario

    reports = {}

    def run(name):
        if name not in reports:
            print(f"hsim docs: running {name}", file=sys.stderr)
            reports[name] = run_scenario(name, ops=args.ops, plots=False,
                                         sensitivity=args.sensitivity, workers=workers)
        return reports[name]

    stale = []
    try:
        for path in map(Path, args.files or FILES):
            try:
                text = path.read_text()
            except OSError as e:
                raise ScenarioError(f"{path}: {e.strerror or e}") from None
            new, changed = regenerate(text, run, set(args.only or ()))
            if args.write and new != text:
                path.write_text(new)
            stale += [f"{path}: {name}" for name in changed]
    except ScenarioError as e:
        print(f"hsim docs: {e}", file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    if args.check and stale:
        print("hsim docs: stale blocks (run `hsim docs --write`):\n  " + "\n  ".join(stale),
              file=sys.stderr)
        return 1
    print(f"hsim docs: {'wrote' if args.write else 'checked'} {len(reports)} scenario(s); "
          f"{len(stale)} block(s) {'rewritten' if args.write else 'stale'}")
    return 0


def coverage_main(write: bool) -> int:
    """`hsim docs --coverage --check | --write`: docs/seed-coverage.md, from the scenarios'
    `covers=` numbers (hsim.scenario.coverage)."""
    from hsim.scenario import coverage
    from hsim.scenario.loader import builtin_dir

    try:
        stale = coverage.sync(builtin_dir().parent, write)
    except ScenarioError as e:
        print(f"hsim docs: {e}", file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    if stale and not write:
        print(f"hsim docs: {coverage.PAGE} is stale (run `hsim docs --coverage --write`)",
              file=sys.stderr)
        return 1
    print(f"hsim docs: {'wrote' if write and stale else 'checked'} {coverage.PAGE}")
    return 0
