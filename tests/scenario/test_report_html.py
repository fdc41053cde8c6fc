"""report.html: one self-contained page beside report.md and report.json."""

import re
from html import escape

from hsim.scenario.format import format_value
from hsim.scenario.loader import load_scenario
from hsim.scenario.runner import run_scenario
import pytest

pytestmark = pytest.mark.slow  # whole scenario runs and their reports


def test_report_html_is_self_contained_with_claims_table_and_plots(tmp_path):
    report = run_scenario(load_scenario("hotspotting"), ops=300, out=tmp_path,
                          variants="salted,field_swap", sensitivity="off")
    page = (tmp_path / "report.html").read_text()
    assert {"report.json", "report.md", "report.html"} <= {p.name for p in tmp_path.iterdir()}
    assert report.plots
    images = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,', page)
    assert images == report.plots
    assert not re.search(r'(src|href)="(?!data:|https?://)', page)  # nothing beside the file
    assert "<style>" in page and "<link" not in page
    for c in report.claims:
        assert escape(c.title) in page and escape(c.verdict) in page
    v = report.variants[0]
    key = next(iter(v.metrics))
    cell = f'<td class="n">{escape(format_value(v.metrics[key], v.units.get(key, "")))}</td>'
    assert cell in page
