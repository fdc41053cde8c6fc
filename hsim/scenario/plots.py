"""PNG plots of a report (matplotlib's Agg canvas, no display needed): requests per server and
per region, store files and compaction bytes over time, index and bloom sizes, and the charts
a scenario declares. A plot with nothing to show is not drawn."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FuncFormatter, ScalarFormatter  # noqa: E402

from hsim.scenario.format import format_number  # noqa: E402

_DPI = 90
# Axis numbers in the reports' format: 12,000 rather than 12000.
_NUMBERS = FuncFormatter(lambda y, _pos: format_number(int(y)) if y == int(y) else f"{y:,g}")


def draw_plots(report, scenario, out: Path) -> list[str]:
    """Draw every plot that has data into `out`; returns the file names, in report order."""
    with_cluster = [v for v in report.variants if v.cluster]
    drawn = []
    for name, draw in (("requests_per_server.png", _requests_per_server),
                       ("requests_per_region.png", _requests_per_region),
                       ("store_files_over_time.png", _store_files_over_time),
                       ("index_bloom_sizes.png", _index_bloom_sizes)):
        fig = draw(with_cluster)
        if fig is not None:
            _save(fig, out / name)
            drawn.append(name)
    for chart in scenario.charts:
        fig = (_bar_chart if chart.kind == "bar" else _line_chart)(report.variants, chart)
        if fig is not None:
            _save(fig, out / f"{chart.name}.png")
            drawn.append(f"{chart.name}.png")
    return drawn


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
            series.append((v.name, [c / total for c in counts]))
        _grouped_bars(ax, servers, series)
        ax.set_ylabel(f"share of {kind.split('_')[0]}s")
        ax.set_ylim(0, 1.05)
        ax.set_title(f"{kind.replace('_', ' ')} per region server", fontsize=10)
    return fig


def _requests_per_region(variants) -> Figure | None:
    # A variant with one region puts every request in it: nothing to compare.
    rows = [v for v in variants if len(v.cluster["regions"]) > 1 and
            any(r["read_requests"] + r["write_requests"] for r in v.cluster["regions"])]
    if not rows:
        return None
    fig = Figure(figsize=(8, 1.9 * len(rows) + 0.6))
    servers = sorted({r["server"] for v in rows for r in v.cluster["regions"]})
    colours = {s: f"C{i % 10}" for i, s in enumerate(servers)}
    for i, v in enumerate(rows):
        ax = fig.add_subplot(len(rows), 1, i + 1)
        regions = v.cluster["regions"]
        counts = [r["read_requests"] + r["write_requests"] for r in regions]
        ax.bar(range(len(regions)), counts, color=[colours[r["server"]] for r in regions])
        ax.set_title(f"{v.name}: rows read + writes per region (regions in key order, "
                     "colour = server)", fontsize=9)
        if len(regions) <= 24:  # the start keys say where each region begins
            ax.set_xticks(range(len(regions)))
            ax.set_xticklabels([_short_key(r["start_key"]) for r in regions], rotation=30,
                               ha="right", fontsize=6)
        else:
            ax.set_xticks([])
        ax.tick_params(labelsize=7)
    return fig


def _short_key(key: str) -> str:
    """A region's start key on an axis: the first table's region starts at the empty key."""
    return "(first)" if not key else (key if len(key) <= 10 else key[:9] + "…")


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
        lines = _distinct_lines([(v.name, [(t["ops"], t[key] / scale) for t in v.timeline])
                                 for v in rows])
        for j, (label, pts) in enumerate(lines):
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **_line_style(j))
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=7)
    ax.set_xlabel("operations")
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
    fig = Figure(figsize=(8, 3.5))
    ax = fig.add_subplot(1, 1, 1)
    scale, unit = (1024, "KiB") if chart.unit == "B" else (1, chart.unit)
    series = []
    for m in chart.metrics:
        label = next((v.labels[m] for v in rows if m in v.labels), m)
        values = [(v.metrics.get(m) or 0) / scale for v in rows]
        series.append((label, values))
    _grouped_bars(ax, [v.name for v in rows], series)
    if unit:
        ax.set_ylabel(unit)
    ax.set_title(chart.title, fontsize=10)
    return fig


def _line_chart(variants, chart) -> Figure | None:
    rows = [v for v in variants if v.series.get(chart.series)]
    if not rows:
        return None
    fig = Figure(figsize=(8, 3.5))
    ax = fig.add_subplot(1, 1, 1)
    lines = _distinct_lines([(v.name, v.series[chart.series]) for v in rows])
    for i, (label, pts) in enumerate(lines):  # markers and dashes keep overlaps apart
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **_line_style(i))
    ax.set_title(chart.title, fontsize=10)
    ax.set_xlabel(chart.xlabel)
    ax.set_ylabel(chart.ylabel)
    ax.legend(fontsize=7)
    return fig


def _distinct_lines(lines: list) -> list:
    """(label, points) with identical lines drawn once, labelled with every variant they are,
    so no line hides another."""
    out: dict = {}
    for name, pts in lines:
        out.setdefault(tuple(map(tuple, pts)), []).append(name)
    return [(", ".join(names) + (" (identical)" if len(names) > 1 else ""), list(pts))
            for pts, names in out.items()]


def _line_style(i: int) -> dict:
    """Markers and dashes per line, so identical lines still show each variant."""
    return {"marker": "os^vDx<>"[i % 8], "linestyle": ("-", "--", ":", "-.")[i % 4],
            "markersize": 4, "alpha": 0.8}
