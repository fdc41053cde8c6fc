"""Thrift-1 on hbase:meta: getRegionInfo is a reversed meta scan, as in HBase's handler;
hbase:meta reads like any table and refuses writes."""

import pytest

import hsim
from hsim.thrift.idl import ttypes
from hsim.thrift.loopback import LoopbackClient, LoopbackServer, LoopbackTransport
from thriftpy2.protocol import TBinaryProtocol


@pytest.fixture
def cluster():
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(100))
    c.admin.create_table("t", ["cf"], split_keys=[b"m"])
    return c


@pytest.fixture
def client(cluster):
    transport = LoopbackTransport()
    transport.open()
    return LoopbackClient(LoopbackServer(cluster), transport, TBinaryProtocol)


def test_get_region_info_reads_the_catalog(cluster, client):
    regions = cluster.admin.regions("t")
    info = client.getRegionInfo(b"t,q,99999999999999")
    assert info.name == regions[1].name.encode() and info.id == 100
    assert (info.startKey, info.endKey, info.serverName, info.port) == (b"m", b"", b"rs2.hsim",
                                                                         16020)
    cluster.admin.create_table("u", ["cf"])  # sorts after t: a key of "tt" finds t's last region
    assert client.getRegionInfo(b"tt,a,99999999999999").name == regions[1].name.encode()


def test_meta_reads_and_refused_writes(cluster, client):
    rows = client.getRowWithColumns(b"hbase:meta", cluster.admin.regions("t")[0].name.encode(),
                                    [b"info:state"], {})
    assert rows[0].columns[b"info:state"].value == b"OPEN"
    assert b"hbase:meta" not in client.getTableNames()
    with pytest.raises(ttypes.IOError) as e:
        client.mutateRow(b"hbase:meta", b"x", [ttypes.Mutation(column=b"info:a", value=b"v")],
                         {})
    assert b"Can't modify catalog tables" in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        client.disableTable(b"hbase:meta")
    assert b"Cannot disable hbase:meta" in e.value.message
