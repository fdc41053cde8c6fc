"""Run a scenario twice in this process and compare the JSON reports, the wall-clock line
left out: the same seed must give the same report."""

from hsim.scenario import run_scenario


def json_lines(name: str, **args) -> list[str]:
    report = run_scenario(name, plots=False, sensitivity="off", **args)
    return [line for line in report.to_json().splitlines() if '"elapsed_s"' not in line]


def assert_same_report(name: str, **args) -> None:
    assert json_lines(name, **args) == json_lines(name, **args)
