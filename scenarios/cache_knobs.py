"""Cache and block knobs: IN_MEMORY under cache pressure, BLOCKSIZE against value size, wide vs
narrow rows for a read of one column, block compression, column scans vs row scans, and
HBase's operations in order of efficiency.

Seed claims: 003 "In-Memory Column Families", "Column Family Block Size", "Column Scanning";
002's cache hit vs miss (the cold cache after a compaction or a move, and prefetch-on-open);
004's narrow row resident in the BlockCache (a full scan with and without cache_blocks);
004 "Target data access" and "Modeling for even distribution of data and load"; 002 "Row
Locality and Compression" and "Row Key, Column Family, Column Qualifier, Timestamp, Value".

Each pair of variants stores the same records (drawn from one seeded generator) two ways and
makes the same requests of both; every count comes from the cluster's metrics (blocks from the
block cache and from store files, RPCs, rows) and simulated time from the cost model. Store
files are flushed and major-compacted before the reads, so every variant reads one file per
region. "Cold" reads run with the table's blocks evicted from the block cache first. The
IN_MEMORY test sizes its data from the block cache (`cache_fraction`), so the cache is under
pressure at every --ops; `columns` is the wide row's width.

Two findings. IN_MEMORY helps little when the hot family is read often: LruBlockCache already
promotes a block read twice to the MULTI bucket (half the cache), where single-pass scans do
not reach it; IN_MEMORY caps the family at the memory bucket (a quarter), so a family bigger
than that misses more. And a Get of one column of a wide row seeks straight
to that column's block, as HBase's lazy seek does (StoreFileScanner.requestSeek: the row's
first block is read only when the file may hold a DeleteFamily marker for the row), so one item
of a wide row costs the same disk blocks as one item of a narrow row: "a wider row costs more
to read one item from" does not hold for a Get of one column; a wider row costs more when it
is read whole. The width test stores its rows in 8 KiB blocks, so a wide row spans many
blocks and a Get of one column can be seen reading one of them.

The block-size claim no longer holds since the cost model streams a long scan after
hbase.storescanner.pread.max.bytes (4 blocks, as HBase's StoreScanner does) and prices the
rest by bandwidth: a cold full scan of 4 KiB blocks is no slower per MB than of 64 KiB ones,
so only the index and cells-per-block parts of the claim stand.
"""

from hsim.filters import QualifierFilter
from hsim.filters.comparators import BinaryComparator
from hsim.scenario import Scenario
from hsim.scenario.criteria import metric
from hsim.scenario.measure import evict_table_blocks, family_totals, store_file_readers
from hsim.scenario.parts import by_test
from hsim.scenario.readers import blocks_since, record_time_per_op
from hsim.scenario.setup import MANUAL_FLUSHES, create_table, settle

KiB = 1024

scenario = Scenario(
    "cache_knobs",
    "IN_MEMORY under cache pressure, BLOCKSIZE vs value size, wide vs narrow rows, block "
    "compression, column vs row scans, and the cost of each kind of read",
    sizes={"small": 2000, "default": 8000, "large": 40000, "sweep": 8000},
    servers=1,
    scale=1 / 256,
    # flushes and compactions only where the scenario asks for them
    config={**MANUAL_FLUSHES,
            "compaction_min_files": 1000, "blocking_store_files": 100000},
    params={"reads": 400, "value_bytes": 100, "big_value_bytes": 16 * KiB, "columns": 1000,
            "cache_fraction": 0.5, "ips": 100},
    sweep={"cache_fraction": [0.3, 0.7], "columns": [500, 2000]},
    ops_meaning="records stored per variant",
)

scenario.variant("lru", "hot family h (a fifth of the block cache) and bulk family b, both of "
                 "plain priority", test="cache", in_memory=False, hot_share=0.2)
scenario.variant("in_memory", "the same, with IN_MEMORY => true on the hot family h",
                 test="cache", in_memory=True, hot_share=0.2)
scenario.variant("in_memory_oversized", "IN_MEMORY => true on a hot family twice the memory "
                 "bucket (half the block cache)", test="cache", in_memory=True, hot_share=0.5)
scenario.variant("big_values_4k", "16 KiB values in 4 KiB blocks (BLOCKSIZE)", test="blocksize",
                 block_size=4 * KiB, big=True)
scenario.variant("big_values_64k", "16 KiB values in 64 KiB blocks (the default BLOCKSIZE)",
                 test="blocksize", block_size=64 * KiB, big=True)
scenario.variant("small_values_4k", "100 B values in 4 KiB blocks (BLOCKSIZE)", test="blocksize",
                 block_size=4 * KiB, big=False)
scenario.variant("narrow", "row [user][item], one column per row", test="width", wide=False)
scenario.variant("wide", "row [user], a column per item", test="width", wide=True)
scenario.variant("plain", "autocomplete-like rows, COMPRESSION => 'NONE'", test="compression",
                 compression="NONE")
scenario.variant("gz", "the same rows, COMPRESSION => 'GZ'", test="compression",
                 compression="GZ")
scenario.variant("row_scan", "log rows keyed [ip][log id]: a prefix scan per IP",
                 test="columns", ip_in_key=True)
scenario.variant("column_scan", "log rows keyed [log id] with an ip=ADDR tag column: a "
                 "QualifierFilter scan per IP", test="columns", ip_in_key=False)
scenario.variant("ops", "one table, each kind of request of the seed's list on warm data",
                 test="ops")
scenario.variant("enc_none", "rows of four 16-byte values with long coordinates (a 24-byte "
                 "row prefix, 11-byte qualifiers), twice the block cache, "
                 "DATA_BLOCK_ENCODING => 'NONE'",
                 test="encoding", encoding="NONE")
scenario.variant("enc_fast_diff", "the same rows, DATA_BLOCK_ENCODING => 'FAST_DIFF'",
                 test="encoding", encoding="FAST_DIFF")
scenario.variant("cold_cache", "hot rows read warm, then a major compaction and a region move "
                 "(default cache settings)", test="lifecycle", knob=None)
scenario.variant("prefetch_on_open", "the same with PREFETCH_BLOCKS_ON_OPEN => true",
                 test="lifecycle", knob="PREFETCH_BLOCKS_ON_OPEN")
scenario.variant("cache_on_write", "the same with CACHE_DATA_ON_WRITE => true", test="lifecycle",
                 knob="CACHE_DATA_ON_WRITE")
scenario.variant("scan_cache_blocks_on", "a hot set read once, then a full scan of a table "
                 "three times the cache (Scan.setCacheBlocks(true), the default)", test="fullscan",
                 cache_blocks=True)
scenario.variant("scan_cache_blocks_off", "the same full scan with cache_blocks=False",
                 test="fullscan", cache_blocks=False)


def _value(rng, n: int) -> bytes:
    """Text-like bytes: words from a small vocabulary, as records compress in practice."""
    words = (b"chime", b"chimp", b"china", b"chip", b"chirp", b"chisel", b"title", b"page",
             b"rank", b"link")
    out = bytearray()
    while len(out) < n:
        out += rng.choice(words) + b" "
    return bytes(out[:n])


def _cold(ctx, table: str = "t") -> None:
    evict_table_blocks(ctx.cluster, table)


def _files(ctx, table: str) -> list:
    return store_file_readers(ctx.cluster, table)


def _cache(ctx, variant, p):
    """Random Gets of a hot family while two jobs scan each slice of a bulk family, with a
    block cache `cache_fraction` of the data. The second scan of a slice promotes its blocks
    to the MULTI bucket, where a plain family's re-read blocks live too; IN_MEMORY blocks
    enter the memory bucket instead (LruBlockCache), which scans cannot take over."""
    hot_share = variant["hot_share"]
    table = create_table(ctx, "t", {"h": {"IN_MEMORY": variant["in_memory"], "BLOCKSIZE": 8 * KiB},
                                    "b": {}}, split_enabled=False)
    rng = ctx.shared_rng()
    cache = ctx.config.block_cache_size
    rows = ctx.ops // 4
    cell = 32  # a cell's key and length fields, about
    hot_bytes = max(10, int(hot_share * cache / rows) - cell)
    bulk_bytes = max(10, int((1 / p["cache_fraction"] - hot_share) * cache / rows) - cell)
    ctx.expect(rows + p["reads"] * 4)
    for i in range(rows):
        table.put(b"r%08d" % i, {b"h:v": _value(rng, hot_bytes),
                                 b"b:v": _value(rng, bulk_bytes)})
        ctx.tick()
    settle(ctx, "t")
    data = sum(r.uncompressed_data_size for r in _files(ctx, "t"))
    fams = family_totals(ctx.cluster, "t")
    ctx.record("cache_vs_data", cache / data, "block cache / data", "x")
    ctx.record("hot_family_vs_cache", fams["h"]["store_file_bytes"] / cache,
               "hot family / block cache", "x")
    _cold(ctx)
    before = ctx.loads()
    h0 = fams["h"]
    gets = 0
    slice_ = max(1, rows // 8)
    for _round in range(4):
        for start in range(0, rows, slice_):  # each slice of the bulk family, scanned twice
            for _job in range(2):
                for _ in table.scan(b"r%08d" % start, b"r%08d" % (start + slice_),
                                    columns=["b"], caching=100):
                    pass
            for _ in range(p["reads"] // 8):  # ... and hot Gets between the slices
                table.get(b"r%08d" % rng.randrange(rows), columns=[b"h:v"])
                gets += 1
                ctx.tick()
    h = family_totals(ctx.cluster, "t")["h"]
    hits, misses = h["cache_hits"] - h0["cache_hits"], h["cache_misses"] - h0["cache_misses"]
    ctx.record("hot_hit_ratio", hits / max(1, hits + misses), "hot Gets: block cache hit ratio",
               "%")
    ctx.record("hot_disk_blocks_per_get", misses / gets, "hot Gets: blocks from disk per Get")
    ctx.record_cost("cache_test_ms", before, label="scans + hot Gets: makespan")


def _blocksize(ctx, variant, p):
    """The same rows, values of `value_bytes` or `big_value_bytes`, in small or default blocks:
    a block holds whole cells, so a value larger than BLOCKSIZE makes a block per cell."""
    table = create_table(ctx, "t", {"d": {"BLOCKSIZE": variant["block_size"]}},
                              split_enabled=False)
    rng = ctx.shared_rng()
    size = p["big_value_bytes"] if variant["big"] else p["value_bytes"]
    rows = max(200, ctx.ops // 8) if variant["big"] else ctx.ops
    for i in range(rows):
        table.put(b"r%08d" % i, {b"d:v": _value(rng, size)})
        ctx.tick()
    settle(ctx, "t")
    files = _files(ctx, "t")
    blocks = sum(f.data_block_count for f in files)
    ctx.record("cells_per_block", rows / blocks, "cells per data block")
    ctx.record("index_bytes_per_mb", sum(f.index_size for f in files)
               / (sum(f.data_size for f in files) / 1e6), "block index per MB of data", "B")
    _cold(ctx)
    before = ctx.loads()
    scanned = sum(1 for _ in table.scan(caching=100))
    total, disk = blocks_since(ctx, before)
    mb = sum(f.data_size for f in files) / 1e6
    ctx.record("scan_disk_blocks_per_mb", disk / mb, "full scan: blocks from disk per MB")
    ctx.record_cost("scan_ms_per_mb", before, per=mb, label="full scan: makespan per MB")
    if scanned != rows:
        ctx.note(f"the scan returned {scanned} rows of {rows}")


def _width(ctx, variant, p):
    """The same items per user, as a row per item or a column per item; reads of one item and
    of one user's items. BLOCKSIZE 8 KiB, so the wide row spans many blocks (at 64 KiB it
    would take eight times the columns), as the wide rows the seeds mean do."""
    table = create_table(ctx, "t", {"d": {"BLOCKSIZE": 8 * KiB}}, split_enabled=False)
    rng = ctx.shared_rng()
    cols = p["columns"]
    users = max(2, ctx.ops // cols)
    wide = variant["wide"]
    for u in range(users):
        for i in range(cols):
            value = _value(rng, p["value_bytes"])
            if wide:
                table.put(b"u%06d" % u, {b"d:i%05d" % i: value})
            else:
                table.put(b"u%06d-i%05d" % (u, i), {b"d:v": value})
            ctx.tick()
    settle(ctx, "t")
    targets = [(rng.randrange(users), rng.randrange(cols)) for _ in range(p["reads"] // 4)]
    n = len(targets)

    def one_item(u, i):
        if wide:
            return table.get(b"u%06d" % u, columns=[b"d:i%05d" % i])
        return table.get(b"u%06d-i%05d" % (u, i))

    before = ctx.loads()
    for u, i in targets:  # cold: each read finds its block on disk
        _cold(ctx)
        assert len(one_item(u, i)) == 1
    total, disk = blocks_since(ctx, before)
    ctx.record("item_blocks_per_get", total / n, "one item: blocks touched per read")
    ctx.record("item_disk_blocks_per_get", disk / n, "one item, cold: blocks from disk per read")
    record_time_per_op(ctx, "item_cold_ms", before, n, "one item, cold: makespan per read")
    for u, i in targets:  # warm-up: the same reads load their blocks into the cache
        one_item(u, i)
    before = ctx.loads()
    for u, i in targets:  # warm: every block from the cache
        one_item(u, i)
    record_time_per_op(ctx, "item_warm_ms", before, n, "one item, warm: makespan per read")
    _cold(ctx)
    before = ctx.loads()
    for u, _ in targets:
        if wide:
            got = table.get(b"u%06d" % u)
        else:
            got = [c for row in table.scan(row_prefix=b"u%06d-" % u, caching=cols) for c in row]
        assert len(got) == cols
        _cold(ctx)
    total, disk = blocks_since(ctx, before)
    ctx.record("user_blocks_per_read", total / n, "all of a user's items: blocks per read")
    record_time_per_op(ctx, "user_ms", before, n,
                       "all of a user's items, cold: makespan per read")


def _compression(ctx, variant, p):
    """Autocomplete-like rows (sorted prefixes, repetitive text): one-cell Gets from disk and a
    prefix scan, uncompressed and GZ."""
    table = create_table(ctx, "t", {"d": {"COMPRESSION": variant["compression"],
                                          "BLOCKCACHE": False}}, split_enabled=False)
    rng = ctx.shared_rng()
    for i in range(ctx.ops):
        table.put(b"chi%07d" % i, {b"d:v": _value(rng, p["value_bytes"])})
        ctx.tick()
    settle(ctx, "t")
    files = _files(ctx, "t")
    ctx.record("store_bytes", sum(f.data_size for f in files), "data blocks on disk", "B")
    inflated = sum(f.uncompressed_data_size for f in files) / sum(f.data_block_count
                                                                 for f in files)
    ctx.record("block_bytes", inflated, "a data block, uncompressed", "B")
    before = ctx.loads()
    cell_bytes = 0
    for _ in range(p["reads"]):
        cells = table.get(b"chi%07d" % rng.randrange(ctx.ops))
        cell_bytes += sum(len(c.value) for c in cells)
    io = ctx.io(since=before)
    compressed = variant["compression"] != "NONE"
    ctx.record("inflated_per_wanted_byte", (io["blocks_read_from_disk"] * inflated if compressed
                                            else 0) / cell_bytes,
               "one-cell Gets: bytes decompressed per byte wanted", "x")
    ctx.record("bytes_read_per_get", sum(s.bytes_read for s in ctx.cluster.metrics().servers)
               / p["reads"], "one-cell Gets: bytes read from disk per Get", "B")


def _encoding(ctx, variant, p):
    """Random Gets of rows whose coordinates outweigh their values, with the unencoded data
    twice the block cache: the cache holds encoded blocks (at their encoded size), so an
    encoding decides how much of the table stays cached."""
    table = create_table(ctx, "t", {"d": {"DATA_BLOCK_ENCODING": variant["encoding"]}},
                         split_enabled=False)
    rng = ctx.shared_rng()
    quals = [b"attribute%02d" % i for i in range(4)]
    key_bytes = 20 + 34 + 1 + 11  # lengths, timestamp, type; row; family; qualifier
    value = 16
    # sized from the block cache, as the IN_MEMORY test is: unencoded, twice the cache
    rows = int(2 * ctx.config.block_cache_size / (len(quals) * (key_bytes + value)))
    ctx.expect(rows + 2 * p["reads"])
    for i in range(rows):
        table.put(b"com.example.www/service/%010d" % i,
                  {b"d:" + q: _value(rng, value) for q in quals})
        ctx.tick()
    settle(ctx, "t")
    files = _files(ctx, "t")
    cached = sum(f.uncompressed_data_size for f in files)
    ctx.record("data_bytes", sum(f.data_size for f in files), "data blocks on disk", "B")
    ctx.record("cached_bytes", cached, "all data blocks as the block cache holds them", "B")
    ctx.record("index_bytes", sum(f.index_size for f in files), "block index", "B")
    ctx.record("cache_vs_data", ctx.config.block_cache_size / cached,
               "block cache / data blocks as cached", "x")
    _cold(ctx)
    keys = [b"com.example.www/service/%010d" % rng.randrange(rows)
            for _ in range(2 * p["reads"])]
    for k in keys[:p["reads"]]:  # warm the cache with the same kind of Gets
        table.get(k)
        ctx.tick()
    f0 = family_totals(ctx.cluster, "t")["d"]
    for k in keys[p["reads"]:]:
        table.get(k)
        ctx.tick()
    f = family_totals(ctx.cluster, "t")["d"]
    hits, misses = f["cache_hits"] - f0["cache_hits"], f["cache_misses"] - f0["cache_misses"]
    ctx.record("blocks_per_get", (hits + misses) / p["reads"], "Gets: data blocks per Get")
    ctx.record("disk_blocks_per_get", misses / p["reads"], "Gets: blocks from disk per Get")
    ctx.record("hit_ratio", hits / max(1, hits + misses), "Gets: block cache hit ratio", "%")


def _column_scan(ctx, variant, p):
    """Log entries of `ips` addresses; the question: every entry of one IP."""
    table = create_table(ctx, "t", ["d"], split_enabled=False)
    rng = ctx.shared_rng()
    ips = [b"10.0.%d.%d" % (n // 256, n % 256) for n in range(p["ips"])]
    for i in range(ctx.ops):
        ip = rng.choice(ips)
        entry = _value(rng, p["value_bytes"])
        if variant["ip_in_key"]:
            table.put(ip + b"|%08d" % i, {b"d:entry": entry})
        else:
            table.put(b"%08d" % i, {b"d:entry": entry, b"d:ip=" + ip: b"%d" % 0})
        ctx.tick()
    settle(ctx, "t")
    queries = [rng.choice(ips) for _ in range(5)]
    before = ctx.loads()
    found = 0
    for ip in queries:
        _cold(ctx)
        if variant["ip_in_key"]:
            rows = table.scan(row_prefix=ip + b"|", caching=100)
        else:
            tag = QualifierFilter("=", BinaryComparator(b"ip=" + ip))
            rows = table.scan(filter=tag, caching=100)
        found += sum(1 for _ in rows)
    total, disk = blocks_since(ctx, before)
    ctx.record("entries_found", found, "entries of the 5 IPs found")
    ctx.record("blocks_per_query", total / len(queries), "blocks touched per IP query")
    record_time_per_op(ctx, "query_ms", before, len(queries), "makespan per IP query")


def _ops(ctx, variant, p):
    """The seed's list, each on warm data: (1) Get one serialized record, (2) Get a row's
    columns, (3) the first row at or after a key, (4) increment a counter, (5) scan a range of
    rows, (6) scan the whole table."""
    table = create_table(ctx, "t", ["r", "c", "n"], split_enabled=False)
    rng = ctx.shared_rng()
    rows = min(ctx.ops, ctx.config.block_cache_size // 2 // 700)  # warm: half the cache
    for i in range(rows):
        row = b"k%08d" % (2 * i)  # even keys: an odd key finds the next row
        table.put(row, {b"r:rec": _value(rng, p["value_bytes"]),
                        **{b"c:f%d" % f: _value(rng, p["value_bytes"] // 10) for f in range(10)},
                        b"n:count": (0).to_bytes(8, "big")})
        ctx.tick()
    settle(ctx, "t")
    for _ in table.scan(caching=1000):  # warm: every block in the cache
        pass
    keys = [rng.randrange(rows) for _ in range(p["reads"] // 4)]
    kinds = (
        ("get_record", lambda k: table.get(b"k%08d" % (2 * k), columns=[b"r:rec"])),
        ("get_columns", lambda k: table.get(b"k%08d" % (2 * k), columns=["c"])),
        ("first_row_at_or_after", lambda k: list(table.scan(b"k%08d" % (2 * k + 1), limit=1,
                                                            caching=1, columns=["r"]))),
        ("increment", lambda k: table.increment(b"k%08d" % (2 * k), b"n:count")),
        ("range_scan", lambda k: list(table.scan(b"k%08d" % (2 * k), limit=100,
                                                 caching=100))),
    )
    for name, op in kinds:
        before = ctx.loads()
        for k in keys:
            op(k)
        record_time_per_op(ctx, f"{name}_ms", before, len(keys),
                           f"{name.replace('_', ' ')}: makespan per op")
    before = ctx.loads()
    for _ in table.scan(caching=1000):
        pass
    ctx.record_cost("full_scan_ms", before, ops=1, label="full scan: makespan")


def _hot_reads(ctx, table, keys, key: str, what: str) -> None:
    """One Get of each hot row: the block cache's hit ratio and the time per Get."""
    before = ctx.loads()
    for k in keys:
        table.get(k)
        ctx.tick()
    touched, disk = blocks_since(ctx, before)
    ctx.record(f"{key}_hit_ratio", 1 - disk / max(1, touched),
               f"{what}: hot Gets' block cache hit ratio", "%")
    ctx.record(f"{key}_disk_blocks_per_get", disk / len(keys),
               f"{what}: blocks from disk per hot Get")
    record_time_per_op(ctx, f"{key}_ms", before, len(keys), f"{what}: makespan per Get")


def _lifecycle(ctx, variant, p):
    """A hot set read warm; then new rows flushed and read, a major compaction (its new file is
    cold: HBase caches no data on write for a compaction, and evicts the files it replaced),
    and a move of a region to a new server (its blocks stay on the old one). Time passes
    between each step and the reads after it, as on a live cluster (a prefetch's delay)."""
    fam = {"BLOCKSIZE": KiB, **({variant["knob"]: True} if variant["knob"] else {})}
    rows = ctx.ops // 2
    table = create_table(ctx, "t", {"d": fam}, split_enabled=False,
                         split_keys=[b"r%08d" % (rows // 2)])
    rng = ctx.shared_rng()
    for i in range(rows):
        table.put(b"r%08d" % i, {b"d:v": _value(rng, p["value_bytes"])})
        ctx.tick()
    settle(ctx, "t")
    hot = [b"r%08d" % rng.randrange(rows) for _ in range(p["reads"] // 4)]
    wait = 2 * ctx.config.prefetch_delay_ms
    for k in hot:
        table.get(k)  # warm: the hot rows' blocks in the cache
    _hot_reads(ctx, table, hot, "warm", "warm")
    fresh = [b"s%08d" % i for i in range(len(hot))]
    for k in fresh:
        table.put(k, {b"d:v": _value(rng, p["value_bytes"])})
        ctx.tick()
    ctx.admin.flush("t")
    ctx.clock.advance(wait)
    _hot_reads(ctx, table, fresh, "flushed", "rows just flushed")
    ctx.admin.major_compact("t")
    ctx.clock.advance(wait)
    _hot_reads(ctx, table, hot, "compacted", "after a major compaction")
    ctx.cluster.start_region_server()
    ctx.admin.balance()  # one of the two regions moves to the new, empty server
    ctx.clock.advance(wait)
    _hot_reads(ctx, table, hot, "moved", "after a region move")


def _fullscan(ctx, variant, p):
    """A hot set of a fifth of the block cache, read once (a row per block, so each block sits
    in the SINGLE bucket, as after a restart or a move; a block read twice would be in MULTI,
    which a scan's blocks do not evict); then a full scan of a table three times the cache,
    with or without Scan.setCacheBlocks; then the hot set again. The hot rows sit in the
    middle: over a cache of data is scanned before the scan reaches them and after."""
    cache = ctx.config.block_cache_size
    block = 8 * KiB
    rows = max(ctx.ops // 4, 3 * cache // block)
    table = create_table(ctx, "t", {"d": {"BLOCKSIZE": block}}, split_enabled=False)
    rng = ctx.shared_rng()
    for i in range(rows):
        table.put(b"r%08d" % i, {b"d:v": _value(rng, block)})  # a cell per block
        ctx.tick()
    settle(ctx, "t")
    _cold(ctx)
    # every other row: a Get reads its row's block and the next (to see the row end)
    hot = [b"r%08d" % (rows // 2 + 2 * i) for i in range(cache // 10 // block)]
    for k in hot:
        table.get(k)
    before = ctx.loads()
    scanned = sum(1 for _ in table.scan(caching=100, cache_blocks=variant["cache_blocks"]))
    record_time_per_op(ctx, "scan_ms", before, 1, "the full scan: makespan")
    if scanned != rows:
        ctx.note(f"the scan returned {scanned} rows of {rows}")
    _hot_reads(ctx, table, hot, "after_scan", "hot set after the scan")


scenario.run(by_test({"cache": _cache, "blocksize": _blocksize, "width": _width,
                      "compression": _compression, "columns": _column_scan, "ops": _ops,
                      "encoding": _encoding, "lifecycle": _lifecycle, "fullscan": _fullscan}))


scenario.claim(
    "IN_MEMORY gives a family's blocks priority, with no guarantee that it all stays cached",
    seed="003", section="In-Memory Column Families",
    quote="You can also define column families in memory, giving them higher priority in the "
          "... although data is still persisted to disk, like any other column "
          "family, there is no guarantee that the entire table can be stored in memory.",
    criterion=(metric("in_memory", "hot_disk_blocks_per_get")
               < 0.8 * metric("lru", "hot_disk_blocks_per_get"))
              & (metric("in_memory_oversized", "hot_hit_ratio") < 0.95)
              & (metric("in_memory_oversized", "hot_hit_ratio")
                 < metric("in_memory", "hot_hit_ratio")),
    covers=(85,))

scenario.claim(
    "larger values need larger blocks: in small blocks each cell is a block of its own",
    seed="003", section="Column Family Block Size",
    quote="This is useful if you cells have large values that require blocksizes. The default "
          "block size is 64k. Larger cell values require larger block sizes.",
    criterion=(metric("big_values_4k", "cells_per_block") <= 1)
              & (metric("small_values_4k", "cells_per_block") >= 10)
              & (metric("big_values_4k", "index_bytes_per_mb")
                 > 2 * metric("big_values_64k", "index_bytes_per_mb"))
              & (metric("big_values_4k", "scan_ms_per_mb")
                 > 2 * metric("big_values_64k", "scan_ms_per_mb")),
    covers=(84,))

scenario.claim(
    "a wider row costs more to read one item from",
    seed="004", section="Modeling for even distribution of data and load",
    quote="The take-away is that accessing wider rows is more expensive than accessing smaller "
          "ones",
    criterion=(metric("wide", "item_disk_blocks_per_get")
               > metric("narrow", "item_disk_blocks_per_get"))
              & (metric("wide", "item_cold_ms") > 1.2 * metric("narrow", "item_cold_ms")),
    covers=(88,))

scenario.claim(
    "a read of one column skips to its block instead of reading the whole wide row",
    seed="004", section="Target data access",
    quote="Indexing the qualifier and timestamp lets you skip to the right column without "
          "scanning all the previous columns in that row.",
    criterion=metric("wide", "item_blocks_per_get") < 0.5 * metric("wide",
                                                                   "user_blocks_per_read"),
    covers=(88,))

scenario.claim(
    "a narrow row in the block cache is the fastest read",
    seed="004", section="Modeling for even distribution of data and load",
    quote="In HBase, accessing a single narrow row resident in the BlockCache is the fastest "
          "possible read operation",
    # simulated times of each kind of read: the cost model's prices of their counts
    kind="arithmetic",
    criterion=(metric("narrow", "item_warm_ms") < 0.25 * metric("narrow", "item_cold_ms"))
              & (metric("narrow", "item_warm_ms") <= metric("wide", "item_warm_ms"))
              & (metric("narrow", "item_warm_ms") < metric("ops", "range_scan_ms"))
              & (metric("narrow", "item_warm_ms") < metric("row_scan", "query_ms")),
    covers=(89,))

scenario.claim(
    "compression: local, repetitive rows compress well, but one cell costs a whole block "
    "decompressed",
    seed="002", section="Keep it Stupidly Simple > Row Locality and Compression",
    quote="Row locality often means nearby data elements are highly repetitive (definitely true "
          "here), so you realize a great compression ratio. There are two tradeoffs: first, a "
          "minor CPU hit to decompress the data; worse though, that you must decompress blocks "
          "at a time even if you only want one cell.",
    criterion=(metric("gz", "store_bytes") < 0.5 * metric("plain", "store_bytes"))
              & (metric("gz", "inflated_per_wanted_byte") > 50),
    covers=(71,))

scenario.claim(
    "column scanning is slower than row scanning",
    seed="003", section="Column Scanning",
    quote="Column scanning is not as fast as row scanning, but you can use a column to tag "
          "data for indexing.",
    criterion=(metric("column_scan", "entries_found") == metric("row_scan", "entries_found"))
              & (metric("column_scan", "blocks_per_query")
                 > 5 * metric("row_scan", "blocks_per_query"))
              & (metric("column_scan", "query_ms") > 5 * metric("row_scan", "query_ms")),
    covers=(86,))

scenario.claim(
    "HBase's requests, roughly in order of efficiency",
    seed="002", section="Row Key, Column Family, Column Qualifier, Timestamp, Value",
    quote="Here is most of what you can ask HBase to do (roughly in order of efficiency): 1. "
          "Given a row key: get, put or delete a single value into which you've serialized a "
          "whole record. ... 6. Feed a map/reduce job by scanning an arbitrarily large range "
          "of values.",
    # "roughly": the three single-row reads within 25% of each other, then strictly in order;
    # simulated times, the cost model's prices of each request's counts
    kind="arithmetic",
    criterion=(metric("ops", "get_record_ms") <= metric("ops", "get_columns_ms"))
              & (metric("ops", "first_row_at_or_after_ms")
                 <= 1.25 * metric("ops", "get_columns_ms"))
              & (metric("ops", "get_columns_ms")
                 <= 1.25 * metric("ops", "first_row_at_or_after_ms"))
              & (metric("ops", "get_columns_ms") < metric("ops", "increment_ms"))
              & (metric("ops", "increment_ms") < metric("ops", "range_scan_ms"))
              & (metric("ops", "range_scan_ms") < metric("ops", "full_scan_ms")),
    covers=(66,))

scenario.bar_chart("ip_query", "one IP's log entries: tag column scan vs row-key prefix scan",
                   ["query_ms"], unit="ms")

_LADDER = ["get_record_ms", "get_columns_ms", "first_row_at_or_after_ms", "increment_ms",
           "range_scan_ms", "full_scan_ms"]
scenario.bar_chart("ops_ladder", "makespan per request, in the seed's order", _LADDER,
                   unit="ms")

scenario.claim(
    "values are always freighted with their coordinates, in the block cache too",
    seed="000", section="Try to minimize row and column sizes",
    quote="In HBase, values are always freighted with their coordinates; as a cell value "
          "passes through the system, it'll be accompanied by its row, column name, and "
          "timestamp - always.",
    # decided on the cache: FAST_DIFF blocks are cached encoded; the claim holds if they take
    # at least 90% of NONE's bytes and Gets go to disk at least 90% as often
    criterion=(metric("enc_fast_diff", "cached_bytes") >= 0.9 * metric("enc_none", "cached_bytes"))
              & (metric("enc_fast_diff", "disk_blocks_per_get")
                 >= 0.9 * metric("enc_none", "disk_blocks_per_get")),
    covers=(17,))

scenario.claim(
    "a read that misses the block cache costs several times a hit: after a compaction or a "
    "move the hot rows miss, unless the family prefetches its files on open",
    seed="002", section="Row Key, Column Family, Column Qualifier, Timestamp, Value",
    quote="HBase will yield response times on the order of 1ms for a cache hit and 10ms for a "
          "cache miss",
    # CACHE_DATA_ON_WRITE warms a flush's file, not a compaction's (HStore.createWriter)
    criterion=(metric("cold_cache", "compacted_hit_ratio") < 0.6)
              & (metric("cold_cache", "compacted_ms") > 3 * metric("prefetch_on_open",
                                                                   "compacted_ms"))
              & (metric("prefetch_on_open", "compacted_hit_ratio") > 0.95)
              & (metric("cold_cache", "moved_hit_ratio") < 0.8)
              & (metric("prefetch_on_open", "moved_hit_ratio") > 0.95)
              & (metric("cache_on_write", "flushed_hit_ratio")
                 > metric("cold_cache", "flushed_hit_ratio"))
              & (metric("cache_on_write", "compacted_hit_ratio") < 0.6))

scenario.claim(
    "a full scan with cache_blocks=False leaves the hot rows resident in the BlockCache",
    seed="004", section="Modeling for even distribution of data and load",
    quote="In HBase, accessing a single narrow row resident in the BlockCache is the fastest "
          "possible read operation",
    criterion=(metric("scan_cache_blocks_off", "after_scan_hit_ratio") > 0.95)
              & (metric("scan_cache_blocks_on", "after_scan_hit_ratio") < 0.9)
              & (metric("scan_cache_blocks_off", "after_scan_ms")
                 < metric("scan_cache_blocks_on", "after_scan_ms")))
