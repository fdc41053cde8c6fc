"""Core: Cell order and sizes, Config defaults and scaling, clocks, MemStore accounting."""

import random

import pytest

import hsim
from hsim.cell import Cell, CellType
from hsim.config import GiB, MiB, Config
from hsim.engine.memstore import MemStore


def test_cell_order_is_hbase_order():
    c = [
        Cell(b"r", b"f", b"q", 5, CellType.PUT, b"v", seq_id=1),
        Cell(b"r", b"f", b"q", 5, CellType.PUT, b"v", seq_id=2),
        Cell(b"r", b"f", b"q", 5, CellType.DELETE),
        Cell(b"r", b"f", b"q", 5, CellType.DELETE_COLUMN),
        Cell(b"r", b"f", b"q", 9, CellType.PUT),
        Cell(b"r", b"f", b"", 1, CellType.DELETE_FAMILY),
        Cell(b"r", b"f", b"", 1, CellType.DELETE_FAMILY_VERSION),
        Cell(b"r", b"e", b"z", 1, CellType.PUT),
        Cell(b"\xff", b"a", b"a", 1, CellType.PUT),  # unsigned: 0xff sorts last
        Cell(b"q", b"f", b"q", 1, CellType.PUT),
    ]
    shuffled = c[:]
    random.Random(3).shuffle(shuffled)
    got = [(x.row, x.family, x.qualifier, x.timestamp, x.type, x.seq_id) for x in sorted(shuffled)]
    assert got == [
        (b"q", b"f", b"q", 1, CellType.PUT, 0),
        (b"r", b"e", b"z", 1, CellType.PUT, 0),
        (b"r", b"f", b"", 1, CellType.DELETE_FAMILY, 0),
        (b"r", b"f", b"", 1, CellType.DELETE_FAMILY_VERSION, 0),
        (b"r", b"f", b"q", 9, CellType.PUT, 0),
        (b"r", b"f", b"q", 5, CellType.DELETE_COLUMN, 0),
        (b"r", b"f", b"q", 5, CellType.DELETE, 0),
        (b"r", b"f", b"q", 5, CellType.PUT, 2),  # newer sequence id first
        (b"r", b"f", b"q", 5, CellType.PUT, 1),
        (b"\xff", b"a", b"a", 1, CellType.PUT, 0),
    ]


def test_keyvalue_sizes_and_layout():
    c = Cell(row=b"r", family=b"f", qualifier=b"q", timestamp=1, type=CellType.PUT, value=b"v")
    assert c.serialized_size == 24 == len(c.to_keyvalue())
    kv = c.to_keyvalue()
    assert kv[:8] == (15).to_bytes(4, "big") + (1).to_bytes(4, "big")  # keylen, vallen
    assert kv[8:10] == b"\x00\x01" and kv[10:11] == b"r" and kv[11:12] == b"\x01"
    assert kv[-10:-2] == (1).to_bytes(8, "big") and kv[-2] == 4 and kv[-1:] == b"v"
    # the reference's worked example: row 10, family 2, qualifier 4, value 100 -> 136 bytes
    big = Cell(b"r" * 10, b"ff", b"qqqq", 1, CellType.PUT, b"v" * 100)
    assert big.serialized_size == 136 and big.key_length == 28
    back, end = Cell.from_keyvalue(big.to_keyvalue())
    assert back.coordinates() == big.coordinates() and end == 136
    ttl = Cell(b"r", b"f", b"q", 1, CellType.PUT, b"v", ttl_ms=500)
    assert ttl.serialized_size == 24 + 13
    assert Cell.from_keyvalue(ttl.to_keyvalue(), has_tags=True)[0].ttl_ms == 500


def test_memstore_accounting_matches_hbase_worked_example():
    ms = MemStore()
    ms.add(Cell(b"r" * 10, b"ff", b"qqqq", 1, CellType.PUT, b"v" * 100, seq_id=1))
    assert ms.data_size == 136
    assert ms.heap_size == 208  # align(40 + align(32 + 136))
    ms.add(Cell(b"a", b"ff", b"q", 2, CellType.DELETE_COLUMN, seq_id=2))
    assert ms.min_ts == 0  # DeleteColumn reaches back to time 0 (TimeRangeTracker)
    assert [c.row for c in ms.all_cells()] == [b"a", b"r" * 10]


def test_config_defaults_and_scaling():
    c = Config()
    assert c.memstore_flush_size == 128 * MiB
    assert c.region_max_filesize == 10 * GiB
    assert (c.compaction_min_files, c.compaction_max_files, c.compaction_ratio) == (3, 10, 1.2)
    assert c.compaction_ratio_offpeak == 5.0 and c.blocking_store_files == 16
    assert c.major_compaction_period_ms == 7 * 24 * 3600 * 1000
    assert c.major_compaction_jitter == 0.5 and c.bloom_error_rate == 0.01
    assert c.index_chunk_size == 128 * 1024
    s = c.scaled(1 / 1024)
    assert s.memstore_flush_size == 128 * 1024
    assert s.region_max_filesize / s.memstore_flush_size == c.region_max_filesize / \
        c.memstore_flush_size
    assert s.compaction_min_size == s.memstore_flush_size
    assert s.compaction_max_size == c.compaction_max_size  # unbounded stays unbounded
    assert s.index_chunk_size == c.index_chunk_size  # on-disk format sizes are not scaled
    assert s.compaction_ratio == c.compaction_ratio
    with pytest.raises(hsim.InvalidArgumentError):
        Config(flush_policy="sometimes")


def test_clocks():
    clk = hsim.ManualClock(5)
    assert clk.now() == 5
    clk.advance(10)
    assert clk.now() == 15
    with pytest.raises(hsim.InvalidArgumentError, match="backwards"):
        clk.set(3)
    assert clk.now() == 15
    clk.set(3, backwards=True)
    assert clk.now() == 3
    now = hsim.SystemClock().now()
    assert now > 1_600_000_000_000


def test_errors_name_the_hbase_exception():
    e = hsim.TableNotFoundError("t")
    assert isinstance(e, hsim.HsimError)
    assert "org.apache.hadoop.hbase.TableNotFoundException" in str(e)
    assert isinstance(hsim.InvalidArgumentError("x"), ValueError)
