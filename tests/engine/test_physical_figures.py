"""The physics the HBase book describes, measured on small generated files.

Block size against index size, key length against index and file size, family and qualifier
names against file size (and index size only where index keys carry them), compression against
data blocks and index.
"""

from __future__ import annotations

from hfile_helpers import make_cells, roundtrip

from hsim.config import Config
from hsim.engine.block_index import key_bytes
from hsim.schema import ColumnFamily

ROWS = 4000


def _mean_leaf_key_bytes(r) -> float:
    keys = [key_bytes(e[3]) for e in r.index_entries() if e[0] == r.index_levels]
    return sum(map(len, keys)) / len(keys)


def test_doubling_blocksize_roughly_halves_the_index():
    cells = make_cells(ROWS, value=b"v" * 60)
    sizes = {}
    for bs in (4096, 8192, 16384):
        r = roundtrip(cells, ColumnFamily(block_size=bs))
        sizes[bs] = (r.index_size, r.data_block_count)
    for small, big in ((4096, 8192), (8192, 16384)):
        assert 0.4 <= sizes[big][0] / sizes[small][0] <= 0.6, sizes
        assert 0.45 <= sizes[big][1] / sizes[small][1] <= 0.55, sizes


def test_longer_row_keys_grow_the_index_and_the_file():
    short = roundtrip(make_cells(ROWS, row_fmt=b"u%07d", value=b"v" * 40),
                      ColumnFamily(block_size=4096))
    long_ = roundtrip(make_cells(ROWS, row_fmt=b"user-account-identifier-%07d", value=b"v" * 40),
                      ColumnFamily(block_size=4096))
    assert long_.size > short.size
    assert long_.index_size > short.index_size
    # each index key carries the long shared prefix
    assert _mean_leaf_key_bytes(long_) - _mean_leaf_key_bytes(short) >= 20


def test_long_family_and_qualifier_grow_the_file_but_not_midpoint_index_keys():
    fam = ColumnFamily(block_size=4096)
    short = roundtrip(make_cells(ROWS, family=b"f", qual_fmt=b"q%d"), fam)
    long_ = roundtrip(make_cells(ROWS, family=b"personal_details", qual_fmt=b"first_name_%d"),
                      fam)
    assert long_.size > short.size * 1.3
    assert long_.keyvalue_bytes - short.keyvalue_bytes == ROWS * (15 + 10)
    # getMidpoint keys between rows are first-on-row keys: no family, no qualifier
    for r in (short, long_):
        assert all(k[1] == b"" and k[2] == b"" for _, _, _, k in r.index_entries()[1:])
    assert abs(_mean_leaf_key_bytes(long_) - _mean_leaf_key_bytes(short)) < 2
    # ... so the index only grows because there are more blocks
    per_block = [r.index_size / r.data_block_count for r in (short, long_)]
    assert per_block[1] < per_block[0] * 1.1


def test_full_first_keys_carry_family_and_qualifier_into_the_index():
    fam = ColumnFamily(block_size=4096)
    short = roundtrip(make_cells(ROWS, family=b"f", qual_fmt=b"q%d"), fam, full_first_keys=True)
    long_ = roundtrip(make_cells(ROWS, family=b"personal_details", qual_fmt=b"first_name_%d"),
                      fam, full_first_keys=True)
    # "personal_details" vs "f", "first_name_0" vs "q0"
    assert _mean_leaf_key_bytes(long_) - _mean_leaf_key_bytes(short) == 15 + 10
    midpoint = roundtrip(make_cells(ROWS, family=b"f", qual_fmt=b"q%d"), fam)
    assert _mean_leaf_key_bytes(short) > _mean_leaf_key_bytes(midpoint)
    assert short.index_size > midpoint.index_size


def test_wide_rows_put_family_and_qualifier_into_midpoint_keys():
    # one row spans many blocks: boundaries fall inside a row, between qualifiers
    fam = ColumnFamily(block_size=2048)
    short = roundtrip(make_cells(20, cols=300, family=b"f", qual_fmt=b"c%05d"), fam)
    long_ = roundtrip(make_cells(20, cols=300, family=b"personal_details",
                                 qual_fmt=b"attribute_name_%05d"), fam)
    assert _mean_leaf_key_bytes(long_) - _mean_leaf_key_bytes(short) > 15


def test_compression_shrinks_data_blocks_but_not_the_index():
    cells = make_cells(ROWS, value=b"status=active;plan=basic;region=eu-west;" * 2)
    figures = {}
    for codec in ("NONE", "SNAPPY", "LZ4", "GZ"):
        r = roundtrip(cells, ColumnFamily(block_size=8192, compression=codec), Config())
        figures[codec] = r
    none = figures["NONE"]
    for codec in ("SNAPPY", "LZ4", "GZ"):
        r = figures[codec]
        assert r.data_size < none.data_size / 2
        assert r.uncompressed_data_size == none.uncompressed_data_size
        assert r.index_size == none.index_size  # same blocks, same keys: HBase's index size
        assert r.data_block_count == none.data_block_count
        assert r.bloom_size == none.bloom_size
