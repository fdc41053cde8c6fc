"""Log data: the HBase book's case study. Hostname, timestamp, log event and message, keyed four
ways: timestamp first, bucketed timestamp first, host and event first, and host and event first
with a reverse timestamp.

Seed claims: 000 "Case Study - Log Data and Timeseries Data" (timestamp in the lead position,
bucketing, host in the lead position, timestamp or reverse timestamp, the reverse scan API).

Every variant writes the same log stream (one record per ms from a random host and event) into
a table pre-split into `regions` regions over the servers, at split points that suit the key
(bucket prefixes, or the quantiles of yesterday's keys); splits are off. Then two reads: every
event of the last 1% of the time (all hosts), and the 10 most recent events of 10 host/event
pairs, read the cheapest way the key allows (for buckets: newest first in each bucket until 10
are found, an upper bound).
"""

from hsim.scenario import Scenario
from hsim.scenario.criteria import metric, option
from hsim.scenario.readers import (record_time_range_read, record_write_spread,
                                   record_write_throughput)
from hsim.scenario.setup import create_table
from hsim.scenario.timeseries import history_sample, record_value
from hsim.workloads.keys import (BucketedTimestamp, FieldSwap, ReverseTimestamp, TimestampLead,
                                bucket_prefix)

scenario = Scenario(
    "log_data",
    "the log-data case study: [ts][host][event] vs [host][event][ts] vs bucketed vs reverse "
    "timestamps: write spread, time-range reads, most-recent reads",
    sizes={"small": 5000, "default": 40000, "large": 200000},
    servers=4,
    scale=1 / 256,
    params={"regions": 16, "hosts": 32, "events": 4, "buckets": 32, "recent": 10,
            "value_bytes": 100},
    sweep={"buckets": [8, 64]},
    ops_meaning="log records written per variant",
)

scenario.variant("ts_lead", "[timestamp][hostname][log-event]", design=lambda p: TimestampLead())
scenario.variant("bucketed", "[timestamp % buckets][timestamp][hostname][log-event]",
                 design=lambda p: BucketedTimestamp(buckets=p["buckets"]))
scenario.variant("host_lead", "[hostname][log-event][timestamp]", design=lambda p: FieldSwap())
scenario.variant("host_lead_reverse_ts", "[hostname][log-event][Long.MAX_VALUE - timestamp]",
                 design=lambda p: ReverseTimestamp())


@scenario.run
def run(ctx, variant):
    p = ctx.params
    design = variant["design"](p)
    entities = [b"host%03d" % h + b"ev%02d" % e for h in range(p["hosts"])
                for e in range(p["events"])]
    history = history_sample(design, entities, ctx.clock.now())
    table = create_table(ctx, "log", {"d": {}}, split_enabled=False,
                              split_keys=design.split_keys(p["regions"], history))
    pad = b"m" * max(0, p["value_bytes"] - 8)
    rng = ctx.shared_rng()
    first = ctx.clock.now()
    for _ in range(ctx.ops):
        ts = ctx.clock.now()
        table.put(design.row_key(ts, entities[rng.randrange(len(entities))]),
                  {b"d:m": record_value(ts, pad)}, timestamp=ts)
        ctx.tick()
    last = ctx.clock.now()

    record_write_spread(ctx, "log", "max_server_write_share", "write_hotspot_ratio")
    record_write_throughput(ctx, ops=ctx.ops)

    lo = last - max(1, (last - first) // 100)
    before = ctx.loads()
    record_time_range_read(ctx, table, design, lo, last, entities, "last 1% of time")
    ctx.record_cost("time_range_ms", before, ops=1, label="last 1% of time: makespan")

    sample = [entities[rng.randrange(len(entities))] for _ in range(10)]
    k = p["recent"]
    rows = sum(_most_recent(table, variant.name, design, e, k) for e in sample)
    ctx.record("recent_rows_read", rows / len(sample),
               f"{k} most recent of a host/event: rows read")
    if variant.name == "host_lead":
        rows = sum(_reverse_scan(table, e, k) for e in sample)
        ctx.record("recent_rows_read_reversed", rows / len(sample),
                   f"{k} most recent, reversed scan: rows read")


def _most_recent(table, name, design, entity, k) -> int:
    """Rows read to find the k newest records of `entity`, the cheapest way the key allows."""
    if name == "host_lead_reverse_ts":  # newest first under the entity's prefix
        return sum(1 for _ in table.scan(row_prefix=entity, limit=k, caching=k))
    if name == "host_lead":  # oldest first: read them all, keep the last k
        return sum(1 for _ in table.scan(row_prefix=entity))
    if name == "ts_lead":  # newest first over the whole table, until k are the entity's
        return _until(table.scan(reversed=True, caching=100), entity, k)
    # bucketed: newest first in every bucket, then merge
    return sum(_until(table.scan(row_prefix=bucket_prefix(b, design.buckets), reversed=True,
                                 caching=100), entity, k)
               for b in range(design.buckets))


def _until(rows, entity, k) -> int:
    read = found = 0
    for cells in rows:
        read += 1
        if cells[0].row.endswith(entity):
            found += 1
            if found == k:
                break
    return read


def _reverse_scan(table, entity, k) -> int:
    """HBASE-4811's reversed scan: the newest rows of an entity without a reverse timestamp."""
    stop = entity[:-1] + bytes([entity[-1] + 1])
    return sum(1 for _ in table.scan(start_row=stop, stop_row=entity, reversed=True, limit=k,
                                     caching=k))


scenario.claim(
    "a timestamp in the lead position hotspots",
    seed="000", section="Case Study - Log Data and Timeseries Data > Timestamp In The Rowkey "
                        "Lead Position",
    quote="The rowkey `[timestamp][hostname][log-event]` suffers from the monotonically "
          "increasing rowkey problem described in <<timeseries,timeseries>>.",
    criterion=metric("ts_lead", "max_server_write_share") >= 0.9,
    covers=(53,))


scenario.claim(
    "buckets spread the writes but cost one scan per bucket",
    seed="000", section="Case Study - Log Data and Timeseries Data > Timestamp In The Rowkey "
                        "Lead Position",
    quote="Attention must be paid to the number of buckets, because this will require the same "
          "number of scans to return results. ... 100 buckets, for example, will provide a "
          "wide distribution in the keyspace but it will require 100 Scans to obtain data for "
          "a single timestamp, so there are trade-offs.",
    criterion=(metric("bucketed", "write_hotspot_ratio") < 1.5)
              & (metric("bucketed", "time_range_scans") == option("buckets"))
              & (metric("ts_lead", "time_range_scans") == 1),
    covers=(54,))


scenario.claim(
    "host first spreads writes when there are many hosts",
    seed="000", section="Case Study - Log Data and Timeseries Data > Host In The Rowkey Lead "
                        "Position",
    quote="The rowkey `[hostname][log-event][timestamp]` is a candidate if there is a large-ish "
          "number of hosts to spread the writes and reads across the keyspace.",
    criterion=metric("host_lead", "write_hotspot_ratio") < 1.5,
    covers=(55,))


scenario.claim(
    "reverse timestamps make the newest events the first rows of a scan",
    seed="000", section="Case Study - Log Data and Timeseries Data > Timestamp, or Reverse "
                        "Timestamp?",
    quote="If the most important access path is to pull most recent events, then storing the "
          "timestamps as reverse-timestamps (e.g., `timestamp = Long.MAX_VALUE – timestamp`) "
          "will create the property of being able to do a Scan on `[hostname][log-event]` to "
          "obtain the quickly obtain the most recently captured events.",
    criterion=(metric("host_lead_reverse_ts", "recent_rows_read") == option("recent"))
              & (metric("host_lead", "recent_rows_read") > 2 * option("recent")),
    covers=(29,))


scenario.claim(
    "a reversed scan reads the newest events without a reverse timestamp",
    seed="000", section="Case Study - Log Data and Timeseries Data > Timestamp, or Reverse "
                        "Timestamp? (Reverse Scan API)",
    quote="implements an API to scan a table or a range within a table in reverse, reducing "
          "the need to optimize your schema for forward or reverse scanning.",
    criterion=metric("host_lead", "recent_rows_read_reversed") == option("recent"),
    covers=(30,))
