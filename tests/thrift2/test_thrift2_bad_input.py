"""Bad input on the Thrift2 gateway: malformed and oversized messages close that connection
only (libthrift's answer to a protocol error), unknown methods, tables and scanners get the
protocol's error; nothing changes and the server keeps serving."""

import struct

import pytest
from thriftpy2.protocol import TBinaryProtocol
from thriftpy2.rpc import make_client
from thriftpy2.thrift import TApplicationException, TMessageType
from thriftpy2.transport import TCyMemoryBuffer, TFramedTransportFactory

import hsim
from hsim.thrift2_server import THBaseService, Thrift2Server
from hsim.thrift2_server.idl import ttypes as T


@pytest.fixture
def served():
    cluster = hsim.Cluster(clock=hsim.ManualClock(1_000))
    cluster.admin.create_table("t", ["cf"])
    cluster.table("t").put(b"r", {b"cf:a": b"1"})
    with Thrift2Server(cluster, port=0, transport="framed", max_frame_size=4096) as server:
        yield cluster, server


def _client(server):
    return make_client(THBaseService, "127.0.0.1", server.port, timeout=20_000,
                       trans_factory=TFramedTransportFactory())


def _message(api: str, **args) -> bytes:
    buf = TCyMemoryBuffer()
    proto = TBinaryProtocol(buf)
    proto.write_message_begin(api, TMessageType.CALL, 1)
    getattr(THBaseService, api + "_args")(**args).write(proto)
    return buf.getvalue()


def _unchanged(cluster) -> None:
    assert [(c.row, c.value) for c in cluster.table("t").get(b"r")] == [(b"r", b"1")]
    assert cluster.admin.list_tables() == ["t"]


@pytest.mark.parametrize("data", [
    b"\x00\x00\x00\x05hello",                           # a frame that holds no message
    struct.pack(">i", 1 << 20) + b"x" * 64,             # a frame over the 4 KB limit
    struct.pack(">i", -7),                              # a negative frame size
    struct.pack(">i", 40) + _message("put", table=b"t", tput=T.TPut(
        row=b"z", columnValues=[T.TColumnValue(b"cf", b"a", b"2")]))[:40],  # cut short
])
def test_malformed_frames_close_that_connection_only(served, raw_exchange, data):
    cluster, server = served
    assert raw_exchange(server.port, data) == b""  # closed without an answer
    _unchanged(cluster)
    client = _client(server)
    assert client.get(b"t", T.TGet(row=b"r")).columnValues[0].value == b"1"
    client.close()


def test_an_unknown_method_is_unknown_method(served, raw_exchange):
    cluster, server = served
    body = _message("get", table=b"t", tget=T.TGet(row=b"r")).replace(b"\x00\x03get",
                                                                      b"\x00\x03gxt")
    reply = raw_exchange(server.port, struct.pack(">i", len(body)) + body)
    proto = TBinaryProtocol(TCyMemoryBuffer(reply[4:]))
    api, kind, _seq = proto.read_message_begin()
    error = TApplicationException()
    error.read(proto)
    assert (api, kind, error.type) == ("gxt", TMessageType.EXCEPTION,
                                       TApplicationException.UNKNOWN_METHOD)
    _unchanged(cluster)


def test_unknown_tables_scanners_and_families(served):
    cluster, server = served
    client = _client(server)
    with pytest.raises(T.TIOError, match="nope"):
        client.put(b"nope", T.TPut(row=b"r", columnValues=[T.TColumnValue(b"cf", b"a", b"x")]))
    with pytest.raises(T.TIOError):
        client.openScanner(b"nope", T.TScan())
    with pytest.raises(T.TIllegalArgument, match="Invalid scanner Id"):
        client.getScannerRows(99, 1)
    with pytest.raises(T.TIOError, match="zz"):
        client.put(b"t", T.TPut(row=b"r", columnValues=[T.TColumnValue(b"zz", b"a", b"x")]))
    with pytest.raises(TApplicationException):
        client.put(b"t", T.TPut(row=b"", columnValues=[T.TColumnValue(b"cf", b"a", b"x")]))
    with pytest.raises(TApplicationException, match="filterBytes"):
        client.get(b"t", T.TGet(row=b"r", filterBytes=b"\x00"))
    _unchanged(cluster)
    assert client.get(b"t", T.TGet(row=b"r")).row == b"r"  # the same connection still serves
    client.close()
