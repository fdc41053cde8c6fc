"""Reads that stay consistent while the store changes: a scan sees its region as of its read
point, whatever puts, deletes, flushes, compactions and splits happen while it is open."""

import happybase
import pytest

import hsim
import hsim.happybase
from hsim.thrift.server import ThriftServer

N = 3_000


def _cluster(**config):
    c = hsim.Cluster(config=hsim.Config(**config) if config else None)
    c.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=1)})
    t = c.table("t")
    with t.batch() as b:
        for i in range(N):
            b.put(b"r%05d" % i, {b"f:q": b"v0"})
    return c, t


def _rows(scan):
    return [cells[0].row for cells in scan]


def test_writing_while_scanning_returns_each_row_once_in_order():
    c, t = _cluster()
    seen = []
    for cells in t.scan(caching=100):
        seen.append(cells[0].row)
        t.put(cells[0].row, {b"f:q": b"v1"})  # rewrite the row just read
        t.put(cells[0].row + b"x", {b"f:q": b"new"})  # a new row just after it
        assert cells[0].value == b"v0"  # the value as of the read point
    assert seen == [b"r%05d" % i for i in range(N)]
    assert len(_rows(t.scan())) == 2 * N  # a new scan sees everything


@pytest.mark.parametrize("event", ["flush", "major_compact", "split"])
def test_a_flush_compaction_or_split_during_a_scan(event):
    c, t = _cluster(compaction_min_files=2)
    scan = t.scan(caching=50)
    first = [next(scan)[0].row for _ in range(1_000)]
    t.delete_row(b"r02000")  # after the read point: not seen in this region's scan
    t.put(b"r02500", {b"f:q": b"changed"})
    if event == "flush":
        c.admin.flush("t")
    elif event == "major_compact":
        c.admin.flush("t")
        c.admin.major_compact("t")
    else:
        c.admin.split("t", b"r01500")
        assert len(c.admin.regions("t")) == 2
    rest = [cells for cells in scan]
    rows = first + [cells[0].row for cells in rest]
    assert rows == sorted(set(rows)), "each row once, in order"
    values = {cells[0].row: cells[0].value for cells in rest}
    if event == "split":
        # the scan goes on in the daughter after the last row returned, at a new read point
        assert len(rows) == N - 1 and b"r02000" not in rows
        assert values[b"r02500"] == b"changed"
    else:
        assert len(rows) == N and values[b"r02000"] == b"v0"
        assert values[b"r02500"] == b"v0"


def test_flush_keeps_versions_an_open_scanner_still_needs():
    c = hsim.Cluster()
    c.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=1)})
    t = c.table("t")
    for i in range(20):
        t.put(b"r%02d" % i, {b"f:q": b"old"})
    scan = t.scan(caching=5)
    assert next(scan)[0].value == b"old"
    for i in range(20):
        t.put(b"r%02d" % i, {b"f:q": b"new"})  # VERSIONS 1: "old" is beyond it now
        t.delete_row(b"r%02d" % i) if i % 2 else None
    c.admin.flush("t")  # an open scanner's versions survive the flush ...
    assert [cells[0].value for cells in scan] == [b"old"] * 19
    c.admin.flush("t")
    c.admin.major_compact("t")  # ... and go once it has closed
    assert [cells[0].value for cells in t.scan()] == [b"new"] * 10
    assert t.get(b"r00", max_versions=5, raw=True)[-1].value == b"new"


def test_compacted_files_stay_readable_for_an_open_scanner():
    c, t = _cluster(compaction_min_files=2)
    c.admin.flush("t")
    scan = t.scan(caching=10)
    next(scan)
    for i in range(N):
        t.delete_row(b"r%05d" % i)
    c.admin.flush("t")
    c.admin.major_compact("t")  # every cell and marker gone from the store
    assert t.count() == 0
    assert len(list(scan)) == N - 1  # the scanner reads the files it opened on


def test_reversed_scan_while_writing_and_splitting():
    c, t = _cluster()
    scan = t.scan(reversed=True, caching=100)
    first = [next(scan)[0].row for _ in range(500)]
    c.admin.split("t", b"r01000")
    for i in range(0, N, 3):
        t.put(b"r%05d" % i, {b"f:q": b"v1"})
    rest = [cells[0].row for cells in scan]
    assert first + rest == [b"r%05d" % i for i in range(N - 1, -1, -1)]


def test_reversed_scan_reads_the_split_row_of_a_reference_file():
    c = hsim.Cluster(config=hsim.Config(compaction_min_files=30, compaction_max_files=3))
    c.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=10)})
    t = c.table("t")
    for i in range(8):
        for r in (b"r1", b"r5", b"r9"):
            t.put(r, {b"f:q": b"v%d" % i})
        c.admin.flush("t")
    c.admin.split("t", b"r5")
    forward = {cells[0].row: len(cells) for cells in t.scan(max_versions=10)}
    backward = {cells[0].row: len(cells) for cells in t.scan(max_versions=10, reversed=True)}
    assert forward == backward == {b"r1": 8, b"r5": 8, b"r9": 8}
    assert len(t.get(b"r5", max_versions=10)) == 8


def test_an_abandoned_scanner_leaves_the_region():
    c, t = _cluster()
    region = c.master.tables["t"].locator.regions[0]
    scan = t.scan(caching=10)
    next(scan)
    assert len(region.scanners) == 1
    scan.close()
    assert len(region.scanners) == 0
    list(t.scan())
    assert len(region.scanners) == 0


def test_scan_while_writing_in_process_happybase():
    hsim.happybase.reset()
    try:
        conn = hsim.happybase.Connection("scan-while-writing")
        conn.create_table("t", {"f": {}})
        table = conn.table("t")
        with table.batch() as b:
            for i in range(N):
                b.put(b"r%05d" % i, {b"f:q": b"v0"})
        seen = []
        for row, data in table.scan(batch_size=100):
            seen.append(row)
            assert data == {b"f:q": b"v0"}
            table.put(row + b"x", {b"f:q": b"new"})
        assert seen == [b"r%05d" % i for i in range(N)]
    finally:
        hsim.happybase.reset()


def test_scan_while_writing_over_a_socket():
    c, _ = _cluster()
    server = ThriftServer(c, port=0).start()
    try:
        reader = happybase.Connection("127.0.0.1", server.port)
        writer = happybase.Connection("127.0.0.1", server.port)
        seen = []
        for row, _data in reader.table("t").scan(batch_size=200):
            seen.append(row)
            writer.table("t").put(row + b"x", {b"f:q": b"new"})
        assert seen == [b"r%05d" % i for i in range(N)]
        reader.close()
        writer.close()
    finally:
        server.stop()
