"""`hsim serve --thrift2` and `hsim rest` from the command line, and Thrift2 over the framed
transport with the compact protocol."""

import re
import signal
import subprocess
import sys

import pytest
import requests
from thriftpy2.protocol import TCompactProtocolFactory
from thriftpy2.rpc import make_client
from thriftpy2.transport import TFramedTransportFactory

import hsim
from hsim.thrift.serve import main as serve_main
from hsim.thrift2_server import THBaseService, Thrift2Server
from hsim.thrift2_server.idl import ttypes as T


def test_framed_compact_thrift2():
    cluster = hsim.Cluster(clock=hsim.ManualClock(5))
    cluster.admin.create_table("t", ["f"])
    with Thrift2Server(cluster, port=0, transport="framed", protocol="compact") as server:
        client = make_client(THBaseService, "127.0.0.1", server.port, timeout=20_000,
                             proto_factory=TCompactProtocolFactory(),
                             trans_factory=TFramedTransportFactory())
        client.put(b"t", T.TPut(row=b"r", columnValues=[T.TColumnValue(b"f", b"q", b"v")]))
        got = client.get(b"t", T.TGet(row=b"r")).columnValues[0]
        assert (got.value, got.timestamp) == (b"v", 5)
        client.close()


def test_read_only_needs_a_gateway_that_has_it(capsys):
    with pytest.raises(SystemExit) as e:
        serve_main(["--read-only", "--port", "0"])
    assert e.value.code == 2
    assert "--read-only applies to the Thrift2 and REST gateways" in capsys.readouterr().err


def _started(args, pattern):
    proc = subprocess.Popen([sys.executable, "-m", "hsim", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(pattern, line)
    if m is None:
        proc.kill()
        raise AssertionError(f"did not start: {line!r} {proc.stderr.read()!r}")
    return proc, int(m.group(1)), line


def _stop(proc):
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    return out


@pytest.mark.slow  # processes over sockets
def test_hsim_serve_thrift2_with_rest_beside_it():
    proc, port, line = _started(["serve", "--thrift2", "--port", "0", "--rest-port", "0",
                                 "--read-only"], r"listening on [^ ]+:(\d+) ")
    assert line.rstrip().endswith("Thrift2)")
    rest_line = proc.stdout.readline()
    rest_port = int(re.search(r"REST on http://[^:]+:(\d+)/", rest_line).group(1))
    client = make_client(THBaseService, "127.0.0.1", port, timeout=20_000)
    assert client.getThriftServerType() == T.TThriftServerType.TWO
    with pytest.raises(T.TIOError, match="Read-only"):
        client.put(b"t", T.TPut(row=b"r", columnValues=[T.TColumnValue(b"f", b"q", b"v")]))
    client.close()
    r = requests.get(f"http://127.0.0.1:{rest_port}/version/cluster",
                     headers={"Accept": "application/json"}, timeout=30)
    assert r.status_code == 200 and isinstance(r.json(), str)
    assert requests.delete(f"http://127.0.0.1:{rest_port}/t/schema", timeout=30).status_code \
        == 403
    _stop(proc)


@pytest.mark.slow  # a process over a socket
def test_hsim_rest_serves_and_stops(tmp_path):
    proc, port, _ = _started(["rest", "--port", "0", "--data-dir", str(tmp_path / "d")],
                             r"listening on http://[^:]+:(\d+)/")
    url = f"http://127.0.0.1:{port}"
    schema = '{"name": "t", "ColumnSchema": [{"name": "f"}]}'
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    assert requests.put(url + "/t/schema", data=schema, headers=headers, timeout=30) \
        .status_code == 201
    assert requests.get(url + "/", headers=headers, timeout=30).json() == \
        {"table": [{"name": "t"}]}
    assert "stopped" in _stop(proc)
