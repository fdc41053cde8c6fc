"""Flush policies, split policies and split points, the unsplittable fat row, hotspotting."""

import hashlib

import hsim
from hsim.config import MiB


def _fill(t, family, rows, value_size, prefix=b"r"):
    for i in range(rows):
        t.put(prefix + b"%06d" % i, {family + b":q": b"x" * value_size})


def test_all_stores_flush_makes_tiny_files_for_small_family():
    sizes = {}
    for policy in ("all_stores", "large_stores"):
        cfg = hsim.Config(flush_policy=policy).scaled(1 / 1024)  # 128 KiB flush size
        c = hsim.Cluster(config=cfg, clock=hsim.ManualClock(0))
        c.admin.create_table("t", ["big", "small"], split_policy="DisabledRegionSplitPolicy")
        t = c.table("t")
        for i in range(3000):
            t.put(b"r%06d" % i, {b"big:q": b"x" * 200})
            if i % 100 == 0:
                t.put(b"r%06d" % i, {b"small:q": b"y"})
        store = c.master.tables["t"].locator.regions[0].stores[b"small"]
        sizes[policy] = (store.counters.flushes, store.counters.cells_flushed)
    flushes_all, cells_all = sizes["all_stores"]
    flushes_large, _ = sizes["large_stores"]
    assert flushes_all >= 5  # the small family was flushed with every big flush
    assert cells_all / flushes_all <= 10  # ... into tiny files of a few cells each
    assert flushes_large == 0  # per-family flush left it in the MemStore


def test_stepping_policy_first_split_at_initial_size():
    cfg = hsim.Config().scaled(1 / 1024)  # flush 128 KiB -> initial split size 256 KiB
    c = hsim.Cluster(config=cfg, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    _fill(t, b"f", 1200, 200)
    c.admin.flush("t")
    regions = c.admin.regions("t")
    assert len(regions) >= 2
    # after the first split each region is held to the 10 GiB/1024 desired size: no more splits
    assert max(r.size for r in regions) < cfg.region_max_filesize


def test_constant_size_policy_and_disabled_policy():
    cfg = hsim.Config(split_policy="ConstantSizeRegionSplitPolicy",
                      region_max_filesize=200_000).scaled(1 / 1024)
    c = hsim.Cluster(config=cfg, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"])
    c.admin.create_table("d", ["f"], split_policy="DisabledRegionSplitPolicy")
    for name in ("t", "d"):
        _fill(c.table(name), b"f", 2000, 200)
        c.admin.flush(name)
    assert len(c.admin.regions("t")) >= 2
    assert len(c.admin.regions("d")) == 1


def test_increasing_to_upper_bound_formula():
    from hsim.regions.split_policy import IncreasingToUpperBoundRegionSplitPolicy

    cfg = hsim.Config()
    c = hsim.Cluster(config=cfg, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"])
    region = c.master.tables["t"].locator.regions[0]
    p = IncreasingToUpperBoundRegionSplitPolicy(region, cfg)
    flush = 128 * MiB
    assert p.size_to_check(1) == min(p.desired_max_size, 2 * flush)
    assert p.size_to_check(2) == min(p.desired_max_size, 2 * flush * 8)
    assert p.size_to_check(0) == p.desired_max_size
    assert p.size_to_check(101) == p.desired_max_size


def test_split_point_is_a_row_boundary_and_fat_row_unsplittable():
    cfg = hsim.Config().scaled(1 / 1024)
    c = hsim.Cluster(config=cfg, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"], split_policy="ConstantSizeRegionSplitPolicy",
                         max_filesize=100_000)
    t = c.table("t")
    for i in range(3000):  # one huge row
        t.put(b"fat", {b"f:q%06d" % i: b"x" * 100})
    c.admin.flush("t")
    assert len(c.admin.regions("t")) == 1
    assert c.admin.split("t") is False
    # many rows: splits land on row boundaries, nothing lost or duplicated
    c.admin.create_table("u", ["f"], split_policy="ConstantSizeRegionSplitPolicy",
                         max_filesize=100_000)
    u = c.table("u")
    for i in range(300):
        for j in range(10):
            u.put(b"row%04d" % i, {b"f:q%02d" % j: b"x" * 100})
    c.admin.flush("u")
    regions = c.admin.regions("u")
    assert len(regions) >= 2
    rows = [cells[0].row for cells in u.scan()]
    assert rows == [b"row%04d" % i for i in range(300)]
    assert all(len(cells) == 10 for cells in u.scan())
    for r in regions[1:]:
        assert r.start_key.startswith(b"row") and len(r.start_key) == 7


def test_key_prefix_policy_keeps_prefix_together():
    cfg = hsim.Config().scaled(1 / 1024)
    c = hsim.Cluster(config=cfg, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"], split_policy="KeyPrefixRegionSplitPolicy",
                         key_prefix_length=4)
    t = c.table("t")
    for u in range(20):
        for i in range(100):
            t.put(b"u%03d-%05d" % (u, i), {b"f:q": b"x" * 100})
    c.admin.flush("t")
    regions = c.admin.regions("t")
    assert len(regions) >= 2
    assert all(len(r.start_key) == 4 for r in regions[1:])


def test_explicit_split_and_daughters():
    c = hsim.Cluster(region_servers=2, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    for i in range(100):
        t.put(b"k%03d" % i, {b"f:q": b"v%d" % i})
    assert c.admin.split("t", b"k050")
    regions = c.admin.regions("t")
    assert [(r.start_key, r.end_key) for r in regions] == [(b"", b"k050"), (b"k050", b"")]
    assert regions[0].server == regions[1].server  # daughters open where the parent was
    assert all(not f.is_reference for r in regions for fs in r.store_files.values() for f in fs)
    assert len(list(t.scan())) == 100
    assert t.get(b"k049")[0].value == b"v49" and t.get(b"k050")[0].value == b"v50"


def test_monotonic_keys_hotspot_last_region_hashed_spread():
    results = {}
    for design in ("sequential", "hashed"):
        c = hsim.Cluster(region_servers=4, clock=hsim.ManualClock(0))
        split_keys = [bytes([x]) for x in (0x40, 0x80, 0xC0)] if design == "hashed" else \
            [b"%012d" % x for x in (250, 500, 750)]
        c.admin.create_table("t", ["f"], split_keys=split_keys)
        t = c.table("t")
        for i in range(1000, 3000):
            key = b"%012d" % i
            if design == "hashed":
                key = hashlib.md5(key).digest()[:2] + key
            t.put(key, {b"f:q": b"v"})
        results[design] = c.metrics()
    seq = results["sequential"]
    assert max(seq.write_share_per_server().values()) == 1.0
    last = [r for r in seq.regions if r.end_key == b""][0]
    assert last.write_requests == 2000
    assert results["hashed"].hotspot_ratio("write") < 1.2


def test_server_totals_survive_splits():
    """A split parent's flush/compaction counters stay in its server's totals, and the write
    that triggers a split is counted."""
    cfg = hsim.Config().scaled(1 / 1024)
    c = hsim.Cluster(config=cfg, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    flushed = []
    for i in range(3000):
        t.put(b"r%06d" % i, {b"f:q": b"x" * 200})
        if i % 100 == 0:
            flushed.append(c.metrics().bytes_flushed)
    m = c.metrics()
    assert c.master.splits >= 1
    assert flushed == sorted(flushed)  # never goes down across splits
    assert sum(s.write_requests for s in m.servers) == 3000
    assert m.write_amplification >= 1.0
