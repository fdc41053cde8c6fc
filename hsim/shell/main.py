"""`hsim shell [script] [--servers N] [--timestamps epoch|iso] [--clock tick|manual|system]`:
the REPL.

Interactive on a terminal, with readline line editing, tab completion of command names and a
history kept in ~/.hsim_shell_history (or $HSIM_SHELL_HISTORY). With a script file, or with
stdin not a terminal, it runs the statements and prints each input line after its prompt, so
the output is the transcript an interactive session would show.
"""

from __future__ import annotations

import argparse
import os
import sys

from hsim.errors import HsimError
from hsim.shell import Shell
from hsim.shell.formatter import format_timestamp
from hsim.shell.registry import COMMANDS
from hsim.suggest import SuggestingParser

HISTORY_LENGTH = 1000


def _parser() -> argparse.ArgumentParser:
    ap = SuggestingParser(prog="hsim shell",
                                 description="An HBase shell on an in-process hsim cluster.")
    ap.add_argument("script", nargs="?", help="a file of shell statements to run ('-' = stdin)")
    ap.add_argument("--servers", type=int, default=1, help="region servers (default 1)")
    ap.add_argument("--timestamps", choices=("iso", "epoch"), default="iso",
                    help="timestamp format: iso (HBase 2.3+, the default) or epoch (before 2.3)")
    ap.add_argument("--clock", choices=("tick", "manual", "system"), default="tick",
                    help="tick: 1 ms per request from 2026-01-01T00:00Z (the default); manual: "
                         "time stands still until `clock 'advance'`; system: wall time")
    ap.add_argument("--debug", action="store_true",
                    help="print a Python traceback with each error (for hsim's developers)")
    ap.add_argument("--width", type=int, default=None,
                    help="terminal width for column layout (default: the terminal's, 0 = none)")
    ap.add_argument("--data-dir", metavar="PATH", default=None,
                    help="keep the tables in this data directory (created if missing) and "
                         "reopen them next time; default: in memory only")
    return ap


def script_options(text: str) -> list[str]:
    """Options a script asks for in a leading comment, `# hsim shell --servers 4`, so a lab runs
    the same with `hsim shell lab.hb` as in the tests (the command line still wins)."""
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if s.startswith("# hsim shell "):
            return s[len("# hsim shell "):].split()
        if not s.startswith("#"):
            break
    return []


def main(argv: list[str] | None = None) -> int:
    """Exit status: 0, or 1 when a statement of a script failed (as `hbase shell -n`), 2 for
    bad arguments."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = _parser()
    pre = ap.parse_args(argv)
    if pre.script and pre.script != "-" and os.path.isfile(pre.script):
        with open(pre.script, encoding="utf-8", errors="surrogateescape") as f:
            wanted = vars(_parser().parse_args(script_options(f.read())))
        wanted.pop("script")
        ap.set_defaults(**wanted)
    args = ap.parse_args(argv)
    if args.servers < 1:
        ap.error("argument --servers: must be at least 1")
    try:
        sh = Shell(servers=args.servers, timestamps=args.timestamps, width=args.width,
                   clock=args.clock, data_dir=args.data_dir)
    except (HsimError, OSError) as e:
        print(f"hsim shell: cannot open data directory {args.data_dir}: {e}", file=sys.stderr)
        return 1
    sh.debug = args.debug
    try:
        return _run(sh, args)
    finally:
        try:
            sh.cluster.close()  # with a data directory: flush and archive the WALs
        except HsimError as e:  # a full disk: the WALs stay, the next start replays them
            print(f"hsim shell: {e}", file=sys.stderr)
            if sh.cluster.data_dir is not None:
                sh.cluster.data_dir.abandon()  # as the exit would: the lock goes


def _run(sh: Shell, args) -> int:
    if args.script and args.script != "-":
        try:
            # Ruby strings are bytes: invalid UTF-8 stays as the bytes written
            with open(args.script, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError as e:
            print(f"hsim shell: cannot read {args.script}: {e.strerror}", file=sys.stderr)
            return 2
        sh.run_script(text)
        return 1 if sh.failures else 0
    if args.script == "-" or not sys.stdin.isatty():
        sh.run_script(sys.stdin.buffer.read().decode("utf-8", "surrogateescape"))
        return 1 if sh.failures else 0
    return interact(sh)


def interact(sh: Shell) -> int:
    history = _setup_readline()
    now = sh.clock.now()
    servers = len(sh.cluster.region_servers)
    print("HBase Shell on hsim, an in-process simulator of HBase 2.x")
    print('Use "help" to get list of supported commands.')
    print('Use "exit" to quit this interactive shell.')
    kind = {"TickingClock": "ticks 1 ms per request", "ManualClock": "is manual",
            "SystemClock": "is wall time"}.get(type(sh.clock).__name__, "reads")
    print(f"{servers} region server(s); the clock {kind} and reads "
          f"{format_timestamp(now, 'iso')} ({now}): see 'help \"clock\"'")
    try:
        while not sh.exited:
            try:
                line = input(sh.prompt())
            except KeyboardInterrupt:
                print("^C")
                sh.buffer = ""
                continue
            except EOFError:
                print()
                break
            try:
                sh.feed(line)
            except KeyboardInterrupt:  # a long command stopped; the session goes on
                print("\nInterrupted")
                sh.buffer = ""
    finally:
        if history:
            _save_history(history)
    return 0


def _setup_readline() -> str | None:
    try:
        import readline
    except ImportError:  # no line editing on this platform; the shell still works
        return None
    path = os.environ.get("HSIM_SHELL_HISTORY") or os.path.expanduser("~/.hsim_shell_history")
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(HISTORY_LENGTH)
    from hsim.shell.ruby import FUNCTIONS

    names = sorted(set(COMMANDS) | set(FUNCTIONS) | {"help", "exit"})

    def complete(text, state):
        options = [n for n in names if n.startswith(text)]
        return options[state] if state < len(options) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    return path


def _save_history(path: str) -> None:
    import readline

    try:
        readline.write_history_file(path)
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())
