"""PNG plots of a report (matplotlib's Agg canvas, no display needed): requests per server and
per region, store files and compaction bytes over time, index and bloom sizes, and the charts
a scenario declares. A plot with nothing to show is not drawn.

Every axis says what it counts: one unit per axis (a chart whose metrics have different units
gets one panel per unit), each axis labelled, shares drawn in percent as the reports print
them, region start keys printable."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, ScalarFormatter  # noqa: E402

from hsim.scenario.format import format_number  # noqa: E402
from hsim.scenario.key_ticks import key_ticks  # noqa: E402

_DPI = 90
# Axis numbers in the reports' format: 12,000 rather than 12000.
_NUMBERS = FuncFormatter(lambda y, _pos: format_number(int(y)) if y == int(y) else f"{y:,g}")
VARIANT = "variant"  # the x label of a chart with one group of bars per variant
AFTER_RUN = "sampled after the run's last operation"
CLAIM_WIDTH = 48  # characters per line of a claim's title in summary.png


def draw_plots(report, scenario, out: Path) -> list[str]:
    """Draw every plot that has data into `out`; returns the file names, in report order."""
    drawn = []
    for name, fig in report_figures(report, scenario):
        _save(fig, out / name)
        drawn.append(name)
    return drawn


def report_figures(report, scenario) -> list[tuple[str, Figure]]:
    """(file name, figure) of every plot that has data, in report order."""
    variants = report.variants
    if scenario.plot_label is not None:  # the name each variant goes by on the plots
        variants = [dataclasses.replace(v, name=scenario.plot_label(v)) for v in variants]
    with_cluster = [v for v in variants if v.cluster]
    out = []
    for name, draw in (("requests_per_server.png", _requests_per_server),
                       ("requests_per_region.png", _requests_per_region),
                       ("store_files_over_time.png", _store_files_over_time),
                       ("index_bloom_sizes.png", _index_bloom_sizes)):
        fig = draw(with_cluster)
        if fig is not None:
            out.append((name, fig))
    for chart in scenario.charts:
        fig = (_bar_chart if chart.kind == "bar" else _line_chart)(variants, chart)
        if fig is not None:
            out.append((f"{chart.name}.png", fig))
    return out


def _save(fig: Figure, path: Path) -> None:
    for ax in fig.axes:
        ax.yaxis.set_major_formatter(_NUMBERS)
        if isinstance(ax.xaxis.get_major_formatter(), ScalarFormatter):  # not categories
            ax.xaxis.set_major_formatter(_NUMBERS)
    fig.tight_layout()
    fig.savefig(path, dpi=_DPI, metadata={"Software": None})


def _grouped_bars(ax, groups: list[str], series: list[tuple[str, list[float]]]) -> None:
    n = max(1, len(series))
    width = 0.8 / n
    for i, (label, values) in enumerate(series):
        xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, values, width, label=label)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=30 if len(groups) > 6 else 0, ha="right"
                       if len(groups) > 6 else "center", fontsize=8)
    ax.set_xlabel(VARIANT, fontsize=8)
    if len(series) > 1:
        ax.legend(fontsize=7)


def _requests_per_server(variants) -> Figure | None:
    if not variants:
        return None
    kinds = [k for k in ("write_requests", "read_requests")
             if any(s[k] for v in variants for s in v.cluster["servers"])]
    if not kinds:
        return None
    servers = [s["name"] for s in variants[0].cluster["servers"]]
    if len(servers) < 2:  # one server takes every request: nothing to compare
        return None
    fig = Figure(figsize=(8, 3.2 * len(kinds)))
    for i, kind in enumerate(kinds):
        ax = fig.add_subplot(len(kinds), 1, i + 1)
        series = []
        for v in variants:
            counts = [s[kind] for s in v.cluster["servers"]]
            total = sum(counts) or 1
            series.append((v.name, [100 * c / total for c in counts]))
        _grouped_bars(ax, servers, series)
        ax.set_xlabel("region server", fontsize=8)
        ax.set_ylabel(f"share of {kind.split('_')[0]}s (%)")
        ax.set_ylim(0, 105)
        ax.set_title(f"{kind.replace('_', ' ')} per region server", fontsize=10)
    return fig


def _requests_per_region(variants) -> Figure | None:
    # A variant with one region puts every request in it: nothing to compare.
    rows = [v for v in variants if len(v.cluster["regions"]) > 1 and
            any(r["read_requests"] + r["write_requests"] for r in v.cluster["regions"])]
    if not rows:
        return None
    fig = Figure(figsize=(9, 2.1 * len(rows) + 0.6))
    servers = sorted({r["server"] for v in rows for r in v.cluster["regions"]},
                     key=lambda s: (len(s), s))  # rs2 before rs10
    palette = matplotlib.colormaps["tab10" if len(servers) <= 10 else "tab20"]
    colours = {s: palette(i % palette.N) for i, s in enumerate(servers)}
    for i, v in enumerate(rows):
        ax = fig.add_subplot(len(rows), 1, i + 1)
        regions = v.cluster["regions"]
        counts = [r["read_requests"] + r["write_requests"] for r in regions]
        ax.bar(range(len(regions)), counts, color=[colours[r["server"]] for r in regions])
        ax.set_title(f"{v.name}: rows read + writes per region", fontsize=9)
        ax.set_ylabel("rows read + writes", fontsize=7)
        if len(regions) <= 24:  # the start keys say where each region begins
            ax.set_xticks(range(len(regions)))
            ax.set_xticklabels(key_ticks([r["start_key"] for r in regions]), rotation=30,
                               ha="right", fontsize=6)
            ax.set_xlabel("region start key (key order)", fontsize=7)
        else:
            ax.set_xticks([])
            ax.set_xlabel(f"{len(regions):,} regions in key order", fontsize=7)
        ax.tick_params(labelsize=7)
        here = [s for s in servers if any(r["server"] == s for r in regions)]
        ax.legend(handles=[Patch(color=colours[s], label=s) for s in here], title="server",
                  fontsize=6, title_fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0),
                  ncol=1 if len(here) <= 8 else 2)
    return fig


def _store_files_over_time(variants) -> Figure | None:
    rows = [v for v in variants if len(v.timeline) > 1]
    panels = [(key, title, scale) for key, title, scale in (
        ("store_files", "store files", 1),
        ("compaction_bytes_written", "compaction bytes written (cumulative, MiB)", 2**20))
        if any(t[key] for v in rows for t in v.timeline)]
    if not panels:
        return None
    fig = Figure(figsize=(8, 3 * len(panels)))
    for i, (key, title, scale) in enumerate(panels):
        ax = fig.add_subplot(len(panels), 1, i + 1)
        # the run's samples make the lines; the sample taken after it (what a closing major
        # compaction left, say) is a marker of its own, not the line's last point
        lines = _distinct_lines([(v.name, [(t["ops"], t[key] / scale) for t in v.timeline
                                           if not t.get("after_run")]) for v in rows])
        colour = {}
        for j, (label, pts, names) in enumerate(lines):
            line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label,
                            **_line_style(j))
            colour.update(dict.fromkeys(names, line.get_color()))
        after = [(v.name, t) for v in rows for t in v.timeline if t.get("after_run")]
        for n, (name, t) in enumerate(after):
            ax.plot([t["ops"]], [t[key] / scale], linestyle="none", marker="*", markersize=9,
                    markerfacecolor="none", color=colour.get(name, "black"),
                    label=AFTER_RUN if n == 0 else None)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("operations")
        ax.set_ylabel("MiB" if scale > 1 else "store files")
        ax.legend(fontsize=7)
    return fig


def _index_bloom_sizes(variants) -> Figure | None:
    if not any(v.cluster["derived"]["index_bytes"] or v.cluster["derived"]["bloom_bytes"]
               for v in variants):
        return None
    fig = Figure(figsize=(8, 3.5))
    ax = fig.add_subplot(1, 1, 1)
    series = [(label, [v.cluster["derived"][key] / 1024 for v in variants])
              for key, label in (("index_bytes", "block index"), ("bloom_bytes", "bloom filter"))]
    _grouped_bars(ax, [v.name for v in variants], [s for s in series if any(s[1])])
    ax.set_ylabel("KiB")
    ax.set_title(" and ".join(label for label, values in series if any(values))
                 + " size at the end of each variant's run", fontsize=10)
    return fig


def _bar_chart(variants, chart) -> Figure | None:
    rows = [v for v in variants if any(isinstance(v.metrics.get(m), (int, float))
                                       for m in chart.metrics)]
    if not rows:
        return None
    panels = bar_panels(rows, chart)
    fig = Figure(figsize=(8, 0.5 + 3 * len(panels)))
    for i, (axis, metrics) in enumerate(panels):
        ax = fig.add_subplot(len(panels), 1, i + 1)
        values = [[v.metrics.get(m) or 0 for v in rows] for m in metrics]
        scale, ylabel = _axis_scale(axis, values)
        series = [(_label(rows, m), [x / scale for x in vals]) for m, vals in zip(metrics, values)]
        _grouped_bars(ax, [v.name for v in rows], series)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.set_title(chart.title if len(panels) == 1 else f"{chart.title}: {ylabel}", fontsize=10)
    return fig


def bar_panels(rows, chart) -> list[tuple[str, list[str]]]:
    """The panels of a bar chart: (axis, metrics) with one unit per axis. The axis is the
    metrics' recorded unit, else the chart's `unit`; a metric with neither gets a panel of
    its own, its axis labelled by its label."""
    panels: dict = {}
    for m in chart.metrics:
        unit = next((v.units.get(m) for v in rows if v.units.get(m)), "") or chart.unit
        panels.setdefault(unit or "=" + _label(rows, m), []).append(m)
    return list(panels.items())


def _axis_scale(axis: str, values: list[list[float]]) -> tuple[float, str]:
    """(divisor, y label) of an axis: bytes in KiB or MiB, fractions in percent."""
    if axis.startswith("="):  # one unitless metric: its label says what it counts
        return 1, axis[1:]
    if axis == "B":
        big = max((abs(x) for vals in values for x in vals), default=0) >= 10 * 2**20
        return (2**20, "MiB") if big else (1024, "KiB")
    if axis == "%":
        return 0.01, "percent (%)"
    return 1, {"x": "ratio (x)"}.get(axis, axis)


def _label(rows, metric: str) -> str:
    return next((v.labels[metric] for v in rows if metric in v.labels), metric)


def _line_chart(variants, chart) -> Figure | None:
    rows = [v for v in variants if v.series.get(chart.series)]
    if not rows:
        return None
    fig = Figure(figsize=(8, 3.5))
    ax = fig.add_subplot(1, 1, 1)
    k = 100 if chart.unit == "%" else 1
    lines = _distinct_lines([(v.name, [(x, y * k) for x, y in v.series[chart.series]])
                             for v in rows])
    for i, (label, pts, _names) in enumerate(lines):  # markers and dashes keep overlaps apart
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **_line_style(i))
    ax.set_title(chart.title, fontsize=10)
    ax.set_xlabel(chart.xlabel)
    ax.set_ylabel(chart.ylabel + (" (%)" if chart.unit == "%" else ""))
    ax.legend(fontsize=7)
    return fig


def _distinct_lines(lines: list) -> list:
    """(label, points, variant names) with identical lines drawn once, labelled with every
    variant they are, so no line hides another."""
    out: dict = {}
    for name, pts in lines:
        out.setdefault(tuple(map(tuple, pts)), []).append(name)
    return [(", ".join(names) + (" (identical)" if len(names) > 1 else ""), list(pts), names)
            for pts, names in out.items()]


def _line_style(i: int) -> dict:
    """Markers and dashes per line, so identical lines still show each variant."""
    return {"marker": "os^vDx<>"[i % 8], "linestyle": ("-", "--", ":", "-.")[i % 4],
            "markersize": 4, "alpha": 0.8}


def sweep_figure(summary: dict) -> Figure:
    """`hsim sweep`'s summary.png: claims x grid points, green where the claim held, red where
    it did not, yellow otherwise; claim titles wrapped whole, never cut."""
    labels, claims = summary["labels"], summary["claims"]
    score = {"held": 1.0, "did not hold": 0.0}
    grid = [[score.get(c["verdicts"][lab], 0.5) for lab in labels] for c in claims]
    titles = [textwrap.fill(c["title"], CLAIM_WIDTH) for c in claims]
    lines = sum(t.count("\n") + 1 for t in titles)
    fig = Figure(figsize=(4.5 + 0.7 * len(labels), 1.6 + 0.22 * max(2, lines)))
    ax = fig.add_subplot(1, 1, 1)
    ax.imshow(grid or [[0.5]], cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(claims)), titles, fontsize=7)
    ax.set_xlabel("grid point (seed, parameters)", fontsize=8)
    ax.set_ylabel("claim", fontsize=8)
    ax.set_title(f"{summary['scenario']}: verdict per run (green held, red did not hold)",
                 fontsize=8)
    fig.tight_layout()
    return fig
