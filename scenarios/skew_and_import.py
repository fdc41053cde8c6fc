"""Skew and import order: a monotonic import with splitting on (the hot region moving on), the
same import in random order, hashing that keeps pairs of keys in one region, and skewed keys
(Benford's law, the /product namespace, timestamps) with managed splitting (a pre-split at
the quantiles of a sample, splitting off) or automatic splitting.

Seed claims: 000 "Rowkey Design > Hotspotting > Hashing" and "Monotonically Increasing Row
Keys/Timeseries Data"; 002 "Row Locality > adjacency is bad". The stalled_import variants
measure the write stalls of an import whose compactions cannot keep up (updatesBlockedTime),
with and without pre-splits.

Four region servers. Tables with splitting on start as one region and split by the default
policy (SteppingSplitPolicy at the scaled sizes); the balancer runs every twentieth of the load,
as HBase's balancer chore would, so daughters spread over the servers. Managed tables are
pre-split into `regions` regions at the quantiles of a sample of earlier keys (for
timestamps: yesterday's) with splitting off. Every variant of a test writes the same records.

Write throughput comes from the cost model's timeline: in key order every client
waits on the one server holding the last region, so the sorted import runs at one server's
pace however its regions spread over the run. The randomizing claim is judged on the pile-up
of the moment the seed describes (each window's busiest region against the mean); the whole
import's busiest server and the throughput are reported beside it as extras.
"""

import bisect
import hashlib
import math
import tempfile

from hsim import bulk
from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.measure import write_spread
from hsim.scenario.parts import by_test
from hsim.scenario.readers import record_time_per_op, record_write_throughput
from hsim.scenario.setup import create_table
from hsim.workloads.keys import quantile_split_keys

DAY = 86_400_000

scenario = Scenario(
    "skew_and_import",
    "a monotonic import with splits on (the hot region moving) vs random order; hashing "
    "keeping key pairs in one region; skewed keys with managed vs automatic splitting",
    sizes={"small": 12000, "default": 60000, "large": 240000, "sweep": 24000},
    servers=4,
    scale=1 / 256,
    params={"regions": 16, "windows": 20, "value_bytes": 200},
    sweep={"regions": [8, 32]},
    ops_meaning="records written per variant",
)

scenario.variant("sorted_import", "sequence keys imported in key order, splits on",
                 test="import", shuffle=False)
scenario.variant("randomized_import", "the same records in random order, splits on",
                 test="import", shuffle=True)
# Write stalls (docs/engine.md, "Compaction queue and write stalls"): the sorted import with
# compactions on cluster time, into one region (splits off) or pre-split into `regions`
# regions; small flushes and a slow compaction disk (64 KiB flushes, 32-64 KiB/s) so that the
# one region's compactions fall behind its flushes
_STALLS = {"compaction_throughput_controller": "pressure_aware", "memstore_flush_size": 64 << 10,
           "compaction_throughput_lower_bound": 32 << 10,
           "compaction_throughput_higher_bound": 64 << 10}
scenario.variant("stalled_import", "sequence keys in key order into one region, compactions "
                 "throttled", config=_STALLS, test="import", shuffle=False, presplit=False)
scenario.variant("stalled_import_presplit", "the same, pre-split into `regions` regions",
                 config=_STALLS, test="import", shuffle=False, presplit=True)
scenario.variant("bulk_import", "the same records as HFiles (hsim.bulk.write_hfiles) "
                 "bulk-loaded into a table pre-split into `regions` regions", test="import",
                 shuffle=False, bulk=True)
scenario.variant("hashed_pairs", "[md5(user)[0]][user][kind]: a user's profile and orders "
                 "share the hash prefix", test="pairs", hashed=True)
scenario.variant("salted_pairs", "[random salt][user][kind]: each row its own salt",
                 test="pairs", hashed=False)
scenario.variant("benford_auto", "street addresses (first digits by Benford's law), one "
                 "region, splits on", test="skew", keys="benford", managed=False)
scenario.variant("benford_managed", "the same, pre-split at a sample's quantiles, splits off",
                 test="skew", keys="benford", managed=True)
scenario.variant("product_auto", "URL paths, most under /product, one region, splits on",
                 test="skew", keys="product", managed=False)
scenario.variant("product_managed", "the same, pre-split at a sample's quantiles, splits off",
                 test="skew", keys="product", managed=True)
scenario.variant("timestamp_auto", "timestamp keys, one region, splits on", test="skew",
                 keys="timestamp", managed=False)
scenario.variant("timestamp_managed", "timestamp keys, pre-split at yesterday's quantiles, "
                 "splits off", test="skew", keys="timestamp", managed=True)


_SPREAD = [("max_server_write_share", "busiest server's share of all writes", "%"),
           ("last_region_write_share", "last region's share of all writes", "%"),
           ("regions_written", "regions that took writes", ""),
           ("regions", "regions at the end", "")]


def _load(ctx, table_name, keys, p, balance=True, plot=False):
    """Put every key in order; per window of the load, the busiest region's share of that
    window's writes and where it lies (the share of all the keys that sort before its start:
    0 for the first region)."""
    table = ctx.table(table_name)
    pad = b"v" * p["value_bytes"]
    window = max(1, len(keys) // p["windows"])
    ordered = sorted(keys) if plot else []
    seen: dict = {}
    shares, ratios, hot = [], [], []
    before = ctx.loads()
    for n, key in enumerate(keys, 1):
        table.put(key, {b"d:v": pad})
        ctx.tick()
        if n % window and n != len(keys):
            continue
        regions = sorted((r for r in ctx.cluster.metrics().regions if r.table == table_name),
                         key=lambda r: r.start_key)
        delta = [r.write_requests - seen.get(r.name, 0) for r in regions]
        seen = {r.name: r.write_requests for r in regions}
        busiest = max(range(len(regions)), key=delta.__getitem__)
        shares.append(delta[busiest] / max(1, sum(delta)))
        ratios.append(shares[-1] * len(regions))  # busiest / mean over the regions there were
        hot.append(regions[busiest].start_key)
        if plot:
            ctx.point("busiest region's start in the key space", n,
                      bisect.bisect_left(ordered, regions[busiest].start_key) / len(keys))
        if balance:
            ctx.admin.balance()
    record_write_throughput(ctx, before, len(keys))
    ctx.record("window_busiest_region_share", sum(shares) / len(shares),
               "busiest region's share of each window's writes (mean)", "%")
    ctx.record("window_hotspot_ratio", sum(ratios) / len(ratios),
               "busiest region / mean region, each window's writes (mean over windows)", "x")
    ctx.record("hot_regions_over_time", len(set(hot)),
               "regions that were the busiest in some window")
    spread = write_spread(ctx.cluster, table_name)
    for key, label, unit in _SPREAD:
        ctx.record(key, spread[key], label, unit)


def _import(ctx, variant, p):
    keys = [b"%012d" % n for n in range(ctx.ops)]
    if variant["shuffle"]:
        ctx.shared_rng().shuffle(keys)
    # MAX_FILESIZE set so the import ends in about `regions` regions (the stepping policy's
    # cap at the scaled default would stop splitting after the first few)
    size = ctx.ops * (p["value_bytes"] + 40) // p["regions"]
    before = ctx.loads()
    start = ctx.clock.now()
    presplit = variant.params.get("presplit")
    if variant.params.get("bulk"):
        _bulk_import(ctx, keys, p, size)
    elif presplit is None:
        ctx.admin.create_table("import", ["d"], max_filesize=size)
    else:  # the stall variants: splitting off, one region or `regions` at equal key ranges
        split_keys = [b"%012d" % (ctx.ops * i // p["regions"]) for i in range(1, p["regions"])]
        ctx.admin.create_table("import", ["d"], split_keys=split_keys if presplit else None,
                               split_enabled=False)
    if not variant.params.get("bulk"):
        _load(ctx, "import", keys, p, plot=True)
    servers = ctx.cluster.metrics().servers
    ctx.record("updates_blocked_ms", sum(s.updates_blocked_ms for s in servers),
               "cluster time updates were blocked (updatesBlockedTime)", "ms")
    ctx.record("blocked_requests", sum(s.blocked_requests for s in servers),
               "updates blocked at the MemStore limit (blockedRequestCount)")
    ctx.record("import_cluster_ms", ctx.clock.now() - start,
               "cluster time the import took", "ms")
    _record_import_io(ctx, before, keys, p)


def _bulk_import(ctx, keys, p, size):
    """HFileOutputFormat2 + completebulkload: one file per region, no MemStore, no WAL edit
    (a BULK_LOAD marker per region)."""
    step = len(keys) // p["regions"]
    splits = sorted(keys)[step::step][:p["regions"] - 1]
    ctx.admin.create_table("import", ["d"], max_filesize=size, split_keys=splits)
    pad = b"v" * p["value_bytes"]
    with tempfile.TemporaryDirectory() as d:
        bulk.write_hfiles(ctx.table("import"), [(k, b"d", b"v", None, pad) for k in keys], d)
        ctx.admin.bulk_load("import", d)
    ctx.tick(len(keys))


def _record_import_io(ctx, before, keys, p):
    """What the import cost the cluster: WAL bytes, compaction I/O, bytes written per byte of
    data (WAL + store files flushed, compacted or bulk-loaded), and its simulated time."""
    m = ctx.cluster.metrics()
    data = sum(len(k) + 2 + p["value_bytes"] for k in keys)  # row, family, qualifier, value
    wal = sum(s.wal_bytes_written for s in m.servers)
    files = sum(sf.size for r in ctx.cluster.master.tables["import"].locator.regions
                for s in r.stores.values() for sf in s.files if sf.reader.bulk_loaded)
    written = wal + sum(s.bytes_flushed + s.compaction_bytes_written for s in m.servers) + files
    ctx.record("import_wal_bytes", wal, "WAL bytes written by the import", "B")
    ctx.record("import_compaction_bytes_read", sum(s.compaction_bytes_read for s in m.servers),
               "compaction bytes read", "B")
    ctx.record("import_compaction_bytes_written",
               sum(s.compaction_bytes_written for s in m.servers), "compaction bytes written", "B")
    ctx.record("import_write_amplification", written / data,
               "bytes written (WAL + store files) per byte of data", "x")
    ctx.record_cost("import_time", before, label="makespan of the import")


def _user_key(hashed: bool, user: int, kind: bytes, rng) -> bytes:
    u = b"user%07d" % user
    prefix = hashlib.md5(u).hexdigest()[0] if hashed else "%x" % rng.randrange(16)
    return prefix.encode() + u + kind


def _pairs(ctx, variant, p):
    """Users, each with a profile row and an orders row: are the two in one region, and
    what does reading both cost."""
    rng = ctx.rng  # the salt is random: the variant's own draws
    users = ctx.ops // 2
    splits = [b"%x" % i for i in range(1, 16)]
    table = create_table(ctx, "users", ["d"], split_keys=splits, split_enabled=False)
    pad = b"v" * p["value_bytes"]
    where = {}
    for u in range(users):
        for kind in (b"#profile", b"#orders"):
            key = _user_key(variant["hashed"], u, kind, rng)
            table.put(key, {b"d:v": pad})
            where.setdefault(u, []).append(key)
        ctx.tick(2)
    same = sum(bisect.bisect(splits, a[:1]) == bisect.bisect(splits, b[:1])
               for a, b in where.values())
    ctx.record("pairs_in_one_region", same / users, "users whose two rows share a region", "%")
    asks = [ctx.shared_rng().randrange(users) for _ in range(200)]
    before = ctx.loads()
    found = 0
    for u in asks:  # hashed: the key is known, one Scan of the user's prefix; salted: one
        # Scan per salt bucket, since the reader cannot know the salts
        prefixes = ([where[u][0][:1]] if variant["hashed"] else [b"%x" % i for i in range(16)])
        for pre in prefixes:
            found += sum(1 for _ in table.scan(row_prefix=pre + b"user%07d#" % u))
    ctx.tick(len(asks))
    io = ctx.io(since=before)
    ctx.record("pair_read_rows", found / len(asks), "rows found per user read")
    ctx.record("pair_read_rpcs", io["read_requests"] / len(asks), "read RPCs per user read")
    record_time_per_op(ctx, "pair_read_ms", before, len(asks), "makespan per user read")


def _benford(rng) -> int:
    """A house number: first digit d with probability log10(1 + 1/d) (Benford's law)."""
    d = rng.choices(range(1, 10), weights=[math.log10(1 + 1 / d) for d in range(1, 10)])[0]
    return int(str(d) + "".join(str(rng.randrange(10)) for _ in range(rng.randrange(1, 4))))


_SECTIONS = [(b"/product/", 0.7), (b"/about/", 0.05), (b"/blog/", 0.1), (b"/help/", 0.05),
             (b"/laborday_2009_party/photos/", 0.02), (b"/search/", 0.08)]


def _skew_keys(kind, rng, n, start):
    if kind == "benford":
        return [b"%d main st #%07d" % (_benford(rng), i) for i in range(n)]
    if kind == "product":
        names, weights = zip(*_SECTIONS)
        return [rng.choices(names, weights)[0] + b"%08d" % rng.randrange(10 ** 8)
                for _ in range(n)]
    return [b"%013d" % (start + 4 * i) for i in range(n)]  # a timestamp every 4 ms


def _skew(ctx, variant, p):
    rng = ctx.shared_rng()
    kind = variant["keys"]
    now = ctx.clock.now()
    sample = _skew_keys(kind, rng, 2000, now - DAY)  # earlier keys: yesterday's
    keys = _skew_keys(kind, rng, ctx.ops, now)
    if variant["managed"]:
        ctx.admin.create_table("t", ["d"], split_keys=quantile_split_keys(sample, p["regions"]),
                               split_enabled=False)
    else:
        ctx.admin.create_table("t", ["d"])
    _load(ctx, "t", keys, p, balance=not variant["managed"])


scenario.run(by_test({"import": _import, "pairs": _pairs, "skew": _skew}))


scenario.claim(
    "a monotonic import pounds one region, then moves onto the next",
    seed="000", section="Monotonically Increasing Row Keys/Timeseries Data",
    quote="an import process walks in lock-step with all clients in concert pounding one of the "
          "table's regions (and thus, a single node), then moving onto the next region, etc. "
          "With monotonically increasing row-keys (i.e., using a timestamp), this will happen.",
    criterion=(metric("sorted_import", "window_busiest_region_share") >= 0.9)
              & (metric("sorted_import", "hot_regions_over_time") >= 3),
    covers=(11,))

scenario.claim(
    "randomizing the input order mitigates the pile-up on one region",
    seed="000", section="Monotonically Increasing Row Keys/Timeseries Data",
    quote="The pile-up on a single region brought on by monotonically increasing keys can be "
          "mitigated by randomizing the input records to not be in sorted order",
    # the pile-up the seed describes is of the moment: in each window of the import, the
    # busiest region against the mean of the regions the table had then (1 when even), not
    # where the whole import's writes ended up
    criterion=metric("randomized_import", "window_hotspot_ratio")
              < 0.5 * metric("sorted_import", "window_hotspot_ratio"),
    extras=(metric("randomized_import", "window_busiest_region_share")
            < 0.5 * metric("sorted_import", "window_busiest_region_share"))
           & (metric("randomized_import", "max_server_write_share")
            < metric("sorted_import", "max_server_write_share"))
           & (metric("randomized_import", "write_throughput")
              > metric("sorted_import", "write_throughput")),
    covers=(12,))

scenario.claim(
    "hashing keeps pairs of keys in one region, and the reader knows where",
    seed="000", section="Rowkey Design > Hotspotting",
    quote="You could also optimize things so that certain pairs of keys were always in the "
          "same region, for instance.",
    criterion=(metric("hashed_pairs", "pairs_in_one_region") == 1)
              & (metric("salted_pairs", "pairs_in_one_region") < 0.2)
              & (each(("hashed_pairs", "salted_pairs"), "pair_read_rows") == 2)
              & (metric("hashed_pairs", "pair_read_rpcs")
                 < 0.25 * metric("salted_pairs", "pair_read_rpcs")),
    covers=(9,))

scenario.claim(
    "skewed keys (Benford's law, /product): managed splitting spreads the writes",
    seed="002", section="Row Locality > adjacency is bad",
    quote="a phenomenon known as Benford's law means that addresses beginning with '1' are far "
          "more frequent than addresses beginning with '9' ... In this case, "
          "file:///data/docs/hbase.apache.org/book.html#important_configurations[managed "
          "splitting] (pre-assigning a rough partition of the keyspace to different regions) is "
          "likely to help.",
    criterion=(metric("benford_managed", "max_server_write_share")
               < metric("benford_auto", "max_server_write_share"))
              & (metric("product_managed", "max_server_write_share")
                 < metric("product_auto", "max_server_write_share"))
              & (metric("benford_managed", "write_throughput")
                 > metric("benford_auto", "write_throughput"))
              & (metric("product_managed", "write_throughput")
                 > metric("product_auto", "write_throughput")),
    covers=(37,))

scenario.claim(
    "managed splitting won't help timestamp keys: the focal point moves",
    seed="002", section="Row Locality > adjacency is bad",
    quote="Managed splitting won't help for "
          "http://ikaisays.com/2011/01/25/app-engine-datastore-tip-monotonically-increasing-"
          "values-are-bad/[timestamp keys and other monotonically increasing values] though, "
          "because the focal point moves constantly.",
    criterion=(metric("timestamp_managed", "last_region_write_share") >= 0.99)
              & (metric("timestamp_managed", "max_server_write_share") >= 0.99)
              & (metric("timestamp_managed", "write_throughput")
                 <= 1.1 * metric("timestamp_auto", "write_throughput")),
    covers=(15,))

scenario.line_chart("hot_region", "import: where each window's busiest region starts",
                    "busiest region's start in the key space", xlabel="records written",
                    ylabel="share of the keys before it", unit="%")
scenario.bar_chart("server_share", "the busiest server's share of the writes",
                   ["max_server_write_share"])
