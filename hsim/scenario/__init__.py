"""Scenarios: compare schema designs side by side on simulated clusters, check the seed
documents' claims against measured numbers, and write a report (docs/scenarios.md).

A scenario file in scenarios/ builds a `Scenario`, declares variants, a run function and
claims; `hsim run NAME` (or `run_scenario`) runs it.
"""

from hsim.scenario.context import START_MS, Run
from hsim.scenario.criteria import each, metric, option
from hsim.scenario.errors import ScenarioError, ScenarioFailed
from hsim.scenario.model import Scenario, Variant
from hsim.scenario.results import Report
from hsim.scenario.runner import run_scenario

__all__ = ["START_MS", "Report", "Run", "Scenario", "ScenarioError", "ScenarioFailed",
           "Variant", "each", "metric", "option", "run_scenario"]
