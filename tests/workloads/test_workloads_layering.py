"""hsim.workloads produces plain operations and consumes plain numbers: it must not import
the engine, regions or client layers (nor anything above it)."""

import ast
import pathlib

import hsim.workloads

FORBIDDEN = ("hsim.engine", "hsim.regions", "hsim.client", "hsim.happybase", "hsim.filters",
             "hsim.scenario", "hsim.cli", "hsim.thrift", "hsim.shell")


def test_workloads_import_only_core_modules():
    pkg = pathlib.Path(hsim.workloads.__file__).parent
    files = sorted(pkg.glob("*.py"))
    assert len(files) >= 5
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"
