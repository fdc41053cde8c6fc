"""Gets that binary-search a block's cell offsets (block_seek) answer exactly as Gets that
decode the whole block, with the same blocks read, bytes and cache hits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine.block_cache import BlockCache
from hsim.engine.hfile import HFileReader, HFileWriter
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily


def _readers(cells, fam, tags, mvcc, cached):
    w = HFileWriter(fam, Config(index_chunk_size=200), include_tags=tags, include_mvcc=mvcc)
    w.append_all(cells)
    data = w.finish(max((c.seq_id for c in cells), default=0), False, 0)
    assert sum(len(o) for o in w.cell_offsets.values()) == len(cells)
    def make(offsets):
        return HFileReader(data, "f1", fam, Config(), BlockCache(1 << 30) if cached else None,
                           offsets)
    return make(w.cell_offsets), make(None)


def _counts(io):
    return io.blocks_read, io.bytes_read, io.cache_hits, io.cache_misses


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([b"a", b"b", b"b\x00", b"c", b"ca", b"\xff"]),
                          st.binary(max_size=2),
                          st.integers(0, 5), st.sampled_from([4, 8, 12, 14]),
                          st.binary(max_size=300), st.sampled_from([None, 5000])), max_size=200,
                min_size=10),
       st.booleans(), st.booleans(), st.booleans(), st.sampled_from([1024, 4096]))
def test_binary_search_get_equals_full_decode_get(items, tags, mvcc, cached, block_size):
    cells = sorted({Cell(r, b"cf", q, ts, t, v, seq_id=(i + 1) * 97 if mvcc else 0,
                         ttl_ms=ttl if tags else None)
                    for i, (r, q, ts, t, v, ttl) in enumerate(items)})
    fast, slow = _readers(cells, ColumnFamily(block_size=block_size), tags, mvcc, cached)
    rows = sorted({c[0] for c in cells} | {b"", b"\x00", b"\x01\x00", b"\xff\xff\xff\xff"})
    for _round in range(2):  # the second round reads through the cache when there is one
        fio, sio = IOCounters(), IOCounters()
        for row in rows:
            got = list(fast.seek_row(row, fio))
            assert got == list(slow.seek_row(row, sio)) == [c for c in cells if c[0] == row]
            assert all(type(c) is Cell for c in got)
        assert _counts(fio) == _counts(sio)
    # a scan after the Gets decodes the cached seekable blocks and still reads the same
    fio, sio = IOCounters(), IOCounters()
    assert list(fast.scan(None, fio)) == list(slow.scan(None, sio)) == cells
    assert _counts(fio) == _counts(sio)


def test_a_row_across_blocks_reads_the_next_block_as_a_full_decode_does():
    cells = sorted(Cell(b"r%d" % (i // 40), b"cf", b"q%03d" % i, 7, 4, b"v" * 100, seq_id=i + 1)
                   for i in range(120))
    fast, slow = _readers(cells, ColumnFamily(block_size=1024), False, True, True)
    assert fast.data_block_count > 10
    for row in (b"r0", b"r1", b"r2", b"r3"):
        fio, sio = IOCounters(), IOCounters()
        assert list(fast.seek_row(row, fio)) == list(slow.seek_row(row, sio)) == \
            [c for c in cells if c[0] == row]
        assert _counts(fio) == _counts(sio)


def test_a_block_the_cache_could_not_keep_is_decoded_without_error():
    """A cache too small for the block evicts it on the put that cached it; the scan that
    decodes it then finds nothing to swap (ycsb's tiny per-server caches hit this)."""
    from hsim.cell import Cell, CellType

    cells = [Cell(b"r%04d" % i, b"f", b"q", 1, CellType.PUT, b"v" * 100) for i in range(400)]
    fam = ColumnFamily(block_size=4096)
    w = HFileWriter(fam, Config(), include_tags=False, include_mvcc=False)
    w.append_all(cells)
    data = w.finish(1, False, 0)
    r = HFileReader(data, "f1", fam, Config(), BlockCache(1000), w.cell_offsets)
    io = IOCounters()
    assert list(r.seek_row(b"r0003", io))  # fetched as bytes, evicted at once
    assert len(list(r.scan(None, io))) == 400
