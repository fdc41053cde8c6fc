"""Finding and loading scenario files. A scenario is a plain Python file that defines a module
level `scenario` (an hsim.scenario.Scenario). By name it is looked up in the project's
scenarios/ directory, then in ./scenarios; anything with a slash or ending in .py is a path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from hsim.scenario.errors import ScenarioError, UsageError
from hsim.scenario.model import Scenario
from hsim.suggest import did_you_mean


def builtin_dir() -> Path:
    """scenarios/ next to the hsim package (an editable install or a checkout); found from
    this file, as importing `hsim` itself would reach up to the package's front door."""
    return Path(__file__).resolve().parents[2] / "scenarios"


def search_dirs() -> list[Path]:
    dirs = [builtin_dir(), Path.cwd() / "scenarios"]
    out = []
    for d in dirs:
        if d.is_dir() and d.resolve() not in [x.resolve() for x in out]:
            out.append(d)
    return out


def find_scenario(target: str) -> Path:
    target = str(target)
    if target.endswith(".py") or "/" in target or "\\" in target:
        path = Path(target)
        if not path.is_file():
            raise UsageError(f"no scenario file {target!r}")
        return path
    for d in search_dirs():
        path = d / f"{target}.py"
        if path.is_file():
            return path
    hint = did_you_mean(target, [p.stem for p in scenario_files()])
    raise UsageError(f"no scenario named {target!r}{hint} (`hsim list` shows the scenarios)")


def scenario_files() -> list[Path]:
    seen, out = set(), []
    for d in search_dirs():
        for p in sorted(d.glob("*.py")):
            if not p.name.startswith("_") and p.stem not in seen:
                seen.add(p.stem)
                out.append(p)
    return out


def load_scenario(target) -> Scenario:
    """The Scenario a file (or name) defines. Any problem is one ScenarioError line."""
    path = find_scenario(target)
    mod_name = f"hsim_scenario_{path.stem}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise ScenarioError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module  # dataclasses and pickling look modules up by name
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        sys.modules.pop(mod_name, None)
        raise ScenarioError(f"{path}, line {e.lineno}: {e.msg}") from None
    except ScenarioError as e:
        sys.modules.pop(mod_name, None)
        raise ScenarioError(f"{path}: {e}") from None
    except Exception as e:
        sys.modules.pop(mod_name, None)
        line = _line_in(e, path)
        raise ScenarioError(f"{path}{line}: {type(e).__name__}: {e}") from None
    scenario = getattr(module, "scenario", None)
    if not isinstance(scenario, Scenario):
        raise ScenarioError(f"{path}: defines no `scenario = Scenario(...)`")
    scenario.validate()
    scenario.path = str(path)
    return scenario


def _line_in(error: BaseException, path: Path) -> str:
    tb = error.__traceback__
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return f", line {line}" if line else ""
