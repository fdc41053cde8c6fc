"""Column families: one family vs three with skewed data, flushed all together (HBase before
1.1) or per family (FlushAllLargeStoresPolicy, HBASE-10201); and the cardinality of a small
family spread over a big table's regions.

Seed claims: 000 "On the number of column families" and "Cardinality of ColumnFamilies", 003
"Number of Column Families".

Every variant writes the same rows into a table pre-split into `regions` regions (splits off):
a big value for every row, and two small values for one row in `small_every`. With one family
all three columns live in family d; with three, the small ones live in families s and t; the
last variant keeps the small data in a table of its own. Then a scan reads only the small data.
"""

from hsim.scenario import Scenario
from hsim.scenario.criteria import metric
from hsim.scenario.measure import blocks_touched, bytes_read, family_totals, read_ranges
from hsim.workloads.keys import decimal_split_keys

scenario = Scenario(
    "column_families",
    "1 vs 3 families with skewed data, flush-all vs per-family flush: files, flush and "
    "compaction I/O; scanning a small family spread over many regions",
    sizes={"small": 8000, "default": 40000, "large": 200000},
    servers=2,
    scale=1 / 1024,
    # room for every region's memstore: flushes come from the per-region flush size and the
    # flush policy, not from the server's global memstore limit
    config={"global_memstore_size": 8 << 20},
    params={"regions": 8, "small_every": 20, "big_bytes": 400, "small_bytes": 20},
    sweep={"small_every": [5, 80]},
    ops_meaning="rows written per variant",
)

scenario.variant("one_family", "d:big, d:s, d:t in one family",
                 layout={"big": b"d:big", "s": b"d:s", "t": b"d:t"}, small_scan=[b"d:s", b"d:t"])
scenario.variant("three_flush_all", "families d, s, t; every flush writes all three "
                 "(FlushAllStoresPolicy, HBase < 1.1)", config={"flush_policy": "all_stores"},
                 layout={"big": b"d:big", "s": b"s:v", "t": b"t:v"}, small_scan=["s", "t"])
scenario.variant("three_per_family", "families d, s, t; only large stores flush "
                 "(FlushAllLargeStoresPolicy, the default since 1.1)",
                 layout={"big": b"d:big", "s": b"s:v", "t": b"t:v"}, small_scan=["s", "t"])
scenario.variant("separate_tables", "big data in one table, the small data in a table of its "
                 "own", layout={"big": b"d:big", "s": b"s:v", "t": b"s:w"}, small_table=True)


@scenario.run
def run(ctx, variant):
    p = ctx.params
    layout = variant["layout"]
    families = sorted({layout[k].split(b":")[0].decode() for k in ("big", "s", "t")})
    splits = decimal_split_keys(p["regions"], 2)
    separate = variant.params.get("small_table", False)
    if separate:
        ctx.admin.create_table("t", ["d"], split_keys=splits, split_enabled=False)
        ctx.admin.create_table("small", ["s"], split_enabled=False)
    else:
        ctx.admin.create_table("t", families, split_keys=splits, split_enabled=False)
    table = ctx.table("t")
    small = ctx.table("small") if separate else table
    big, sv = b"b" * p["big_bytes"], b"s" * p["small_bytes"]
    small_rows = 0
    rng = ctx.shared_rng()  # the same rows for every variant; another seed, other rows
    for _ in range(ctx.ops):
        row = b"%010d" % rng.randrange(10**10)
        table.put(row, {layout["big"]: big})
        if rng.randrange(p["small_every"]) == 0:
            small.put(row, {layout["s"]: sv, layout["t"]: sv})
            small_rows += 1
        ctx.tick()
    for name in (["t", "small"] if separate else ["t"]):
        ctx.admin.flush(name)  # what is left in memstores, as a region close would

    fams = family_totals(ctx.cluster, "t")
    if separate:
        fams.update(family_totals(ctx.cluster, "small"))
    big_f = fams["d"]
    small_f = [fams[f] for f in fams if f != "d"] if len(fams) > 1 else []
    ctx.record("flushes_big", big_f["flushes"], "flushes of the big family")
    if small_f:
        flushes = sum(f["flushes"] for f in small_f) / len(small_f)
        ctx.record("flushes_small", flushes, "flushes per small family")
        ctx.record("small_flush_bytes", sum(f["bytes_flushed"] for f in small_f)
                   / max(1, sum(f["flushes"] for f in small_f)),
                   "mean small-family flush size", "B")
        ctx.record("small_compactions", sum(f["minor_compactions"] + f["major_compactions"]
                                            for f in small_f), "compactions of small families")
        ctx.record("small_io_bytes", sum(_io(f) for f in small_f),
                   "small families' flush + compaction I/O", "B")
    ctx.record("big_flush_bytes", big_f["bytes_flushed"] / max(1, big_f["flushes"]),
               "mean big-family flush size", "B")
    everything = list(fams.values())
    ctx.record("files_written", sum(f["flushes"] + f["minor_compactions"] + f["major_compactions"]
                                    for f in everything), "files written (flush + compaction)")
    ctx.record("io_bytes", sum(_io(f) for f in everything), "flush + compaction I/O", "B")

    # a mass scan of the small data only
    before, before_bytes = blocks_touched(ctx.cluster), bytes_read(ctx.cluster)
    if separate:
        rows, _ = read_ranges(small, [(b"", b"")])
        regions = len(ctx.admin.regions("small"))
    else:
        rows, _ = read_ranges(table, [(b"", b"")], columns=variant["small_scan"])
        regions = len(ctx.admin.regions("t"))
    blocks = blocks_touched(ctx.cluster) - before
    disk = bytes_read(ctx.cluster) - before_bytes
    if rows != small_rows:
        ctx.note(f"the small-data scan returned {rows:,} rows, {small_rows:,} written")
    ctx.record("small_scan_rows", rows, "small-data scan: rows")
    ctx.record("small_scan_regions", regions, "small-data scan: regions visited")
    ctx.record("small_scan_blocks", blocks, "small-data scan: blocks read")
    ctx.record("small_scan_bytes", disk, "small-data scan: bytes read from disk", "B")


def _io(family: dict) -> int:
    """A family's flush and compaction bytes (read and written)."""
    return (family["bytes_flushed"] + family["compaction_bytes_read"]
            + family["compaction_bytes_written"])


scenario.claim(
    "a big family's flushes drag the small families along",
    seed="000", section="On the number of column families",
    quote="Currently, flushing and compactions are done on a per Region basis so if one column "
          "family is carrying the bulk of the data bringing on flushes, the adjacent families "
          "will also be flushed though the amount of data they carry is small.",
    criterion=(metric("three_flush_all", "flushes_small")
               >= 0.9 * metric("three_flush_all", "flushes_big"))
              & (metric("three_flush_all", "small_flush_bytes")
                 < 0.1 * metric("three_flush_all", "big_flush_bytes")),
    covers=(1,))


scenario.claim(
    "many families make needless flush and compaction I/O, which per-family flushing removes",
    seed="000", section="On the number of column families",
    quote="When many column families the flushing and compaction interaction can make for a "
          "bunch of needless i/o loading (To be addressed by changing flushing and compaction "
          "to work on a per column family basis).",
    # "needless": the I/O spent on the small families, which carry little data; the big
    # family's own flushes and compactions are needed either way (reported as io_bytes)
    criterion=(metric("three_flush_all", "files_written")
               > 1.5 * metric("three_per_family", "files_written"))
              & (metric("three_flush_all", "small_compactions")
                 > metric("three_per_family", "small_compactions"))
              & (metric("three_flush_all", "small_io_bytes")
                 > 2 * metric("three_per_family", "small_io_bytes")),
    covers=(2,))


scenario.claim(
    "a small family spread over a big table's regions makes its mass scans less efficient",
    seed="000", section="Cardinality of ColumnFamilies",
    quote="If ColumnFamilyA has 1 million rows and ColumnFamilyB has 1 billion rows, "
          "ColumnFamilyA's data will likely be spread across many, many regions (and "
          "RegionServers). This makes mass scans for ColumnFamilyA less efficient.",
    criterion=(metric("three_per_family", "small_scan_regions")
               > metric("separate_tables", "small_scan_regions"))
              & (metric("three_per_family", "small_scan_blocks")
                 > metric("separate_tables", "small_scan_blocks")),
    covers=(4,))


scenario.claim(
    "families pay off when reads are column scoped",
    seed="000", section="On the number of column families",
    quote="Only introduce a second and third column family in the case where data access is "
          "usually column scoped; i.e. you query one column family or the other but usually "
          "not both at the one time.",
    criterion=(3 * metric("three_per_family", "small_scan_blocks")
               < metric("one_family", "small_scan_blocks"))
              & (10 * metric("three_per_family", "small_scan_bytes")
                 < metric("one_family", "small_scan_bytes")),
    covers=(3,))
