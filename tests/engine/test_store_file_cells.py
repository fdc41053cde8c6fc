"""One copy of a flushed cell: a store file keeps the cells it was written from (a compaction
shortcut) only when it joins enough files to be compacted soon; its bytes are the copy."""

import hsim


def _store(c):
    region = c.master.tables["t"].locator.regions[0]
    return region.stores[b"f"]


def test_a_lone_flushed_file_keeps_no_second_copy_of_its_cells():
    c = hsim.Cluster(1, config=hsim.Config(compaction_min_files=3), clock=hsim.ManualClock(1))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    kept = []
    for n in range(3):
        for i in range(50):
            t.put(b"r%02d" % i, {b"f:q": b"v%d" % n})
        c.admin.flush("t")
        kept.append([sf.cells is not None for sf in _store(c).files])
    # the first file is alone; the second joins it (the next flush compacts all three), and
    # the compaction's own output, alone again, keeps none either
    assert kept[0] == [False] and kept[1] == [False, True]
    assert len(_store(c).files) == 1 and _store(c).files[0].cells is None
    assert [x.value for x in t.get(b"r07", max_versions=3)] == [b"v2"]
