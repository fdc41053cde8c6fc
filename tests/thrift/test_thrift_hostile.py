"""One hostile request cannot stall the others (issue 33): a container bomb is refused before
it is walked, a backtracking regex trips its budget, filter strings are parsed outside the
cluster lock, and open scanners are capped per connection and per server."""

import socket
import struct
import threading
import time

import happybase
import pytest
from thriftpy2.protocol import TBinaryProtocol, TCompactProtocol
from thriftpy2.protocol.exc import TProtocolException
from thriftpy2.thrift import TMessageType
from thriftpy2.transport import TCyMemoryBuffer, TTransportException

import hsim
from hsim.thrift.handler import HbaseHandler
from hsim.thrift.idl import Hbase, ttypes
from hsim.thrift.server import ThriftServer
from hsim.thrift.wire import DEPTH_LIMIT, SIZE_LIMIT, RequestReader

_LIST, _STRUCT = 15, 12
_REDOS = "ValueFilter(=, 'regexstring:^(a|a)+$')"


def _binary_bomb(element_type: int = 0, lists: int = 3) -> bytes:
    """39 bytes: a call of `get` whose fields are lists of 2^31-1 elements of a type that takes
    no bytes (thriftpy2 skips them in a native loop: seconds per list, GIL held)."""
    head = struct.pack(">i", -2147418112 | TMessageType.CALL) + struct.pack(">i", 3) + b"get"
    head += struct.pack(">i", 1)
    return head + b"".join(struct.pack(">bhbi", _LIST, fid, element_type, (1 << 31) - 1)
                           for fid in range(1, lists + 1))


def _compact_bomb(element_type: int = 0) -> bytes:
    """The same in the compact protocol: a list of 2^31-1 elements, the size as a varint."""
    return bytes([0x82, 0x21, 0x01, 0x03]) + b"get" + bytes(
        [0x19, 0xF0 | element_type, 0xFF, 0xFF, 0xFF, 0xFF, 0x07])


def _reader(data: bytes, framed=False, compact=False, max_message=1 << 20):
    a, b = socket.socketpair()
    b.sendall(struct.pack(">i", len(data)) + data if framed else data)
    b.close()
    return a, RequestReader(a, framed, compact, max_message, max_frame=1 << 20)


def _message(api: str, protocol, **args) -> bytes:
    buf = TCyMemoryBuffer()
    proto = protocol(buf)
    proto.write_message_begin(api, TMessageType.CALL, 7)
    getattr(Hbase, api + "_args")(**args).write(proto)
    return buf.getvalue()


# --- the reader: refused before being walked ----------------------------------------------------
def test_the_39_byte_container_bomb_is_refused_at_its_first_list():
    bomb = _binary_bomb()
    assert len(bomb) == 39
    for framed in (False, True):
        sock, reader = _reader(bomb, framed=framed)
        with pytest.raises(TProtocolException) as e:
            reader.next()
        assert e.value.type == TProtocolException.INVALID_DATA
        assert "Unrecognized type 0" in e.value.message
        sock.close()


@pytest.mark.parametrize("framed", [False, True])
def test_declared_sizes_the_bytes_cannot_hold_are_refused(framed):
    # a list of 2^31-1 empty structs (1 byte each) in a 39-byte message
    sock, reader = _reader(_binary_bomb(_STRUCT), framed=framed)
    with pytest.raises(TProtocolException) as e:
        reader.next()
    assert e.value.type == TProtocolException.SIZE_LIMIT
    assert "declared size 2147483647" in e.value.message
    sock.close()
    # a negative string length
    msg = _message("getTableNames", TBinaryProtocol)[:-1] + b"\x0b\x00\x01\xff\xff\xff\xfe\x00"
    sock, reader = _reader(msg, framed=framed)
    with pytest.raises(TProtocolException) as e:
        reader.next()
    assert e.value.type == TProtocolException.NEGATIVE_SIZE
    sock.close()


def test_compact_bombs_are_refused_too():
    for element_type, code in ((0, TProtocolException.INVALID_DATA),
                               (12, TProtocolException.SIZE_LIMIT)):
        sock, reader = _reader(_compact_bomb(element_type), compact=True)
        with pytest.raises(TProtocolException) as e:
            reader.next()
        assert e.value.type == code
        sock.close()


def test_nesting_deeper_than_64_is_refused():
    head = _message("getTableNames", TBinaryProtocol)[:-1]  # without the final STOP
    deep = head + b"\x0f\x00\x01" + b"\x0f\x00\x00\x00\x01" * 70
    sock, reader = _reader(deep)
    with pytest.raises(TProtocolException) as e:
        reader.next()
    assert e.value.type == DEPTH_LIMIT
    sock.close()


def test_a_message_past_the_size_limit_is_refused_before_it_is_read():
    msg = _message("getTableNames", TBinaryProtocol)[:-1] + b"\x0b\x00\x01" + struct.pack(
        ">i", 1 << 30)
    sock, reader = _reader(msg, max_message=1 << 20)
    with pytest.raises(TProtocolException) as e:
        reader.next()
    assert e.value.type == TProtocolException.SIZE_LIMIT
    sock.close()
    msg = _message("getTableNames", TBinaryProtocol)
    sock, reader = _reader(msg, max_message=len(msg) - 1)  # its last byte is one too many
    with pytest.raises(TTransportException) as e:
        reader.next()
    assert e.value.type == SIZE_LIMIT
    sock.close()


@pytest.mark.parametrize("protocol", [TBinaryProtocol, TCompactProtocol])
@pytest.mark.parametrize("framed", [False, True])
def test_well_formed_requests_pass_unchanged(protocol, framed):
    mutations = [ttypes.Mutation(isDelete=i % 2 == 0, column=b"f:q%d" % i, value=b"v" * i,
                                 writeToWAL=True) for i in range(20)]
    messages = [
        _message("mutateRows", protocol, tableName=b"t",
                 rowBatches=[ttypes.BatchMutation(row=b"r%d" % i, mutations=mutations)
                             for i in range(3)], attributes={b"k": b"v", b"": b""}),
        _message("scannerOpenWithScan", protocol, tableName=b"t", scan=ttypes.TScan(
            startRow=b"a", stopRow=b"z", timestamp=5, columns=[b"f"], caching=10,
            filterString=b"KeyOnlyFilter()", batchSize=2, sortColumns=True, reversed=False),
            attributes={}),
        _message("getTableNames", protocol),
        _message("atomicIncrement", protocol, tableName=b"t", row=b"r", column=b"f:n",
                 value=-(1 << 40)),
    ]
    data = b"".join(struct.pack(">i", len(m)) + m if framed else m for m in messages)
    a, b = socket.socketpair()
    b.sendall(data)
    b.close()
    reader = RequestReader(a, framed, protocol is TCompactProtocol, 1 << 20, 1 << 20)
    assert [reader.next() for _ in messages] == messages
    with pytest.raises(TTransportException) as e:
        reader.next()
    assert e.value.type == TTransportException.END_OF_FILE
    a.close()


# --- the server: the bomb and the regex do not hold up a second client -------------------------
@pytest.fixture(params=["buffered", "framed"])
def server(request):
    cluster = hsim.Cluster(config=hsim.Config(regex_budget_ms=100), clock=hsim.ManualClock(0))
    cluster.admin.create_table("t", {"cf": None})
    t = cluster.table("t")
    t.put(b"good", {b"cf:a": b"1"})
    for i in range(20):
        t.put(b"evil%02d" % i, {b"cf:a": b"a" * 40 + b"!"})
    srv = ThriftServer(cluster, port=0, transport=request.param, read_timeout_ms=10_000,
                       max_scanners=5, max_scanners_per_connection=2).start()
    yield srv
    srv.stop()


def _connect(server):
    return happybase.Connection("127.0.0.1", server.port, transport=server.transport)


def _closed_by_server(sock) -> bool:
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def _gets_while(server, busy) -> float:
    """The longest wait between a second client's gets (each after a 10 ms pause) while `busy`
    runs in another thread: a stall of the whole process shows too, not only of the server."""
    conn = _connect(server)
    table = conn.table("t")
    slowest = 0.0
    worker = threading.Thread(target=busy)
    worker.start()
    last = time.monotonic()
    while worker.is_alive():
        time.sleep(0.01)
        assert table.row(b"good") == {b"cf:a": b"1"}
        now = time.monotonic()
        slowest, last = max(slowest, now - last - 0.01), now
    worker.join()
    conn.close()
    return slowest


def test_a_container_bomb_leaves_a_second_client_answered(server):
    closed = []

    def bomb():
        s = socket.create_connection(("127.0.0.1", server.port), timeout=8)
        data = _binary_bomb()
        s.sendall(struct.pack(">i", len(data)) + data if server.transport == "framed" else data)
        closed.append(_closed_by_server(s))  # refused: closed at once, not walked for seconds
        s.close()

    slowest = _gets_while(server, bomb)
    assert closed == [True]
    assert slowest < 1.0  # liveness, generously: the bomb is never walked


def test_a_redos_filter_trips_its_budget_and_a_second_client_is_answered(server):
    errors = []

    def redos():
        conn = _connect(server)
        for _ in range(3):
            with pytest.raises(ttypes.IOError) as e:
                list(conn.table("t").scan(filter=_REDOS))
            errors.append(e.value.message)
        conn.close()

    slowest = _gets_while(server, redos)
    assert len(errors) == 3
    assert all(b"org.apache.hadoop.hbase.exceptions.TimeoutIOException" in m for m in errors)
    assert slowest < 5.0  # liveness, generously: each scan holds the lock one budget at most
    assert server.handler.scanners.refused == 0 and len(server.handler.scanners) == 0


def test_filter_strings_are_parsed_outside_the_cluster_lock(monkeypatch):
    import hsim.thrift.handler as handler_module

    cluster = hsim.Cluster(clock=hsim.ManualClock(0))
    cluster.admin.create_table("t", {"cf": None})
    handler = handler_module.HbaseHandler(cluster)
    held = []

    def parse(text):
        other = threading.Thread(target=lambda: held.append(not _try_lock(cluster.lock)))
        other.start()
        other.join()
        return real(text)

    real = handler_module.parse_filter
    monkeypatch.setattr(handler_module, "parse_filter", parse)
    sid = handler.scannerOpenWithScan(b"t", ttypes.TScan(filterString=b"KeyOnlyFilter()"), {})
    assert held == [False]  # another thread could take the lock while the filter was parsed
    handler.scannerClose(sid)


def _try_lock(lock) -> bool:
    if lock.acquire(blocking=False):
        lock.release()
        return True
    return False


# --- scanner caps ------------------------------------------------------------------------------
def test_open_scanners_are_capped_per_connection_and_per_server(server):
    first, second, third = _connect(server), _connect(server), _connect(server)
    for conn in (first, second):
        for _ in range(2):
            conn.client.scannerOpen(b"t", b"", [], {})
    with pytest.raises(ttypes.IOError) as e:
        first.client.scannerOpen(b"t", b"", [], {})
    assert b"DoNotRetryIOException: Too many open scanners on this connection: 2 (max 2)" \
        in e.value.message
    sid = third.client.scannerOpen(b"t", b"", [], {})  # the fifth: the server's cap
    with pytest.raises(ttypes.IOError) as e:
        third.client.scannerOpen(b"t", b"", [], {})
    assert b"Too many open scanners on this server: 5 (max 5)" in e.value.message
    assert len(server.handler.scanners) == 5  # the refused opens left nothing behind
    third.client.scannerClose(sid)
    assert third.client.scannerGetList(third.client.scannerOpen(b"t", b"", [], {}), 1)
    first.close()  # a connection's scanners close with it
    deadline = time.monotonic() + 5
    while len(server.handler.scanners) > 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(server.handler.scanners) == 3
    second.close()
    third.close()


def test_an_open_scanner_holds_no_rows_until_it_is_read():
    cluster = hsim.Cluster(clock=hsim.ManualClock(0))
    cluster.admin.create_table("t", {"cf": None})
    cluster.table("t").put(b"a", {b"cf:q": b"1"})
    handler = HbaseHandler(cluster)
    rpcs = lambda: cluster.metrics().to_dict()["servers"][0]["read_rpcs"]  # noqa: E731
    before = rpcs()
    sid = handler.scannerOpenWithScan(b"t", ttypes.TScan(caching=1000), {})
    assert rpcs() == before  # HBase 2's getScanner: no RPC, no rows, no read point yet
    cluster.table("t").put(b"b", {b"cf:q": b"2"})
    assert [r.row for r in handler.scannerGetList(sid, 10)] == [b"a", b"b"]
    assert rpcs() == before + 1  # the first read is the open-and-first-batch RPC
    handler.scannerClose(sid)
    # errors still come at open: an unknown table, family or filter
    with pytest.raises(ttypes.IOError, match="TableNotFoundException"):
        handler.scannerOpenWithScan(b"nope", ttypes.TScan(), {})
    with pytest.raises(ttypes.IOError, match="NoSuchColumnFamilyException"):
        handler.scannerOpenWithScan(b"t", ttypes.TScan(columns=[b"x:q"]), {})
    assert len(handler.scanners) == 0
