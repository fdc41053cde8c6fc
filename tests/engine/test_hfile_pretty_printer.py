"""The HFilePrettyPrinter-like view of a file."""

from __future__ import annotations

from hfile_helpers import make_cells, open_reader, write

from hsim.cell import Cell
from hsim.config import Config
from hsim.inspect.hfile_pretty_printer import describe, key_string
from hsim.schema import ColumnFamily


def _reader():
    cells = sorted(make_cells(300, cols=2, family=b"cf", value=b"val" * 8)
                   + [Cell.make(b"row000005", b"cf", b"", 9000, 14, b"", 9999)])
    fam = ColumnFamily(block_size=1024, compression="SNAPPY")
    data = write(cells, fam, Config(index_chunk_size=512), max_seq_id=9999, major=True,
                 create_time=777)
    return cells, open_reader(data, fam)


def test_describe_gathers_trailer_file_info_index_bloom_and_blocks():
    cells, r = _reader()
    d = describe(r)
    assert d.entries == len(cells) == d.trailer["entryCount"]
    assert d.trailer["numDataIndexLevels"] == r.index_levels == 2
    assert d.trailer["compressionCodec"] == "SNAPPY"
    assert d.file_info["MAX_SEQ_ID_KEY"] == "9999"
    assert d.file_info["MAJOR_COMPACTION_KEY"] == "true"
    assert d.file_info["TIMERANGE"] == "0....9000"
    assert d.file_info["DELETE_FAMILY_COUNT"] == "1"
    assert d.file_info["hfile.CREATE_TIME_TS"] == "777"
    assert d.file_info["BLOOM_FILTER_TYPE"] == "ROW"
    assert d.first_key == "row000000/cf:q000/1001/Put"
    assert d.mid_key == key_string(r.mid_key())
    assert d.bloom.key_count == 300 and d.bloom.hash_count == 7
    assert d.delete_family_bloom.key_count == 1
    leaves = [e for e in d.index if e.level == 2]
    assert len(leaves) == r.data_block_count
    assert [e.offset for e in d.index if e.level == 1] == \
        [b.offset for b in d.blocks if b.block_type == "IDXLEAF2"]
    assert d.cells is None
    assert sum(b.on_disk_size for b in d.blocks) + 4096 == r.size


def test_text_view_reads_like_the_pretty_printer():
    cells, r = _reader()
    text = str(describe(r, cells=True))
    for section in ("Trailer:", "Fileinfo:", "Mid-key:", "Bloom filter:",
                    "Delete Family Bloom filter:", "Block Index:", "Block Headers:", "Cells:"):
        assert section in text
    assert "K: row000005/cf:/9000/DeleteFamily/vlen=0/seqid=9999 V: " in text
    assert "BloomSize: " in text and "comparatorClassName=" in text
    assert text.count("\nK: ") == len(cells)


def test_html_view_has_tables():
    _, r = _reader()
    html = describe(r)._repr_html_()
    assert html.count("<table>") >= 6
    assert "Block index" in html and "Trailer" in html


def test_key_string_matches_keyvalue_key_to_string():
    assert key_string(Cell.make(b"r\x00", b"f", b"q", 5, 4, b"")) == "r\\x00/f:q/5/Put"
    assert key_string((b"r", b"", b"", -((1 << 63) - 1), -255)) == \
        "r/:/LATEST_TIMESTAMP/Maximum"
