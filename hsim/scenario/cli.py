"""`hsim list` and `hsim run NAME|PATH [options]`.

Every problem (unknown scenario, a broken scenario file, a bad option, a scenario that raises)
is one line on stderr and a non-zero exit; --debug shows the traceback instead.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from hsim.errors import HsimError
from hsim.scenario.errors import ScenarioError, ScenarioFailed, UsageError
from hsim.suggest import SuggestingParser

FORMATS = ("table", "json", "markdown")


class _Parser(SuggestingParser):
    """`hsim run`'s argument parser: a bad argument raises UsageError (one line, with a suggestion)
    instead of argparse's exit."""
    def error(self, message):  # argparse prints usage and exits; we want one line
        raise UsageError(message)


def _parser() -> _Parser:
    p = _Parser(prog="hsim run", description="Run a scenario: each variant on a fresh "
                "simulated cluster; prints a comparison and writes report.json, report.md, "
                "report.html and plots.")
    p.add_argument("scenario", help="a name from `hsim list`, or a path to a scenario file")
    p.add_argument("--ops", help="operations per variant: a number, or a size the scenario "
                   "names: small, default, and large where it declares one (`hsim list`)")
    p.add_argument("--seed", type=int, help="random seed (same seed, same report)")
    p.add_argument("--scale", help="Config().scaled factor for HBase's sizes, e.g. 0.004 or 1/256")
    p.add_argument("--servers", type=int, help="region servers per cluster")
    p.add_argument("--out", help="report directory (default: hsim-report/NAME)")
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="what to print: the table, report.json or report.md")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a scenario parameter (repeatable)")
    p.add_argument("--variants", help="run only these variants (comma-separated)")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    p.add_argument("--sensitivity", choices=("full", "costs", "off"), default="full",
                   help="re-judge each claim with each cost unit x0.5 and x2 (costs), and "
                        "also under five seeds and the key parameters at the run's size and "
                        "at the small size with the run's seed (full, the default)")
    p.add_argument("--jobs", type=int, default=None,
                   help="processes for the variants and sensitivity re-runs (default: the "
                        "machine's cores; the report is the same at any count; --ui and "
                        "--target run in this process)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--target", metavar="thrift://HOST:PORT",
                   help="also replay each variant's calls on this Thrift-1 server (a real "
                        "HBase's thrift gateway) and report observed beside predicted")
    p.add_argument("--transport", choices=("buffered", "framed"), default="buffered",
                   help="with --target: the Thrift transport")
    p.add_argument("--protocol", choices=("binary", "compact"), default="binary",
                   help="with --target: the Thrift protocol")
    p.add_argument("--keep", action="store_true",
                   help="with --target: keep the tables made there (dropped by default)")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    from hsim.ui.cli import add_ui_flags

    add_ui_flags(p, "--ui", "--ui-bind")
    return p


def _scale(text):
    if text is None:
        return None
    try:
        if "/" in text:
            num, den = text.split("/", 1)
            return float(num) / float(den)
        return float(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"--scale {text!r} is not a number (e.g. 0.004 or 1/256)") from None


def _params(items: list[str]) -> dict:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--param {item!r}: expected KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def main_run(argv: list[str]) -> int:
    debug = "--debug" in argv
    try:
        return _run(argv)
    except KeyboardInterrupt:
        print("hsim run: interrupted", file=sys.stderr)
        return 130
    except (ScenarioError, HsimError) as e:
        if debug:
            local = isinstance(e, ScenarioFailed) and e.error.__traceback__ is not None
            traceback.print_exception(e.error if local else e)  # else: a worker's, as its cause
        hint = " (--debug shows the traceback)" if isinstance(e, ScenarioFailed) else ""
        print(f"hsim run: {e}{hint}", file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    except OSError as e:  # e.g. the --ui port is taken: one line, no Java name (none involved)
        if debug:
            traceback.print_exc()
        print(f"hsim run: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug in hsim itself: still one line unless --debug
        if debug:
            traceback.print_exc()
        print(f"hsim run: internal error: {type(e).__name__}: {e} (--debug shows the "
              "traceback)", file=sys.stderr)
        return 1


def _run(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        _parser().print_help()
        return 0
    args = _parser().parse_args(argv)
    from rich.console import Console

    from hsim.scenario.loader import load_scenario
    from hsim.scenario.parallel import check_jobs, default_jobs

    scenario = load_scenario(args.scenario)
    out = Path(args.out) if args.out else Path("hsim-report") / scenario.name
    err = Console(stderr=True)
    show_progress = not args.no_progress and err.is_terminal
    kwargs = dict(ops=args.ops, seed=args.seed, scale=_scale(args.scale), servers=args.servers,
                  params=_params(args.param), variants=args.variants, out=out,
                  plots=not args.no_plots, sensitivity=args.sensitivity,
                  jobs=1 if args.ui is not None or args.target else
                  check_jobs(default_jobs() if args.jobs is None else args.jobs))
    if args.ui is not None:
        from hsim.scenario.watch import watch_runs

        with watch_runs(args.ui, args.ui_bind, hold=sys.stdin.isatty()) as url:
            print(f"hsim run: web UI on {url}", file=sys.stderr, flush=True)
            return _run_and_print(args, scenario, kwargs, err, show_progress)
    return _run_and_print(args, scenario, kwargs, err, show_progress)


def _run_and_print(args, scenario, kwargs, err, show_progress) -> int:
    from hsim.scenario.markdown import to_markdown
    from hsim.scenario.runner import run_scenario
    from hsim.scenario.terminal import ProgressBar, files_line, print_report, report_console

    if args.target:
        from hsim.scenario.target import run_on_target, to_markdown as target_markdown

        report, observed = run_on_target(scenario, args.target, transport=args.transport,
                                         protocol=args.protocol, keep=args.keep, **kwargs)
    elif show_progress:
        with ProgressBar(scenario.name, err) as bar:
            report = run_scenario(scenario, progress=bar.update, **kwargs)
    else:
        report = run_scenario(scenario, **kwargs)
    if args.format == "table":
        print_report(report, report_console(report))  # its last line names the files
    else:
        sys.stdout.write(report.to_json() if args.format == "json" else to_markdown(report))
        if report.out:  # stdout is the document; the files it wrote are named on stderr
            print(files_line(report), file=sys.stderr)
    if args.target and args.format != "json":
        sys.stdout.write(target_markdown(args.target, observed))
    return 0


def main_list(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print("usage: hsim list\n\nThe scenarios `hsim run NAME` knows, with what each shows.")
        return 0
    if argv:
        print(f"hsim list: takes no arguments (got {' '.join(argv)})", file=sys.stderr)
        return 2
    from hsim.scenario.loader import load_scenario, scenario_files

    files = scenario_files()
    if not files:
        print("hsim list: no scenarios found (looked in the project's scenarios/ and "
              "./scenarios)", file=sys.stderr)
        return 1
    width = max(len(p.stem) for p in files) + 2
    for p in files:
        try:
            s = load_scenario(str(p))
            text = s.description
        except ScenarioError as e:
            text = f"(cannot load: {e})"
        print(f"{p.stem:<{width}}{text}")
    return 0
