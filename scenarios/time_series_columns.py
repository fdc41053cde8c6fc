"""Time series as columns: OpenTSDB's layouts (a row per data point, a row per metric-hour with
a column per time offset, and that row compacted into one cell), a row per metric holding every
point, and web logs stored as a row per event vs a row per cookie-timebucket with a family per
kind of event.

Seed claims: 000 "Case Study - Log Data and Timeseries Data on Steroids" and "Tall/Wide/Middle
Schema Design Smackdown > Rows as Columns"; 002 "Web Logs: Rows-As-Columns" and "Design for
Reads" (columns per row).

Metrics: every variant stores the same `--ops` data points of `metrics` metrics, one every 15 s
of simulated time per metric, then reads `queries` windows of `query_hours` hours of one metric.
The table may split (MAX_FILESIZE is 1/16 of the data, at least one 64 KiB block), so a row
too wide to split shows up as a region over its limit. Web logs: every variant stores the same
`--ops` page events of `cookies` visitors (referer, search term, product view, checkout), then
reads each visitor's path in one hour and each visitor's search terms.
"""

from hsim.filters import ColumnRangeFilter
from hsim.scenario import Scenario
from hsim.scenario.criteria import metric
from hsim.scenario.parts import by_test
from hsim.scenario.readers import record_time_per_op
from hsim.scenario.setup import create_table, settle

scenario = Scenario(
    "time_series_columns",
    "OpenTSDB row per point vs row per metric-hour vs compacted cell vs row per metric; web "
    "logs as rows vs cookie-timebucket rows with a family per kind",
    sizes={"small": 6000, "default": 24000, "sweep": 8000},
    servers=1,
    scale=1 / 256,
    params={"metrics": 8, "query_hours": 2, "queries": 40, "cookies": 100},
    sweep={"metrics": [4, 16], "query_hours": [1, 6]},
    ops_meaning="data points (or page events) per variant",
)

scenario.variant("row_per_point", "[metric:3][ts:4]: one row per data point", test="tsdb",
                 layout="point")
scenario.variant("row_per_hour", "[metric:3][hour:4], a column per second offset (OpenTSDB)",
                 test="tsdb", layout="hour")
scenario.variant("compacted_hour", "row per metric-hour, each finished hour rewritten as one "
                 "cell (OpenTSDB's compaction)", test="tsdb", layout="compacted")
scenario.variant("row_per_metric", "[metric:3]: one row per metric, a column per timestamp",
                 test="tsdb", layout="metric")
scenario.variant("visit_rows", "web logs: a row per event [cookie][ts][kind], one family",
                 test="weblog", wide=False)
scenario.variant("visit_buckets", "web logs: a row per cookie-timebucket, families r, s, p, z",
                 test="weblog", wide=True)

START = 1_699_999_200  # seconds, on an hour boundary: every variant's first point
STEP = 15  # seconds between two points of a metric
KINDS = (b"r", b"s", b"p", b"z")  # referer, search term, product, checkout


def _cell(layout, m, t):
    """(row, qualifier) of metric m's point at second t."""
    mid = m.to_bytes(3, "big")
    if layout == "point":
        return mid + t.to_bytes(4, "big"), b""
    if layout == "metric":
        return mid, t.to_bytes(4, "big")
    hour = t - t % 3600
    return mid + hour.to_bytes(4, "big"), (t - hour).to_bytes(2, "big")


def _tsdb(ctx, variant, p):
    layout = variant["layout"]
    rng = ctx.shared_rng()
    per_metric = ctx.ops // p["metrics"]
    max_filesize = max(64 << 10, ctx.ops * 40 // 16)  # 1/16 of the data, one block at least
    # splits at MAX_FILESIZE from the first region on, checked at each flush
    table = create_table(ctx, "tsdb", ["t"], max_filesize=max_filesize,
                              memstore_flush_size=max_filesize // 2,
                              split_policy="ConstantSizeRegionSplitPolicy")
    ctx.expect(ctx.ops + p["queries"])
    before = ctx.loads()
    for i in range(per_metric):
        t = START + i * STEP
        for m in range(p["metrics"]):
            row, q = _cell(layout, m, t)
            table.put(row, {b"t:" + q: rng.randrange(2 ** 63).to_bytes(8, "big")})
            ctx.tick()
        if layout == "compacted" and (t + STEP) % 3600 == 0:  # an hour has ended
            for m in range(p["metrics"]):
                _compact(ctx, table, _cell(layout, m, t)[0])
    record_time_per_op(ctx, "write_ms_per_point", before, ctx.ops,
                       "makespan per point (compactions included)")
    regions = []
    while len(regions) < len(regions := ctx.admin.regions("tsdb")):  # until no more splits
        settle(ctx, "tsdb")
    ctx.record("store_bytes_per_point", sum(r.size for r in regions) / ctx.ops,
               "store file bytes per data point", "B")
    ctx.record("largest_region_vs_max", max(r.size for r in regions) / max_filesize,
               "largest region / MAX_FILESIZE", "x")
    ctx.record("widest_row_columns", max(len(row) for row in table.scan(caching=100)),
               "columns in the widest row")
    before = ctx.loads()
    span = p["query_hours"] * 3600
    values = 0
    for _ in range(p["queries"]):
        m = rng.randrange(p["metrics"])
        t0 = START + 3600 * rng.randrange(max(1, per_metric * STEP // 3600 - p["query_hours"]))
        values += _window(layout, table, m, t0, t0 + span)
        ctx.tick()
    io = ctx.io(since=before)
    q = p["queries"]
    ctx.record("points_per_query", values / q, "points a window read returned")
    ctx.record("rows_per_query", io["scan_rows"] / q, "rows a window read returned")
    ctx.record("blocks_per_query", (io["cache_hits"] + io["blocks_read_from_disk"]) / q,
               "data blocks read per window")
    record_time_per_op(ctx, "read_ms_per_query", before, q, "makespan per window read")


def _compact(ctx, table, row):
    """OpenTSDB's compaction: the hour's columns become one cell (qualifiers concatenated,
    values concatenated), and the single-point cells are deleted."""
    cells = table.get(row)
    now = ctx.clock.now()
    table.delete_family(row, b"t", timestamp=now)
    table.put(row, {b"t:" + b"".join(c.qualifier for c in cells):
                    b"".join(c.value for c in cells)}, timestamp=now + 1)


def _window(layout, table, m, t0, t1):
    """Read metric m's points in [t0, t1): the number of points returned."""
    mid = m.to_bytes(3, "big")
    if layout == "metric":
        return len(table.get(mid, filter=ColumnRangeFilter(
            t0.to_bytes(4, "big"), True, t1.to_bytes(4, "big"), False)))
    start, stop = _cell(layout, m, t0)[0], _cell(layout, m, t1)[0]
    rows = list(table.scan(start_row=start, stop_row=stop, caching=1000))
    if layout == "compacted":
        return sum(len(c.value) // 8 if len(c.qualifier) > 2 else 1 for r in rows for c in r)
    return sum(len(r) for r in rows)


def _weblog(ctx, variant, p):
    rng = ctx.shared_rng()
    families = {k.decode(): {} for k in KINDS} if variant["wide"] else ["d"]
    table = create_table(ctx, "visits", families, split_enabled=False)
    ctx.expect(ctx.ops + 2 * p["cookies"])
    for i in range(ctx.ops):
        cookie = b"c%05d" % rng.randrange(p["cookies"])
        t = START + i * 3600 * 24 // ctx.ops  # one day of visits
        kind = KINDS[min(3, int(rng.random() * 10) // 3)]  # r 30%, s 30%, p 30%, z 10%
        what = b"%s-%d" % (kind, rng.randrange(500))
        if variant["wide"]:  # qualifier = the referer, term, product or cart
            table.put(b"%s-%d" % (cookie, t // 3600), {kind + b":" + what: b"-"})
        else:
            table.put(cookie + t.to_bytes(4, "big") + kind, {b"d:" + kind: what})
        ctx.tick()
    settle(ctx, "visits")
    hour = 12
    before = ctx.loads()
    events = 0
    for c in range(p["cookies"]):
        cookie = b"c%05d" % c
        if variant["wide"]:
            events += len(table.get(b"%s-%d" % (cookie, START // 3600 + hour)))
        else:
            t0 = START + hour * 3600
            events += sum(1 for _ in table.scan(start_row=cookie + t0.to_bytes(4, "big"),
                                                stop_row=cookie + (t0 + 3600).to_bytes(4, "big")))
        ctx.tick()
    io = ctx.io(since=before)
    n = p["cookies"]
    ctx.record("path_events", events, "events in the visitors' paths (one hour)")
    ctx.record("rpcs_per_path", io["read_requests"] / n, "read RPCs per visitor path")
    record_time_per_op(ctx, "ms_per_path", before, n, "makespan per visitor path")
    before = ctx.loads()
    terms = 0
    for c in range(p["cookies"]):
        cookie = b"c%05d" % c
        if variant["wide"]:
            rows = table.scan(row_prefix=cookie + b"-", columns=["s"])
        else:
            rows = table.scan(row_prefix=cookie, columns=[b"d:s"])
        terms += sum(len(r) for r in rows)
        ctx.tick()
    io = ctx.io(since=before)
    ctx.record("search_terms", terms, "search terms read (all visitors)")
    ctx.record("blocks_per_term_read", (io["cache_hits"] + io["blocks_read_from_disk"]) / n,
               "blocks read per visitor's search terms")
    record_time_per_op(ctx, "ms_per_term_read", before, n,
                       "makespan per visitor's search terms")


scenario.run(by_test({"tsdb": _tsdb, "weblog": _weblog}))


scenario.claim(
    "OpenTSDB's rewrite: a row per time range with a column per offset, compacted to a cell",
    seed="000", section="Case Study - Log Data and Timeseries Data on Steroids",
    quote="What OpenTSDB does is re-write data and pack rows into columns for certain "
          "time-periods.",
    criterion=(metric("row_per_hour", "points_per_query")
               == metric("row_per_point", "points_per_query"))
              & (metric("compacted_hour", "points_per_query")
                 == metric("row_per_point", "points_per_query"))
              & (metric("row_per_hour", "rows_per_query")
                 < 0.01 * metric("row_per_point", "rows_per_query"))
              & (metric("compacted_hour", "store_bytes_per_point")
                 < metric("row_per_hour", "store_bytes_per_point"))
              & (metric("row_per_hour", "store_bytes_per_point")
                 < metric("row_per_point", "store_bytes_per_point")),
    covers=(57,))

scenario.claim(
    "rows as columns is I/O efficient",
    seed="000", section="Tall/Wide/Middle Schema Design Smackdown > Rows as Columns",
    quote="This approach is often more complex, and may require the additional complexity of "
          "re-writing your data, but has the advantage of being I/O efficient.",
    criterion=(metric("compacted_hour", "blocks_per_query")
               < metric("row_per_point", "blocks_per_query"))
              & (metric("compacted_hour", "read_ms_per_query")
                 < metric("row_per_point", "read_ms_per_query"))
              & (metric("compacted_hour", "write_ms_per_point")
                 > metric("row_per_point", "write_ms_per_point")),
    covers=(61,))

scenario.claim(
    "a row per metric grows without bound and cannot be split",
    seed="002", section="Design for Reads",
    quote="Avoid having more than a few million columns per row.",
    criterion=(metric("row_per_metric", "largest_region_vs_max") > 1.5)
              & (metric("row_per_hour", "largest_region_vs_max") < 1.5)
              & (metric("row_per_metric", "widest_row_columns")
                 > 10 * metric("row_per_hour", "widest_row_columns")),
    covers=(82,))

scenario.claim(
    "web logs as cookie-timebucket rows: a visitor's path is one Get, one kind is one family",
    seed="002", section="Web Logs: Rows-As-Columns",
    quote="| visits | `cookie-timebucket` | 'r' (referer) | `referer` | - |",
    criterion=(metric("visit_buckets", "path_events") == metric("visit_rows", "path_events"))
              & (metric("visit_buckets", "rpcs_per_path") == 1)
              & (metric("visit_buckets", "search_terms") == metric("visit_rows", "search_terms"))
              & (metric("visit_buckets", "blocks_per_term_read")
                 < metric("visit_rows", "blocks_per_term_read"))
              & (metric("visit_buckets", "ms_per_path") <= metric("visit_rows", "ms_per_path")),
    covers=(77,))

scenario.bar_chart("window_rows", "reading a window of one metric: rows returned",
                   ["rows_per_query"])
scenario.bar_chart("window_ms", "reading a window of one metric: makespan per read",
                   ["read_ms_per_query"], unit="ms")
scenario.bar_chart("space", "store file bytes per data point", ["store_bytes_per_point"],
                   unit="B")
