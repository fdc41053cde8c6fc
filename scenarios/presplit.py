"""Pre-splitting a table whose row keys are hex strings: the HBase book's example.

Seed claims: 000 "Relationship Between RowKeys and Region Splits" (the `Bytes.split` table, the
regions that stay empty, Lessons #1 and #2) and 003 "Pre-Split Regions to Avoid Region
Hotspots".

Every variant writes the same rows, keyed by 16 random hex characters ("0000000000000000" to
"ffffffffffffffff"), into a table created four ways: Admin.createTable(start, end, 10) (which
splits with Bytes.split), RegionSplitter's HexStringSplit, the book's own getHexSplits, and no
pre-split at all (the table then splits as it grows). HBase's balancer runs every
`balancer_runs`-th of the load in every variant (Admin.balance, as its chore would, the daughters
of a split being opened where their parent was), and the regions it moved are counted, so the
spread of the writes is the one a balanced cluster gives.

The flip side of pre-splitting: `too_many_regions` pre-splits into four times `regions`, more
regions than its data needs, and lets HBase 2's normalizer merge them after the load (the
table has NORMALIZATION_ENABLED and NORMALIZER_TARGET_REGION_COUNT = `regions`; the load is
flushed, since the normalizer reads the store files' size, then Admin.normalize runs once, as
its chore would, and a major compaction rewrites the merged regions' references). It reports
the regions before and after and how many reads each region serves, from 1,000 Gets of
written rows before and after. The seeds make no claim about merging regions, so this variant
has metrics and no claim.
"""

import hashlib
from bisect import bisect_right

from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric, option
from hsim.scenario.setup import create_table

scenario = Scenario(
    "presplit",
    "the book's hex-key example: Bytes.split vs HexStringSplit vs custom splits vs no "
    "pre-split: rows per region, empty regions, write spread",
    sizes={"small": 3000, "default": 30000, "large": 200000},
    servers=4,
    scale=1 / 256,
    params={"regions": 10, "value_bytes": 100, "balancer_runs": 20},
    sweep={"value_bytes": [50, 400]},
    ops_meaning="rows written per variant",
)

LOW, HIGH = b"0" * 16, b"f" * 16


def book_hex_splits(start_key: str, end_key: str, num_regions: int) -> list[bytes]:
    """The book's getHexSplits: num_regions - 1 keys at equal steps of the hex range,
    formatted %016x (the arithmetic of the seed's Java example, in Python)."""
    lowest, highest = int(start_key, 16), int(end_key, 16)
    step = (highest - lowest) // num_regions
    lowest += step
    return [b"%016x" % (lowest + step * i) for i in range(num_regions - 1)]


scenario.variant("bytes_split", "Admin.createTable(desc, '0'x16, 'f'x16, 10): Bytes.split",
                 create=lambda n: {"start_key": LOW, "end_key": HIGH, "num_regions": n})
scenario.variant("hex_string_split", "RegionSplitter's HexStringSplit, 10 regions",
                 create=lambda n: {"presplit": ("HexStringSplit", n)})
scenario.variant("book_hex_splits", "the book's getHexSplits('0'x16, 'f'x16, 10)",
                 create=lambda n: {"split_keys": book_hex_splits(LOW.decode(), HIGH.decode(), n)})
scenario.variant("no_presplit", "one region; the table splits as it grows",
                 create=lambda n: {})
# The normalizer counts region sizes in whole megabytes (RegionMetrics) and merges no region
# under hbase.normalizer.merge.min_region_size.mb (1 MB): at the scenario's 1/256 scale every
# region would be 0 MB, none large enough to merge (and with that floor at 0, every empty
# region would join one run: the whole table merged into one region). So this variant's values
# are not scaled down: they are as large as it takes for each pre-split region to hold about
# MB_PER_REGION of store files, whatever --ops is.
MB_PER_REGION = 1.5
scenario.variant(
    "too_many_regions",
    "HexStringSplit into 4 x `regions` regions, too many for the data, then merged by the "
    "normalizer (NORMALIZATION_ENABLED, NORMALIZER_TARGET_REGION_COUNT = `regions`). Not "
    "scaled: the normalizer counts whole MB and merges no region under 1 MB, so the values are "
    f"sized for about {MB_PER_REGION} MB per pre-split region whatever --ops is (at 1/256 "
    "every region would be 0 MB); its minimum region age for a merge is 0 days, not 3 (the "
    "regions are minutes old)",
    config={"normalizer_merge_min_region_age_days": 0},
    create=lambda n: {"presplit": ("HexStringSplit", 4 * n),
                      "values": {"NORMALIZATION_ENABLED": "true",
                                 "NORMALIZER_TARGET_REGION_COUNT": str(n)}},
    normalize=True)


@scenario.run
def run(ctx, variant):
    n = ctx.params["regions"]
    table = create_table(ctx, "hex", {"d": {}}, **variant["create"](n))
    value_bytes = ctx.params["value_bytes"]
    if variant.params.get("normalize"):
        value_bytes = max(value_bytes, int(MB_PER_REGION * 4 * n * (1 << 20)) // ctx.ops)
    value = b"v" * value_bytes
    rows = []
    every = max(1, ctx.ops // ctx.params["balancer_runs"])
    balances = moves = 0
    for i in range(ctx.ops):
        row = hashlib.md5(b"%d:%d" % (ctx.seed, i)).hexdigest()[:16].encode()
        table.put(row, {b"d:v": value})
        rows.append(row)
        ctx.tick()
        if (i + 1) % every == 0:  # the balancer chore
            moves += len(ctx.admin.balance())
            balances += 1

    if variant.params.get("normalize"):
        _normalize(ctx, rows)
    regions = ctx.admin.regions("hex")
    starts = [r.start_key for r in regions]
    counts = [0] * len(regions)
    for row in rows:
        counts[bisect_right(starts, row) - 1] += 1
    mean = len(rows) / len(regions)
    shares = ctx.cluster.metrics().write_share_per_server()
    ctx.record("regions", len(regions), "regions at the end")
    ctx.record("balancer_runs", balances, "balancer runs")
    ctx.record("balancer_moves", moves, "regions the balancer moved")
    ctx.record("empty_regions", counts.count(0), "regions that got no row")
    ctx.record("max_region_share", max(counts) / len(rows), "biggest region's share of rows", "%")
    ctx.record("region_skew", max(counts) / mean, "rows: biggest region / mean", "x")
    ctx.record("max_server_write_share", max(shares.values()), "busiest server's write share",
               "%")
    ctx.record("split_lead_bytes", [r.start_key[0] for r in regions if r.start_key],
               "lead byte of each split key")
    ctx.note("rows per region: " + ", ".join(
        f"[{_show(r.start_key)}, {_show(r.end_key)}) {c:,}" for r, c in zip(regions, counts)))


def _reads_per_region(ctx, rows) -> float:
    """1,000 Gets of written rows (the same ones each time); the mean of the regions' read
    requests they made."""
    table, rng = ctx.table("hex"), ctx.shared_rng()
    before = {r.name: r.read_requests for r in ctx.cluster.metrics().regions}
    for _ in range(1000):
        table.get(rows[rng.randrange(len(rows))])
    after = [r.read_requests - before.get(r.name, 0) for r in ctx.cluster.metrics().regions
             if r.table == "hex"]
    return sum(after) / len(after)


def _normalize(ctx, rows) -> None:
    """Flush (the normalizer reads store file sizes), read, normalize once, compact the merged
    regions' references away, read again: regions and reads per region before and after."""
    ctx.admin.flush("hex")
    ctx.record("regions_before_normalize", len(ctx.admin.regions("hex")),
               "regions before the normalizer")
    ctx.record("reads_per_region_before", _reads_per_region(ctx, rows),
               "read requests per region of 1,000 Gets, before the normalizer")
    ctx.record("region_mb_before", _mean_mb(ctx), "mean region size before the normalizer",
               "MB")
    merges = ctx.cluster.master.merges
    ctx.admin.normalize("hex")
    ctx.record("normalizer_merges", ctx.cluster.master.merges - merges,
               "merges the normalizer made")
    ctx.admin.major_compact("hex")
    ctx.record("regions_after_normalize", len(ctx.admin.regions("hex")),
               "regions after the normalizer")
    ctx.record("reads_per_region_after", _reads_per_region(ctx, rows),
               "read requests per region of 1,000 Gets, after the normalizer")
    ctx.record("region_mb_after", _mean_mb(ctx), "mean region size after the normalizer", "MB")


def _mean_mb(ctx) -> float:
    regions = [r for r in ctx.cluster.metrics().regions if r.table == "hex"]
    return sum(r.store_file_bytes for r in regions) / len(regions) / (1 << 20)


def _show(key: bytes) -> str:
    if not key:
        return "-"
    text = key.decode("latin-1")
    printable = all(32 <= ord(ch) < 127 for ch in text[:4])
    return (text[:4] if printable else key[:4].hex()) + "..."


scenario.claim(
    "Bytes.split cuts the hex range at the book's split points",
    seed="000", section="Relationship Between RowKeys and Region Splits",
    quote="Running those key ranges through `Bytes.split` (which is the split strategy used "
          "when creating regions in `HBaseAdmin.createTable(byte[] startKey, byte[] endKey, "
          "numRegions)` for 10 regions will generate the following splits...",
    criterion=metric("bytes_split", "split_lead_bytes") == [48, 54, 61, 68, 75, 82, 88, 95, 102],
    covers=(33,))


scenario.claim(
    "with Bytes.split, hex keys pile up in a few regions and the middle ones stay empty",
    seed="000", section="Relationship Between RowKeys and Region Splits",
    quote='The problem is that all the data is going to pile up in the first 2 regions and the '
          'last region thus creating a "lumpy" (and possibly "hot") region problem. ... Thus, '
          'the middle regions regions will never be used.',
    criterion=metric("bytes_split", "empty_regions") >= metric("bytes_split", "regions") / 2,
    covers=(34,))


scenario.claim(
    "splits that match the key space use every region",
    seed="000", section="Relationship Between RowKeys and Region Splits",
    quote="Lesson #2: While generally not advisable, using hex-keys (and more generally, "
          "displayable data) can still work with pre-split tables as long as all the created "
          "regions are accessible in the keyspace.",
    criterion=(each(("book_hex_splits", "hex_string_split"), "empty_regions") == 0)
              & (each(("book_hex_splits", "hex_string_split"), "region_skew") < 1.3),
    covers=(35,))


scenario.claim(
    "without a pre-split, one region server takes the writes",
    seed="003", section="Pre-Split Regions to Avoid Region Hotspots",
    quote="If certain region servers get hammered by very intensive write/read operations, "
          "HBase may drop that region server because the Zookeeper connection will timeout and "
          "``YouAreDeadException`` will be triggered. A better practice is to create a fixed "
          "number of regions and evenly distribute those regions across all the region servers",
    criterion=(metric("no_presplit", "max_server_write_share") >= 0.9)
              & (metric("book_hex_splits", "max_server_write_share") <= 1.5 / option("servers")),
    covers=(36,))
