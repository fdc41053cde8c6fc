"""The list-wide shortcuts of flush and compaction give exactly what the per-row, per-cell
paths give: the compaction merge against heapq.merge, `CompactionMatcher.match_all` against
`match` row by row, batched HFile appends against one-cell appends, and the GC pause restores
the collector's state."""

import gc
import heapq
import random
from itertools import groupby

import pytest

from hsim.cell import NO_TTL, Cell
from hsim.config import Config
from hsim.engine.compactor import _merged
from hsim.engine.gc_pause import gc_paused
from hsim.engine.hfile import HFileWriter
from hsim.engine.query_matcher import CompactionMatcher, one_version_per_column
from hsim.schema import ColumnFamily


def _random_cells(rnd, n, *, rows=50, quals=3, deletes=True, ttls=True):
    out = []
    for i in range(n):
        typ = 4
        q = b"q%d" % rnd.randrange(quals)
        if deletes and rnd.random() < 0.15:
            typ = rnd.choice([8, 12, 14, 10])
            if typ in (14, 10):
                q = b""
        ttl = rnd.randrange(0, 500) if ttls and rnd.random() < 0.1 else NO_TTL
        out.append(Cell.make(b"r%03d" % rnd.randrange(rows), b"f", q, rnd.randrange(1, 1000), typ,
                             b"v%d" % i if typ == 4 else b"", i + 1, ttl))
    return sorted(out)


@pytest.mark.parametrize("seed", range(30))
def test_merge_equals_heapq_merge(seed):
    rnd = random.Random(seed)
    # Mostly one-cell rows (the row-only sort suffices), sometimes shared rows (full sort).
    rows = rnd.choice([10, 1000, 100_000])
    sources = [_random_cells(rnd, rnd.randrange(0, 300), rows=rows)
               for _ in range(rnd.randrange(1, 6))]
    cells, one_cell_rows = _merged([iter(s) for s in sources])
    assert cells == list(heapq.merge(*sources))
    if one_cell_rows:  # a claim the matcher relies on: it must be true when made
        assert len({c[0] for c in cells}) == len(cells)


@pytest.mark.parametrize("seed", range(60))
def test_match_all_equals_match_row_by_row(seed):
    rnd = random.Random(seed)
    plain = seed % 2 == 0  # half the cases qualify for the list-wide shortcut, or nearly
    cells = _random_cells(rnd, rnd.randrange(0, 400), rows=rnd.choice([5, 400, 10_000]),
                          deletes=not plain, ttls=not plain)
    family = ColumnFamily(max_versions=rnd.choice([1, 3]), min_versions=rnd.choice([0, 0, 1]),
                          ttl=rnd.choice([None, None, 2, 500]),
                          keep_deleted_cells=rnd.choice([False, True, "TTL"]))
    now = rnd.choice([1000, 1500, 10_000, 600_000])
    drop = rnd.random() < 0.5

    def matcher():
        return CompactionMatcher(family, now, drop, earliest_put_ts=rnd.randrange(0, 1000))

    state = rnd.getstate()
    bulk = matcher()
    got = bulk.match_all(list(cells))
    rnd.setstate(state)
    one = matcher()
    want = []
    for _row, group in groupby(cells, lambda c: c[0]):
        want.extend(one.match(list(group)))
    assert got == want
    assert bulk.dropped == one.dropped


def test_match_all_shortcut_keeps_everything_only_when_the_matcher_would():
    f = ColumnFamily()
    one_version = sorted(Cell.make(b"r%d" % i, b"f", q, 5, 4, b"v") for i in range(3)
                         for q in (b"a", b"b"))
    assert one_version_per_column(one_version)
    assert CompactionMatcher(f, 10, True).match_all(one_version) == one_version
    two_versions = sorted(one_version + [Cell.make(b"r1", b"f", b"a", 4, 4, b"old")])
    assert not one_version_per_column(two_versions)
    kept = CompactionMatcher(f, 10, True).match_all(two_versions)
    assert Cell.make(b"r1", b"f", b"a", 4, 4, b"old") not in kept and len(kept) == 6
    # every cell one version, but expired under the family TTL: dropped, not kept
    expired = CompactionMatcher(ColumnFamily(ttl=1), 10_000, True)
    assert expired.match_all(one_version) == []
    assert expired.dropped["expired"] == 6


@pytest.mark.parametrize("seed", range(12))
def test_batched_appends_write_the_same_file(seed):
    rnd = random.Random(seed)
    cells = _random_cells(rnd, rnd.randrange(1, 3000), rows=rnd.choice([20, 5000]))
    family = ColumnFamily(bloom_filter=rnd.choice(["NONE", "ROW", "ROWCOL"]), block_size=1024)
    config = Config().replace(bloom_block_size=rnd.choice([64, 512]))

    def write(feed):
        w = HFileWriter(family, config, include_tags=True)
        feed(w)
        return w.finish(max_seq_id=1, major_compaction=False, create_time=0)

    def one_by_one(w):
        for c in cells:
            w.append(c)

    def in_batches(w):
        i = 0
        while i < len(cells):
            j = i + rnd.randrange(1, 400)
            w.append_all(cells[i:j])
            i = j

    assert write(one_by_one) == write(in_batches)


def test_gc_pause_restores_the_collector_state():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with gc_paused():
            raise RuntimeError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # a caller's choice to run without the collector is kept
    finally:
        gc.enable()
