"""Compactor alone: the selected files in, one file (or one per date-tiered window) out, in
HBase order, with the inputs' newest sequence id, what the matcher dropped counted, and the
KeyValue bytes read (a reference's half counted cell by cell)."""

from hsim.cell import DELETE_COLUMN, NO_TTL, PUT, fields
from hsim.config import Config
from hsim.engine.compactor import Compactor
from hsim.engine.hfile import HFileReader, HFileWriter
from hsim.engine.store_file import StoreFile
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily

NOW = 10_000
FAMILY = ColumnFamily(max_versions=1)
CONFIG = Config()
_NEG_INF = -(1 << 63)


def cell(row, ts, seq, code=PUT, q=b"q", value=b"v"):
    return fields(row, b"f", q, ts, code, value, seq, NO_TTL)


def store_file(cells, name, max_seq=None) -> StoreFile:
    w = HFileWriter(FAMILY, CONFIG)
    w.append_all(sorted(cells))
    data = w.finish(max_seq or max(-c[5] for c in cells), False, 0)
    return StoreFile(HFileReader(data, name, FAMILY, CONFIG))


def read(data: bytes) -> list:
    r = HFileReader(data, "out", FAMILY, CONFIG)
    return [tuple(c) for c in r.scan(None, IOCounters())]


def test_files_merge_into_one_in_cell_order_keeping_the_newest_version():
    a = store_file([cell(b"a", 1, 1), cell(b"c", 1, 2)], "a")
    b = store_file([cell(b"b", 1, 3), cell(b"a", 2, 4, value=b"new")], "b")
    res = Compactor(FAMILY, CONFIG).compact([a, b], NOW, drop_deletes=False)
    assert read(res.data) == [cell(b"a", 2, 4, value=b"new"), cell(b"b", 1, 3),
                              cell(b"c", 1, 2)]
    assert (res.cells_read, res.cells_written) == (4, 3)
    assert res.dropped["versions"] == 1
    assert res.kv_bytes_read == a.reader.keyvalue_bytes + b.reader.keyvalue_bytes
    assert HFileReader(res.data, "out", FAMILY, CONFIG).max_seq_id == 4
    assert res.cells == [cell(b"a", 2, 4, value=b"new"), cell(b"b", 1, 3), cell(b"c", 1, 2)]
    assert res.outputs() == [res]


def test_markers_stay_unless_deletes_are_dropped():
    a = store_file([cell(b"a", 1, 1)], "a")
    b = store_file([cell(b"a", 5, 2, code=DELETE_COLUMN, value=b"")], "b")
    minor = Compactor(FAMILY, CONFIG).compact([a, b], NOW, drop_deletes=False)
    assert read(minor.data) == [cell(b"a", 5, 2, code=DELETE_COLUMN, value=b"")]
    assert minor.dropped["deleted"] == 1 and minor.dropped["markers"] == 0
    major = Compactor(FAMILY, CONFIG).compact([a, b], NOW, drop_deletes=True)
    assert read(major.data) == [] and major.cells_written == 0
    assert major.dropped["markers"] == 1
    assert HFileReader(major.data, "out", FAMILY, CONFIG).is_major
    assert major.outputs() == [major]  # an empty file all the same, as HBase commits it


def test_a_reference_is_read_for_its_half_only():
    whole = store_file([cell(b"a", 1, 1), cell(b"b", 1, 2), cell(b"c", 1, 3)], "p")
    top = StoreFile(whole.reader, lo=b"b", name="p.top")
    res = Compactor(FAMILY, CONFIG).compact([top], NOW, drop_deletes=True)
    assert read(res.data) == [cell(b"b", 1, 2), cell(b"c", 1, 3)]
    # KeyValue length: 8 + key (2 + row 1 + 1 + family 1 + qualifier 1 + 8 + 1) + value 1
    assert res.kv_bytes_read == 2 * 24 < whole.reader.keyvalue_bytes


def test_date_tiered_boundaries_give_one_file_per_window_oldest_first():
    cells = [cell(b"a", 50, 1), cell(b"b", 150, 2), cell(b"c", 160, 3), cell(b"d", 250, 4)]
    f = store_file(cells, "f")
    res = Compactor(FAMILY, CONFIG).compact([f], NOW, drop_deletes=True,
                                             boundaries=(_NEG_INF, 100, 200))
    assert res.data is None and len(res.windows) == 3 and res.outputs() == res.windows
    assert [read(w.data) for w in res.windows] == [
        [cell(b"a", 50, 1)], [cell(b"b", 150, 2), cell(b"c", 160, 3)], [cell(b"d", 250, 4)]]
    assert (res.cells_read, res.cells_written) == (4, 4)
    assert {HFileReader(w.data, "w", FAMILY, CONFIG).max_seq_id for w in res.windows} == {4}


def test_expired_cells_are_dropped_by_the_ttl():
    fam = ColumnFamily(ttl=1)  # seconds
    w = HFileWriter(fam, CONFIG)
    w.append_all([fields(b"a", b"f", b"q", NOW - 5000, PUT, b"v", 1, NO_TTL),
                  fields(b"b", b"f", b"q", NOW - 10, PUT, b"v", 2, NO_TTL)])
    sf = StoreFile(HFileReader(w.finish(2, False, 0), "t", fam, CONFIG))
    res = Compactor(fam, CONFIG).compact([sf], NOW, drop_deletes=True)
    assert [c[0] for c in res.cells] == [b"b"] and res.dropped["expired"] == 1
