"""`hsim run NAME --target thrift://HOST:PORT`: a scenario's calls replayed on a Thrift-1 server
(here `hsim serve` in another process, standing in for HBase's thrift gateway)."""

import json
import socket
import subprocess
import sys
import time

import happybase
import pytest

from hsim.scenario.errors import ScenarioError
from hsim.scenario.target import _families, parse_target, route, run_on_target
from hsim.schema import ColumnFamily

pytestmark = pytest.mark.slow  # `hsim serve` processes over sockets


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def serve():
    """`hsim serve` in its own process, configured as the presplit scenario's clusters are."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "hsim", "serve", "--port", str(port),
                             "--servers", "4", "--config", '{"scale": 0.00390625}'],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while proc.poll() is None:  # until it listens (or dies: the test then fails to connect)
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    yield f"thrift://127.0.0.1:{port}", port
    proc.terminate()
    # SIGTERM lets a request in progress finish (ThriftServer.stop joins each connection's
    # thread); on a loaded 2-core machine that has taken over 10 s.
    proc.wait()


def test_predicted_and_observed_regions_agree_on_hsim_serve(serve, tmp_path):
    url, port = serve
    _report, results = run_on_target("presplit", url, ops=10_000, variants="no_presplit",
                                     out=tmp_path, plots=False)
    hex_table = results[0]["tables"]["hex"]
    assert hex_table["regions_observed"] >= 2  # the table split on both sides, at one key
    assert hex_table["observed_writes_per_region"] == hex_table["predicted_writes_per_region"]
    assert sum(hex_table["observed_writes_per_region"]) == 10_000
    assert hex_table["agree"]
    assert results[0]["latency"]["put"]["count"] == 10_000
    assert json.loads((tmp_path / "target.json").read_text())["variants"] == results
    assert "## On the target" in (tmp_path / "report.md").read_text()
    conn = happybase.Connection("127.0.0.1", port)
    assert conn.tables() == []  # dropped afterwards (no --keep)
    conn.close()


def test_what_thrift_cannot_carry_is_said(serve, tmp_path):
    url, _ = serve
    _report, results = run_on_target("presplit", url, ops=200, variants="book_hex_splits",
                                     plots=False)
    assert any("pre-split" in x for x in results[0]["not_carried"])
    assert not results[0]["tables"]["hex"]["agree"]  # 10 regions predicted, 1 observed


def test_an_occupied_target_is_refused_and_left_alone(serve):
    url, port = serve
    conn = happybase.Connection("127.0.0.1", port)
    conn.create_table("hsim_no_presplit_hex", {"d": {}})
    conn.table("hsim_no_presplit_hex").put(b"mine", {b"d:x": b"1"})
    with pytest.raises(ScenarioError, match="already has table hsim_no_presplit_hex"):
        run_on_target("presplit", url, ops=100, variants="no_presplit", plots=False)
    assert conn.table("hsim_no_presplit_hex").row(b"mine") == {b"d:x": b"1"}
    assert list(conn.table("hsim_no_presplit_hex").scan()) == [(b"mine", {b"d:x": b"1"})]
    conn.close()


def test_the_pieces():
    assert parse_target("thrift://hbase.example.com:9090") == ("hbase.example.com", 9090)
    assert parse_target("thrift://h") == ("h", 9090)
    for bad in ("http://h:1", "thrift://", "h:9090"):
        with pytest.raises(ScenarioError):
            parse_target(bad)
    assert route([b"a", b"m", b"z", b""], [b"", b"m"]) == [2, 2]
    fams, lost = _families({"f": ColumnFamily(max_versions=3, ttl=60, min_versions=1),
                            "g": None})
    assert fams == {"f": {"max_versions": 3, "time_to_live": 60}, "g": {}}
    assert lost == ["family MIN_VERSIONS"]


def test_an_unreachable_target_is_one_clear_line(capsys):
    from hsim.cli import main

    assert main(["run", "presplit", "--ops", "100", "--variants", "no_presplit",
                 "--target", f"thrift://127.0.0.1:{_free_port()}", "--no-plots",
                 "--no-progress", "--out", "/tmp/hsim-unreachable"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach a Thrift-1 server" in err and "Traceback" not in err
