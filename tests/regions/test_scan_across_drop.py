"""A scan read across delete_table or truncate_table ends with TableNotFoundException's hsim
error (natively) and an IOError (over Thrift), never a Python error; a scan across a split goes
on."""

import pytest
from thriftpy2.protocol import TBinaryProtocol

import hsim
from hsim.errors import TableNotFoundError
from hsim.thrift.idl import ttypes
from hsim.thrift.loopback import LoopbackClient, LoopbackServer, LoopbackTransport


def _cluster():
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(1000))
    c.admin.create_table("t", ["f"], split_keys=[b"r010"])
    t = c.table("t")
    for i in range(30):
        t.put(b"r%03d" % i, {b"f:q": b"v"})
    return c


@pytest.mark.parametrize("drop", ["delete_table", "truncate_table"])
def test_native_scan_across_a_drop_raises_table_not_found(drop):
    c = _cluster()
    rows = c.table("t").scan(caching=5)
    assert next(rows)[0].row == b"r000"
    c.admin.disable_table("t")
    getattr(c.admin, drop)("t")
    with pytest.raises(TableNotFoundError, match="TableNotFoundException"):
        list(rows)
    c.check_invariants()


def test_scan_across_a_split_goes_on():
    c = _cluster()
    rows = c.table("t").scan(caching=5)
    next(rows)
    c.admin.split("t", b"r020")
    assert len(list(rows)) == 29


@pytest.mark.parametrize("drop", ["deleteTable", "truncate"])
def test_thrift_scan_across_a_drop_is_an_io_error(drop):
    c = _cluster()
    transport = LoopbackTransport()
    transport.open()
    client = LoopbackClient(LoopbackServer(c), transport, TBinaryProtocol)
    sid = client.scannerOpen(b"t", b"", None, {})
    assert client.scannerGetList(sid, 5)[0].row == b"r000"
    c.admin.disable_table("t")
    if drop == "deleteTable":
        client.deleteTable(b"t")
    else:
        c.admin.truncate_table("t")
    with pytest.raises(ttypes.IOError, match="TableNotFoundException"):
        client.scannerGetList(sid, 100)
