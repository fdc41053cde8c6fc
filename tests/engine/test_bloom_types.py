"""Every codec x bloom type round-trips (ZSTD included, both hash types); the DeleteFamily bloom
and ROWPREFIX_FIXED_LENGTH skip files for Gets and scans as HBase's StoreFileReader does; files
written before hsim's blooms were HBase's still read; `hsim hfile` on files on disk."""

from __future__ import annotations

import random
import zlib

import pytest
from hfile_helpers import open_reader, write

import hsim
from hsim.cell import Cell
from hsim.config import Config
from hsim.engine import file_info as fi
from hsim.errors import DoNotRetryError
from hsim.metrics import IOCounters
from hsim.schema import PREFIX_LENGTH_KEY, ColumnFamily, bloom_prefix_length

CODECS = ["NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"]
BLOOMS = ["NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH"]


def family(bloom: str = "ROW", prefix: int = 4, **kw) -> ColumnFamily:
    if bloom == "ROWPREFIX_FIXED_LENGTH":
        return ColumnFamily(bloom_filter=bloom, configuration={PREFIX_LENGTH_KEY: str(prefix)},
                                **kw)
    return ColumnFamily(bloom_filter=bloom, **kw)


def random_cells(rnd: random.Random, n: int) -> list:
    """Puts (some with TTL tags, several versions, empty and large values) and deletes of every
    kind, sorted."""
    cells = set()
    seq = 1
    for _ in range(n):
        row = b"r%03d-%d" % (rnd.randrange(200), rnd.randrange(3))
        qual = rnd.choice((b"", b"a", b"b", b"q%d" % rnd.randrange(5)))
        code = rnd.choice((4, 4, 4, 4, 8, 12, 14, 10))
        value = b"" if code != 4 else rnd.choice((b"", b"v", rnd.randbytes(3000)))
        ttl = rnd.choice((None, None, 60_000)) if code == 4 else None
        extra = {} if ttl is None else {"ttl": ttl}
        cells.add(Cell.make(row, b"f", b"" if code in (14, 10) else qual,
                            rnd.randrange(1, 5) * 1000, code, value, seq, **extra))
        seq += 1
    return sorted(cells)


@pytest.mark.parametrize("hash_type", ["murmur", "murmur3"])
@pytest.mark.parametrize("bloom", BLOOMS)
@pytest.mark.parametrize("codec", CODECS)
def test_codec_and_bloom_round_trip(codec, bloom, hash_type):
    rnd = random.Random(zlib.crc32((codec + bloom + hash_type).encode()))
    cells = random_cells(rnd, 400)
    fam = family(bloom, compression=codec, block_size=1024)
    config = Config(hash_type=hash_type, bloom_block_size=256)
    data = write(cells, fam, config, include_tags=True)
    r = open_reader(data, fam, config)
    assert [tuple(c) for c in r.cells()] == [tuple(c) for c in cells]
    assert r.trailer.compression_codec == {"NONE": 2, "GZ": 1, "SNAPPY": 3, "LZ4": 4,
                                           "ZSTD": 6}[codec]
    io = IOCounters()
    assert all(r.passes_bloom(c[0], c[2], io) for c in cells)  # no false negatives
    deletes = {c[0] for c in cells if -c[4] in (14, 10)}
    assert all(r.passes_delete_family_bloom(row, io) for row in deletes)
    if bloom != "NONE":
        assert r.bloom.hash_type == {"murmur": 1, "murmur3": 2}[hash_type]
        assert r.bloom.meta_size == len(_bloom_meta_body(r))  # nothing after HBase's fields


def _bloom_meta_body(r) -> bytes:
    from hsim.engine import block as blk
    from hsim.engine.block import read_block
    [b] = [b for b in r.all_blocks() if b.block_type == blk.GENERAL_BLOOM_META.decode()]
    return read_block(r.data, b.offset, r._decompress)[1]


# --- ROWPREFIX_FIXED_LENGTH ----------------------------------------------------------------------


def test_prefix_length_comes_from_the_family_configuration_and_is_checked():
    assert bloom_prefix_length(family("ROWPREFIX_FIXED_LENGTH", 6)) == 6
    assert bloom_prefix_length(ColumnFamily()) is None
    with pytest.raises(DoNotRetryError, match="prefix_length not specified"):
        ColumnFamily(bloom_filter="ROWPREFIX_FIXED_LENGTH")
    for bad in ("0", "x", "1_0", "40000"):
        with pytest.raises(DoNotRetryError, match="Failed to get bloom filter param"):
            ColumnFamily(bloom_filter="ROWPREFIX_FIXED_LENGTH",
                             configuration={PREFIX_LENGTH_KEY: bad})


def test_row_prefix_bloom_keys_file_info_and_probes():
    rows = [b"user%03d-%04d" % (u, i) for u in range(0, 300, 3) for i in range(5)]
    cells = [Cell.make(r, b"f", b"q", 1000, 4, b"v", 1) for r in rows]
    fam = family("ROWPREFIX_FIXED_LENGTH", 7)
    r = open_reader(write(cells, fam), fam)
    assert r.bloom.key_count == 100  # one key per distinct 7-byte prefix
    assert r.file_info[fi.BLOOM_FILTER_TYPE] == b"ROWPREFIX_FIXED_LENGTH"
    assert fi.get_int(r.file_info, fi.BLOOM_FILTER_PARAM, 0) == 7
    assert r.file_info[fi.LAST_BLOOM_KEY] == b"user297"
    io = IOCounters()
    # a Get probes the row's prefix: present users pass, absent ones mostly do not
    assert all(r.passes_bloom(row, None, io) for row in rows)
    assert all(r.passes_bloom(b"user%03d-9999" % u, None, io) for u in range(0, 300, 3))
    absent = sum(not r.passes_bloom(b"user%03d-0000" % u, None, io)
                 for u in range(300) if u % 3)
    assert absent >= 190
    # a scan whose start and stop rows share the prefix probes it; a wider one passes
    assert r.passes_prefix_bloom(b"user003-", b"user003-~", io)
    assert not r.passes_prefix_bloom(b"user001-", b"user001-~", io)
    checks = io.bloom_checks
    assert r.passes_prefix_bloom(b"user001", b"user002", io)
    assert r.passes_prefix_bloom(b"user001-", None, io) and io.bloom_checks == checks


def _cluster_with_files(fam, batches):
    cluster = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(1_000_000),
                           config=Config(compaction_min_files=5))
    cluster.admin.create_table("t", {"f": fam})
    t = cluster.table("t")
    for i, rows in enumerate(batches):
        for row in rows:
            t.put(row, {b"f:q": b"v%d" % i})
        cluster.admin.flush("t")
    return cluster, t


def test_row_prefix_bloom_skips_files_for_gets_and_prefix_scans():
    fam = family("ROWPREFIX_FIXED_LENGTH", 4)
    # three files, each spanning aaaa..zzzz so key ranges rule none out
    batches = [[b"aaaa1", b"mmmm1", b"zzzz1"], [b"aaaa2", b"nnnn1", b"zzzz2"],
               [b"aaaa3", b"oooo1", b"zzzz3"]]
    cluster, t = _cluster_with_files(fam, batches)
    from hsim.inspect import find_region
    store = find_region(cluster, "t", 0).stores[b"f"]
    assert len(store.files) == 3
    io = IOCounters()
    assert store.get(b"nnnn1", _query(), cluster.clock.now(), io)
    assert io.files_skipped_bloom == 2
    io = IOCounters()
    rows = [row for row, _ in store.scan(b"nnnn", b"nnnn~", _query(), cluster.clock.now(), io)]
    assert rows == [b"nnnn1"] and io.files_skipped_bloom == 2
    io = IOCounters()  # start and stop share only "n": every file is read
    list(store.scan(b"nnnn", b"nz", _query(), cluster.clock.now(), io))
    assert io.files_skipped_bloom == 0
    assert [c.value for c in t.get(b"oooo1")] == [b"v2"]


def _query():
    from hsim.engine.query_matcher import ScanQuery
    return ScanQuery()


# --- the DeleteFamily bloom ----------------------------------------------------------------------


def test_delete_family_bloom_lets_a_column_get_skip_the_rows_first_block():
    """StoreFileScanner.requestSeek: an explicit-column Get seeks a file to the row's family
    markers only when the DeleteFamily bloom (written with MurmurHash) says the row may have
    one; otherwise it goes straight to the column."""
    rows = [b"row%04d" % i for i in range(300)]
    cells = sorted([Cell.make(r, b"f", b"q%02d" % j, 1000, 4, b"v" * 50, 1)
                    for r in rows for j in range(20)]
                   + [Cell.make(b"row0150", b"f", b"", 2000, 14, b"", 2)])
    fam = ColumnFamily(block_size=1024)
    r = open_reader(write(cells, fam), fam)
    meta = r.delete_family_bloom
    assert meta is not None and meta.key_count == 1 and meta.hash_type == 1
    io = IOCounters()
    assert r.may_delete_family(b"row0150", io)
    skipped = sum(not r.may_delete_family(row, io) for row in rows if row != b"row0150")
    assert skipped >= 290


# --- files written before ---------------------------------------------------------------------


def test_a_file_with_an_old_hsim_bloom_meta_reads_with_its_bloom_unused():
    """hsim's earlier bloom metas carried an error rate and per-chunk counts after the chunk
    index (and BLAKE2b bits): such a bloom is left unused, every probe passes, cells read."""
    from hsim.engine import block as blk
    from hsim.engine.block import HEADER_SIZE, read_header, write_block
    from hsim.engine.codecs import compressor

    cells = [Cell.make(b"row%03d" % i, b"f", b"q", 1000, 4, b"v", 1) for i in range(50)]
    data = bytearray(write(cells))
    r = open_reader(bytes(data))
    [meta_block] = [b for b in r.all_blocks() if b.block_type == "BLMFMET2"]
    body = _bloom_meta_body(r) + b"\x3f\x84\x7a\xe1\x47\xae\x14\x7b\x00\x00\x00\x32"
    _, size, _, _ = read_header(bytes(data), meta_block.offset)
    new, _ = write_block(blk.GENERAL_BLOOM_META, body, compressor("NONE"), -1, 16384)
    # the meta block is the last before the trailer: splice the longer one in
    old = bytes(data)
    spliced = old[: meta_block.offset] + new + old[meta_block.offset + size:]
    assert len(new) == size + 12 and HEADER_SIZE
    reader = open_reader(spliced)
    assert reader.bloom is None and reader.bloom_type == "ROW"
    io = IOCounters()
    assert reader.passes_bloom(b"absent", None, io) and io.bloom_checks == 0
    assert [tuple(c) for c in reader.cells()] == [tuple(c) for c in cells]


# --- hsim hfile ----------------------------------------------------------------------------------


def test_hsim_hfile_prints_meta_index_headers_cells_and_stats(tmp_path, capsys):
    from hsim.cli import main
    cells = [Cell.make(b"row%03d" % i, b"f", b"q", 1000, 4, b"v%d" % i, 1) for i in range(30)]
    path = tmp_path / "abc123"
    path.write_bytes(write(cells, ColumnFamily(compression="ZSTD")))
    assert main(["hfile", str(path), "-m", "-b", "-h", "-v", "-p", "-s", "-k", "-i"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Scanning -> {path}\nreader=abc123, compression=zstd")
    assert "comparatorClassName=org.apache.hadoop.hbase.KeyValue$KVComparator" in out
    assert "Hash type: murmur" in out and "Block Index:" in out and "Block Headers:" in out
    assert "K: row007/f:q/1000/Put/vlen=2/seqid=1 V: v7" in out
    assert "Scanned kv count -> 30" in out and "Key length: count=30" in out
    assert "WARNING" not in out
    assert main(["hfile", str(path), "-e", "-w", "row003"]) == 0
    assert capsys.readouterr().out == "K: row003/f:q/1000/Put/vlen=2/seqid=1\n"


def test_hsim_hfile_refuses_what_it_cannot_read_in_one_line(tmp_path, capsys):
    from hsim.cli import main
    junk = tmp_path / "junk"
    junk.write_bytes(b"not an hfile at all" * 300)
    assert main(["hfile", str(junk), "-m"]) == 1
    err = capsys.readouterr().err
    assert err == (f"hsim hfile: {junk}: not an HFile hsim can read "
                   "(not an HFile: no trailer magic)\n")
    assert main(["hfile", str(tmp_path / "missing"), "-m"]) == 1
    missing = tmp_path / "missing"
    assert capsys.readouterr().err == f"hsim hfile: {missing}: No such file or directory\n"


def test_hash_type_setting_is_murmur_or_murmur3():
    from hsim.errors import InvalidArgumentError
    assert Config().hash_type == "murmur"  # hbase.hash.type's default
    Config(hash_type="murmur3")
    with pytest.raises(InvalidArgumentError, match="unknown hash_type 'jenkins'"):
        Config(hash_type="jenkins")
