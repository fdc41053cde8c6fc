"""MkDocs hooks that generate the site's API reference, CLI pages and tutorials at build time,
so they follow the code without hand edits:

- one API page per public package: every name in its `__all__` (or, without one, every public
  name it defines), rendered by mkdocstrings from the defining module's docstrings and types;
- one page per `hsim` command, from the command's own argparse parser;
- the labs (labs/*.md) as tutorials, and one example page per bundled scenario: its variants
  and claims, then the report of a small run made at build time (claims with verdicts, every
  figure, the plots), then its source.

`public_names` is also what tests/docs checks for docstrings: one rule for both.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (module, what it is): the API reference's pages, in the order the navigation shows them.
REFERENCE = [
    ("hsim", "The cluster, its admin and tables, schemas, config, clocks, cells and errors."),
    ("hsim.client.admin", "`cluster.admin`: tables, families, flushes, compactions, splits."),
    ("hsim.client.table", "`cluster.table(name)`: puts, gets, scans, deletes, increments."),
    ("hsim.bulk", "Bulk load: HFiles split at a table's regions, for `admin.bulk_load`."),
    ("hsim.filters", "HBase's filters and the filter language."),
    ("hsim.happybase", "happybase in-process: the drop-in and its embedded clusters."),
    ("hsim.metrics", "What `cluster.metrics()` returns, and the read-path counters."),
    ("hsim.bytes", "HBase's `Bytes` helpers: encodings, toStringBinary, split."),
    ("hsim.scenario", "Scenarios: variants, claims, runs and reports."),
    ("hsim.scenario.format", "The reports' one number format, for any report writer."),
    ("hsim.workloads", "Row-key designs, request distributions, YCSB workloads, the cost model."),
    ("hsim.inspect", "The views inside the engine: HFiles, stores, explain."),
    ("hsim.ui", "The web UI: HBase's Master and RegionServer pages over a live cluster."),
]

# `hsim COMMAND`: (module, parser factory or None for a fixed usage text).
COMMANDS = {
    "list": ("hsim.scenario.cli", None),
    "run": ("hsim.scenario.cli", "_parser"),
    "serve": ("hsim.thrift.serve", "_parser"),
    "rest": ("hsim.rest.cli", "_parser"),
    "shell": ("hsim.shell.main", "_parser"),
    "sweep": ("hsim.scenario.sweep", "_parser"),
    "docs": ("hsim.scenario.docs", "_parser"),
    "ui": ("hsim.ui.cli", "_parser"),
    "bulkload": ("hsim.bulkload_cli", "_parser"),
}


def public_names(module_name: str) -> dict[str, object]:
    """The public API of a module: its `__all__`, else the public names it defines itself.
    Re-exports of other projects' objects (happybase's own classes) are not ours to document."""
    mod = importlib.import_module(module_name)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n, o in vars(mod).items() if not n.startswith("_")
                 and getattr(o, "__module__", None) == module_name]
    out = {}
    for name in names:
        obj = getattr(mod, name)
        if inspect.isclass(obj) or inspect.isroutine(obj):
            ours = obj.__module__.startswith("hsim")
        else:  # a constant: ours when some hsim module assigns it
            ours = not inspect.ismodule(obj) and _assigned_in_hsim(name)
        if ours:
            out[name] = obj
    return out


def _assigned_in_hsim(name: str) -> bool:
    pattern = re.compile(rf"^{re.escape(name)}\s*(:[^=]*)?=", re.M)
    return any(pattern.search(p.read_text()) for p in (ROOT / "hsim").rglob("*.py"))


def _path_of(module_name: str, name: str, obj) -> str:
    """The dotted path mkdocstrings loads: classes and functions where they are defined,
    constants where they are exported."""
    if inspect.isclass(obj) or inspect.isroutine(obj):
        return f"{obj.__module__}.{obj.__qualname__}"
    return f"{module_name}.{name}"


def reference_page(module_name: str, about: str) -> str:
    lines = [f"# `{module_name}`", "", about, "",
             f"::: {module_name}", "    options:", "      members: false",
             "      show_root_heading: false", ""]
    for name, obj in public_names(module_name).items():
        lines += [f"::: {_path_of(module_name, name, obj)}", "    options:",
                  f"      heading: \"{name}\"", "      show_root_full_path: false", ""]
    return "\n".join(lines)


def command_help(command: str) -> str:
    """What `hsim COMMAND --help` prints, at a fixed width so the page is reproducible."""
    module, factory = COMMANDS[command]
    mod = importlib.import_module(module)
    if factory is None:
        return "usage: hsim list\n\nThe scenarios `hsim run NAME` knows, with what each shows."
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        return getattr(mod, factory)().format_help().rstrip()
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def command_page(command: str) -> str:
    return (f"# `hsim {command}`\n\nGenerated from the command's own parser: this is what "
            f"`hsim {command} --help` prints.\n\n```text\n{command_help(command)}\n```\n")


def scenario_page(path: Path, report=None) -> str:
    """A scenario's example page; with `report` (a run of it, written with its plots next to
    the page under examples/NAME/), the report itself."""
    from hsim.scenario.loader import load_scenario

    sc = load_scenario(str(path))
    lines = [f"# `{sc.name}`", "", _text(sc.description), "",
             f"Run it with `hsim run {sc.name}` (add `--format markdown` for the report as "
             "Markdown). The [scenarios guide](../scenarios.md) shows what it measured at the "
             "default size.", ""]
    if sc.variants:
        lines += ["## Variants", ""]
        lines += [f"- **{v.name}**: {_text(v.description)}" for v in sc.variants]
        lines.append("")
    if sc.claims:
        lines += ["## Claims it checks", ""]
        lines += [f"- **{_text(c.title)}**: {c.seed.title}, *{_text(c.seed.section)}*: "
                  f"\"{_text(c.seed.quote)}\"" for c in sc.claims]
        lines.append("")
    if report is not None:
        lines += [f"## The report of a {report.options['size']} run", "",
                  f"Made when this site was built: `hsim run {sc.name} --ops "
                  f"{report.options['size']}`, its report.md as written, plots included.", "",
                  example_report(report), ""]
    lines += ["## Source", "", f"```python\n{path.read_text().rstrip()}\n```", ""]
    return "\n".join(lines)


def example_report(report) -> str:
    """report.md inside a page: its headings one level down, its plots under the page's
    folder, without the wall-clock line that differs between builds."""
    from hsim.scenario.markdown import to_markdown

    text = to_markdown(report).split("\n---\n")[0]
    text = re.sub(r"^(#+) ", r"#\1 ", text, flags=re.M)
    text = re.sub(r"^## hsim scenario: .*\n", "", text, flags=re.M)
    return re.sub(r"!\[([^\]]*)\]\(([^)]+\.png)\)", rf"![\1]({report.scenario}/\2)", text)


def example_run(path: Path, out: Path):
    """The small run an example page shows, its report and plots written into `out`."""
    from hsim.scenario.runner import run_scenario

    return run_scenario(str(path), ops="small", out=str(out), sensitivity="costs")


def _text(s: str) -> str:
    """Plain text in Markdown: key layouts like [ts:8][metric] are not links."""
    return re.sub(r"([\[\]*_`])", r"\\\1", s or "")


# --- MkDocs hooks ---------------------------------------------------------------------------
def on_files(files, config):
    from mkdocs.structure.files import File

    sys.path.insert(0, str(ROOT))

    def add(uri: str, content: str | bytes) -> None:
        files.append(File.generated(config, uri, content=content))

    for module_name, about in REFERENCE:
        add(f"reference/{module_name}.md", reference_page(module_name, about))
    add("cli/index.md", _cli_index())
    for command in COMMANDS:
        add(f"cli/{command}.md", command_page(command))
    for lab in sorted((ROOT / "labs").glob("*.md")):
        add(f"labs/{lab.name}", lab.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted((ROOT / "scenarios").glob("*.py")):
            report = example_run(path, Path(tmp) / path.stem)
            add(f"examples/{path.stem}.md", scenario_page(path, report))
            for png in report.plots:
                add(f"examples/{path.stem}/{png}", (Path(tmp) / path.stem / png).read_bytes())
    return files


def on_config(config):
    labs = sorted((ROOT / "labs").glob("*.md"), key=lambda p: (p.name != "README.md", p.name))
    config.nav += [
        {"Tutorials (labs)": [f"labs/{p.name}" for p in labs]},
        {"Examples (scenarios)": [f"examples/{p.stem}.md"
                                  for p in sorted((ROOT / "scenarios").glob("*.py"))]},
        {"CLI": ["cli/index.md"] + [f"cli/{c}.md" for c in COMMANDS]},
        {"API reference": [f"reference/{m}.md" for m, _ in REFERENCE]},
    ]
    return config


def _cli_index() -> str:
    from hsim.cli import _usage

    return ("# The `hsim` command\n\n```text\n" + _usage() + "\n```\n\n`hsim --version` prints "
            "the version. A misspelt command, option or scenario name gets a \"did you mean\".\n")


# A key layout in prose, `[host][event]` without the backticks, is Markdown's reference-link form;
# mkdocs-autorefs would look it up as a cross-reference and warn (strict: fail). The guides use no
# reference links, so outside code every such pair is escaped into plain brackets.
_LAYOUT = re.compile(r"(?<![\\!])\[([^\[\]\n]+)\](?=\[)|(?<=\])\[([^\[\]\n]*)\](?!\()")
_CODE = re.compile(r"(^```.*?^```|`[^`\n]*`)", re.S | re.M)


def plain_key_layouts(markdown: str) -> str:
    """Escape `[a][b]` key layouts outside code so that they render as text, not as links."""
    parts = _CODE.split(markdown)
    for i in range(0, len(parts), 2):  # even parts are outside code
        parts[i] = _LAYOUT.sub(lambda m: "\\" + m.group(0)[:-1] + "\\]", parts[i])
    return "".join(parts)


def on_page_markdown(markdown, page, config, files):
    # Guides link the labs as ../labs/ (right on GitHub); on the site the labs live under labs/.
    return plain_key_layouts(re.sub(r"\]\(\.\./labs/", "](labs/", markdown))
