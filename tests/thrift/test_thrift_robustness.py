"""The socket server under bad clients: garbage, truncated and oversized frames, oversized
messages, clients that go away mid-call, unknown tables, families and methods. Each bad
connection is closed (or answered with an error); the server keeps serving everyone else."""

import socket
import struct
import time

import happybase
import pytest
from thriftpy2.protocol import TBinaryProtocol
from thriftpy2.thrift import TApplicationException, TMessageType
from thriftpy2.transport import TCyMemoryBuffer, TTransportException

import hsim
from hsim.thrift.idl import Hbase, ttypes
from hsim.thrift.server import ThriftServer


@pytest.fixture(params=["buffered", "framed"])
def server(request):
    cluster = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(0))
    cluster.admin.create_table("t", {"cf": None})
    srv = ThriftServer(cluster, port=0, transport=request.param, max_message_size=64 * 1024,
                       max_frame_size=64 * 1024, read_timeout_ms=5_000).start()
    yield srv
    srv.stop()


def _connect(server, **kwargs):
    return happybase.Connection("127.0.0.1", server.port, transport=server.transport, **kwargs)


def _request(api: str, framed: bool, **args) -> bytes:
    """The bytes of one Thrift-1 call, as a client would send them."""
    buf = TCyMemoryBuffer()
    proto = TBinaryProtocol(buf)
    proto.write_message_begin(api, TMessageType.CALL, 1)
    call = getattr(Hbase, api + "_args")(**args)
    call.write(proto)
    data = buf.getvalue()
    return struct.pack(">i", len(data)) + data if framed else data


def _raw(server) -> socket.socket:
    # No client timeout: the server closes what it refuses, and its own read timeout closes
    # the rest, so waiting for EOF needs no wall-clock limit a loaded machine could pass.
    return socket.create_connection(("127.0.0.1", server.port))


def _closed_by_server(sock) -> bool:
    """True once the server has closed its end (recv sees EOF or a reset)."""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except ConnectionResetError:
        return True


def _still_serving(server, good):
    assert good.tables() == [b"t"]
    assert _connect(server).table("t").row(b"r") == {b"cf:a": b"1"}


@pytest.fixture
def good(server):
    conn = _connect(server)
    conn.table("t").put(b"r", {b"cf:a": b"1"})
    yield conn
    conn.close()


def test_garbage_bytes_close_that_connection_only(server, good):
    s = _raw(server)
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" + bytes(range(256)))
    assert _closed_by_server(s)
    s.close()
    _still_serving(server, good)


def test_truncated_frame_and_client_gone_mid_call(server, good):
    request = _request("getTableNames", server.transport == "framed")
    s = _raw(server)
    s.sendall(request[: len(request) // 2])  # half a call ...
    _still_serving(server, good)  # ... does not hold anyone else up
    s.close()  # and the client goes away
    s = _raw(server)
    s.sendall(_request("scannerOpen", server.transport == "framed", tableName=b"t",
                       startRow=b"", columns=None, attributes={}))
    s.close()  # before reading the reply
    _still_serving(server, good)
    while server.active_connections > 1:  # the server notices both goings soon, or hangs
        time.sleep(0.01)
    assert server.active_connections == 1  # only `good` is left


def test_oversized_message_is_refused(server, good):
    big = _connect(server)
    with pytest.raises((TTransportException, OSError)):  # the server drops the connection
        big.table("t").put(b"big", {b"cf:a": b"x" * 200_000})
    _still_serving(server, good)
    assert good.table("t").row(b"big") == {}
    s = _raw(server)  # a declared 1 GB string is refused without being allocated in full
    header = _request("getTableNames", False)[:4]
    body = header + struct.pack(">i", 13) + b"getTableNames" + struct.pack(">i", 1)
    body += b"\x0b\x00\x01" + struct.pack(">i", 1 << 30) + b"y" * 100_000
    s.sendall(struct.pack(">i", len(body)) + body if server.transport == "framed" else body)
    assert _closed_by_server(s)
    s.close()
    _still_serving(server, good)


def test_oversized_or_negative_frame_header(server, good):
    if server.transport != "framed":
        pytest.skip("frames exist only on the framed transport")
    for size in (1 << 30, -5):
        s = _raw(server)
        s.sendall(struct.pack(">i", size) + b"\x80\x01")
        assert _closed_by_server(s)
        s.close()
    _still_serving(server, good)


def test_unknown_tables_families_and_methods_are_errors_on_a_live_connection(server, good):
    with pytest.raises(ttypes.IOError) as e:
        good.table("missing").put(b"r", {b"cf:a": b"1"})
    assert b"TableNotFoundException: missing" in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        good.table("t").put(b"r", {b"nope:a": b"1"})
    assert b"Column family nope does not exist" in e.value.message
    s = _raw(server)
    framed = server.transport == "framed"
    payload = _request("getTableNames", framed).replace(b"getTableNames", b"getTableNamez")
    s.sendall(payload)
    reply = s.recv(65536)
    assert b"getTableNamez" in reply  # a TApplicationException(UNKNOWN_METHOD) reply ...
    s.sendall(_request("getTableNames", framed))  # ... and the connection still works
    assert b"\x00\x01t" in s.recv(65536)
    s.close()
    _still_serving(server, good)


def test_handler_bug_becomes_an_internal_error_not_a_dead_server(server, good, monkeypatch):
    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(server.handler.cluster, "table", broken)
    with pytest.raises(TApplicationException) as e:
        good.table("t").row(b"r")
    assert e.value.type == TApplicationException.INTERNAL_ERROR
    monkeypatch.undo()
    _still_serving(server, good)


def test_stop_closes_connections(server, good):
    other = _connect(server)
    other.tables()
    server.stop()
    with pytest.raises((TTransportException, OSError)):
        other.tables()
