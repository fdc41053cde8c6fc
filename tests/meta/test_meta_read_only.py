"""Reading hbase:meta writes nothing: no server's MemStore, WAL or request metrics move, and the
cluster's invariants hold after any number of catalog reads (native, Thrift, shell, explain)."""

import dataclasses
import io
import os

import hsim
from hsim.inspect.explain import explain_scan
from hsim.shell import Shell
from hsim.thrift.loopback import LoopbackClient, LoopbackServer, LoopbackTransport
from thriftpy2.protocol import TBinaryProtocol

META = "hbase:meta"


def _cluster(**kw):
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(1000), **kw)
    c.admin.create_table("t", ["cf"], split_keys=[b"g", b"p"])
    c.table("t").put(b"a", {b"cf:q": b"1"})
    return c


def _books(c) -> list:
    """Everything a read could wrongly move on the servers: MemStore, WAL and request counts."""
    return [(s.memstore_heap, s.wal.size, s.wal.bytes_written, s.read_requests, s.read_rpcs,
             s.write_requests) for s in c.region_servers] + [
        dataclasses.asdict(m) for m in c.metrics().servers]


def test_native_meta_scans_and_gets_change_nothing():
    c = _cluster()
    before = _books(c)
    for _ in range(50):
        rows = list(c.table(META).scan())
        c.table(META).get(rows[0][0].row)
        c.table(META).count(reversed=True)
    assert len(rows) == 3
    assert _books(c) == before
    c.check_invariants()


def test_shell_and_explain_meta_reads_change_nothing():
    c = _cluster()
    before = _books(c)
    out = io.StringIO()
    Shell(c, out=out, width=0, timer=lambda: 0.0).run_script(f"scan '{META}'", echo=False)
    assert "info:regioninfo" in out.getvalue()
    assert explain_scan(c, META).rows_returned == 3
    assert _books(c) == before
    c.check_invariants()


def test_five_thousand_region_info_reads_write_no_wal(tmp_path):
    c = _cluster(data_dir=tmp_path)
    transport = LoopbackTransport()
    transport.open()
    client = LoopbackClient(LoopbackServer(c), transport, TBinaryProtocol)
    wal_root = tmp_path / "WALs"

    def wal_bytes():
        return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(wal_root)
                   for f in fs)

    before, on_disk = _books(c), wal_bytes()
    for i in range(5000):
        info = client.getRegionInfo(b"t,%d,99999999999999" % (i % 20))
    assert info.startKey == b""
    assert _books(c) == before
    assert wal_bytes() == on_disk
    assert not (tmp_path / "oldWALs").exists() or not os.listdir(tmp_path / "oldWALs")
    c.check_invariants()
    c.close()
