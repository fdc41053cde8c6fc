"""Compound bloom filters: HBase's sizing and folding, false-positive rates, reads and I/O."""

from __future__ import annotations

from hfile_helpers import make_cells, open_reader, roundtrip, write

from hsim.cell import Cell
from hsim.config import Config
from hsim.engine.block_cache import BlockCache
from hsim.engine.bloom import (
    actual_error_rate, chunk_params, error_rate_for, foldable_byte_size, folded,
)
from hsim.metrics import IOCounters
from hsim.schema import ColumnFamily


def test_chunk_sizing_matches_hbase_create_by_size():
    # io.storefile.bloom.block.size 128 KiB, error rate 0.01 (a Java float), max fold 7
    assert chunk_params(131072, error_rate_for("ROW", 0.01), 7) == (131072, 7, 109306)
    # ROWCOL runs each check at 1 - sqrt(1 - 0.01)
    assert abs(error_rate_for("ROWCOL", 0.01) - 0.0050126) < 1e-6
    assert chunk_params(131072, error_rate_for("ROWCOL", 0.01), 7) == (131072, 8, 95069)


def test_foldable_byte_size_rounds_up_to_a_multiple_of_2_pow_fold():
    assert foldable_byte_size(131072 * 8, 7) == 131072
    assert foldable_byte_size(1000 * 8 + 1, 7) == 1024
    assert foldable_byte_size(8, 0) == 1


def test_folding_halves_while_more_than_twice_the_keys_fit():
    assert folded(131072, 109306, 109306) == (131072, 109306)
    size, max_keys = folded(131072, 109306, 100)
    assert 100 < max_keys <= 200 and size == 131072 >> 10
    assert folded(131072, 109306, 1000) == (2048, 1707)


def test_reported_bloom_size_is_hbase_folded_chunk_plus_meta():
    r = roundtrip(make_cells(1000))
    assert r.bloom.byte_size == 2048 and r.bloom.num_chunks == 1
    assert r.bloom.key_count == 1000 and r.bloom.max_keys == 1707 and r.bloom.hash_count == 7
    assert r.bloom_size == 2048 + r.bloom.meta_size
    chunk_blocks = [b for b in r.all_blocks() if b.block_type == "BLMFBLK2"]
    assert [b.uncompressed_size for b in chunk_blocks] == [2048]


def _fp_rate(reader, probes) -> float:
    io = IOCounters()
    hits = sum(reader.passes_bloom(row, qual, io) for row, qual in probes)
    assert io.bloom_checks == len(probes)
    assert io.bloom_negatives == len(probes) - hits
    return hits / len(probes)


def test_row_bloom_false_positive_rate_is_near_the_configured_rate():
    cells = make_cells(5000, row_fmt=b"user%07d")
    r = roundtrip(cells)
    io = IOCounters()
    assert all(r.passes_bloom(c[0], None, io) for c in cells)  # no false negatives
    fp = _fp_rate(r, [(b"user%07d" % i, None) for i in range(5000, 45000)])
    # the chunk folds to 2^k times the keys' need: HBase's rate is its actualErrorRate
    want = actual_error_rate(5000, r.bloom.byte_size * 8, r.bloom.hash_count)
    assert r.bloom.byte_size == 8192 and want < 0.01
    assert want / 2 <= fp <= want * 2, (fp, want)


def test_rowcol_bloom_false_positive_rate():
    cells = make_cells(1000, cols=5)
    r = roundtrip(cells, ColumnFamily(bloom_filter="ROWCOL"))
    assert r.bloom.key_count == 5000
    io = IOCounters()
    assert all(r.passes_bloom(c[0], c[2], io) for c in cells)
    # absent columns of present rows: each check runs at 1 - sqrt(1 - 0.01) ~ 0.005
    fp = _fp_rate(r, [(b"row%06d" % i, b"q%03d" % c) for i in range(1000) for c in range(5, 45)])
    assert 0.0025 <= fp <= 0.01, fp
    # a ROWCOL bloom says nothing about a row without a column
    io = IOCounters()
    assert r.passes_bloom(b"absent", None, io) and io.bloom_checks == 0


def test_no_bloom_passes_everything_without_counting():
    r = roundtrip(make_cells(10), ColumnFamily(bloom_filter="NONE"))
    io = IOCounters()
    assert r.passes_bloom(b"absent", None, io) and io.bloom_checks == 0
    assert r.bloom is None and r.bloom_size == 0
    assert not any(b.block_type == "BLMFBLK2" for b in r.all_blocks())


def test_many_chunks_are_written_inline_and_all_answer():
    config = Config(bloom_block_size=512)  # 512-byte chunks: a few hundred keys each
    cells = make_cells(3000, value=b"v" * 10)
    r = roundtrip(cells, ColumnFamily(block_size=1024), config)
    meta = r.bloom
    assert meta.num_chunks > 5
    full, _, max_keys = chunk_params(512, error_rate_for("ROW", 0.01), 7)
    assert meta.key_count == 3000 and meta.sizes[0] > full  # full chunks are not folded
    chunk_blocks = [b for b in r.all_blocks() if b.block_type == "BLMFBLK2"]
    assert [b.offset for b in chunk_blocks] == meta.offsets
    assert [b.uncompressed_size for b in chunk_blocks][:-1] == [full] * (meta.num_chunks - 1)
    assert sum(b.uncompressed_size for b in chunk_blocks) == meta.byte_size
    io = IOCounters()
    assert all(r.passes_bloom(c[0], None, io) for c in cells)
    # absent rows between the present ones: each probes a full chunk, at about 1%
    probes = [(b"row%06d%d" % (i, j), None) for i in range(3000) for j in range(3)]
    assert 0.004 <= _fp_rate(r, probes) <= 0.02


def test_bloom_chunks_load_through_the_cache():
    cache = BlockCache(10 << 20)
    r = roundtrip(make_cells(100), None, None, cache)
    io = IOCounters()
    assert r.passes_bloom(b"row000001", None, io)
    assert (io.blocks_read, io.cache_misses) == (1, 1) and io.bytes_read > 0
    assert not r.passes_bloom(b"row000001-absent", None, io)
    assert (io.blocks_read, io.cache_hits, io.bloom_checks, io.bloom_negatives) == (1, 1, 2, 1)


def test_rows_before_the_first_chunk_key_are_negative():
    r = roundtrip(make_cells(100))
    io = IOCounters()
    assert not r.passes_bloom(b"a", None, io)
    assert io.blocks_read == 0 and io.bloom_negatives == 1


def test_delete_family_bloom():
    cells = sorted(make_cells(50) + [Cell.make(b"row000007", b"f", b"", 5000, 14, b"", 9999),
                                     Cell.make(b"row000009", b"f", b"", 5000, 10, b"", 9998)])
    r = roundtrip(cells)
    assert r.delete_family_count == 2
    assert r.delete_family_bloom is not None and r.delete_family_bloom.key_count == 2
    io = IOCounters()
    assert r.passes_delete_family_bloom(b"row000007", io)
    assert r.passes_delete_family_bloom(b"row000009", io)
    no_deletes = roundtrip(make_cells(50))
    assert no_deletes.delete_family_bloom is None
    assert not no_deletes.passes_delete_family_bloom(b"row000007", io)
    # StoreFileWriter writes no delete-family bloom next to a ROWCOL bloom
    rowcol = roundtrip(cells, ColumnFamily(bloom_filter="ROWCOL"))
    assert rowcol.delete_family_bloom is None and rowcol.delete_family_count == 2


def test_bloom_type_comes_from_the_file_not_the_family():
    data = write(make_cells(20), ColumnFamily(bloom_filter="ROW"))
    r = open_reader(data, ColumnFamily(bloom_filter="NONE"))
    io = IOCounters()
    assert not r.passes_bloom(b"absent-row", None, io) and io.bloom_checks == 1


# --- ROWCOL probes as StoreFileReader.checkGeneralBloomFilter makes them ----------------------


def test_rowcol_chunk_keys_and_last_bloom_key_have_an_empty_family():
    """PrivateCellUtil.createFirstOnRowCol(cell) drops the family: the chunk index keys and
    LAST_BLOOM_KEY of a ROWCOL bloom are row + qualifier keys with family length 0."""
    from hsim.engine.block_index import parse_key
    from hsim.engine.file_info import LAST_BLOOM_KEY

    cells = make_cells(300, cols=3)
    r = roundtrip(cells, ColumnFamily(bloom_filter="ROWCOL"),
                  Config().replace(bloom_block_size=64))
    assert r.bloom.num_chunks > 1
    assert all(k[1] == b"" for k in r.bloom.first_keys)
    assert r.bloom.first_keys[0][:3] == (cells[0][0], b"", cells[0][2])
    last = cells[-1]
    assert parse_key(r.file_info[LAST_BLOOM_KEY])[:3] == (last[0], b"", last[2])


def test_rowcol_probe_of_one_column_also_finds_the_rows_delete_family():
    """The (row, empty qualifier) probe finds a row's DeleteFamily marker even when the marker
    opens a bloom chunk (tiny chunks put a chunk boundary at many rows)."""
    rows = [b"row%04d" % i for i in range(200)]
    cells = sorted(Cell.make(row, b"f", q, 10, 14, b"", 1) if q == b"" else
                   Cell.make(row, b"f", q, 5, 4, b"v", 1)
                   for row in rows for q in (b"", b"a", b"b"))
    r = roundtrip(cells, ColumnFamily(bloom_filter="ROWCOL"),
                  Config().replace(bloom_block_size=64))
    assert r.bloom.num_chunks > 5
    io = IOCounters()
    # a column the file does not hold: found through the row's DeleteFamily key
    assert all(r.passes_bloom(row, b"zzz", io) for row in rows)
    assert io.bloom_checks == len(rows) and io.bloom_negatives == 0


def test_rowcol_probe_without_column_or_row_delete_is_negative_and_row_blooms_probe_once():
    cells = make_cells(100, cols=2)
    rowcol = roundtrip(cells, ColumnFamily(bloom_filter="ROWCOL"))
    io = IOCounters()
    negatives = sum(not rowcol.passes_bloom(b"row%06d" % i, b"absent", io) for i in range(100))
    assert negatives >= 95  # both probes at ~0.5% false positives each
    assert io.bloom_checks == 100 and io.bloom_negatives == negatives
    # a ROW bloom answers a one-column Get with the row alone: one probe, one chunk read
    row = roundtrip(cells, ColumnFamily(bloom_filter="ROW"), cache=BlockCache(1 << 20))
    io = IOCounters()
    assert not row.passes_bloom(b"row000050-absent", b"q000", io)
    assert io.bloom_checks == 1 and io.blocks_read + io.cache_hits == 1
