"""A region scanner keeps its position between batches (issue 34): each `next` batch goes on
inside the block the last one ended in, with no block fetched or looked up in the cache again,
and returns what one batch would."""

import hsim


def _table(block_cache: bool):
    c = hsim.Cluster(clock=hsim.ManualClock(1000))
    c.admin.create_table("t", {"f": hsim.ColumnFamily(block_size=4096, block_cache=block_cache)})
    t = c.table("t")
    for i in range(3000):
        t.put(b"r%05d" % i, {b"f:q": b"x" * 30})
    c.admin.flush("t")
    return c, t


def _fetched(c) -> int:
    return sum(s.blocks_read + s.block_cache_hits for s in c.metrics().servers)


def test_batches_read_each_block_once():
    for block_cache in (False, True):
        c, t = _table(block_cache)
        before = _fetched(c)
        one = list(t.scan(caching=10_000))
        whole = _fetched(c) - before
        before = _fetched(c)
        small = list(t.scan(caching=7))  # batches that end inside blocks
        assert small == one and len(one) == 3000
        assert _fetched(c) - before == whole


def test_a_flush_between_batches_is_still_seen_at_the_read_point():
    c, t = _table(False)
    scanner = t.scan(caching=5)
    first = [next(scanner) for _ in range(5)]
    t.put(b"r00002x", {b"f:q": b"late"})  # after the read point: not seen
    c.admin.flush("t")
    rest = list(scanner)
    rows = [r[0].row for r in first + rest]
    assert rows == [b"r%05d" % i for i in range(3000)]
