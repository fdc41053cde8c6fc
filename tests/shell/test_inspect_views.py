"""The views inside the engine (hsim.inspect): what they report after real reads and writes."""

import pytest

import hsim
from hsim.errors import InvalidArgumentError, NoSuchColumnFamilyError, UnknownRegionError
from hsim.inspect import explain_get, explain_scan, find_region, hfile, regions, store
from hsim.inspect.explain import (COLUMN, DELETED, EXPIRED, FILTERED, MARKER, TIME_RANGE,
                                  VERSIONS)

T0 = 1767225600000


@pytest.fixture
def cluster():
    # compactions wait for 5 files, so three flushes leave three files to look at
    return hsim.Cluster(region_servers=2, clock=hsim.ManualClock(T0),
                        config=hsim.Config(compaction_min_files=5))


def three_files(cluster, bloom="ROW"):
    """Three flushed files, each spanning a..z-ish so key ranges never rule one out."""
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily(bloom_filter=bloom)})
    t = cluster.table("t")
    for i, rows in enumerate((b"amz", b"bny", b"cox")):
        for r in rows:
            t.put(bytes([r]), {b"f:q": b"v%d" % i}, timestamp=1000 * (i + 1))
        cluster.admin.flush("t")
    return t


def test_regions_view(cluster):
    cluster.admin.create_table("t", ["f"], split_keys=[b"m"])
    cluster.table("t").put(b"a", {b"f:q": b"v"})
    v = regions(cluster, "t")
    assert [(r.start_key, r.end_key) for r in v.regions] == [(b"", b"m"), (b"m", b"")]
    assert [r.write_requests for r in v.regions] == [1, 0]
    assert v.regions[0].memstore_heap_bytes > 0 and v.regions[1].memstore_heap_bytes == 0
    assert v.regions[0].server != v.regions[1].server
    text = str(v)
    assert text.startswith("Table t: 2 region(s) on 2 server(s)\n")
    assert "(first)" in text and "(last)" in text
    assert "<table>" in v._repr_html_()
    assert find_region(cluster, "t", 1) is find_region(cluster, "t", v.regions[1].encoded_name)
    assert find_region(cluster, "t", v.regions[0].encoded_name[:6]).start_key == b""
    with pytest.raises(UnknownRegionError):
        find_region(cluster, "t", "zzzz")
    with pytest.raises(InvalidArgumentError):
        find_region(cluster, "t", 5)


def test_store_view_before_and_after_flush(cluster):
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=3)})
    t = cluster.table("t")
    t.put(b"r1", {b"f:q": b"v1"}, timestamp=5)
    t.put(b"r1", {b"f:q": b"v2"}, timestamp=7)
    v = store(cluster, "t", 0, "f", timestamps="epoch")
    assert [c.value for c in v.memstore_cells] == [b"v2", b"v1"]
    assert v.files == []
    assert "MemStore: 2 cell(s)" in str(v) and "r1/f:q/7/Put/vlen=2/seqid=2  V: v2" in str(v)
    cluster.admin.flush("t")
    v = store(cluster, "t", 0, "f", timestamps="epoch")
    assert v.memstore_cells == []
    (f,) = v.files
    assert (f.entries, f.min_timestamp, f.max_timestamp, f.max_seq_id) == (2, 5, 7, 2)
    assert (f.first_row, f.last_row, f.bloom_type, f.is_major) == (b"r1", b"r1", "ROW", False)
    assert "5..7" in str(v) and v.counters["flushes"] == 1
    assert "<table>" in v._repr_html_()
    with pytest.raises(NoSuchColumnFamilyError):
        store(cluster, "t", 0, "g")


def test_views_label_their_metrics_from_the_schema(cluster, monkeypatch):
    """The store and regions views name and unit each counter from hsim.metrics' schema: a
    changed schema entry reaches the view."""
    from hsim import metrics

    cluster.admin.create_table("t", ["f"])
    cluster.table("t").put(b"r", {b"f:q": b"v"})
    cluster.admin.flush("t")
    v = store(cluster, "t", 0, "f")
    assert set(v.counters) <= set(metrics.METRICS)
    assert "flushes 1, minor compactions 0" in str(v)
    assert f"bytes flushed {v.counters['bytes_flushed']}," in str(v)
    monkeypatch.setitem(metrics.METRICS, "bytes_flushed",
                        metrics.METRICS["bytes_flushed"]._replace(name="flushed", unit="bytes"))
    monkeypatch.setitem(metrics.METRICS, "flushes",
                        metrics.METRICS["flushes"]._replace(unit="flushes"))
    assert f"flushed {v.counters['bytes_flushed']} bytes," in str(v)
    assert "flushed " in v._repr_html_() and "flushes 1," in str(v)
    monkeypatch.setitem(metrics.METRICS, "read_requests",
                        metrics.METRICS["read_requests"]._replace(name="rows_read"))
    header = str(regions(cluster, "t")).split("\n")[1]
    assert "ROWS READ" in header and "WRITE REQUESTS" in header and "STORE FILE BYTES" in header


def test_hfile_view(cluster):
    three_files(cluster)
    v = hfile(cluster, "t", 0, "f", 1, cells=True)
    assert v.index == 1 and not v.is_reference
    assert [c.row for c in v.description.cells] == [b"b", b"n", b"y"]
    text = str(v)
    assert text.startswith(f"Store file #1 of t/{v.region}/f\nreader=")
    assert "Block Index:" in text and "K: b/f:q/2000/Put/vlen=2/seqid=4 V: v1" in text
    assert hfile(cluster, "t", 0, "f", 0).description.cells is None
    with pytest.raises(InvalidArgumentError):
        hfile(cluster, "t", 0, "f", 3)


def decisions(ex):
    return [(s.source.split()[0], s.decision) for s in ex.sources]


def test_explain_get_skips_files_by_bloom_and_counts_blocks(cluster):
    three_files(cluster)
    ex = explain_get(cluster, "t", b"n")
    bloom = "skipped: bloom filter (row not in file)"
    assert decisions(ex) == [("memstore", "empty"), ("#0", bloom), ("#1", "read"), ("#2", bloom)]
    assert ex.io.files_skipped_bloom == 2 and ex.io.bloom_checks == 3
    assert ex.io.bloom_negatives == 2
    read = ex.sources[2]
    assert read.io.blocks_read >= 1 and read.io.cache_hits == 0
    assert [c.value for c in ex.result[0]] == [b"v1"]
    assert (ex.cells_seen, ex.cells_kept, ex.rows_returned) == (1, 1, 1)
    again = explain_get(cluster, "t", b"n")  # the blocks are in the block cache now
    assert again.sources[2].io.blocks_read == 0 and again.sources[2].io.cache_hits >= 1
    assert "BLOCKS READ  CACHE HITS  BYTES READ  BLOOM" in str(again)
    assert again.io.blocks_read == 0
    text = str(again)
    assert text.startswith("EXPLAIN get 't', 'n'\nRegion t,,")
    assert "I/O: 0 block(s) read from disk (0 bytes)" in text


def test_explain_get_without_blooms_reads_every_file(cluster):
    three_files(cluster, bloom="NONE")
    ex = explain_get(cluster, "t", b"n")
    assert [d for _, d in decisions(ex)[1:]] == ["read", "read", "read"]
    assert ex.io.bloom_checks == 0 and ex.io.blocks_read == 3


def test_explain_get_skips_files_by_time_range_and_key_range(cluster):
    three_files(cluster)
    ex = explain_get(cluster, "t", b"n", time_range=(2000, 3000))
    assert [d for _, d in decisions(ex)[1:]] == [
        "skipped: time range (cells 1970-01-01T00:00:01..1970-01-01T00:00:01)", "read",
        "skipped: time range (cells 1970-01-01T00:00:03..1970-01-01T00:00:03)"]
    assert ex.io.files_skipped_time_range == 2
    cluster.table("t").put(b"zz", {b"f:q": b"late"})
    cluster.admin.flush("t")
    ex = explain_get(cluster, "t", b"zz")
    assert decisions(ex)[1:4] == [("#0", "skipped: key range (rows a..z)"),
                                  ("#1", "skipped: key range (rows b..y)"),
                                  ("#2", "skipped: key range (rows c..x)")]


def test_explain_scan_visits_regions_and_skips_files_by_key_range(cluster):
    cluster.admin.create_table("t", ["f"], split_keys=[b"m"])
    t = cluster.table("t")
    for batch in ((b"a", b"b"), (b"c", b"d"), (b"n", b"o")):
        for r in batch:
            t.put(r, {b"f:q": b"v"})
        cluster.admin.flush("t")
    ex = explain_scan(cluster, "t", start_row=b"c", stop_row=b"e")
    assert len(ex.regions) == 1  # the scan never reaches region [m, )
    assert decisions(ex) == [("memstore", "empty"), ("#0", "skipped: key range (rows a..b)"),
                             ("#1", "read")]
    assert [cells[0].row for cells in ex.result] == [b"c", b"d"]
    assert ex.rows_returned == 2 and ex.io.files_skipped_key_range == 1
    full = explain_scan(cluster, "t", command="scan 't'")
    assert len(full.regions) == 2 and full.rows_returned == 6
    assert str(full).startswith("EXPLAIN scan 't'\n")
    assert "<table>" in full._repr_html_()


def test_explain_tells_why_the_matcher_dropped_cells(cluster):
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=2, ttl=3600)})
    t = cluster.table("t")
    for ts in (1, 2, 3):
        t.put(b"r", {b"f:v": b"x"}, timestamp=T0 + ts)  # 3 versions, VERSIONS 2
    t.put(b"r", {b"f:old": b"x"}, timestamp=T0 - 7_200_000)  # past the 1 h TTL
    t.put(b"r", {b"f:gone": b"x"}, timestamp=T0)
    t.delete_columns(b"r", b"f:gone")
    ex = explain_get(cluster, "t", b"r", max_versions=5)
    assert ex.dropped == {MARKER: 1, EXPIRED: 1, DELETED: 1, VERSIONS: 1}
    assert ex.cells_kept == 2 and ex.cells_seen == 6
    t.put(b"s", {b"f:v": b"x"}, timestamp=T0 + 1)
    t.put(b"s", {b"f:v": b"y"}, timestamp=T0 + 3)
    t.put(b"s", {b"f:w": b"z"}, timestamp=T0 + 1)
    ex = explain_get(cluster, "t", b"s", columns=[b"f:v"], time_range=(0, T0 + 2))
    assert ex.dropped == {TIME_RANGE: 1, COLUMN: 1}
    ex = explain_get(cluster, "t", b"r", filter="ValueFilter(=, 'binary:nope')")
    assert ex.dropped[FILTERED] == ex.cells_kept and ex.cells_returned == 0
    assert "Matcher: saw" in str(ex) and "(delete markers (never returned): 1" in str(ex)


def test_the_matchers_reasons_cover_every_cell_it_drops():
    """The reasons explain shows are tallied by the read's own matcher (UserMatcher.match with
    `why`): KEEP_DELETED_CELLS, a point-in-time read, a raw read."""
    from collections import Counter

    from hsim.cell import Cell, CellType
    from hsim.engine.query_matcher import ScanQuery, UserMatcher

    put = Cell(b"r", b"f", b"q", 10, CellType.PUT, b"v")
    marker = Cell(b"r", b"f", b"q", 20, CellType.DELETE_COLUMN)
    kdc = hsim.ColumnFamily(keep_deleted_cells=True)

    def why(family, query, raw=False):
        q = ScanQuery(time_range=query, raw=raw, max_versions=3 if raw else 1)
        reasons = Counter()
        kept = UserMatcher(family, q, 100).match([marker, put], reasons)
        assert kept == UserMatcher(family, q, 100).match([marker, put])
        assert len(kept) + sum(reasons.values()) == 2
        return reasons

    # a point-in-time read before the marker: KEEP_DELETED_CELLS lets the put show
    assert why(kdc, (0, 15)) == {MARKER: 1}
    assert why(hsim.ColumnFamily(), (0, 15)) == {MARKER: 1, DELETED: 1}
    assert why(hsim.ColumnFamily(), (15, 30), raw=True) == {TIME_RANGE: 1}



def test_hfile_view_store_view_and_store_file_page_show_the_encoding(cluster):
    from hsim.ui.pages import store_file
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily(data_block_encoding="FAST_DIFF")})
    t = cluster.table("t")
    for r in (b"a", b"b", b"c"):
        t.put(r, {b"f:q": b"v"})
    cluster.admin.flush("t")
    v = hfile(cluster, "t", 0, "f", 0, cells=True)
    assert v.description.data_block_encoding == "FAST_DIFF"
    assert "    DATA_BLOCK_ENCODING = FAST_DIFF" in str(v)
    assert "blockType=DATABLKE" in str(v)
    assert [c.row for c in v.description.cells] == [b"a", b"b", b"c"]
    assert "DATA_BLOCK_ENCODING FAST_DIFF" in str(store(cluster, "t", 0, "f"))
    name = find_region(cluster, "t", 0).stores[b"f"].files[0].name
    page = store_file(cluster, name)["view_html"]
    assert "<td>data block encoding</td><td>FAST_DIFF</td>" in page
