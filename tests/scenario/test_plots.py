"""The report plots read right (issue 37): one unit per axis and every axis labelled, shares in
percent, printable and distinct region-key ticks, a server legend, the after-run sample apart
from the run, actual sizes for region_size's variants, summary.png's claim titles whole, and
"makespan" for every makespan figure. Built from synthetic reports: no scenario runs."""

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest
from matplotlib.legend import Legend

from hsim.bytes import to_string_binary
from hsim.scenario.errors import ScenarioError
from hsim.scenario.key_ticks import key_ticks
from hsim.scenario.loader import load_scenario
from hsim.scenario.model import Chart, Scenario
from hsim.scenario.plots import AFTER_RUN, report_figures, sweep_figure
from hsim.scenario.results import VariantResult

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _cluster(keys, servers=("rs1", "rs2")):
    return {
        "servers": [{"name": s, "write_requests": 10 * (i + 1), "read_requests": 5}
                    for i, s in enumerate(servers)],
        "regions": [{"start_key": to_string_binary(k), "server": servers[i % len(servers)],
                     "read_requests": 1, "write_requests": 3} for i, k in enumerate(keys)],
        "derived": {"index_bytes": 2048, "bloom_bytes": 1024},
    }


def _variant(name, keys=(b"", b" ", b"0"), metrics=None, units=None, labels=None, params=None,
             series=None):
    timeline = [{"ops": 100, "store_files": 3, "compaction_bytes_written": 0},
                {"ops": 200, "store_files": 5, "compaction_bytes_written": 2 << 20},
                {"ops": 200, "store_files": 1, "compaction_bytes_written": 9 << 20,
                 "after_run": True}]
    return VariantResult(name, "", {}, params or {}, metrics or {}, labels or {}, units or {},
                         series=series or {}, timeline=timeline, cluster=_cluster(keys))


def _figures(variants, charts=(), plot_label=None):
    report = SimpleNamespace(variants=list(variants))
    scenario = SimpleNamespace(charts=list(charts), plot_label=plot_label)
    return dict(report_figures(report, scenario))


def _query_cost():
    metrics = {"ms_per_query": 14.2, "blocks_per_query": 5.0}
    units = {"ms_per_query": "ms", "blocks_per_query": ""}
    labels = {"ms_per_query": "makespan per query", "blocks_per_query": "data blocks per query"}
    return [_variant(n, metrics=metrics, units=units, labels=labels) for n in ("a", "b")]


def test_a_bar_chart_never_puts_two_units_on_one_axis():
    chart = Chart("bar", "query_cost", "cost of one query", metrics=("ms_per_query",
                                                                      "blocks_per_query"))
    fig = _figures(_query_cost(), [chart])["query_cost.png"]
    assert [ax.get_ylabel() for ax in fig.axes] == ["ms", "data blocks per query"]
    assert all(len(ax.patches) == 2 for ax in fig.axes)  # one metric per panel, 2 variants


def test_unitless_metrics_share_an_axis_only_under_a_declared_unit():
    metrics = {"x": 1, "y": 2}
    vs = [_variant("a", metrics=metrics, units={"x": "", "y": ""})]
    apart = _figures(vs, [Chart("bar", "c", "t", metrics=("x", "y"))])["c.png"]
    together = _figures(vs, [Chart("bar", "c", "t", metrics=("x", "y"), unit="blocks")])["c.png"]
    assert [ax.get_ylabel() for ax in apart.axes] == ["x", "y"]
    assert [ax.get_ylabel() for ax in together.axes] == ["blocks"]


def test_every_axis_of_every_plot_is_labelled():
    chart = Chart("line", "l", "a line", series="s", xlabel="records", ylabel="share", unit="%")
    vs = [_variant(n, series={"s": [(1, 0.25), (2, 0.5)]}) for n in ("a", "b")]
    figures = _figures(vs, [chart])
    assert set(figures) >= {"requests_per_server.png", "requests_per_region.png",
                            "store_files_over_time.png", "index_bloom_sizes.png", "l.png"}
    for name, fig in figures.items():
        for ax in fig.axes:
            assert ax.get_xlabel() and ax.get_ylabel(), (name, ax.get_title())


def test_shares_are_drawn_in_percent():
    fig = _figures([_variant("a"), _variant("b")])["requests_per_server.png"]
    writes = fig.axes[0]
    assert writes.get_ylabel() == "share of writes (%)"
    assert sorted(round(p.get_height(), 1) for p in writes.patches)[-1] == pytest.approx(66.7)
    chart = Chart("bar", "s", "busiest share", metrics=("share",))
    v = _variant("a", metrics={"share": 0.43}, units={"share": "%"})
    ax = _figures([v], [chart])["s.png"].axes[0]
    assert ax.patches[0].get_height() == pytest.approx(43.0) and "%" in ax.get_ylabel()
    line = Chart("line", "l", "t", series="s", xlabel="x", ylabel="share of keys", unit="%")
    ax = _figures([_variant("a", series={"s": [(1, 0.5)]})], [line])["l.png"].axes[0]
    assert list(ax.lines[0].get_ydata()) == [50.0] and ax.get_ylabel() == "share of keys (%)"


def test_region_ticks_are_printable_and_tell_regions_apart():
    assert key_ticks([to_string_binary(k) for k in (b"", b" ", b"0", b"\x10")]) == \
        ["(first)", "\\x20", "0", "\\x10"]
    stamps = [b""] + [(1_700_000_000_000 + i * 997).to_bytes(8, "big") + b"metric001"
                      for i in range(6)]
    ticks = key_ticks([to_string_binary(k) for k in stamps])
    assert len(set(ticks)) == len(ticks) and all(t.strip() for t in ticks)
    fig = _figures([_variant("a", keys=(b"", b" ", b"  "))])["requests_per_region.png"]
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["(first)", "\\x20", "\\x20\\x20"]


def test_requests_per_region_has_a_y_label_and_a_server_legend():
    ax = _figures([_variant("a")])["requests_per_region.png"].axes[0]
    assert ax.get_ylabel() == "rows read + writes"
    legend = ax.get_legend()
    assert isinstance(legend, Legend) and legend.get_title().get_text() == "server"
    assert [t.get_text() for t in legend.get_texts()] == ["rs1", "rs2"]


def test_the_after_run_sample_is_marked_apart_from_the_run():
    fig = _figures([_variant("a")])["store_files_over_time.png"]
    for ax in fig.axes:
        run, after = ax.lines
        assert list(run.get_xdata()) == [100, 200]  # the run's samples only
        assert after.get_linestyle() == "None" and after.get_label() == AFTER_RUN
    assert list(fig.axes[0].lines[0].get_ydata()) == [3, 5]
    assert list(fig.axes[0].lines[1].get_ydata()) == [1]


def test_region_size_plots_name_variants_by_their_actual_size():
    scenario = load_scenario("region_size")
    chart = next(c for c in scenario.charts if c.name == "regions")
    sizes = {"region_1g": 6758, "presplit_4g": 27033}
    vs = [_variant(n, metrics={"max_filesize": s, "regions": 3, "splits": 2,
                               "max_regions_per_server": 1},
                   units={"max_filesize": "B"}, params={"presplit": n.startswith("pre")})
          for n, s in sizes.items()]
    fig = _figures(vs, [chart], scenario.plot_label)["regions.png"]
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == ["6.60 KiB regions", "26.4 KiB regions, pre-split"]
    assert not any("1g" in t or "4g" in t for t in ticks)


def test_summary_png_shows_every_claim_title_whole():
    long = "salting costs reads: a time-range read needs one scan per salt, a Get one try " \
           "per salt"
    summary = {"scenario": "s", "labels": ["seed=1", "seed=2"], "claims": [
        {"title": long, "verdicts": {"seed=1": "held", "seed=2": "did not hold"}},
        {"title": "short", "verdicts": {"seed=1": "held", "seed=2": "held"}}]}
    ax = sweep_figure(summary).axes[0]
    shown = [t.get_text() for t in ax.get_yticklabels()]
    assert [" ".join(t.split()) for t in shown] == [long, "short"]
    assert all(len(line) <= 48 for t in shown for line in t.splitlines())


def _makespan_labels():
    """(file, line, label text) of every figure a scenario prices as a makespan."""
    for path in sorted(SCENARIOS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            kw = {k.arg: k.value for k in node.keywords}
            if name == "record_time_per_op":
                label = node.args[4] if len(node.args) > 4 else kw["label"]
            elif name in ("record_cost", "record_priced") and "measure" not in kw:
                label = kw["label"]
            else:
                continue
            text = "".join(p.value for p in getattr(label, "values", [label])
                           if isinstance(p, ast.Constant))
            yield path.name, node.lineno, text


def test_makespan_figures_are_called_makespan():
    found = list(_makespan_labels())
    assert len(found) > 30
    wrong = [f for f in found if "makespan" not in f[2] or "server time" in f[2]]
    assert not wrong


def test_a_makespan_labelled_as_server_time_is_refused():
    from hsim.scenario.context import Run

    s = Scenario("t", "d", sizes={"small": 1, "default": 1})
    v = s.variant("a")
    ctx = Run(s, v, ops=1, seed=1, scale=1 / 256, servers=1, params={})
    with pytest.raises(ScenarioError, match="makespan"):
        ctx.record_priced("x_ms", [], ops=1, label="simulated server time per query")
    assert "x_ms" not in ctx.metrics
    ctx.record_priced("x_ms", [], ops=1, label="makespan per query")
    assert ctx.labels["x_ms"] == "makespan per query"
