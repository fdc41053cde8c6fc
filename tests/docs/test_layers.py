"""The layers of docs/engine.md ("## The layers"): a module may import modules of its own layer
or below, never above, so each layer can be read and tested without the ones over it. Every
import counts, a lazy one inside a function or under TYPE_CHECKING too: it is still a
dependency. Every module must have a layer, so a new package is placed deliberately."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Low to high, as in the diagram. A module takes the layer of the longest name listed that is
# it or a package holding it; "hsim" is the package's front door (hsim/__init__.py) only.
LAYERS = [
    ("core", ["hsim.bytes", "hsim.cell", "hsim.clock", "hsim.config", "hsim.configuration_keys",
              "hsim.descriptor_attributes", "hsim.durability",
              "hsim.errors", "hsim.keep_deleted_cells", "hsim.metrics", "hsim.presplit",
              "hsim.protobuf", "hsim.rowrange", "hsim.schema", "hsim.suggest", "hsim.version"]),
    ("filters", ["hsim.filters"]),
    ("engine", ["hsim.engine"]),
    ("regions", ["hsim.regions", "hsim.storage"]),
    ("client", ["hsim.client", "hsim.bulk"]),  # hsim.bulk: partitions by region
    ("designs and views", ["hsim.workloads", "hsim.inspect"]),
    ("what users run", ["hsim.scenario", "hsim.shell", "hsim.gateway", "hsim.thrift",
                        "hsim.thrift2_server", "hsim.rest", "hsim.ui", "hsim.cli",
                        "hsim.bulkload_cli"]),
    ("front door", ["hsim", "hsim.__main__", "hsim.happybase", "hsim.thrift2",
                    "hsim.pytest_plugin"]),
]
RANK = {name: rank for rank, (_, names) in enumerate(LAYERS) for name in names}


def rank(module: str) -> int | None:
    parts = module.split(".")
    # Down to "hsim.x", never "hsim" itself: that is the front door, not every module's package.
    for n in range(len(parts), 1, -1):
        if ".".join(parts[:n]) in RANK:
            return RANK[".".join(parts[:n])]
    return RANK.get(module)


def modules() -> dict[str, Path]:
    """Every module under hsim/, by dotted name (a package by its own name)."""
    out = {}
    for path in sorted((ROOT / "hsim").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports_of(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The hsim modules `source` imports anywhere in it; `from pkg import name` is the module
    pkg.name when there is one, else pkg."""
    package = module if is_package else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
    return {m for m in out if m == "hsim" or m.startswith("hsim.")}


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports_of(path.read_text(), name, path.name == "__init__.py", set(mods))
            for name, path in mods.items()}


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every `module -> imported module` where the imported one sits in a higher layer."""
    return sorted(f"{m} -> {dep}" for m, deps in graph.items() for dep in deps
                  if rank(dep) is not None and rank(dep) > rank(m))


def test_every_module_has_a_layer():
    mods = modules()
    assert len(mods) > 100  # the walk found the package
    unranked = sorted(m for m in mods if rank(m) is None)
    assert not unranked, "no layer for: " + ", ".join(unranked) + " (add it to LAYERS and docs)"


def test_no_module_imports_a_higher_layer():
    offending = upward(import_graph())
    assert not offending, "upward imports:\n" + "\n".join(offending)


def test_an_upward_import_is_reported():
    graph = import_graph()
    graph["hsim.engine.store"] = graph["hsim.engine.store"] | {"hsim.client.table"}
    graph["hsim.cell"] = graph["hsim.cell"] | {"hsim"}
    assert upward(graph) == ["hsim.cell -> hsim", "hsim.engine.store -> hsim.client.table"]


def test_relative_lazy_and_submodule_imports_are_resolved():
    source = ("from ..client import table\n"
              "from . import hfile\n"
              "from hsim import presplit, Cluster\n"
              "def later():\n"
              "    from .memstore import MemStore\n"
              "    import hsim.regions.wal\n"
              "    import json\n")
    found = imports_of(source, "hsim.engine.store", False, set(modules()))
    assert found == {"hsim.client.table", "hsim.engine.hfile", "hsim.presplit", "hsim",
                     "hsim.engine.memstore", "hsim.regions.wal"}
    assert imports_of("from . import errors", "hsim.filters", True, set()) == {"hsim.filters"}


def test_the_diagram_names_every_layer():
    """docs/engine.md draws these layers; a package placed here must be drawn there too."""
    text = (ROOT / "docs" / "engine.md").read_text()
    diagram = text.split("## The layers", 1)[1].split("```")[1]
    words = set(re.findall(r"[\w.]+", diagram))
    core = set(re.findall(r"\w+", diagram.split("core:", 1)[1]))  # the diagram's last rows
    core_names, *higher = [names for _, names in LAYERS]
    missing = [n for n in core_names if n.removeprefix("hsim.") not in core]
    missing += [n for names in higher for n in names if n not in words]
    assert not missing, "not in docs/engine.md's layer diagram: " + ", ".join(missing)


# The gateways and the shell serve clients: they reach the cluster through hsim.client
# (Cluster, Admin, Table, the catalog) as HBase's gateways and shell go through its client API,
# never into regions, stores or files.
GATEWAYS = ("hsim.gateway", "hsim.thrift2_server", "hsim.rest", "hsim.thrift", "hsim.shell")
BELOW_THE_CLIENT = ("hsim.regions", "hsim.storage", "hsim.engine")


def test_gateways_reach_the_cluster_through_the_client_api():
    graph = import_graph()
    inside = sorted(f"{m} -> {dep}" for m, deps in graph.items() if m.startswith(GATEWAYS)
                    for dep in deps if dep.startswith(BELOW_THE_CLIENT))
    assert not inside, "gateway imports below the client API:\n" + "\n".join(inside)
