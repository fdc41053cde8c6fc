"""Merges (MergeTableRegionsProcedure's rules and results) and moves (HMaster.move)."""

from __future__ import annotations

import pytest

import hsim
from tests.storage.splits import split_uncompacted
from hsim.errors import (DoNotRetryError, HsimError, InvalidArgumentError, MergeRegionError,
                         UnknownRegionError)

T0 = 1_767_225_600_000
ROWS = [b"%c%02d" % (c, i) for c in b"abcde" for i in range(8)]


@pytest.fixture
def c():
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(T0))
    c.admin.create_table("t", ["f"], split_keys=[b"b", b"c", b"d"])
    t = c.table("t")
    for row in ROWS:
        t.put(row, {b"f:q": b"v-" + row})
    c.admin.flush("t")
    for row in ROWS[::3]:  # some edits only in MemStores: the merge's closes flush them
        t.put(row, {b"f:w": b"w-" + row})
    return c


def _rows(c) -> dict:
    return {r[0].row: sorted((x.qualifier, x.value) for x in r) for r in c.table("t").scan()}


def _meta(c) -> dict:
    """hbase:meta's rows of table t: row key -> qualifiers."""
    return {r[0].row: [x.qualifier for x in r] for r in c.table("hbase:meta").scan()}


def _state(c) -> tuple:
    return ([(r.name, r.server, r.store_file_count) for r in c.admin.regions("t")], _meta(c))


def test_merge_of_adjacent_regions_reads_through_references_until_a_major_compaction(c):
    before = _rows(c)
    b, cc = c.admin.regions("t")[1:3]
    merged = c.admin.merge_regions(b.encoded_name, cc.name)  # encoded or full names
    c.check_invariants()
    regions = c.admin.regions("t")
    assert [(r.start_key, r.end_key) for r in regions] == \
        [(b"", b"b"), (b"b", b"d"), (b"d", b"")]
    m = regions[1]
    assert m.name == merged and m.server == b.server  # opened where the first region was
    assert m.region_id > max(b.region_id, cc.region_id)
    files = m.store_files["f"]
    assert files and all(f.is_reference for f in files)
    assert {f.name.rsplit(".", 1)[1] for f in files} == {b.encoded_name, cc.encoded_name}
    assert _rows(c) == before
    got = c.table("t").get(b"c02")  # a Get through a reference (and a flushed MemStore)
    assert sorted((x.qualifier, x.value) for x in got) == [(b"q", b"v-c02"), (b"w", b"w-c02")]
    # hbase:meta: the parents' rows are gone; the merged row names them in info:merge000N
    meta = _meta(c)
    assert not any(b.encoded_name.encode() in k or cc.encoded_name.encode() in k for k in meta)
    row = next(k for k in meta if merged.encode() == k)
    assert meta[row][:2] == [b"merge0000", b"merge0001"]
    cells = {x.qualifier: x.value for x in c.table("hbase:meta").get(row)}
    from hsim.regions.meta import region_info_text

    assert b.encoded_name in region_info_text(cells[b"merge0000"])
    assert cc.encoded_name in region_info_text(cells[b"merge0001"])
    # metrics follow: three regions, the merged one with its two reference files
    metrics = c.metrics()
    assert len(metrics.regions) == 3
    assert next(r for r in metrics.regions if r.name == merged).store_files == len(files)
    c.admin.major_compact(merged)
    c.check_invariants()
    files = c.admin.regions("t")[1].store_files["f"]
    assert len(files) == 1 and not files[0].is_reference
    assert _rows(c) == before
    assert _meta(c)[row][:1] == [b"regioninfo"]  # the CatalogJanitor dropped the qualifiers


def test_a_self_merge_is_refused_and_changes_nothing(c):
    b = c.admin.regions("t")[1]
    before = _state(c)
    with pytest.raises(MergeRegionError, match="Duplicate regions specified; cannot merge a "
                                               "region to itself. Passed in 2 but only 1 unique"):
        c.admin.merge_regions(b.encoded_name, b.name)
    assert _state(c) == before


def test_non_adjacent_regions_are_refused_unless_forcible_and_hsim_refuses_the_overlap(c):
    a, _, cc, _ = c.admin.regions("t")
    before = _state(c)
    with pytest.raises(MergeRegionError, match="Unable to merge non-adjacent or non-overlapping "
                                               f"regions '{a.encoded_name}', "
                                               f"'{cc.encoded_name}' when force=false"):
        c.admin.merge_regions(cc.encoded_name, a.encoded_name)
    b = c.admin.regions("t")[1]
    # HBase 2 would merge them into [a's start, cc's end) over b, left open inside it: an
    # overlap in hbase:meta's region chain, which hsim's region map cannot hold
    with pytest.raises(InvalidArgumentError) as e:
        c.admin.merge_regions(a.encoded_name, cc.encoded_name, forcible=True)
    assert e.value.message == (
        f"Unable to merge non-adjacent regions '{a.encoded_name}', '{cc.encoded_name}' with "
        "force=true: HBase would make the merged region ['', 'd') and leave the 1 region(s) "
        f"between them ({b.encoded_name}) open inside it, an overlap in hbase:meta's region "
        "chain (as hbck2 reports it); hsim's region chain holds no overlaps. Merge the whole "
        "run of adjacent regions instead (merge_region with a list of them)")
    assert _state(c) == before


def test_a_forcible_merge_of_adjacent_regions_merges(c):
    a, b = c.admin.regions("t")[:2]
    c.admin.merge_regions(b.encoded_name, a.encoded_name, forcible=True)
    assert [(r.start_key, r.end_key) for r in c.admin.regions("t")][0] == (b"", b"c")
    c.check_invariants()


def test_a_merged_region_with_references_is_not_merged_again(c):
    a, b, cc, _ = c.admin.regions("t")
    merged = c.admin.merge_regions(a.encoded_name, b.encoded_name)
    before = _state(c)
    with pytest.raises(MergeRegionError, match="has a merge qualifier"):
        c.admin.merge_regions(merged, cc.encoded_name)
    assert _state(c) == before
    c.admin.major_compact(merged)
    c.admin.merge_regions(merged, cc.encoded_name)
    assert [(r.start_key, r.end_key) for r in c.admin.regions("t")] == [(b"", b"d"), (b"d", b"")]
    c.check_invariants()


def test_a_split_daughter_with_references_is_not_mergeable():
    c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(T0))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for row in ROWS:
        t.put(row, {b"f:q": b"v"})
    c.admin.flush("t")
    a, b = split_uncompacted(c, "t", b"c00")  # daughters with references, not yet compacted
    with pytest.raises(HsimError, match=f"{a.encoded_name} NOT mergeable"):
        c.admin.merge_regions(a.encoded_name, b.encoded_name)


def test_merge_refusals_of_unknown_regions_other_tables_and_disabled_tables(c):
    b = c.admin.regions("t")[1]
    with pytest.raises(UnknownRegionError):
        c.admin.merge_regions(b.encoded_name, "nope")
    c.admin.create_table("u", ["f"])
    u = c.admin.regions("u")[0]
    with pytest.raises(MergeRegionError, match="Can't merge regions from different tables"):
        c.admin.merge_regions(b.encoded_name, u.encoded_name)
    a = c.admin.regions("t")[0]
    c.admin.disable_table("t")
    with pytest.raises(MergeRegionError, match="Unable to merge regions not online"):
        c.admin.merge_regions(a.encoded_name, b.encoded_name)


def test_merge_region_in_the_shell():
    from tests.shell.conftest import TOOK, Session

    s = Session(servers=2)
    s("create 't', 'f', SPLITS => ['b', 'c']")
    a, b, cc = s.shell.admin.regions("t")
    assert s(f"merge_region '{a.encoded_name}', '{a.encoded_name}'") == (
        "\nERROR: org.apache.hadoop.hbase.exceptions.MergeRegionException: Duplicate regions "
        "specified; cannot merge a region to itself. Passed in 2 but only 1 unique.\n\n"
        "For usage try 'help \"merge_region\"'\n\n" + TOOK)
    assert s(f"merge_region '{a.encoded_name}', 'abc'") == (
        "\nERROR: Unknown region abc!\n\nFor usage try 'help \"merge_region\"'\n\n" + TOOK)
    assert "when force=false" in s(f"merge_region '{a.encoded_name}', '{cc.encoded_name}'")
    assert s(f"merge_region ['{a.encoded_name}', '{b.encoded_name}', '{cc.encoded_name}']") \
        == TOOK
    assert [(r.start_key, r.end_key) for r in s.shell.admin.regions("t")] == [(b"", b"")]


def test_a_move_keeps_the_data_and_changes_the_server(c):
    before = _rows(c)
    r = c.admin.regions("t")[0]
    other = next(s.name for s in c.region_servers if s.name != r.server)
    src, dst = (next(s for s in c.region_servers if s.name == n) for n in (r.server, other))
    names = {sf.reader.name for sf in c.master.region_by_name(r.name).stores[b"f"].files}

    def cached(server) -> int:
        return sum(1 for k in server.block_cache._priority if k[0] in names)

    assert cached(src) > 0 and cached(dst) == 0
    assert c.admin.move(r.encoded_name, other) == other
    c.check_invariants()
    # cold on the new server; the old one keeps the blocks until its LRU evicts them
    # (EVICT_BLOCKS_ON_CLOSE is false by default, as CacheConfig's)
    assert cached(src) > 0 and cached(dst) == 0
    moved = c.admin.regions("t")[0]
    assert moved.server == other and moved.name == r.name and moved.memstore_bytes == 0
    assert _rows(c) == before
    assert cached(dst) > 0
    # no server named: another one at random (two servers: the other one)
    assert c.admin.move(r.encoded_name) == r.server
    assert c.admin.move(r.encoded_name, r.server) == r.server  # already there: skipped
    assert _rows(c) == before
    assert c.master.moves == 2


def test_move_refusals_change_nothing(c):
    r = c.admin.regions("t")[0]
    before = _state(c)
    with pytest.raises(UnknownRegionError):
        c.admin.move("nope")
    with pytest.raises(InvalidArgumentError, match="Destination server rs9 is not online"):
        c.admin.move(r.encoded_name, "rs9")
    assert _state(c) == before
    c.admin.disable_table("t")
    before = _state(c)
    with pytest.raises(DoNotRetryError, match="is not OPEN"):
        c.admin.move(r.encoded_name)
    assert _state(c) == before


def test_move_in_the_shell():
    from tests.shell.conftest import TOOK, Session

    s = Session(servers=2)
    s("create 't', 'f'\nput 't', 'r', 'f:q', 'v'")
    r = s.shell.admin.regions("t")[0]
    other = s.shell.cluster.master.servers[1].name
    assert s(f"move '{r.encoded_name}', '{other}'") == TOOK
    assert s.shell.admin.regions("t")[0].server == other
    assert "value=v" in s("get 't', 'r'")
