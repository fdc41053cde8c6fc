"""`hsim sweep`: a grid of seeds x parameter values gives the same reports as running each point
alone, on local processes and on Dask's local cluster, and a summary of where verdicts flip."""

import json

import pytest

from hsim.cli import main as hsim_main
from hsim.scenario.errors import ScenarioError
from hsim.scenario.runner import run_scenario
from hsim.scenario.sweep import (parse_grid, parse_seeds, point_label, points, run_point,
                                 run_sweep, summarize)

pytestmark = pytest.mark.slow  # scenario grids in processes and on Dask

GRID = points([1, 2], {"regions": ["8", "16"]})
OPTIONS = {"ops": "small", "variants": "timestamp_lead,salted"}


def _strip(report: dict) -> dict:
    """A report without its wall-clock fields (the only bytes that differ between runs)."""
    text = json.dumps(report, sort_keys=True)
    report = json.loads(text)
    report.pop("elapsed_s", None)
    for v in report.get("variants", []):
        if isinstance(v, dict):
            v.pop("elapsed_s", None)
    return report


def _alone(point):
    r = run_scenario("hotspotting", seed=point["seed"], params=dict(point["params"]),
                     ops="small", variants="timestamp_lead,salted", plots=False)
    return _strip(json.loads(r.to_json()))


def test_grid_parsing():
    assert parse_seeds("1..3,7") == [1, 2, 3, 7]
    assert parse_grid(["regions=8,16", "entities=64"]) == {"regions": ["8", "16"],
                                                           "entities": ["64"]}
    assert len(points([1, 2, 3], {"a": ["x", "y"], "b": ["z"]})) == 6
    assert point_label({"seed": 3, "params": {"b": "1", "a": "2"}}) == "seed=3 a=2 b=1"
    for bad in ("", "x..y", "1..z"):
        with pytest.raises(ScenarioError):
            parse_seeds(bad)
    with pytest.raises(ScenarioError):
        parse_grid(["regions"])


def test_local_processes_give_the_single_runs_reports():
    alone = [_alone(p) for p in GRID]
    swept = [_strip(r) for r in run_sweep("hotspotting", GRID, OPTIONS, jobs=2)]
    assert swept == alone
    # in any order: the reversed grid gives the same report per point
    backwards = [_strip(r) for r in run_sweep("hotspotting", GRID[::-1], OPTIONS, jobs=2)]
    assert backwards[::-1] == alone
    assert alone[0] != alone[1]  # the seed matters, so equality above says something


def test_dask_local_cluster_gives_the_single_runs_reports():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        swept = run_sweep("hotspotting", GRID, OPTIONS, cluster=cluster.scheduler_address)
    assert [_strip(r) for r in swept] == [_alone(p) for p in GRID]


def test_summary_marks_where_a_verdict_flips():
    reports = [run_point("hotspotting", p, OPTIONS) for p in GRID[:2]]
    reports[1]["claims"][0]["verdict"] = "did not hold"  # as if seed 2 broke the first claim
    s = summarize("hotspotting", GRID[:2], reports)
    first = s["claims"][0]
    assert first["flips_at"] == ["seed=2 regions=8"] and not first["robust"]
    assert s["base"] == "seed=1 regions=8"  # no point at the default regions=16: the first
    assert first["robustness"].startswith("depends on seed: did not hold at seed 2")
    judged = [c for c in s["claims"][1:] if c["verdict"] == "held"]
    assert judged and all(c["robust"] for c in judged)
    # claims that need variants the grid did not run say so
    assert all(c["verdict"] == "not run" and not c["robust"] for c in s["claims"][1:]
               if c not in judged)


def test_the_command_writes_a_summary(tmp_path, capsys):
    rc = hsim_main(["sweep", "hotspotting", "--seeds", "1..2", "--param", "regions=8",
                    "--ops", "small", "--variants", "timestamp_lead", "--out", str(tmp_path),
                    "--no-plots"])
    assert rc == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["labels"] == ["seed=1 regions=8", "seed=2 regions=8"]
    assert (tmp_path / "summary.md").read_text().startswith("# Sweep of `hotspotting`")
    assert (tmp_path / "runs" / "seed-1_regions-8" / "report.json").exists()
    assert "flips at" in capsys.readouterr().out
    assert hsim_main(["sweep", "hotspotting", "--seeds", "x"]) == 2
    assert "hsim sweep: --seeds" in capsys.readouterr().err
