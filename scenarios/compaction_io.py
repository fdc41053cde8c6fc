"""Compaction I/O: write amplification, store files over time and files read per get, across
compaction ratio / min / max settings, with periodic major compactions, with none, and with
HBase 2's other compaction engines: date-tiered (time windows that widen with age; also with 10%
of the puts arriving late, their timestamps up to half the run in the past) and FIFO (a family
TTL of a quarter of the run; only expired files are compacted, which writes no cell).

Seed claims: 004 "Modeling for the questions" (ideally one HFile per store after compaction) and
"Target data access" (a Get with a time range skips older HFiles), 000 "Schema Updates"
(family changes reach the files at the next major compaction).

Every variant runs the same stream on a one-region table (splits off): updates of random rows
of a fixed key space, with a Get of a random row every 10th operation and a Get restricted to
the last 10% of the run's time every 10th. The family has no bloom filter, so a Get reads every
store file whose key range holds the row, and blocks touched per Get counts the files it read.
"""

from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.measure import blocks_touched
from hsim.scenario.setup import create_table, settle

scenario = Scenario(
    "compaction_io",
    "write amplification, store files over time and files read per get, across compaction "
    "ratio/min/max settings and with periodic major compaction",
    sizes={"small": 12000, "default": 40000, "large": 200000},
    servers=1,
    scale=1 / 1024,
    config={"block_cache_size": 16 << 20},  # the data fits: gets count blocks, not decodes
    params={"keyspace": 20000, "value_bytes": 200},
    sweep={"value_bytes": [100, 800]},
    ops_meaning="operations per variant (90% puts, 10% gets)",
)

scenario.variant("no_compaction", "compaction.min 1,000: flushes pile up",
                 config={"compaction_min_files": 1000, "blocking_store_files": 100000})
scenario.variant("default", "ratio 1.2, min 3, max 10 (HBase's defaults)")
scenario.variant("ratio_0.5", "compaction.ratio 0.5: stricter selection",
                 config={"compaction_ratio": 0.5})
scenario.variant("ratio_5", "compaction.ratio 5.0: the off-peak ratio, all day",
                 config={"compaction_ratio": 5.0})
scenario.variant("min_2", "compaction.min 2: compact as soon as two files exist",
                 config={"compaction_min_files": 2})
scenario.variant("max_4", "compaction.max 4: small compactions",
                 config={"compaction_max_files": 4})
scenario.variant("periodic_major", "defaults plus a periodic major compaction every 1/12 of "
                 "the run", periodic_major=True)
scenario.variant("date_tiered", "DateTieredCompactionPolicy: windows of 1/24 of the run, 4 per "
                 "tier", date_tiered=True)
scenario.variant("date_tiered_late", "date-tiered, with 10% of the puts late (timestamps up to "
                 "half the run old)", date_tiered=True, late_fraction=0.1)
scenario.variant("fifo", "FIFOCompactionPolicy, family TTL a quarter of the run (old rows "
                 "expire)", fifo=True)
scenario.variant("alter_block_size", "the schema update: every row of the key space written "
                 "once with BLOCKSIZE 64 KiB and compacted, then ALTER BLOCKSIZE => 8K and a "
                 "major compaction (its index is the 8 KiB one)", schema_update=True)


@scenario.run
def run(ctx, variant):
    if variant.params.get("schema_update"):
        return _schema_update(ctx)
    p = ctx.params
    if variant.params.get("periodic_major"):
        period = max(1, ctx.ops * ctx.ms_per_op // 12)
        ctx.config = ctx.config.replace(major_compaction_period_ms=period)
        ctx.run_compaction_chore_every(max(1, period // 10))
    run_ms = ctx.ops * ctx.ms_per_op
    family = {"BLOOMFILTER": "NONE"}
    if variant.params.get("date_tiered"):
        ctx.config = ctx.config.replace(compaction_policy="date_tiered",
                                        date_tiered_base_window_ms=max(1, run_ms // 24))
    if variant.params.get("fifo"):
        ctx.config = ctx.config.replace(compaction_policy="fifo", blocking_store_files=1000)
        family["TTL"] = max(1, run_ms // 4 // 1000)  # seconds
    late = variant.params.get("late_fraction", 0.0)
    table = create_table(ctx, "t", {"d": family}, split_enabled=False)
    cluster = ctx.cluster
    rng = ctx.shared_rng()
    late_rng = ctx.rng
    keys = [_row(i) for i in range(p["keyspace"])]
    value = b"v" * p["value_bytes"]
    recent_ms = max(1, ctx.ops * ctx.ms_per_op // 10)
    gets = tr_gets = blocks = tr_blocks = 0
    for i in range(ctx.ops):
        if i % 10 == 5:
            before = blocks_touched(cluster)
            table.get(keys[rng.randrange(len(keys))])
            blocks += blocks_touched(cluster) - before
            gets += 1
        elif i % 10 == 9:
            before = blocks_touched(cluster)
            now = ctx.clock.now()
            table.get(keys[rng.randrange(len(keys))], time_range=(now - recent_ms, now + 1))
            tr_blocks += blocks_touched(cluster) - before
            tr_gets += 1
        elif late and late_rng.random() < late:  # a late arrival: its event time is past
            ts = max(0, ctx.clock.now() - late_rng.randrange(1, run_ms // 2 + 2))
            table.put(keys[rng.randrange(len(keys))], {b"d:v": value}, timestamp=ts)
        else:
            table.put(keys[rng.randrange(len(keys))], {b"d:v": value})
        ctx.tick()

    m = cluster.metrics()
    files = [t["store_files"] for t in ctx.timeline]
    cost = ctx.cost()
    ctx.record("write_amplification", m.write_amplification,
               "write amplification (flushed+compacted)/flushed", "x")
    ctx.record("flushes", sum(s.flushes for s in m.servers), "flushes")
    ctx.record("compactions", sum(s.compactions for s in m.servers), "compactions")
    ctx.record("compaction_bytes_written", m.compaction_bytes_written,
               "compaction bytes written", "B")
    ctx.record("store_files_mean", sum(files) / len(files), "store files (mean over the run)")
    ctx.record("store_files_max", max(files), "store files (max)")
    ctx.record("store_files_end", files[-1], "store files at the end")
    ctx.record("blocks_per_get", blocks / gets, "blocks read per get")
    ctx.record("blocks_per_time_range_get", tr_blocks / tr_gets,
               "blocks read per get of the last 10% of time")
    ctx.record("sim_time_ms", cost.makespan_ms, "makespan of the run, incl. compactions", "ms")
    ctx.admin.major_compact("t")
    ctx.record("store_files_after_major", cluster.metrics().servers[0].store_files,
               "store files after a major compaction")


def _row(i: int) -> bytes:
    return b"row%08d" % i


def _schema_update(ctx):
    """Change BLOCKSIZE 64 KiB -> 8 KiB: the index changes only when files are rewritten."""
    def index():
        return ctx.cluster.metrics().index_bytes

    table = create_table(ctx, "t", {"d": {"BLOOMFILTER": "NONE"}}, split_enabled=False)
    value = b"v" * ctx.params["value_bytes"]
    for i in range(ctx.params["keyspace"]):
        table.put(_row(i), {b"d:v": value})
    # Flush first: an alter reopens the regions, which flushes what the MemStore holds, and
    # that new file would be written with the new BLOCKSIZE.
    settle(ctx, "t")
    before = index()
    ctx.admin.alter_family("t", "d", block_size=8192)
    altered = index()
    ctx.admin.major_compact("t")
    ctx.record("index_before_alter", before, "index, 64 KiB blocks", "B")
    ctx.record("index_after_alter", altered, "index after BLOCKSIZE => 8K", "B")
    ctx.record("index_after_major", index(), "index after the next major", "B")


scenario.claim(
    "compaction keeps the store to a few files, a major compaction to one",
    seed="004", section="Modeling for the questions",
    quote="A store may consist of multiple HFiles, but ideally, on compaction, you achieve a "
          "single HFile.",
    criterion=(metric("default", "store_files_mean")
               < metric("no_compaction", "store_files_mean") / 2)
              & (metric("periodic_major", "store_files_mean")
                 <= metric("default", "store_files_mean"))
              & (each(("no_compaction", "default", "periodic_major"), "store_files_after_major")
                 == 1),
    covers=(87,))


scenario.claim(
    "a Get with a time range skips the older HFiles",
    seed="004", section="Target data access",
    quote="If you specify timestamps in your Get object, you can avoid reading HFiles that are "
          "older than that timestamp",
    criterion=metric("no_compaction", "blocks_per_time_range_get")
                     < 0.5 * metric("no_compaction", "blocks_per_get"),
    covers=(80,))


scenario.claim(
    "a family change reaches the files at the next major compaction",
    seed="000", section="Schema Updates",
    quote="When changes are made to either Tables or ColumnFamilies (e.g., region size, block "
          "size), these changes take effect the next time there is a major compaction and the "
          "StoreFiles get re-written.",
    criterion=(metric("alter_block_size", "index_after_alter")
               == metric("alter_block_size", "index_before_alter"))
              & (metric("alter_block_size", "index_after_major")
                 > 4 * metric("alter_block_size", "index_before_alter")),
    covers=(5,))
