"""explain shows the store scanner's seeks (issue 34): a seek per file and why."""

import hsim
from hsim.filters import ColumnPaginationFilter
from hsim.inspect.explain import explain_get


def _cluster():
    c = hsim.Cluster(clock=hsim.ManualClock(1000))
    c.admin.create_table("t", {"f": hsim.ColumnFamily(block_size=4096, block_cache=False,
                                                      max_versions=1000)})
    t = c.table("t")
    for i in range(500):
        c.clock.advance(1)
        t.put(b"row", {b"f:q": b"v%04d" % i + b"x" * 40, b"f:r": b"y" * 40})
    c.admin.flush("t")
    return c, t


def test_explain_shows_the_seek_past_a_column_whose_versions_are_in():
    c, t = _cluster()
    e = explain_get(c, "t", b"row")
    assert [x.value[:5] for x in e.result[0]] == [b"v0499", b"yyyyy"]
    assert e.seeks and all("matcher: column done" in s for s in e.seeks)
    assert "block(s) passed over unread" in e.seeks[0]
    assert "Seek: f #0" in str(e)
    assert e.io.blocks_read <= 4


def test_a_filter_seeks_past_a_column_then_ends_the_row():
    c, t = _cluster()
    whole = explain_get(c, "t", b"row", max_versions=1000)
    e = explain_get(c, "t", b"row", filter=ColumnPaginationFilter(1, 0))
    assert [x.value[:5] for x in e.result[0]] == [b"v0499"]
    # NEXT_COL after the first version: a seek past the column's other versions, then the
    # next column's block, where NEXT_ROW ends the read
    assert len(e.seeks) == 1 and "(filter: seek)" in e.seeks[0]
    assert e.io.blocks_read <= 2 < whole.io.blocks_read
