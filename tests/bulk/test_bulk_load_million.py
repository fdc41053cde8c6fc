"""A million cells by bulk load into a pre-split table: every cell reads back, and the WAL
holds only the load's BULK_LOAD markers, one per region (HRegion.bulkLoadHFiles).
(Its time against the put path's: benchmarks/bench_bulk_load.py, BENCHMARKS.md
"Bulk load against the put path".) A small version runs in the fast tier."""

from __future__ import annotations

import pytest

import hsim
from hsim import bulk
from hsim.regions.wal_codec import decode_entries, encode_entry
from hsim.regions.wal_markers import is_meta


def _load_and_check(tmp_path, n: int) -> None:
    c = hsim.Cluster(3, clock=hsim.ManualClock(1))
    keys = [b"%08x" % (i << 28) for i in range(1, 16)]  # 16 regions, as HexStringSplit
    c.admin.create_table("t", {"f": {}}, split_keys=keys)
    rows = [b"%08x" % (i * 2654435761 % (1 << 32)) for i in range(n)]
    cells = [(r, b"f", b"q", 1, r) for r in rows]
    wal = sum(s.wal.bytes_written for s in c.master.servers)
    paths = bulk.write_hfiles(c.table("t"), cells, tmp_path)
    assert len(paths) == 16
    assert c.admin.bulk_load("t", tmp_path) == 16
    entries = [e for s in c.master.servers for f in s.wal.files for e in decode_entries(f.buf, 4)]
    assert len(entries) == 16 and all(is_meta(cell) for e in entries for cell in e[3])
    assert sum(s.wal.bytes_written for s in c.master.servers) == \
        wal + sum(len(encode_entry(*e)) for e in entries)
    assert wal == 0
    got = 0
    for want, row in zip(sorted(rows), c.table("t").scan()):
        assert row[0].row == want and row[0].value == want
        got += 1
    assert got == n
    for r in c.admin.regions("t"):
        (sf,) = r.store_files["f"]
        assert "_SeqId_" in sf.name and r.memstore_bytes == 0


def test_a_bulk_load_of_ten_thousand_cells(tmp_path):
    _load_and_check(tmp_path, 10_000)


@pytest.mark.slow
def test_a_bulk_load_of_a_million_cells(tmp_path):
    _load_and_check(tmp_path, 1_000_000)
