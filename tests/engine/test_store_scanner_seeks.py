"""Issue 34's figures: reads that stop and seek where HBase's StoreScanner does, measured as
blocks read from a BLOCKCACHE => false family with 4 KiB blocks (cluster.metrics()), with the
cells returned checked against what reading everything returns."""

import hsim
from hsim.filters import ColumnCountGetFilter, ColumnPaginationFilter, FuzzyRowFilter


def _cluster(**family):
    c = hsim.Cluster(clock=hsim.ManualClock(1000))
    opts = dict(block_size=4096, block_cache=False, bloom_filter="ROW")
    opts.update(family)
    c.admin.create_table("t", {"f": hsim.ColumnFamily(**opts)})
    return c, c.table("t")


def _blocks(c) -> int:
    return sum(s.blocks_read for s in c.metrics().servers)


def _measure(c, read):
    before = _blocks(c)
    got = read()
    return got, _blocks(c) - before


def _wide_row(columns=2000):
    c, t = _cluster()
    t.put(b"wide", {b"f:q%05d" % i: b"v" * 20 for i in range(columns)})
    t.put(b"next", {b"f:a": b"1"})
    c.admin.flush("t")
    return c, t


def _page_blocks(c, qualifiers) -> int:
    """The data blocks of the one store file holding the given qualifiers of row b'wide'."""
    (sf,) = c.master.tables["t"].locator.regions[0].stores[b"f"].files
    firsts = [b.first_cell for b in sf.reader.blocks()]
    spans = set()
    for q in qualifiers:
        key = (b"wide", b"f", q)
        spans.add(max(i for i, f in enumerate(firsts) if tuple(f[:3]) <= key))
    return len(spans)


def test_column_page_reads_the_blocks_the_page_spans():
    c, t = _wide_row()
    everything, whole = _measure(c, lambda: t.get(b"wide"))
    got, blocks = _measure(c, lambda: t.get(b"wide", filter=ColumnPaginationFilter(10, 0)))
    assert [x.qualifier for x in got] == [x.qualifier for x in everything[:10]]
    assert whole > 20
    assert blocks <= _page_blocks(c, [x.qualifier for x in got]) + 1


def test_column_count_reads_the_blocks_the_page_spans():
    c, t = _wide_row()
    everything = t.get(b"wide")
    got, blocks = _measure(c, lambda: t.get(b"wide", filter=ColumnCountGetFilter(5)))
    assert got == everything[:5]
    assert blocks <= _page_blocks(c, [x.qualifier for x in got]) + 1


def test_latest_of_500_versions_reads_at_most_3_blocks():
    c, t = _cluster(max_versions=1000)
    for i in range(500):
        c.clock.advance(1)
        t.put(b"row", {b"f:q": b"v%04d" % i + b"x" * 40})
    t.put(b"row2", {b"f:q": b"other"})
    c.admin.flush("t")
    all_versions, whole = _measure(c, lambda: t.get(b"row", max_versions=1000))
    got, blocks = _measure(c, lambda: t.get(b"row"))
    assert len(all_versions) == 500 and whole > 5
    assert got == all_versions[:1]
    assert got[0].value.startswith(b"v0499")
    assert blocks <= 3


def test_one_column_of_a_row_without_delete_family_reads_one_block():
    c, t = _wide_row()
    t.get(b"next")  # loads the bloom chunk (cached: index and bloom blocks always are)
    got, blocks = _measure(c, lambda: t.get(b"wide", columns=[b"f:q01500"]))
    assert [(x.qualifier, x.value) for x in got] == [(b"q01500", b"v" * 20)]
    assert blocks == 1


def test_a_delete_family_marker_in_the_file_still_masks():
    c, t = _wide_row()
    c.clock.advance(10)
    t.delete_family(b"wide", "f", timestamp=c.clock.now() - 5)  # masks every put of the row
    c.clock.advance(10)
    t.put(b"wide", {b"f:q01500": b"new"})
    c.admin.flush("t")
    got, blocks = _measure(c, lambda: t.get(b"wide", columns=[b"f:q01500", b"f:q00001"]))
    assert [(x.qualifier, x.value) for x in got] == [(b"q01500", b"new")]
    # the file with the marker reads the row's first block for it (then the column's)
    assert blocks >= 2


def test_reversed_fuzzy_scan_reads_at_most_one_and_a_half_times_the_forward_one():
    c, t = _cluster()
    for i in range(20000):
        t.put(b"%05d-%s" % (i, b"ab"[i % 2:i % 2 + 1]), {b"f:q": b"x" * 30})
    c.admin.flush("t")
    fuzzy = [(b"??000-a", b"\x01\x01\x00\x00\x00\x00\x00")]  # rows NN000-a
    forward, fwd_blocks = _measure(
        c, lambda: list(t.scan(filter=FuzzyRowFilter(fuzzy))))
    backward, rev_blocks = _measure(
        c, lambda: list(t.scan(filter=FuzzyRowFilter(fuzzy), reversed=True)))
    assert [r[0].row for r in backward] == [r[0].row for r in forward][::-1]
    assert [r[0].row for r in forward] == [b"%02d000-a" % i for i in range(20)]
    assert rev_blocks <= 1.5 * fwd_blocks
