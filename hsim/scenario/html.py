"""report.html: report.md's content as one self-contained page (inline CSS, the plots as data:
URIs), so a report can be mailed or attached as a single file. Numbers come from the same
formatting functions as the terminal and Markdown reports."""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from hsim.scenario.format import format_value
from hsim.scenario.markdown import comparison_rows

_CSS = """body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #ccc;padding:3px 8px}
td.n{text-align:right} blockquote{border-left:3px solid #aaa;margin:.5em 0;padding-left:1em;
color:#444} .verdict{font-weight:bold} .held{color:#1a7f37} .not-held{color:#cf222e}
img{max-width:100%} .small{color:#666;font-size:90%}"""


def _e(x) -> str:
    return escape(str(x))


def _options(report) -> str:
    o = report.options
    rows = [("ops", f"{format_value(o['ops'])} ({o['size']} size; {report.ops_meaning})"),
            ("seed", o["seed"]), ("scale", f"{o['scale']:.6g} (Config().scaled(scale))"),
            ("servers", o["servers"])]
    if o["params"]:
        rows.append(("params", ", ".join(f"{k}={v}" for k, v in o["params"].items())))
    return "<table>" + "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>"
                               for k, v in rows) + "</table>"


def _claims(report) -> list[str]:
    if not report.claims:
        return ["<p>(this scenario checks no claims)</p>"]
    out = []
    for i, c in enumerate(report.claims, 1):
        source = f"{c.source_title}, {c.section}"
        if c.link:
            source = f'<a href="{_e(c.link)}">{_e(source)}</a>'
        else:
            source = _e(source)
        css = {"held": "held", "did not hold": "not-held"}.get(c.verdict, "")
        out += [f'<h3>{i}. {_e(c.title)}: <span class="verdict {css}">'
                f"{_e(c.verdict)}</span></h3>",
                f"<blockquote>{_e(c.quote)}</blockquote><p>{source}</p>",
                f"<p>Criterion (fixed before the run): <code>{_e(c.criterion)}</code><br>"
                f"Measured: {_e(c.detail)}<br>"
                + "".join(f"{_e(line[0].upper() + line[1:])}<br>" for line in c.lines())
                + f"Sensitivity: {_e(c.robustness)}</p>"]
    return out


def _comparison(report) -> str:
    rows = comparison_rows(report)
    if not rows:
        return ""
    head = "<tr><th>metric</th>" + "".join(f"<th>{_e(v.name)}</th>"
                                           for v in report.variants) + "</tr>"
    body = "".join(f"<tr><td>{_e(label)}</td>" + "".join(f'<td class="n">{_e(x)}</td>'
                                                          for x in values) + "</tr>"
                   for label, values in rows)
    return f"<table>{head}{body}</table>"


def _plot(out: Path, name: str) -> str:
    data = base64.b64encode((out / name).read_bytes()).decode("ascii")
    return f'<figure><img alt="{_e(name)}" src="data:image/png;base64,{data}"></figure>'


def to_html(report, out: Path) -> str:
    """The page; `out` is the report directory the plots were written to."""
    parts = [f"<h1>hsim scenario: {_e(report.scenario)}</h1>", f"<p>{_e(report.description)}</p>",
             _options(report), "<h2>Claims</h2>", *_claims(report),
             "<h2>Comparison</h2>", _comparison(report), "<h2>Variants</h2><ul>"]
    for v in report.variants:
        item = f"<li><b>{_e(v.name)}</b>" + (f": {_e(v.description)}" if v.description else "")
        if v.config:
            item += " Config: " + ", ".join(f"<code>{_e(k)}={_e(val)}</code>"
                                            for k, val in v.config.items())
        notes = "".join(f"<li>{_e(n)}</li>" for n in v.notes)
        parts.append(item + (f"<ul>{notes}</ul>" if notes else "") + "</li>")
    parts.append("</ul>")
    if report.plots:
        parts += ["<h2>Plots</h2>", *(_plot(out, p) for p in report.plots)]
    per_variant = ", ".join(f"{v.name} {v.elapsed_s:.1f} s" for v in report.variants)
    parts.append(f'<hr><p class="small">Elapsed: {report.elapsed_s:.1f} s wall clock '
                 f"({_e(per_variant)}); the only line that changes between runs with the same "
                 "options.</p>")
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>hsim scenario: {_e(report.scenario)}</title><style>{_CSS}</style></head>"
            "<body>\n" + "\n".join(parts) + "\n</body></html>\n")
