"""`hsim list` and `hsim run`: reports on disk, output formats, and one-line errors."""

import json
import textwrap

import pytest

from hsim.cli import main
from hsim.scenario.loader import scenario_files
from hsim.workloads.costmodel import CostModel

SCENARIOS = ["bloom_filters", "cache_knobs", "column_families", "compaction_io", "counters",
             "hotspotting", "index_size", "key_encoding", "log_data", "lookup_patterns",
             "order_object", "presplit", "region_size", "rows_vs_versions", "secondary_index",
             "skew_and_import", "tall_vs_wide", "time_series_columns",
             "versions_ttl", "ycsb"]

TINY = textwrap.dedent('''
    """A two-variant scenario for the tests."""
    from hsim.scenario import Scenario, metric

    scenario = Scenario("tiny", "two tables, one pre-split", sizes={"small": 200, "default": 400},
                        servers=2, params={"value": "x"}, sweep={"value": ["y"]})
    scenario.variant("one_region", "no split keys", splits=[])
    scenario.variant("two_regions", "split at m", splits=[b"m"])

    @scenario.run
    def run(ctx, variant):
        ctx.admin.create_table("t", ["f"], split_keys=variant["splits"])
        table = ctx.table("t")
        for i in range(ctx.ops):
            table.put(b"%c%04d" % (97 + i % 26, i), {b"f:q": ctx.params["value"].encode()})
            ctx.tick()
        ctx.admin.flush("t")
        ctx.record("share", ctx.cluster.metrics().hotspot_ratio("write"), "hotspot", "x")

    scenario.claim("splitting spreads writes", seed="000", section="Hotspotting",
                   quote="Hotspotting occurs when a large amount of client traffic is directed "
                         "at one node",
                   criterion=metric("two_regions", "share") < metric("one_region", "share"))
''')


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.py"
    path.write_text(TINY)
    return path


def test_list_shows_every_scenario_with_its_description(capsys):
    code, out, err = _run(capsys, "list")
    assert code == 0 and err == ""
    names = [line.split()[0] for line in out.splitlines()]
    assert names == SCENARIOS
    for line in out.splitlines():
        assert len(line.split(None, 1)[1]) > 20  # a description, not an error


def test_every_scenario_file_is_found():
    assert sorted(p.stem for p in scenario_files()) == SCENARIOS


def test_run_writes_the_report_files(capsys, tiny, tmp_path):
    out_dir = tmp_path / "out"
    code, out, err = _run(capsys, "run", str(tiny), "--ops", "small", "--out", str(out_dir))
    assert code == 0, err
    assert "splitting spreads writes: held" in out
    report = json.loads((out_dir / "report.json").read_text())
    assert report["scenario"] == "tiny"
    assert report["options"]["ops"] == 200 and report["options"]["servers"] == 2
    assert [v["name"] for v in report["variants"]] == ["one_region", "two_regions"]
    assert report["claims"][0]["verdict"] == "held"
    claim = report["claims"][0]
    assert claim["seed"]["title"] == "HBase Reference Guide, HBase and Schema Design"
    assert claim["criterion"] == "two_regions.share < one_region.share"
    assert claim["detail"] == "two_regions.share = 1.04 < one_region.share = 2.00"
    # four more seeds, the parameter's value at each of five seeds (the variants read it), the
    # cost units x0.5 and x2; no size control: the run is at the small size
    seeds = [s for s in claim["sensitivity"] if s["vary"] == "seed"]
    assert [s["seed"] for s in seeds] == [2, 3, 4, 5]
    assert {"vary": "value", "seed": 3, "size": "small", "param": "value=y",
            "verdict": "held"} in claim["sensitivity"]
    variations = 4 + 5 + 2 * len(CostModel.UNITS)
    assert len(claim["sensitivity"]) == variations and claim["reads"] == ["value"]
    assert claim["robust"] is True and f"robust: held at all {variations} variations" in out
    md = (out_dir / "report.md").read_text()
    assert "# hsim scenario: tiny" in md and "**held**" in md
    assert "| hotspot | 2.00x |" in md
    for png in report["plots"]:
        assert (out_dir / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({png})" in md
    assert "requests_per_server.png" in report["plots"]
    # the last line names every file written, the page to open first
    wrote = out.strip().splitlines()[-1]
    names = ["report.html", "report.md", "report.json", *report["plots"]]
    assert wrote == f"wrote {out_dir}/: " + ", ".join(names)
    assert all((out_dir / n).is_file() for n in names)


def test_default_out_is_hsim_report_slash_name(capsys, tiny, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "run", str(tiny), "--ops", "50", "--no-plots")
    assert code == 0, err
    assert (tmp_path / "hsim-report" / "tiny" / "report.json").is_file()


def test_json_and_markdown_formats_print_the_reports(capsys, tiny, tmp_path):
    code, out, _ = _run(capsys, "run", str(tiny), "--ops", "50", "--out", str(tmp_path / "a"),
                        "--format", "json", "--no-plots")
    assert code == 0 and json.loads(out)["options"]["ops"] == 50
    code, out, _ = _run(capsys, "run", str(tiny), "--ops", "50", "--out", str(tmp_path / "b"),
                        "--format", "markdown", "--no-plots")
    assert code == 0 and out.startswith("# hsim scenario: tiny")
    code, out, err = _run(capsys, "run", str(tiny), "--ops", "50", "--out", str(tmp_path / "c"),
                          "--format", "json", "--no-plots")
    assert err.strip() == f"wrote {tmp_path / 'c'}/: report.html, report.md, report.json"


def test_options_reach_the_run(capsys, tiny, tmp_path):
    code, out, err = _run(capsys, "run", str(tiny), "--ops", "30", "--seed", "9", "--scale",
                          "1/512", "--servers", "3", "--param", "value=yy", "--variants",
                          "two_regions", "--out", str(tmp_path), "--format", "json",
                          "--no-plots")
    assert code == 0, err
    report = json.loads(out)
    assert report["options"] == {"ops": 30, "size": "custom", "seed": 9, "scale": 1 / 512,
                                 "servers": 3, "params": {"value": "yy"},
                                 "variants": ["two_regions"]}
    assert report["claims"][0]["verdict"] == "not run"
    assert len(report["variants"][0]["cluster"]["servers"]) == 3


BAD_FILES = {
    "syntax.py": ("def broken(:\n", "line 1"),
    "raises.py": ("x = 1\nraise RuntimeError('boom')\n", "RuntimeError: boom"),
    "empty.py": ("x = 1\n", "defines no `scenario"),
    "no_run.py": ("from hsim.scenario import Scenario\n"
                  "scenario = Scenario('n', 'd', sizes={'small': 1, 'default': 2})\n"
                  "scenario.variant('v')\n", "no @scenario.run"),
    "bad_config.py": ("from hsim.scenario import Scenario\n"
                      "scenario = Scenario('n', 'd', sizes={'small': 1, 'default': 2})\n"
                      "scenario.variant('v', config={'no_such_setting': 1})\n",
                      "unknown Config field(s) no_such_setting"),
    "fails.py": (TINY.replace('ctx.record("share"', 'ctx.record("share", 1 / 0) #'),
                 "failed in variant 'one_region': ZeroDivisionError"),
    "bad_claim.py": (TINY.replace('metric("two_regions", "share")',
                                  'metric("two_regions", "nope")'),
                     "recorded no metric 'nope'"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_scenario_file_is_one_line_and_a_nonzero_exit(capsys, tmp_path, name):
    text, message = BAD_FILES[name]
    path = tmp_path / name
    path.write_text(text)
    code, out, err = _run(capsys, "run", str(path), "--ops", "20", "--out", str(tmp_path / "o"),
                          "--no-plots")
    assert code == 1  # the command line was right; the scenario was not
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("hsim run: ") and message in err


@pytest.mark.parametrize("args, message", [
    (["no_such_scenario"], "no scenario named 'no_such_scenario'"),
    (["./missing.py"], "no scenario file './missing.py'"),
    (["presplit", "--ops", "0"], "--ops must be between 1 and"),
    (["presplit", "--ops", "-5"], "--ops must be between 1 and 100,000,000: -5"),
    (["presplit", "--ops", "huge"], "not a number nor one of the sizes"),
    (["presplit", "--scale", "abc"], "--scale 'abc' is not a number"),
    (["presplit", "--scale", "-1"], "--scale must be positive"),
    (["presplit", "--servers", "0"], "--servers must be positive"),
    (["presplit", "--servers", "x"], "invalid int value"),
    (["presplit", "--param", "nope=1"], "'presplit' has no such parameter"),
    (["presplit", "--param", "regions=ten"], "expected a int"),
    (["presplit", "--param", "regions"], "expected KEY=VALUE"),
    (["presplit", "--variants", "bogus"], "has no variant 'bogus'"),
    (["presplit", "--format", "xml"], "invalid choice"),
    (["presplit", "--frobnicate"], "unrecognized arguments"),
    (["presplit", "--opps", "5"], "(did you mean '--ops'?)"),
    ([], "the following arguments are required"),
])
def test_a_bad_option_is_one_line_and_a_nonzero_exit(capsys, tmp_path, args, message):
    code, out, err = _run(capsys, "run", *args, "--out", str(tmp_path))
    assert code == 2  # a usage error, as every hsim command and argparse exit
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1, err
    assert message in err


def test_debug_shows_the_traceback(capsys, tmp_path):
    path = tmp_path / "fails.py"
    path.write_text(BAD_FILES["fails.py"][0])
    code, _, err = _run(capsys, "run", str(path), "--ops", "20", "--out", str(tmp_path),
                        "--no-plots", "--debug")
    assert code == 1 and "Traceback" in err and "ZeroDivisionError" in err


def test_help_is_not_an_error(capsys):
    code, out, _ = _run(capsys, "run", "--help")
    assert code == 0 and "--ops" in out and "--param" in out
    assert "large" in out  # every size a scenario may declare


def test_the_example_in_the_docs_runs(capsys, tmp_path):
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text()
    code = re.search(r"## Writing your own.*?```python\n(.*?)```", doc, re.S).group(1)
    path = tmp_path / "my_keys.py"
    path.write_text(code)
    rc, out, err = _run(capsys, "run", str(path), "--ops", "small", "--out", str(tmp_path / "o"),
                        "--no-plots")
    assert rc == 0, err
    assert "hashed ids spread the writes: held" in out


def test_docs_check_and_write_regenerate_the_marked_blocks(capsys, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# x\n\n<!-- hsim:scenario presplit -->\nstale\n<!-- /hsim:scenario -->\n")
    args = ["--ops", "800", "--sensitivity", "costs", str(doc)]
    code, _, err = _run(capsys, "docs", "--check", *args)
    assert code == 1 and "presplit" in err and doc.read_text().count("stale") == 1
    code, out, _ = _run(capsys, "docs", "--write", *args)
    assert code == 0 and "1 block(s) rewritten" in out
    text = doc.read_text()
    assert "| Bytes.split cuts the hex range at the book's split points | held |" in text
    assert text.startswith("# x\n\n<!-- hsim:scenario presplit -->\n`hsim run presplit`")
    assert _run(capsys, "docs", "--check", *args)[0] == 0
    # a figures block: the named metrics of every variant that recorded them, formatted
    doc.write_text("<!-- hsim:figures presplit empty_regions region_skew -->\n"
                   "<!-- /hsim:figures -->\n")
    assert _run(capsys, "docs", "--write", *args)[0] == 0
    text = doc.read_text()
    assert "| figure | bytes_split | hex_string_split | book_hex_splits | no_presplit |" in text
    assert "| regions that got no row | 7 | 0 | 0 | 0 |" in text
    assert "| rows: biggest region / mean | 4.10x | 1.11x | 1.11x | 1.00x |" in text
    doc.write_text("<!-- hsim:figures presplit no_such_metric -->\n<!-- /hsim:figures -->\n")
    code, _, err = _run(capsys, "docs", "--check", *args)
    assert code == 1 and "no variant recorded no_such_metric" in err


def test_docs_only_leaves_the_other_scenarios_blocks_unrun(capsys, tmp_path):
    doc = tmp_path / "doc.md"
    other = "<!-- hsim:scenario hotspotting -->\nkept as written\n<!-- /hsim:scenario -->\n"
    doc.write_text("<!-- hsim:scenario presplit -->\nstale\n<!-- /hsim:scenario -->\n" + other)
    code, out, _ = _run(capsys, "docs", "--write", "--only", "presplit", "--ops", "800",
                        "--sensitivity", "off", str(doc))
    assert code == 0 and "wrote 1 scenario(s); 1 block(s) rewritten" in out
    text = doc.read_text()
    assert "stale" not in text and "`hsim run presplit`" in text and text.endswith(other)
