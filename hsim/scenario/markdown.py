"""report.md: the claims with their seed quotes and verdicts, the comparison table, the
variants and the plots. Its one wall-clock line starts with "Elapsed:"."""

from __future__ import annotations

from hsim.scenario.format import format_params, format_scale, format_value


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def comparison_rows(report, keys: list[str] | None = None,
                    variants: list | None = None) -> list[tuple[str, list[str]]]:
    """(label, formatted value per variant) for `keys` (default: every metric any variant
    recorded, in the order they were first recorded) of `variants` (default: all)."""
    variants = report.variants if variants is None else variants
    if keys is None:
        keys = []
        for v in variants:
            keys += [k for k in v.metrics if k not in keys]
    rows = []
    for k in keys:
        label = next((v.labels[k] for v in variants if k in v.labels), k)
        unit = next((v.units[k] for v in variants if k in v.units), "")
        rows.append((label, [format_value(v.metrics[k], unit) if k in v.metrics else ""
                             for v in variants]))
    return rows


def to_markdown(report) -> str:
    o = report.options
    lines = [f"# hsim scenario: {report.scenario}", "", report.description, "",
             "| option | value |", "| --- | --- |",
             f"| ops | {o['ops']:,} ({o['size']} size; {_cell(report.ops_meaning)}) |",
             f"| seed | {o['seed']} |",
             f"| scale | {format_scale(o['scale'])} (`Config().scaled(scale)`) |",
             f"| servers | {o['servers']} |"]
    if o["params"]:
        lines.append(f"| params | {_cell(format_params(o['params']))} |")
    lines += ["", "## Claims", ""]
    if not report.claims:
        lines += ["(this scenario checks no claims)", ""]
    for i, c in enumerate(report.claims, 1):
        lines += [f"### {i}. {c.title}: **{c.verdict}**", "",
                  f"> {c.quote}", "",
                  f"{c.source_title}, {c.section}"
                  + (f" ({c.link})." if c.link else "."), "",
                  f"Criterion (fixed before the run): {c.criterion}", "",
                  f"Measured: {c.detail}", "",
                  *[x for line in c.lines() for x in (line[0].upper() + line[1:], "")],
                  f"Sensitivity: {c.robustness}", ""]
    lines += ["## Comparison", ""]
    rows = comparison_rows(report)
    if rows:
        lines.append("| metric | " + " | ".join(_cell(v.name) for v in report.variants) + " |")
        lines.append("| --- |" + " ---: |" * len(report.variants))
        for label, values in rows:
            lines.append(f"| {_cell(label)} | " + " | ".join(_cell(x) for x in values) + " |")
    lines += ["", "## Variants", ""]
    for v in report.variants:
        text = f"- **{v.name}**: {v.description}" if v.description else f"- **{v.name}**"
        if v.config:
            text += " Config: " + ", ".join(f"`{k}={val}`" for k, val in v.config.items()) + "."
        lines.append(text)
        for note in v.notes:
            lines.append(f"  - {note}")
    if report.plots:
        lines += ["", "## Plots", ""]
        for p in report.plots:
            lines += [f"![{p}]({p})", ""]
    per_variant = ", ".join(f"{v.name} {v.elapsed_s:.1f} s" for v in report.variants)
    lines += ["", "---", "",
              f"Elapsed: {report.elapsed_s:.1f} s wall clock ({per_variant}); the only line "
              "that changes between runs with the same options.", ""]
    return "\n".join(lines)
