"""The ways to start the UI: `hsim ui`, `serve --ui-port`, the shell's `ui`, `hsim run --ui`."""

import io
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from hsim.scenario.loader import load_scenario
from hsim.scenario.runner import run_scenario
from hsim.shell import Shell
from hsim.thrift.serve import _parser as serve_parser
from hsim.ui.cli import MASTER_INFO_PORT
from hsim.scenario.watch import watch_runs

pytestmark = pytest.mark.slow  # servers over sockets


def _get(url):
    with urllib.request.urlopen(url) as r:
        return r.read().decode("utf-8")


def _start(*args):
    """`python -m hsim ARGS` until it prints the line holding the UI's URL; returns (proc, url)."""
    p = subprocess.Popen([sys.executable, "-m", "hsim", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    for line in p.stdout:
        if "http://" in line:
            return p, line[line.index("http://"):].split()[0]
    p.kill()
    pytest.fail(f"no URL printed: {p.stderr.read()}")


def _stop(p):
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate()
    assert p.returncode == 0, err
    return out


def test_hsim_ui_serves_a_cluster_of_its_own_until_sigterm():
    p, url = _start("ui", "--port", "0")
    assert url.startswith("http://127.0.0.1:")
    assert "<h2>Region Servers</h2>" in _get(url + "master-status")
    assert "stopped" in _stop(p)


def test_hsim_ui_refuses_a_busy_port_in_one_line():
    p, url = _start("ui", "--port", "0")
    port = url.rstrip("/").rsplit(":", 1)[1]
    r = subprocess.run([sys.executable, "-m", "hsim", "ui", "--port", port],
                       capture_output=True, text=True)
    _stop(p)
    assert r.returncode == 1
    assert r.stderr.startswith(f"hsim ui: cannot serve the UI on 127.0.0.1:{port}")
    assert "Traceback" not in r.stderr
    assert "java" not in r.stderr  # no HBase request involved, so no Java exception named


def test_hsim_ui_data_dir_shows_the_tables_kept_there(tmp_path):
    import hsim

    with hsim.Cluster(data_dir=tmp_path) as c:
        c.admin.create_table("kept", ["f"])
        c.table("kept").put(b"r", {b"f:q": b"v"})
    p, url = _start("ui", "--port", "0", "--data-dir", str(tmp_path))
    assert "kept" in _get(url + "master-status")
    assert "stopped" in _stop(p)
    with hsim.Cluster(data_dir=tmp_path) as c:  # closed cleanly: still all there
        assert c.table("kept").get(b"r")[0].value == b"v"


def test_serve_ui_port_is_off_by_default_and_bare_means_16010():
    assert serve_parser().parse_args([]).ui_port is None
    assert serve_parser().parse_args(["--ui-port"]).ui_port == MASTER_INFO_PORT == 16010
    args = serve_parser().parse_args(["--ui-port", "0", "--ui-bind", "0.0.0.0"])
    assert (args.ui_port, args.ui_bind) == (0, "0.0.0.0")


def test_serve_with_ui_port_shows_the_thrift_cluster():
    import happybase  # noqa: F401  (hsim's Thrift server speaks to it)

    p, url = _start("serve", "--port", "0", "--ui-port", "0")
    try:
        assert "<h2>Region Servers</h2>" in _get(url)
    finally:
        _stop(p)


def test_shell_ui_command_serves_the_shells_cluster():
    out = io.StringIO()
    sh = Shell(out=out)
    sh.run_script("create 't1', 'f'\nput 't1', 'r1', 'f:q', 'v'\nui", echo=False)
    url = next(x for x in out.getvalue().splitlines() if x.startswith("Web UI: "))[8:]
    assert 'href="/table.jsp?name=t1"' in _get(url)
    sh.run_script("ui\nui 'stop'", echo=False)
    lines = [x for x in out.getvalue().splitlines() if x.startswith("Web UI")]
    assert lines == [f"Web UI: {url}", f"Web UI: {url}", "Web UI stopped"]


def test_run_ui_follows_the_variant_being_run():
    scenario = load_scenario("hotspotting")
    with watch_runs(0) as url:
        assert "table.jsp?name=ts" not in _get(url)  # an empty cluster until the run builds one
        run_scenario(scenario, ops=300, variants="salted", plots=False, sensitivity="off")
        page = _get(url + "table.jsp?name=ts")
    assert page.count('href="/region.jsp?name=') >= 2


def test_run_ui_flag_from_the_command_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "hsim", "run", "hotspotting", "--ui", "0",
                        "--ops", "300", "--variants", "salted", "--no-plots", "--sensitivity",
                        "off", "--out", str(tmp_path)], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert r.stderr.startswith("hsim run: web UI on http://127.0.0.1:")
    assert (tmp_path / "report.html").exists()
