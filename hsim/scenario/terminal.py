"""The terminal view of a report (rich): the comparison table, then each claim's verdict with
the numbers behind it; and the progress bar a run shows on stderr."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from hsim.scenario.format import format_params, format_scale
from hsim.scenario.markdown import comparison_rows


def report_console(report) -> Console:
    """stdout; when it is not a terminal, wide enough for the table (rich assumes 80)."""
    console = Console()
    if console.is_terminal:
        return console
    rows = comparison_rows(report)
    label = max([len(r[0]) for r in rows] + [6])
    cols = [max([len(v.name)] + [len(r[1][i]) for r in rows])
            for i, v in enumerate(report.variants)]
    return Console(width=max(100, label + sum(c + 3 for c in cols) + 4))


def print_report(report, console: Console) -> None:
    o = report.options
    console.print(f"[bold]hsim scenario: {escape(report.scenario)}[/bold] - "
                  f"{escape(report.description)}")
    console.print(escape(f"ops={o['ops']:,} ({o['size']}: {report.ops_meaning}) "
                         f"seed={o['seed']} scale={format_scale(o['scale'])} "
                         f"servers={o['servers']}"
                         + (f" params: {format_params(o['params'])}" if o["params"] else "")),
                  highlight=False)
    table = Table(show_header=True, header_style="bold")
    table.add_column("metric", no_wrap=True)
    for v in report.variants:
        table.add_column(escape(v.name), justify="right", no_wrap=True)
    for label, values in comparison_rows(report):
        table.add_row(escape(label), *map(escape, values))
    console.print(table)
    for i, c in enumerate(report.claims, 1):
        style = {"held": "green", "did not hold": "red"}.get(c.verdict, "yellow")
        console.print(f"{i}. {escape(c.title)}: [{style} bold]{c.verdict}[/{style} bold]",
                      highlight=False)
        console.print(escape(f"   {c.source_title}, {c.section}: \"{c.quote}\""),
                      highlight=False, style="dim")
        console.print(escape(f"   criterion: {c.criterion}"), highlight=False)
        console.print(escape(f"   measured: {c.detail}"), highlight=False)
        for line in c.lines():
            console.print(escape(f"   {line}"), highlight=False)
        console.print(escape(f"   sensitivity: {c.robustness}"), highlight=False)
    if report.out:
        console.print(escape(files_line(report)), highlight=False, soft_wrap=True)


def files_line(report) -> str:
    """The files a run wrote, each named, the one to open first first."""
    names = ["report.html", "report.md", "report.json", *report.plots]
    return f"wrote {report.out}/: " + ", ".join(names)


class ProgressBar:
    """A rich progress bar on stderr; `update(variant, fraction)` is the runner's callback."""

    def __init__(self, title: str, console: Console):
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                  TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                                  console=console, transient=True)
        self._title = title
        self._task = None

    def __enter__(self):
        self._progress.__enter__()
        self._task = self._progress.add_task(self._title, total=1.0)
        return self

    def __exit__(self, *exc):
        return self._progress.__exit__(*exc)

    def update(self, variant: str, fraction: float) -> None:
        self._progress.update(self._task, completed=fraction,
                              description=f"{self._title}: {variant}")
