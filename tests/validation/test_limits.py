"""What the limits and batch rules do when they are *not* errors: counters wrap as Java longs,
caching <= 0 means the default, a batch applies its good rows, namespaces, scanner leases,
the connection cap, the frame guard and the accept loop's back-off."""

import errno
import socket
import struct

import happybase
import pytest
from thriftpy2.transport import TTransportException

import hsim
from hsim.gateway.scanners import Scanners
from hsim.thrift.server import ThriftServer
from hsim.thrift.wire import SIZE_LIMIT, RequestReader

LONG_MAX = (1 << 63) - 1


@pytest.fixture
def cluster():
    c = hsim.Cluster(clock=hsim.ManualClock(1_000))
    c.admin.create_table("t", ["f", "g"])
    return c


def test_increment_wraps_as_java_long(cluster):
    t = cluster.table("t")
    assert t.increment(b"r", b"f:n", LONG_MAX) == LONG_MAX
    assert t.increment(b"r", b"f:n", 1) == -(1 << 63)  # Bytes.toLong(old) + amount overflows
    assert t.increment(b"r", b"f:n", -1) == LONG_MAX


def test_keyvalue_max_size_is_configurable():
    c = hsim.Cluster(config=hsim.Config(keyvalue_max_size=100), clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    t.put(b"r", {b"f:a": b"x" * 50})
    with pytest.raises(hsim.InvalidArgumentError, match="KeyValue size too large: 123 > 100"):
        t.put(b"r", {b"f:a": b"x" * 100})
    unlimited = hsim.Cluster(config=hsim.Config(keyvalue_max_size=0), clock=hsim.ManualClock(0))
    unlimited.admin.create_table("t", ["f"])
    unlimited.table("t").put(b"r", {b"f:a": b"x" * (11 << 20)})


@pytest.mark.parametrize("caching", [0, -1, None])
def test_scan_caching_not_positive_means_the_default(cluster, caching):
    t = cluster.table("t")
    for i in range(5):
        t.put(b"r%d" % i, {b"f:a": b"v"})
    assert len(list(t.scan(caching=caching))) == 5


def test_batch_applies_good_rows_and_lists_failed_ones(cluster):
    t = cluster.table("t")
    b = t.batch()
    b.put(b"a", {b"f:q": b"1"})
    b.put(b"b", {b"x:q": b"2"})
    b.put(b"c", {b"g:q": b"3"})
    b.put(b"d", {b"y:q": b"4"})
    with pytest.raises(hsim.RetriesExhaustedWithDetailsError, match=r"Failed 2 action") as info:
        b.send()
    assert [row for row, _ in info.value.failures] == [b"b", b"d"]
    assert all(isinstance(e, hsim.NoSuchColumnFamilyError) for _, e in info.value.failures)
    assert t.get(b"a") and t.get(b"c") and not t.get(b"b") and not t.get(b"d")


def test_default_namespace_is_the_same_table(cluster):
    cluster.table("default:t").put(b"r", {b"f:a": b"v"})
    assert cluster.table("t").get(b"r")[0].value == b"v"
    assert cluster.admin.list_tables() == ["t"]
    assert cluster.admin.table_exists("default:t")


def test_namespaces(cluster):
    a = cluster.admin
    assert a.list_namespaces() == ["default", "hbase"]
    a.create_namespace("ns")
    a.create_table("ns:t", ["f"])
    cluster.table("ns:t").put(b"r", {b"f:a": b"v"})
    assert "ns:t" in a.list_tables()
    with pytest.raises(hsim.ConstraintError, match="Namespace ns has 1 tables"):
        a.drop_namespace("ns")
    a.disable_table("ns:t")
    a.delete_table("ns:t")
    a.drop_namespace("ns")
    assert a.list_namespaces() == ["default", "hbase"]


def test_idle_scanners_expire():
    now = [0.0]
    scanners = Scanners(timeout_ms=60_000, monotonic=lambda: now[0])
    kept = scanners.add(iter([]))
    idle = scanners.add(iter([]))
    now[0] = 50.0
    scanners.next(kept, 1)  # reading renews the lease
    now[0] = 60.5
    assert scanners.next(kept, 1) == []
    with pytest.raises(Exception, match="scanner ID is invalid"):
        scanners.next(idle, 1)
    assert scanners.expired == 1 and len(scanners) == 1


def test_scanner_timeout_comes_from_config():
    c = hsim.Cluster(config=hsim.Config(scanner_timeout_ms=5), clock=hsim.ManualClock(0))
    from hsim.thrift.handler import HbaseHandler

    assert HbaseHandler(c).scanners.timeout_s == 0.005


def test_connection_cap_refuses_clearly(cluster):
    srv = ThriftServer(cluster, port=0, max_connections=1, read_timeout_ms=5_000).start()
    try:
        first = happybase.Connection("127.0.0.1", srv.port)
        assert first.tables() == [b"t"]
        second = happybase.Connection("127.0.0.1", srv.port, autoconnect=False)
        second.open()
        with pytest.raises((TTransportException, OSError)):
            second.tables()  # closed at once by the server
        assert srv.connections_refused == 1
        assert first.tables() == [b"t"]  # the first still works
        first.close()
    finally:
        srv.stop()


def test_frame_guard_refuses_big_and_negative_frames():
    a, b = socket.socketpair()
    try:
        guard = RequestReader(a, framed=True, compact=False, max_message=1 << 20,
                              max_frame=1024)
        b.sendall(struct.pack(">i", 2048))
        with pytest.raises(TTransportException) as info:
            guard.next()
        assert info.value.type == SIZE_LIMIT
        assert "Frame size (2048) larger than max length (1024)!" in info.value.message
        guard2 = RequestReader(b, framed=True, compact=False, max_message=1 << 20,
                               max_frame=1024)
        a.sendall(struct.pack(">i", -5))
        with pytest.raises(TTransportException, match="negative frame size"):
            guard2.next()
    finally:
        a.close()
        b.close()


class _FullListener:
    """accept() fails with EMFILE a few times, then the server is stopped."""

    def __init__(self, server, failures):
        self.server, self.left = server, failures
        self.calls = 0

    def accept(self):
        self.calls += 1
        self.left -= 1
        if self.left < 0:
            self.server._stopped.set()
        raise OSError(errno.EMFILE, "Too many open files")


def test_accept_backs_off_when_out_of_descriptors(cluster, monkeypatch):
    srv = ThriftServer(cluster, port=0)
    waits = []
    monkeypatch.setattr(srv._stopped, "wait", lambda s: waits.append(s))
    srv._listener = _FullListener(srv, failures=8)
    srv.serve_forever()
    assert waits[:3] == [0.01, 0.02, 0.04] and max(waits) == 1.0  # doubling, capped


@pytest.mark.parametrize("caching", [0, -1])
def test_thrift_scan_caching_not_positive_ends(cluster, caching):
    from hsim.thrift.handler import HbaseHandler
    from hsim.thrift.idl import ttypes

    t = cluster.table("t")
    for i in range(3):
        t.put(b"r%d" % i, {b"f:a": b"v"})
    handler = HbaseHandler(cluster)
    sid = handler.scannerOpenWithScan(b"t", ttypes.TScan(caching=caching), {})
    assert handler.scannerGetList(sid, 0) == []
    assert len(handler.scannerGetList(sid, 10)) == 3
    assert handler.scannerGetList(sid, 10) == []
    with pytest.raises(Exception, match="scanner ID is invalid"):
        handler.scannerGetList(sid + 1, 1)
