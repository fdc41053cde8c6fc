"""The Thrift-1 methods happybase does not reach, and the exact semantics of those it does, with
a raw thriftpy2 client over the loopback (every call serialised as on the wire)."""

import pytest
from thriftpy2.protocol import TBinaryProtocol
from thriftpy2.thrift import TApplicationException

import hsim
from hsim.thrift.idl import LATEST_TIMESTAMP, ttypes
from hsim.thrift.loopback import LoopbackClient, LoopbackServer, LoopbackTransport

M = ttypes.Mutation
BM = ttypes.BatchMutation


@pytest.fixture
def server():
    cluster = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(100))
    cluster.admin.create_table("t", {"cf": {"VERSIONS": 5}, "g": None})
    return LoopbackServer(cluster)


@pytest.fixture
def client(server):
    transport = LoopbackTransport()
    transport.open()
    return LoopbackClient(server, transport, TBinaryProtocol)


def _row(client, row, columns=None):
    got = client.getRowWithColumns(b"t", row, columns, {})
    return {k: v.value for k, v in got[0].columns.items()} if got else {}


def _internal(excinfo, text):
    assert excinfo.value.type == TApplicationException.INTERNAL_ERROR
    assert text.encode() in excinfo.value.message


def test_mutate_row_deletes_then_puts_and_ignores_bare_family_puts(client):
    client.mutateRowTs(b"t", b"r", [M(column=b"cf:a", value=b"old")], 10, {})
    client.mutateRow(b"t", b"r", [
        M(isDelete=True, column=b"cf:a"),  # DeleteColumn at now (100)
        M(column=b"cf:b", value=b"new"),
        M(column=b"g", value=b"ignored"),  # LOG.warn, not an error, in mutateRowTs
        M(column=b"g:n"),  # no value: an empty one
    ], {})
    assert _row(client, b"r") == {b"cf:b": b"new", b"g:n": b""}


def test_mutate_rows_applies_puts_before_deletes(client):
    client.mutateRowsTs(b"t", [
        BM(row=b"r1", mutations=[M(isDelete=True, column=b"cf:a"),
                                 M(column=b"cf:a", value=b"x")]),
        BM(row=b"r2", mutations=[M(column=b"cf:a", value=b"y")]),
    ], 50, {})
    assert _row(client, b"r1") == {}  # the DeleteColumn at 50 masks the put at 50
    assert client.getRowTs(b"t", b"r2", LATEST_TIMESTAMP, {})[0].columns[b"cf:a"].timestamp == 50


def test_mutate_errors_as_hbase_sends_them(client):
    with pytest.raises(TApplicationException) as e:  # built before the try: escapes
        client.mutateRows(b"t", [BM(row=b"r", mutations=[M(column=b"cf", value=b"v")])], {})
    _internal(e, "Invalid famAndQf provided.")
    with pytest.raises(TApplicationException) as e:
        client.mutateRowsTs(b"t", [BM(row=b"r", mutations=[M(column=b"cf:a")])], -1, {})
    _internal(e, "Timestamp cannot be negative")
    with pytest.raises(ttypes.IllegalArgument) as e:  # inside mutateRowTs' try
        client.mutateRowTs(b"t", b"r", [M(column=b"cf:a")], -1, {})
    assert e.value.message == b"java.lang.IllegalArgumentException: Timestamp cannot be " \
                              b"negative. ts=-1"
    with pytest.raises(ttypes.IllegalArgument) as e:
        client.mutateRow(b"t", b"", [M(column=b"cf:a")], {})
    assert b"Row length is 0" in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        client.mutateRow(b"nope", b"r", [M(column=b"cf:a")], {})
    assert b"TableNotFoundException" in e.value.message
    assert _row(client, b"r") == {}


def test_get_and_versions(client):
    for ts in (1, 2, 3):
        client.mutateRowTs(b"t", b"r", [M(column=b"cf:a", value=b"v%d" % ts)], ts, {})
    assert [(c.value, c.timestamp) for c in client.get(b"t", b"r", b"cf:a", {})] == [(b"v3", 3)]
    assert [c.value for c in client.getVer(b"t", b"r", b"cf:a", 10, {})] == [b"v3", b"v2", b"v1"]
    assert [c.value for c in client.getVerTs(b"t", b"r", b"cf:a", 3, 10, {})] == [b"v2", b"v1"]
    assert [c.value for c in client.getVer(b"t", b"r", b"cf", 2, {})] == [b"v3", b"v2"]
    with pytest.raises(ttypes.IOError) as e:
        client.getVer(b"t", b"r", b"cf:a", 0, {})
    assert e.value.message == b"java.io.IOException: versions must be positive"
    assert client.getRowsTs(b"t", [b"r", b"x"], 3, {})[0].columns[b"cf:a"].value == b"v2"
    assert [r.row for r in client.getRows(b"t", [b"x", b"r"], {})] == [b"r"]
    assert client.getRow(b"t", b"x", {}) == []


def test_scanners(client):
    for row in (b"a1", b"a2", b"b1"):
        client.mutateRowTs(b"t", row, [M(column=b"cf:a", value=row)], 5, {})
    first = client.scannerOpen(b"t", b"", None, {})
    second = client.scannerOpenWithPrefix(b"t", b"a", [b"cf:a"], {})
    assert second == first + 1  # ids count up
    assert [r.row for r in client.scannerGetList(first, 2)] == [b"a1", b"a2"]
    assert [r.row for r in client.scannerGet(first)] == [b"b1"]
    assert client.scannerGet(first) == [] and client.scannerGetList(first, 5) == []
    assert [r.row for r in client.scannerGetList(second, 10)] == [b"a1", b"a2"]
    with pytest.raises(TApplicationException):  # new ArrayList<>(-1)
        client.scannerGetList(second, -1)
    client.scannerClose(first)
    client.scannerClose(second)
    for call in (lambda: client.scannerGet(first), lambda: client.scannerClose(first)):
        with pytest.raises(ttypes.IllegalArgument) as e:
            call()
        assert e.value.message == b"scanner ID is invalid"
    sid = client.scannerOpenWithStopTs(b"t", b"a2", b"b2", None, 6, {})
    assert [r.row for r in client.scannerGetList(sid, 10)] == [b"a2", b"b1"]
    sid = client.scannerOpenTs(b"t", b"a2", None, 5, {})
    assert client.scannerGetList(sid, 10) == []
    sid = client.scannerOpenWithStop(b"t", b"a2", b"b1", [b"cf:a"], {})
    assert [r.row for r in client.scannerGetList(sid, 10)] == [b"a2"]


def test_scan_with_tscan_fields(client):
    client.mutateRowTs(b"t", b"r1", [M(column=b"cf:a", value=b"1"), M(column=b"g:b", value=b"2")],
                       5, {})
    client.mutateRowTs(b"t", b"r2", [M(column=b"cf:a", value=b"3")], 5, {})
    sid = client.scannerOpenWithScan(b"t", ttypes.TScan(
        startRow=b"r2", stopRow=b"r0", reversed=True, batchSize=1, sortColumns=True,
        caching=1), {})
    got = client.scannerGetList(sid, 10)
    assert [(r.row, [c.columnName for c in r.sortedColumns], r.columns) for r in got] == [
        (b"r2", [b"cf:a"], None), (b"r1", [b"cf:a"], None), (b"r1", [b"g:b"], None)]
    sid = client.scannerOpenWithScan(b"t", ttypes.TScan(
        columns=[b"cf"], filterString=b"ValueFilter(=, 'binary:3')", timestamp=6), {})
    assert [r.row for r in client.scannerGetList(sid, 10)] == [b"r2"]


def test_atomic_increment_increment_and_append(client):
    assert client.atomicIncrement(b"t", b"r", b"cf:c", 5) == 5
    assert client.atomicIncrement(b"t", b"r", b"g", 2) == 2  # bare family: empty qualifier
    client.increment(ttypes.TIncrement(table=b"t", row=b"r", column=b"cf:c", ammount=10))
    client.incrementRows([ttypes.TIncrement(table=b"t", row=b"r", column=b"cf:c", ammount=1)] * 3)
    assert client.atomicIncrement(b"t", b"r", b"cf:c", 0) == 18
    with pytest.raises(TApplicationException) as e:
        client.increment(ttypes.TIncrement(table=b"t", row=b"", column=b"cf:c", ammount=1))
    _internal(e, "Must supply a table and a row key; can't increment")
    with pytest.raises(TApplicationException):
        client.increment(ttypes.TIncrement(table=b"t", row=b"r", column=b"cf", ammount=1))
    cells = client.append(ttypes.TAppend(table=b"t", row=b"s", columns=[b"g:x", b"cf:y"],
                                         values=[b"ab", b"cd"]))
    assert [(c.value, c.timestamp) for c in cells] == [(b"cd", 100), (b"ab", 100)]
    cells = client.append(ttypes.TAppend(table=b"t", row=b"s", columns=[b"cf:y"], values=[b"e"]))
    assert [(c.value, c.timestamp) for c in cells] == [(b"cde", 101)]  # max(now, old + 1)
    with pytest.raises(TApplicationException):
        client.append(ttypes.TAppend(table=b"t", row=b"s", columns=[b"cf:y"], values=[]))


def test_check_and_put(client):
    put = M(column=b"cf:a", value=b"1")
    assert client.checkAndPut(b"t", b"r", b"cf:a", None, put, {}) is True  # ifNotExists
    assert client.checkAndPut(b"t", b"r", b"cf:a", None, M(column=b"cf:a", value=b"2"),
                              {}) is False
    assert client.checkAndPut(b"t", b"r", b"cf:a", b"1", M(column=b"cf:a", value=b"2"),
                              {}) is True
    assert client.checkAndPut(b"t", b"r", b"cf:a", b"1", put, {}) is False
    assert _row(client, b"r") == {b"cf:a": b"2"}
    # an empty expected value matches a missing cell (HRegion.checkAndMutate)
    assert client.checkAndPut(b"t", b"r", b"cf:e", b"", M(column=b"cf:e", value=b""), {}) is True
    assert client.checkAndPut(b"t", b"r", b"cf:e", b"", M(column=b"cf:e", value=b"x"), {}) is True
    assert client.checkAndPut(b"t", b"r", b"cf:e", b"", M(column=b"cf:e", value=b"y"), {}) is False
    with pytest.raises(TApplicationException):  # parseColumn(...)[1] on a bare family
        client.checkAndPut(b"t", b"r", b"cf", None, put, {})


def test_delete_all_variants(server, client):
    server.cluster.clock.set(1_000)
    for ts in (10, 20):
        client.mutateRowTs(b"t", b"r", [M(column=b"cf:a", value=b"a%d" % ts),
                                        M(column=b"cf:b", value=b"b%d" % ts),
                                        M(column=b"g:c", value=b"c%d" % ts)], ts, {})
    client.deleteAllTs(b"t", b"r", b"cf:a", 10, {})  # DeleteColumn: versions <= 10
    assert [c.value for c in client.getVer(b"t", b"r", b"cf:a", 5, {})] == [b"a20"]
    client.deleteAllTs(b"t", b"r", b"cf", 15, {})  # DeleteFamily at 15
    assert _row(client, b"r") == {b"cf:a": b"a20", b"cf:b": b"b20", b"g:c": b"c20"}
    assert [c.value for c in client.getVer(b"t", b"r", b"cf:b", 5, {})] == [b"b20"]
    client.deleteAll(b"t", b"r", b"cf:b", {})
    assert _row(client, b"r") == {b"cf:a": b"a20", b"g:c": b"c20"}
    client.deleteAllRowTs(b"t", b"r", 19, {})
    assert _row(client, b"r") == {b"cf:a": b"a20", b"g:c": b"c20"}
    client.deleteAllRow(b"t", b"r", {})
    assert _row(client, b"r") == {}
    with pytest.raises(TApplicationException):  # new Delete(empty row)
        client.deleteAll(b"t", b"", b"cf:a", {})


def test_create_table_errors_and_descriptor_order(client):
    CD = ttypes.ColumnDescriptor
    with pytest.raises(ttypes.IllegalArgument) as e:
        client.createTable(b"u", [CD(name=b"cf:"), CD(name=b"cf")])
    assert b"Family 'cf' already exists so cannot be added" in e.value.message
    with pytest.raises(ttypes.IllegalArgument) as e:
        client.createTable(b"u", [CD(name=b"")])
    assert e.value.message == b"column name is empty"
    with pytest.raises(ttypes.IOError) as e:  # a codec HBase knows but hsim does not have
        client.createTable(b"u", [CD(name=b"cf", compression="LZO")])
    assert b"Compression algorithm 'lzo' previously failed test." in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        client.createTable(b"u", [])
    assert b"Table should have at least one column family." in e.value.message
    client.createTable(b"u", [CD(name=b"b"), CD(name=b"\xc3\xa9"), CD(name=b"a", timeToLive=0)])
    descs = client.getColumnDescriptors(b"u")
    assert list(descs) == [b"\xc3\xa9:", b"a:", b"b:"]  # ByteBuffer (signed) order
    assert descs[b"a:"].timeToLive == 2**31 - 1
    assert client.getTableNames() == [b"t", b"u"]


def test_region_info_and_old_methods(server, client):
    server.cluster.admin.split("t", b"m")
    info = client.getRegionInfo(b"t,q,99999999999999")
    assert (info.startKey, info.endKey, info.serverName) == (b"m", b"", b"rs1.hsim")
    assert client.getRegionInfo(b"t,a,99999999999999").endKey == b"m"
    with pytest.raises(ttypes.IOError) as e:
        client.getRegionInfo(b"nope,a,99999999999999")
    assert b"Cannot find row in hbase:meta" in e.value.message
    with pytest.raises(TApplicationException) as e:  # not in HBase 2's IDL
        client.getRowOrBefore(b"t", b"r", b"cf")
    assert e.value.type == TApplicationException.UNKNOWN_METHOD
