"""Hotspotting: where a stream of time-series writes lands on a pre-split table for five row-key
designs, what the cost model makes of it, and what each design costs a reader.

Seed claims: 000 "Rowkey Design" (hotspotting, salting, hashing, reversing the key, monotonically
increasing keys), 004 "Always check if any hot-spotting will happens" and 003 "Pre-Split
Regions to Avoid Region Hotspots" (the balancer's even spread of regions needs well-distributed
keys).

Every variant writes the same records (a timestamp 1 ms apart and one of `entities` metrics,
round robin) into a table pre-split into `regions` regions over the region servers. The split
points are the ones a designer would choose for the design: the salt buckets or the hash prefix
space, the reversed digits, the metric names for keys that lead with the metric (between two
metrics, so no metric's rows straddle two regions), and for timestamp-lead keys the quantiles of
yesterday's keys. Splits are disabled so the pre-split layout is what is measured.

Then two reads: every record of the last 1% of the time span (a time-range read), and 100
point reads of known records.

Two more variants ask what the balancer can do about a hot spot (seed 003 "Pre-Split Regions
to Avoid Region Hotspots"): the timestamp-lead and the salted table start with all their
regions on one server (moved there with Admin.move, as a table whose other servers joined
later would have them). Half the records are written, the balancer runs once (HBase 2's
StochasticLoadBalancer, as its chore would), and the other half are written; the busiest
server's share of each half's writes is measured. The balancer evens out the region count per
server either way; only the salted keys' writes follow the regions, as the timestamp-lead
table's writes all go to its one last region, wherever it is. These two variants make no
reads.
"""

from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric, option
from hsim.scenario.readers import (record_time_range_read, record_write_spread,
                                   record_write_throughput)
from hsim.scenario.setup import create_table
from hsim.scenario.timeseries import history_sample, record_value
from hsim.workloads.keys import (FieldSwap, HashedPrefix, ReversedDigits, Salted, TimestampLead,
                                 entity_split_keys)

scenario = Scenario(
    "hotspotting",
    "timestamp-lead keys vs salted, hashed, reversed and field-swap keys: write spread, "
    "simulated throughput, read cost",
    sizes={"small": 4000, "default": 40000, "large": 200000},
    servers=4,
    scale=1 / 256,
    params={"regions": 16, "entities": 64, "value_bytes": 100},
    sweep={"regions": [8, 32]},
    ops_meaning="records written per variant",
)

scenario.variant("timestamp_lead", "[ts:8][metric]: the timestamp leads the key",
                 design=lambda p, seed: TimestampLead())
scenario.variant("salted", "[salt:1][ts][metric]: a random salt, one per region",
                 design=lambda p, seed: Salted(buckets=p["regions"], seed=seed))
scenario.variant("hashed_prefix", "[md5(key)[0]][ts][metric]: a one-byte hash prefix",
                 design=lambda p, seed: HashedPrefix(k=1))
scenario.variant("reversed", "[ts digits reversed][metric]: the fastest-changing digit leads",
                 design=lambda p, seed: ReversedDigits())
scenario.variant("field_swap", "[metric][ts:8]: the metric leads (OpenTSDB's order), split "
                 "between metrics", design=lambda p, seed: FieldSwap(), entity_splits=True)
scenario.variant("timestamp_lead_rebalanced", "timestamp-lead keys, every region on one "
                 "server, the balancer run halfway through the writes",
                 design=lambda p, seed: TimestampLead(), rebalance=True)
scenario.variant("salted_rebalanced", "salted keys, every region on one server, the balancer "
                 "run halfway through the writes",
                 design=lambda p, seed: Salted(buckets=p["regions"], seed=seed), rebalance=True)

COLUMN = b"d:v"


@scenario.run
def run(ctx, variant):
    p = ctx.params
    design = variant["design"](p, ctx.seed)
    entities = [b"metric%03d" % i for i in range(p["entities"])]
    if variant.params.get("entity_splits"):
        splits = entity_split_keys(entities, p["regions"])
    else:
        splits = design.split_keys(p["regions"], history_sample(design, entities, ctx.clock.now()))
    table = create_table(ctx, "ts", {"d": {}}, split_keys=splits, split_enabled=False)
    pad = b"x" * max(0, p["value_bytes"] - 8)
    if variant.params.get("rebalance"):
        _rebalanced(ctx, table, design, entities, pad)
        return

    # writes: ops records, one per ms, metrics round robin
    written = []
    for i in range(ctx.ops):
        ts = ctx.clock.now()
        e = entities[i % len(entities)]
        table.put(design.row_key(ts, e), {COLUMN: record_value(ts, pad)}, timestamp=ts)
        written.append((ts, e))
        ctx.tick()
    record_write_spread(ctx, "ts")
    record_write_throughput(ctx, ops=ctx.ops)

    # a time-range read: every record of the last 1% of the span
    t0, t1 = written[0][0], written[-1][0] + 1
    lo = t1 - max(1, (t1 - t0) // 100)
    before = ctx.loads()
    read = record_time_range_read(ctx, table, design, lo, t1, entities, "time-range read")
    ctx.record_cost("time_range_read_ms", before, ops=read["scans"],
                    label="time-range read: makespan")

    # point reads of 100 known records: the rows a reader must try
    gets = 0
    found = 0
    rng = ctx.shared_rng()
    for _ in range(100):
        ts, e = written[rng.randrange(len(written))]
        for row in design.point_rows(ts, e):
            gets += 1
            if table.get(row):
                found += 1
                break
    ctx.record("gets_per_point_read", gets / 100, "point read: gets (until found)")
    ctx.record("point_reads_found", found, "point read: found (of 100)")


def _server_writes(ctx) -> dict:
    return {s.name: s.write_requests for s in ctx.cluster.metrics().servers}


def _busiest_share(before: dict, after: dict) -> float:
    """The busiest server's share of the writes between two _server_writes."""
    delta = [after[n] - before.get(n, 0) for n in after]
    return max(delta) / max(1, sum(delta))


def _rebalanced(ctx, table, design, entities, pad) -> None:
    """Every region on the first server; half the records, one balancer run, the other half:
    the busiest server's share of each half's writes, and the regions per server."""
    first = ctx.cluster.region_servers[0].name
    for r in ctx.admin.regions("ts"):
        ctx.admin.move(r.encoded_name, first)
    per_server = [s.regions for s in ctx.cluster.metrics().servers]
    ctx.record("max_regions_per_server_before", max(per_server),
               "most regions on one server, before the balancer")
    shares = []
    for half in range(2):
        if half:
            moves = ctx.admin.balance()
            ctx.record("balancer_moves", len(moves), "regions the balancer moved")
            per_server = [s.regions for s in ctx.cluster.metrics().servers]
            ctx.record("max_regions_per_server_after", max(per_server),
                       "most regions on one server, after the balancer")
        before = _server_writes(ctx)
        for i in range(half * ctx.ops // 2, (half + 1) * ctx.ops // 2):
            ts = ctx.clock.now()
            table.put(design.row_key(ts, entities[i % len(entities)]),
                      {COLUMN: record_value(ts, pad)}, timestamp=ts)
            ctx.tick()
        shares.append(_busiest_share(before, _server_writes(ctx)))
    ctx.record("write_share_before_balance", shares[0],
               "busiest server's share of the writes before the balancer", "%")
    ctx.record("write_share_after_balance", shares[1],
               "busiest server's share of the writes after the balancer", "%")


scenario.claim(
    "monotonically increasing keys pound one region, and so one server",
    seed="000", section="Monotonically Increasing Row Keys/Timeseries Data",
    quote="an import process walks in lock-step with all clients in concert pounding one of "
          "the table's regions (and thus, a single node), then moving onto the next region, "
          "etc. With monotonically increasing row-keys (i.e., using a timestamp), this will "
          "happen.",
    criterion=(metric("timestamp_lead", "max_server_write_share") >= 0.9)
              & (metric("timestamp_lead", "regions_written") == 1),
    covers=(11,))


scenario.claim(
    "timestamp-lead keys append to the bottom of the table",
    seed="004", section="Modeling for even distribution of data and load",
    quote="if you’re inserting time-series data, and the timestamp is at the beginning of the "
          "rowkey, you’re always appending to the bottom of the table ... you’ll hot-spot on "
          "the last region of the table.",
    criterion=metric("timestamp_lead", "last_region_write_share") >= 0.99,
    covers=(14,))


scenario.claim(
    "salting spreads the writes over the regions",
    seed="000", section="Rowkey Design > Hotspotting > Salting",
    quote="Since you can now write to four separate regions, you theoretically have four times "
          "the throughput when writing that you would have if all the writes were going to the "
          "same region.",
    proposition="Since you can now write to four separate regions",
    criterion=(metric("salted", "write_hotspot_ratio") < 1.5)
              & (metric("salted", "regions_written") >= 4),
    covers=(6,))


scenario.claim(
    "spread writes multiply the write throughput",
    seed="000", section="Rowkey Design > Hotspotting > Salting",
    quote="Since you can now write to four separate regions, you theoretically have four times "
          "the throughput when writing that you would have if all the writes were going to the "
          "same region.",
    proposition="you theoretically have four times the throughput when writing",
    # the cost model's throughput of writes spread evenly is the servers' count over the
    # busiest one's share: arithmetic of the spread above, not a further measurement
    kind="arithmetic",
    criterion=metric("salted", "write_throughput") / metric("timestamp_lead", "write_throughput")
              >= 0.75 * option("servers"),
    covers=(6,))


scenario.claim(
    "salting costs reads: a time-range read needs one scan per salt, a Get one try per salt",
    seed="000", section="Rowkey Design > Hotspotting > Salting",
    quote="Since this assignment will be random, you will need to do more work if you want to "
          "retrieve the rows in lexicographic order. In this way, salting attempts to increase "
          "throughput on writes, but has a cost during reads.",
    proposition="you will need to do more work if you want to retrieve the rows in "
                "lexicographic order",
    criterion=(metric("salted", "time_range_scans")
               > metric("timestamp_lead", "time_range_scans"))
              & (metric("salted", "gets_per_point_read")
                 > metric("timestamp_lead", "gets_per_point_read")),
    extras=metric("salted", "time_range_read_ms") > metric("timestamp_lead",
                                                            "time_range_read_ms"),
    covers=(7, 16))


scenario.claim(
    "a one-way hash spreads writes yet lets a reader rebuild the key for a Get",
    seed="000", section="Rowkey Design > Hotspotting > Hashing",
    quote="Using a deterministic hash allows the client to reconstruct the complete rowkey and "
          "use a Get operation to retrieve that row as normal.",
    criterion=(metric("hashed_prefix", "write_hotspot_ratio") < 1.5)
              & (metric("hashed_prefix", "gets_per_point_read") == 1)
              & (metric("hashed_prefix", "point_reads_found") == 100),
    covers=(8,))


scenario.claim(
    "reversing the key spreads writes but loses row order",
    seed="000", section="Rowkey Design > Hotspotting > Reversing the Key",
    quote="This effectively randomizes row keys, but sacrifices row ordering properties.",
    criterion=(metric("reversed", "write_hotspot_ratio") < 1.5)
              & (metric("reversed", "time_range_rows_read")
                 > 10 * metric("reversed", "time_range_rows_wanted")),
    covers=(10,))


scenario.claim(
    "with the metric ahead of the timestamp, puts spread over the table",
    seed="000", section="Monotonically Increasing Row Keys/Timeseries Data",
    quote="Thus, even with a continual stream of input data with a mix of metric types, the "
          "Puts are distributed across various points of regions in the table.",
    criterion=metric("field_swap", "write_hotspot_ratio") < 1.5,
    covers=(13,))


scenario.claim(
    "the balancer spreads the regions, but only well-distributed keys spread the writes",
    seed="003", section="Pre-Split Regions to Avoid Region Hotspots",
    quote="A better practice is to create a fixed number of regions and evenly distribute those "
          "regions across all the region servers by estimating how big the table will be and "
          "knowing the number of region servers you have. Of course, you also have to make sure "
          "your rowkeys are well-distributed across all the regions.",
    proposition="evenly distribute those regions across all the region servers ... Of course, "
                "you also have to make sure your rowkeys are well-distributed across all the "
                "regions.",
    # the balancer evens out the regions (no server above the mean + 1) for both key designs;
    # afterwards the salted keys' writes spread (the busiest server near 1/servers) while the
    # timestamp-lead keys' one hot region keeps its server at (nearly) every write
    criterion=(each(("timestamp_lead_rebalanced", "salted_rebalanced"),
                    "max_regions_per_server_after")
               <= option("regions") / option("servers") + 1)
              & (metric("timestamp_lead_rebalanced", "write_share_after_balance") >= 0.9)
              & (metric("salted_rebalanced", "write_share_after_balance")
                 <= 1.5 / option("servers")),
    extras=each(("timestamp_lead_rebalanced", "salted_rebalanced"),
                "write_share_before_balance") >= 0.99,
    covers=(36,))
