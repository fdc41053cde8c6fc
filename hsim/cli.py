"""The `hsim` console script. Each subcommand lives in its own module and takes its argv:

    hsim list | run ...        -> hsim.scenario.cli
    hsim sweep ...             -> hsim.scenario.sweep
    hsim docs --check|--write  -> hsim.scenario.docs
    hsim serve ...             -> hsim.thrift.serve
    hsim rest ...              -> hsim.rest.cli
    hsim shell [script]        -> hsim.shell.main
    hsim ui ...                -> hsim.ui.cli
    hsim hfile PATH [flags]    -> hsim.inspect.hfile_cli
    hsim bulkload DIR TABLE    -> hsim.bulkload_cli (also `completebulkload`)
    hsim --version             -> prints hsim's version
"""

from __future__ import annotations

import importlib
import sys

from hsim.suggest import did_you_mean

_COMMANDS = {
    "list": ("hsim.scenario.cli", "main_list", "list the scenarios"),
    "run": ("hsim.scenario.cli", "main_run", "run a scenario and write its report"),
    "sweep": ("hsim.scenario.sweep", "main", "run a scenario over a grid of seeds and parameters"),
    "docs": ("hsim.scenario.docs", "main", "regenerate (--write) or check the verdicts in docs"),
    "serve": ("hsim.thrift.serve", "main", "serve HBase's Thrift-1 (or --thrift2) API on a port"),
    "rest": ("hsim.rest.cli", "main", "serve HBase's REST API (JSON, XML, protobuf) on a port"),
    "shell": ("hsim.shell.main", "main", "an HBase shell on an in-process cluster"),
    "ui": ("hsim.ui.cli", "main", "the web UI (Master/RegionServer pages) on a cluster"),
    "hfile": ("hsim.inspect.hfile_cli", "main", "HBase's HFile pretty-printer on an HFile on disk"),
    "bulkload": ("hsim.bulkload_cli", "main", "load a directory of HFiles into a table"),
    "completebulkload": ("hsim.bulkload_cli", "main", "the same as bulkload (HBase's name)"),
}


def _usage() -> str:
    lines = ["usage: hsim [--version] COMMAND [ARGS]", "", "commands:"]
    for name, (_m, _f, text) in _COMMANDS.items():
        lines.append(f"  {name:<8}{text}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    if argv[0] in ("-V", "--version"):
        from hsim.version import __version__

        print(f"hsim {__version__}")
        return 0
    cmd = _COMMANDS.get(argv[0])
    if cmd is None:
        hint = did_you_mean(argv[0], [*_COMMANDS, "--version", "--help"])
        print(f"hsim: unknown command {argv[0]!r}{hint}\n\n{_usage()}", file=sys.stderr)
        return 2
    module, func, _ = cmd
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        print(f"hsim: command {argv[0]!r} is not available ({e})", file=sys.stderr)
        return 2
    try:
        return int(getattr(mod, func)(argv[1:]) or 0)
    except BrokenPipeError:  # `hsim list | head`: the reader left; not an error
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
