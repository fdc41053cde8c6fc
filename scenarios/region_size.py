"""Region size: a per-table MAX_FILESIZE against the configured default, the book's 1 TB over
4 GB regions on 16 region servers, and what the region size does to split counts and
compaction I/O.

Seed claims: 003 "Table Region Size" and "Pre-Split Regions to Avoid Region Hotspots".

Scaled down, stated: the table stands for the book's 1 TB and is `--ops` records of
`value_bytes` each (a few MB), its size estimated from a major-compacted sample of 512 records
as a user would; a "4 GB" region is that table's size / 256 (1 TB / 4 GB), a
"1 GB" one / 1024 and a "16 GB" one / 64, each set as the table's MAX_FILESIZE. The memstore
flush size is the table's size / `flushes` (MEMSTORE_FLUSHSIZE on the table), the same in every
variant, so only the region size changes between them; at the book's scale 128 MB flushes
into 4 GB regions would be 1 / 32 of a region, here it is 1 / 2 of a "4 GB" one (a scaled-down
flush is tiny, and each store file has a fixed overhead), and BLOCKSIZE is 1 KB (a region
needs several blocks to have a mid key to split at). Keys are uniformly spread (an MD5
prefix); tables with splitting on start as one region, split by HBase's default policy, and
the balancer runs every twentieth of the load as its chore would, its walk capped at 20,000
steps (hbase.master.balancer.stochastic.maxSteps; HBase's default is 1,000,000, too slow for a
Python walk at hundreds of regions, and the region counts this scenario judges even out well
within the cap). The pre-split table gets
MAX_FILESIZE twice its estimated region size as headroom, so its regions stay the ones it was
created with; that it made no split is reported, not claimed (the seed does not say it).
"""

import hashlib

from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.format import format_value
from hsim.scenario.measure import write_spread
from hsim.scenario.readers import record_write_throughput
from hsim.scenario.setup import create_table, settle

BOOK_REGIONS = 256  # 1 TB / 4 GB
PRESPLIT_HEADROOM = 2  # a pre-split table's MAX_FILESIZE over its estimated region size
# BLOCKSIZE scaled down with the regions: a region splits at the mid key of its largest file's
# block index, so a region of a single block cannot split (HRegion.checkSplit)
_FAMILY = {"d": {"BLOCKSIZE": 1024}}

scenario = Scenario(
    "region_size",
    "per-table MAX_FILESIZE vs the default; the book's 1 TB / 4 GB regions on 16 servers; "
    "split count and compaction I/O against region size",
    sizes={"small": 2048, "default": 6144, "large": 32768, "sweep": 3072},
    servers=16,
    scale=1 / 256,
    # hbase.master.balancer.stochastic.maxSteps: HBase walks up to 1,000,000 steps (or 30 s of
    # wall time); hsim's walk in Python would take minutes per run at 16 servers and hundreds
    # of regions, and the region-count cost that decides this scenario settles in far fewer
    config={"balancer_max_steps": 20_000},
    params={"value_bytes": 1000, "flushes": 512},
    sweep={"flushes": [256, 1024]},
    ops_meaning="records written per variant (the table that stands for 1 TB)",
)

scenario.variant("region_1g", "MAX_FILESIZE = table / 1,024 (\"1 GB\"), splits on",
                 test="size", per=1024)
scenario.variant("region_4g", "MAX_FILESIZE = table / 256 (\"4 GB\"), splits on", test="size",
                 per=BOOK_REGIONS)
scenario.variant("region_16g", "MAX_FILESIZE = table / 64 (\"16 GB\"), splits on",
                 test="size", per=64)
scenario.variant("presplit_4g", "pre-split into 256 regions over the 16 servers, "
                 "MAX_FILESIZE = table / 256", test="size", per=BOOK_REGIONS, presplit=True)
scenario.variant("per_table", "two tables of the same data: `orders` with MAX_FILESIZE = "
                 "table / 256, `audit` on the configured default", test="per_table")


@scenario.run
def run(ctx, variant):
    p = ctx.params
    keys = [hashlib.md5(b"%d" % n).hexdigest().encode() for n in range(ctx.ops)]
    table_bytes = ctx.ops * _bytes_per_record(ctx, keys, p)
    flush = max(1024, table_bytes // p["flushes"])
    if variant["test"] == "per_table":
        ctx.admin.create_table("orders", _FAMILY, max_filesize=table_bytes // BOOK_REGIONS,
                               memstore_flush_size=flush)
        ctx.admin.create_table("audit", _FAMILY, memstore_flush_size=flush)
        ctx.expect(2 * ctx.ops)
        _load(ctx, ["orders", "audit"], keys, p)
        for name in ("orders", "audit"):
            ctx.record(f"{name}_regions", _regions(ctx, name),
                       f"regions of `{name}` at the end")
        ctx.record("default_max_filesize", ctx.config.region_max_filesize,
                   "the configured default region size (scaled)", "B")
        return
    per = variant["per"]
    splits = None
    if variant.params.get("presplit"):
        splits = [b"%04x" % (i * 65536 // per) for i in range(1, per)]
    # a pre-split table is given headroom: MAX_FILESIZE twice the estimated region, so the
    # regions it was made with need not split as the estimate errs (HBase's advice with a
    # pre-split is a limit the regions do not reach)
    limit = table_bytes // per * (PRESPLIT_HEADROOM if splits else 1)
    ctx.admin.create_table("t", _FAMILY, max_filesize=limit,
                           memstore_flush_size=flush, split_keys=splits)
    initial = _regions(ctx, "t")
    before = ctx.loads()
    _load(ctx, ["t"], keys, p)
    regions = _regions(ctx, "t")
    per_server = [s.regions for s in ctx.cluster.metrics().servers]
    io = ctx.io(since=before)
    ctx.record("max_filesize", limit, "MAX_FILESIZE of the table", "B")
    ctx.record("regions", regions, "regions at the end")
    ctx.record("splits", regions - initial, "splits during the load")
    ctx.record("max_regions_per_server", max(per_server), "most regions on one server")
    ctx.record("mean_regions_per_server", sum(per_server) / len(per_server),
               "regions per server (mean)")
    ctx.record("write_amplification", (io["bytes_flushed"] + io["bytes_compacted_written"])
               / max(1, io["bytes_flushed"]), "bytes written to store files per byte flushed",
               "x")
    ctx.record("compaction_bytes_written", io["bytes_compacted_written"],
               "bytes compactions wrote", "B")
    ctx.record("max_server_write_share",
               write_spread(ctx.cluster, "t")["max_server_write_share"],
               "busiest server's share of the writes", "%")
    record_write_throughput(ctx, before, ctx.ops)


def _bytes_per_record(ctx, keys, p) -> int:
    """How big the table will be, estimated as a user would: store a sample of records,
    major-compact, and divide the store file bytes (the table is then dropped)."""
    probe = create_table(ctx, "probe", _FAMILY, split_enabled=False)
    sample = keys[:512]
    for key in sample:
        probe.put(key, {b"d:v": b"v" * p["value_bytes"]})
    settle(ctx, "probe")
    size = sum(r.store_file_bytes for r in ctx.cluster.metrics().regions if r.table == "probe")
    ctx.admin.disable_table("probe")
    ctx.admin.delete_table("probe")
    ctx.record("bytes_per_record", size // len(sample), "store file bytes per record "
               "(the size estimate)", "B")
    return size // len(sample)


def _regions(ctx, table: str) -> int:
    return sum(1 for r in ctx.cluster.metrics().regions if r.table == table)


def _load(ctx, tables, keys, p):
    value = b"v" * p["value_bytes"]
    handles = [ctx.table(t) for t in tables]
    every = max(1, len(keys) // 20)
    for n, key in enumerate(keys, 1):
        for t in handles:
            t.put(key, {b"d:v": value})
            ctx.tick()
        if n % every == 0:
            ctx.admin.balance()


scenario.claim(
    "the region size can be set per table, apart from the configured default",
    seed="003", section="Table Region Size",
    quote="The regionsize can be set on a per-table basis using ``setFileSize`` on "
          "HTableDescriptor in the event where certain tables require different regionsizes "
          "than the configured default regionsize.",
    criterion=metric("per_table", "orders_regions") >= 4 * metric("per_table", "audit_regions"),
    covers=(83,))

scenario.claim(
    "1 TB in 4 GB regions on 16 region servers: 256 regions on each server",
    seed="003", section="Pre-Split Regions to Avoid Region Hotspots",
    quote="For example, suppose you have 16 region servers and your table size is 1 TB. You can "
          "set the maximum file size of each region to be 4GB (``hbase.hregion.max.filesize = "
          "4294967296``), which will mean each of the 16 region servers will have 256 regions.",
    criterion=each(("presplit_4g", "region_4g"), "mean_regions_per_server") >= 0.9 * 256,
    covers=(83,))

scenario.claim(
    "a fixed number of pre-split regions, evenly over the servers",
    seed="003", section="Pre-Split Regions to Avoid Region Hotspots",
    quote="A better practice is to create a fixed number of regions and evenly distribute those "
          "regions across all the region servers by estimating how big the table will be and "
          "knowing the number of region servers you have.",
    proposition="create a fixed number of regions and evenly distribute those regions across "
                "all the region servers",
    # the regions the table was created with, spread evenly: no server holds more than one
    # above the mean; the whole load's write share against the splitting table is reported
    # (with keys spread by a hash and the balancer moving daughters, both end up even)
    criterion=metric("presplit_4g", "max_regions_per_server")
              <= metric("presplit_4g", "mean_regions_per_server") + 1,
    extras=(metric("presplit_4g", "max_server_write_share")
            < metric("region_4g", "max_server_write_share"))
           & (metric("presplit_4g", "splits") == 0)
           & (metric("presplit_4g", "write_throughput")
              > metric("region_4g", "write_throughput")),
    covers=(83, 36))

scenario.claim(
    "the region size sets how many regions the table splits into",
    seed="003", section="Pre-Split Regions to Avoid Region Hotspots",
    quote="You can set the maximum file size of each region to be 4GB (``hbase.hregion.max."
          "filesize = 4294967296``), which will mean each of the 16 region servers will have "
          "256 regions.",
    proposition="You can set the maximum file size of each region to be 4GB",
    criterion=(metric("region_1g", "splits") > 2 * metric("region_4g", "splits"))
              & (metric("region_4g", "splits") > 2 * metric("region_16g", "splits")),
    covers=(83,))


@scenario.plot_labels
def _plot_label(v) -> str:
    """A variant by the region size it ran with: "region_1g" stands for the book's 1 GB, its
    regions are a few KiB."""
    size = v.metrics.get("max_filesize")
    if size is None:
        return v.name
    return f"{format_value(size, 'B')} regions" + (", pre-split" if v.params.get("presplit")
                                                     else "")


scenario.bar_chart("regions", "regions and splits by region size",
                   ["regions", "splits", "max_regions_per_server"], unit="regions")
scenario.bar_chart("write_amplification", "bytes written to store files per byte flushed",
                   ["write_amplification"], unit="x")
