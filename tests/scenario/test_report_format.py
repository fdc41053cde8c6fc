"""One number format in every report: each scenario's small-size terminal and Markdown reports
print no bare number of four or more digits (1234567 instead of 1,234,567), no Python
placeholder (None, nan, a repr) and no stand-in text. The rules themselves are
hsim.scenario.format's; this scans what the writers made of them."""

import io
import re

import pytest
from rich.console import Console

from hsim.scenario.format import format_params, format_scale, format_value
from hsim.scenario.loader import scenario_files
from hsim.scenario.markdown import to_markdown
from hsim.scenario.terminal import print_report

from .test_scenarios import run

pytestmark = pytest.mark.slow  # whole scenario runs and their reports

# four or more digits in a row that are not part of a name (row0001, HBASE-3551), a date, a
# decimal fraction, a formatted number (1,234) or a scale (1/1024)
_BARE = re.compile(r"(?<![\w.,/\-])\d{4,}(?![\w,\-]|\.\.)")
_PLACEHOLDER = re.compile(r"\bNone\b|\bnan\b|\bTODO\b|\bTBD\b|placeholder|<[a-z_]+>|\{[a-z_]*\}"
                          r"| at 0x|<function|\bxxx\b")


def _terminal(report) -> str:
    out = io.StringIO()
    print_report(report, Console(file=out, width=400, color_system=None))
    return out.getvalue()


def _prose(report, text: str) -> str:
    """The report without what it quotes verbatim (seed sentences) or as code (`Config`)."""
    for c in report.claims:
        text = text.replace(c.quote, "")
    return re.sub(r"`[^`\n]*`", "", text)


@pytest.mark.parametrize("name", sorted(p.stem for p in scenario_files()))
@pytest.mark.parametrize("writer", [_terminal, to_markdown])
def test_reports_use_one_number_format(name, writer):
    report = run(name)
    text = _prose(report, writer(report))
    assert report.options["size"] == "small"
    bare = sorted({m.group() for m in _BARE.finditer(text)})
    assert not bare, f"{name}: unformatted numbers {bare}"
    placeholders = sorted({m.group() for m in _PLACEHOLDER.finditer(text)})
    assert not placeholders, f"{name}: placeholder text {placeholders}"


def test_the_format_rules():
    assert format_value(1234567) == "1,234,567"
    assert format_value(1234567.0, "ms") == "1,234,567 ms"
    assert format_value(8.9999, "ms") == "9.00 ms"  # trailing zeros: 9.00 beside 8.94
    assert format_value(0.765, "ms") == "0.765 ms"
    assert format_value(0.405, "%") == "40.5%"
    assert format_value(1572864, "B") == "1.50 MiB" and format_value(512, "B") == "512 B"
    assert format_value(2.0, "x") == "2.00x"
    assert format_value(None, "ms") == "-" and format_value(float("nan")) == "-"
    assert format_scale(1 / 1024) == "1/1024" and format_scale(2.0) == "2"
    assert format_params({"records": 20000, "bloom": "ROW"}) == "records=20,000, bloom=ROW"
