"""Lookup patterns from the data-modelling chapter: an IP-range lookup by the block's upper
bound, autocomplete as one cell per prefix, a link graph three ways (edge list, adjacency rows,
serialized list; a celebrity node sharded), geo points keyed by quadkey with rollups, airport
records as a family per field, one family or one serialized cell, and timezone offsets as
versions.

Seed claims: 002 "Range Lookup", "Keep it Stupidly Simple", "Wikipedia: Corpus and Graph >
Graph Data", "Geographic Data", "Simple Table > Airport Metadata" and "Simple Table > Airport
Timezone".

Each pattern's variants store the same records and answer the same `queries` requests (drawn
from the shared generator); every table is flushed and major-compacted before the reads, so
reads go to store files (blocks, blooms) as they would on a loaded cluster. Counts come from
the region server's metrics; simulated time from the cost model.
"""

import json
import zlib

from hsim.filters import parse_filter
from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.parts import by_test
from hsim.scenario.readers import cells_scanned, record_time_per_op
from hsim.scenario.setup import create_table, settle

scenario = Scenario(
    "lookup_patterns",
    "IP ranges by upper bound, autocomplete as one cell, graph as edge list / adjacency / "
    "serialized list, geo quadkeys with rollups, airport record layouts, timezone by versions",
    sizes={"small": 2000, "default": 12000, "large": 60000, "sweep": 4000},
    servers=1,
    scale=1 / 256,
    params={"queries": 200, "shards": 16, "celebrity_share": 0.25, "fields": 6},
    sweep={"queries": [100, 400], "celebrity_share": [0.1, 0.5]},
    ops_meaning="records (IP blocks, titles, links, points, airports) per variant",
)

scenario.variant("ip_range", "row = the block's upper bound in hex; a lookup: Scan from the "
                 "address, max 1 row (and, for the cost, a Get of the same row)", test="ip")
scenario.variant("autocomplete_json", "row = prefix, one cell: the JSON list of its top 10 "
                 "titles (ROW bloom)", test="autocomplete", json=True)
scenario.variant("autocomplete_cells", "row = prefix, one cell per title of its top 10 (ROW "
                 "bloom)", test="autocomplete", json=False)
scenario.variant("edge_list", "row = from-into, one empty cell (ROWCOL bloom)", test="graph",
                 layout="edges")
scenario.variant("adjacency_rows", "row = from, a column per into (ROW bloom)", test="graph",
                 layout="adjacency")
scenario.variant("sharded_adjacency", "row = from#shard(into), a column per into: a "
                 "celebrity's links spread over `shards` rows", test="graph", layout="sharded")
scenario.variant("serialized_list", "row = from, one cell: the serialized list of intos",
                 test="graph", layout="serialized")
scenario.variant("quadkey", "row = quadkey-point (zoom 12), rollups under the zoom-6 prefix",
                 test="geo", quadkey=True)
scenario.variant("point_id", "row = point id, the quadkey a column; an area: a Scan with a "
                 "SingleColumnValueFilter", test="geo", quadkey=False)
scenario.variant("family_per_field", "a column family per field, null qualifier",
                 test="airport", layout="families")
scenario.variant("one_family", "one family, the field name as qualifier", test="airport",
                 layout="qualifiers")
scenario.variant("serialized_record", "one cell: the whole record serialized",
                 test="airport", layout="serialized")
scenario.variant("timezone_versions", "VERSIONS large; each offset put at its rule's start "
                 "time; read with max timestamp = the event's time", test="timezone")


def _reads(ctx, key, label, ask, items):
    """Ask each item, recording blocks touched and simulated time per request."""
    before = ctx.loads()
    answers = [ask(x) for x in items]
    ctx.tick(len(items))
    io = ctx.io(since=before)
    n = len(items)
    ctx.record(f"{key}_blocks", (io["cache_hits"] + io["blocks_read_from_disk"]) / n,
               f"{label}: blocks per request")
    ctx.record(f"{key}_requests", io["read_requests"] / n, f"{label}: read RPCs per request")
    ctx.record(f"{key}_rows", io["rows_examined"] / n, f"{label}: rows examined per request")
    ctx.record(f"{key}_cells", cells_scanned(ctx, before) / n,
               f"{label}: cells scanned per request")
    record_time_per_op(ctx, f"{key}_ms", before, n, f"{label}: makespan per request")
    return answers


def _ip(ctx, variant, p):
    """IP blocks of random sizes cover the address space; each lookup names an address."""
    rng = ctx.shared_rng()
    table = create_table(ctx, "ip", ["d"])
    bounds, upper = [], 0
    span = (1 << 32) // ctx.ops
    for n in range(ctx.ops):
        upper = min((1 << 32) - 1, upper + rng.randrange(1, 2 * span))
        bounds.append(upper)
        table.put(b"%08x" % upper, {b"d:isp": b"isp%04d" % (n % 500), b"d:lat": b"%d" % n,
                                    b"d:lon": b"%d" % n, b"d:quadkey": b"0123%08d" % n})
        ctx.tick()
    settle(ctx, "ip")
    asks = [rng.randrange(bounds[-1] + 1) for _ in range(p["queries"])]
    truth = [next(b for b in bounds if b >= a) for a in asks]  # the block it lies in

    def lookup(address):
        rows = list(table.scan(b"%08x" % address, b"g", limit=1))
        return int(rows[0][0].row, 16) if rows else None

    got = _reads(ctx, "ip_scan", "IP lookup by Scan max 1", lookup, asks)
    _reads(ctx, "ip_get", "Get of the block's row", lambda b: table.get(b"%08x" % b), truth)
    ctx.record("ip_right", sum(g == t for g, t in zip(got, truth)) / len(asks),
               "IP lookups answered with the right block", "%")


def _titles(rng, n):
    words = ["hadoop", "hbase", "chimp", "chime", "china", "chip", "chill", "hdfs", "hive",
             "hash", "heap", "help", "chord", "choir"]
    return sorted({(rng.choice(words) + " %d" % rng.randrange(n)).encode() for _ in range(n)})


def _autocomplete(ctx, variant, p):
    """Every prefix (3 to 8 characters) of every title gets its 10 top-ranked completions."""
    rng = ctx.shared_rng()
    titles = _titles(rng, ctx.ops)
    rank = {t: rng.random() for t in titles}
    top: dict = {}
    for t in titles:
        for k in range(3, min(len(t), 8) + 1):
            top.setdefault(t[:k], []).append(t)
    table = create_table(ctx, "title_autocomp", {"j": {"VERSIONS": 1, "BLOOMFILTER": "ROW"}})
    ctx.expect(len(top) + p["queries"])
    for prefix, ts in sorted(top.items()):
        best = sorted(ts, key=lambda t: -rank[t])[:10]
        if variant["json"]:
            table.put(prefix, {b"j:": json.dumps([t.decode() for t in best]).encode()})
        else:
            table.put(prefix, {b"j:%d" % i: t for i, t in enumerate(best)})
        ctx.tick()
    settle(ctx, "title_autocomp")
    prefixes = sorted(top)
    asks = [prefixes[rng.randrange(len(prefixes))] for _ in range(p["queries"])]
    got = _reads(ctx, "complete", "a prefix's completions", lambda x: table.get(x), asks)
    ctx.record("cells_per_request", sum(len(c) for c in got) / len(asks),
               "cells returned per request")
    ctx.record("cells_stored", sum(len(r) for r in table.scan()), "cells stored")
    ctx.record("store_file_bytes", ctx.cluster.metrics().servers[0].store_file_bytes,
               "store file bytes", "B")


def _shard(into: bytes, shards: int) -> bytes:
    return b"#%02d" % (zlib.crc32(into) % shards)


def _graph(ctx, variant, p):
    """Links between pages; one celebrity page holds `celebrity_share` of all links. Asked:
    are two pages linked (half yes, half no), and all of a page's links."""
    rng = ctx.shared_rng()
    nodes = max(50, ctx.ops // 20)
    links: dict = {}
    for _ in range(ctx.ops):
        src = 0 if rng.random() < p["celebrity_share"] else rng.randrange(1, nodes)
        links.setdefault(src, set()).add(rng.randrange(nodes))
    layout = variant["layout"]
    bloom = "ROWCOL" if layout == "edges" else "ROW"
    table = create_table(ctx, "links", {"l": {"BLOOMFILTER": bloom}})
    node = b"page%06d".__mod__
    for src, intos in sorted(links.items()):
        if layout == "edges":
            for i in sorted(intos):
                table.put(node(src) + b"-" + node(i), {b"l:": b""})
        elif layout == "serialized":
            table.put(node(src), {b"l:": b",".join(node(i) for i in sorted(intos))})
        else:
            for i in sorted(intos):
                row = node(src) + (_shard(node(i), p["shards"]) if layout == "sharded" else b"")
                table.put(row, {b"l:" + node(i): b""})
        ctx.tick(len(intos))
    settle(ctx, "links")
    srcs = sorted(links)
    hits = [(s, rng.choice(sorted(links[s]))) for s in
            (srcs[rng.randrange(len(srcs))] for _ in range(p["queries"] // 2))]
    misses = []
    while len(misses) < p["queries"] // 2:
        s, i = srcs[rng.randrange(len(srcs))], rng.randrange(nodes)
        if i not in links[s]:
            misses.append((s, i))

    def connected(pair):
        s, i = node(pair[0]), node(pair[1])
        if layout == "edges":
            return bool(table.get(s + b"-" + i, columns=[b"l:"]))
        if layout == "serialized":
            cells = table.get(s)
            return bool(cells) and i in cells[0].value.split(b",")
        row = s + (_shard(i, p["shards"]) if layout == "sharded" else b"")
        return bool(table.get(row, columns=[b"l:" + i]))

    right = sum(_reads(ctx, "hit", "linked pair", connected, hits))
    right += sum(not x for x in _reads(ctx, "miss", "unlinked pair", connected, misses))
    ctx.record("connected_right", right / (len(hits) + len(misses)),
               "are-they-linked answers right", "%")
    m = ctx.cluster.metrics().servers[0]
    ctx.record("bloom_negatives", m.bloom_negatives, "bloom checks that ruled a file out")

    def neighbours(src):
        s = node(src)
        if layout == "edges":
            return sum(1 for _ in table.scan(row_prefix=s + b"-"))
        if layout == "serialized":
            return len(table.get(s)[0].value.split(b","))
        if layout == "sharded":
            return sum(len(r) for r in table.scan(row_prefix=s + b"#"))
        return len(table.get(s))

    asks = [srcs[rng.randrange(len(srcs))] for _ in range(p["queries"] // 4)] + [0]
    got = _reads(ctx, "neighbours", "all of a page's links", neighbours, asks)
    ctx.record("neighbours_right", sum(g == len(links[s]) for g, s in zip(got, asks))
               / len(asks), "link lists complete", "%")
    rows: dict = {}
    for row in table.scan():
        rows[row[0].row] = sum(len(c.qualifier) + len(c.value) for c in row)
    ctx.record("largest_row_bytes", max(rows.values()), "largest row's cell bytes", "B")
    ctx.record("rows_stored", len(rows), "rows stored")


def _quadkey(x: float, y: float, zoom: int) -> bytes:
    """The tile's quadkey: one base-4 digit per zoom level (interleaved x and y bits)."""
    digits = []
    for z in range(zoom, 0, -1):
        bx, by = int(x * (1 << zoom)) >> (z - 1) & 1, int(y * (1 << zoom)) >> (z - 1) & 1
        digits.append(b"0123"[bx + 2 * by])
    return bytes(digits)


def _geo(ctx, variant, p):
    """Points clustered around cities; asked: the points of a zoom-6 tile, and a tile's
    summary (a count) when zoomed out."""
    rng = ctx.shared_rng()
    cities = [(rng.random(), rng.random()) for _ in range(20)]
    points = []
    for n in range(ctx.ops):
        cx, cy = cities[rng.randrange(len(cities))]
        x = min(max(cx + rng.gauss(0, 0.01), 0), 0.999999)
        y = min(max(cy + rng.gauss(0, 0.01), 0), 0.999999)
        points.append((b"pt%07d" % n, _quadkey(x, y, 12)))
    table = create_table(ctx, "geo", ["d"])
    tiles: dict = {}
    for pid, qk in points:
        tiles[qk[:6]] = tiles.get(qk[:6], 0) + 1
        if variant["quadkey"]:
            table.put(qk + b"-" + pid, {b"d:name": pid + b" " * 40})
        else:
            table.put(pid, {b"d:name": pid + b" " * 40, b"d:tile": qk})
        ctx.tick()
    if variant["quadkey"]:  # the rollup of every zoom-12 key under its zoom-6 prefix
        for tile, count in sorted(tiles.items()):
            table.put(tile, {b"d:count": b"%d" % count})
    settle(ctx, "geo")
    asks = sorted(tiles)
    asks = [asks[rng.randrange(len(asks))] for _ in range(max(5, p["queries"] // 20))]

    def area(tile):
        if variant["quadkey"]:
            # the zoom-12 keys under the tile; its rollup row (the bare prefix) sorts before
            return sum(1 for _ in table.scan(tile + b"0", tile + b"4"))
        f = parse_filter("SingleColumnValueFilter('d', 'tile', =, 'binaryprefix:%s', true, "
                         "true)" % tile.decode())
        return sum(1 for _ in table.scan(filter=f))

    def summary(tile):
        if variant["quadkey"]:
            return int(table.get(tile, columns=[b"d:count"])[0].value)
        return area(tile)

    got = _reads(ctx, "area", "points of a zoom-6 tile", area, asks)
    ctx.record("area_right", sum(g == tiles[t] for g, t in zip(got, asks)) / len(asks),
               "tile queries complete", "%")
    ctx.record("points_per_area", sum(got) / len(asks), "points per tile asked")
    got = _reads(ctx, "summary", "a tile's count (zoomed out)", summary, asks)
    ctx.record("summary_right", sum(g == tiles[t] for g, t in zip(got, asks)) / len(asks),
               "tile counts right", "%")


def _airport(ctx, variant, p):
    """Dense airport records of `fields` fields; asked: a whole record, and one field."""
    rng = ctx.shared_rng()
    names = [b"f%d" % i for i in range(p["fields"])]
    layout = variant["layout"]
    if layout == "families":
        ctx.admin.create_table("airports", [n.decode() for n in names])
    else:
        ctx.admin.create_table("airports", ["d"])
    table = ctx.table("airports")
    ids = [b"iata%05d" % n for n in range(ctx.ops)]
    for a in ids:
        rec = {n: b"%s-%d" % (n, rng.randrange(10 ** 8)) for n in names}
        if layout == "families":
            table.put(a, {n + b":": v for n, v in rec.items()})
        elif layout == "qualifiers":
            table.put(a, {b"d:" + n: v for n, v in rec.items()})
        else:
            table.put(a, {b"d:": json.dumps({n.decode(): v.decode() for n, v in rec.items()})
                          .encode()})
        ctx.tick()
    settle(ctx, "airports")
    asks = [ids[rng.randrange(len(ids))] for _ in range(p["queries"])]
    one = {"families": b"f0:", "qualifiers": b"d:f0", "serialized": b"d:"}[layout]
    got = _reads(ctx, "record", "a whole record", lambda a: table.get(a), asks)
    ctx.record("record_cells", sum(len(c) for c in got) / len(asks), "cells per whole record")
    got = _reads(ctx, "field", "one field", lambda a: table.get(a, columns=[one]), asks)
    ctx.record("field_value_bytes", sum(len(c.value) for cs in got for c in cs) / len(asks),
               "value bytes returned for one field", "B")
    m = ctx.cluster.metrics().servers[0]
    ctx.record("store_files", m.store_files, "store files")
    ctx.record("store_file_bytes", m.store_file_bytes, "store file bytes", "B")


def _timezone(ctx, variant, p):
    """Airports whose UTC offset changed a few times; each offset put at its rule's start.
    Asked: an event's offset, by versions (max timestamp = event time) and, to compare, by
    reading every version and picking on the client."""
    rng = ctx.shared_rng()
    table = create_table(ctx, "tz", {"tzoff": {"VERSIONS": 1 << 20}})
    rules: dict = {}
    airports = [b"iata%05d" % n for n in range(max(1, ctx.ops // 10))]
    for a in airports:
        starts = sorted(rng.sample(range(10 ** 6, 10 ** 9), 10))
        rules[a] = [(t, rng.randrange(-12, 13)) for t in starts]
        for t, off in rules[a]:
            table.put(a, {b"tzoff:": b"%d" % off}, timestamp=t)
        ctx.tick(10)
    settle(ctx, "tz")
    asks = [(a, rng.randrange(rules[a][0][0], 10 ** 9)) for a in
            (airports[rng.randrange(len(airports))] for _ in range(p["queries"]))]
    truth = [max(r for r in rules[a] if r[0] <= t)[1] for a, t in asks]
    got = _reads(ctx, "tz_versions", "offset by max timestamp",
                 lambda q: table.get(q[0], time_range=(0, q[1] + 1)), asks)
    ctx.record("tz_right", sum(int(g[0].value) == w for g, w in zip(got, truth)) / len(asks),
               "offsets right (by versions)", "%")
    ctx.record("tz_cells", sum(len(g) for g in got) / len(asks), "cells per answer (by versions)")
    got = _reads(ctx, "tz_all", "offset from every version",
                 lambda q: table.get(q[0], max_versions=1 << 20), asks)
    ctx.record("tz_all_cells", sum(len(g) for g in got) / len(asks),
               "cells per answer (every version)")


scenario.run(by_test({"ip": _ip, "autocomplete": _autocomplete, "graph": _graph, "geo": _geo,
                      "airport": _airport, "timezone": _timezone}))


scenario.claim(
    "an IP-range lookup by upper bound: a Scan limited to one row costs a Get",
    seed="002", section="Range Lookup",
    quote="To look up an IP address, do a scan query, max 1 result, on the range from the given "
          "ip_address to a value larger than the largest 32-bit IP address. A get is simply a "
          "scan-with-equality-max-1, so there's no loss of efficiency here.",
    criterion=(metric("ip_range", "ip_right") == 1)
              & (metric("ip_range", "ip_scan_requests") <= metric("ip_range", "ip_get_requests"))
              & (metric("ip_range", "ip_scan_blocks") <= 1.5 * metric("ip_range", "ip_get_blocks"))
              & (metric("ip_range", "ip_scan_ms") <= 1.5 * metric("ip_range", "ip_get_ms")),
    covers=(72,))

scenario.claim(
    "autocomplete: the whole answer serialized into one cell minimises the cell count",
    seed="002", section="Keep it Stupidly Simple",
    quote="Instead, serialize the full JSON-encoded response as a single value. This minimizes "
          "the cell count (memory- and disk-efficient), lets the API front end put the value "
          "straight onto the wire (speed and lines-of-code efficient), and puts us in the most "
          "efficient access pattern: single row, single value.",
    criterion=(metric("autocomplete_json", "cells_per_request") == 1)
              & (metric("autocomplete_json", "cells_stored")
                 < 0.5 * metric("autocomplete_cells", "cells_stored"))
              & (metric("autocomplete_json", "store_file_bytes")
                 < metric("autocomplete_cells", "store_file_bytes"))
              & (metric("autocomplete_json", "complete_ms")
                 <= metric("autocomplete_cells", "complete_ms")),
    covers=(67,))

scenario.claim(
    "an edge list answers \"are these two connected\" with the bloom filter on misses",
    seed="002", section="Wikipedia: Corpus and Graph > Graph Data",
    quote="An edge list gives you fast \"are these two nodes connected\" lookups, using the "
          "bloom filter on misses and read cache for frequent hits.",
    criterion=(each(("edge_list", "adjacency_rows", "serialized_list"), "connected_right") == 1)
              & (metric("edge_list", "miss_blocks") < 0.5 * metric("adjacency_rows", "miss_blocks"))
              & (metric("edge_list", "miss_ms") < metric("serialized_list", "miss_ms")),
    covers=(76,))

scenario.claim(
    "a celebrity's links sharded across rows keep every row small",
    seed="002", section="Wikipedia: Corpus and Graph > Graph Data",
    quote="there are many celebrities on the Twitter \"follower\" graph with millions of "
          "followers or followees. You can shard those cases across multiple rows, or use an "
          "edge list instead.",
    criterion=(metric("sharded_adjacency", "connected_right") == 1)
              & (metric("sharded_adjacency", "neighbours_right") == 1)
              & (metric("sharded_adjacency", "largest_row_bytes")
                 < 0.25 * metric("adjacency_rows", "largest_row_bytes")),
    covers=(76,))

scenario.claim(
    "a read-only graph's adjacency list serialized into one cell is the cheapest list read",
    seed="002", section="Wikipedia: Corpus and Graph > Graph Data",
    quote="If the graph is read-only (eg a product-product similarity graph prepared from "
          "server logs), it may make sense to serialize the adjacency list for each node into a "
          "single cell.",
    # the read's work, counted: one cell (not a cell per link, as adjacency rows take) in one
    # row (not a row per link, as the edge list takes) in one RPC; the times are extras
    criterion=(metric("serialized_list", "neighbours_right") == 1)
              & (metric("serialized_list", "neighbours_cells")
                 < 0.5 * metric("adjacency_rows", "neighbours_cells"))
              & (metric("serialized_list", "neighbours_rows")
                 < 0.5 * metric("edge_list", "neighbours_rows"))
              & (metric("serialized_list", "neighbours_requests")
                 <= metric("edge_list", "neighbours_requests")),
    extras=(metric("serialized_list", "neighbours_ms")
            <= metric("adjacency_rows", "neighbours_ms"))
           & (metric("serialized_list", "neighbours_ms") < metric("edge_list", "neighbours_ms")),
    covers=(76,))

scenario.claim(
    "quadkeys keep a tile's points together; a rollup under the truncated key answers a "
    "zoomed-out query with one row",
    seed="002", section="Geographic Data > Multi-scale indexing",
    quote="Compute a summary, and store it under the truncate key -- i.e. store the rollup of "
          "'012312000' to '012312333' under '012312'.",
    criterion=(each(("quadkey", "point_id"), "area_right") == 1)
              & (metric("quadkey", "area_blocks") < 0.25 * metric("point_id", "area_blocks"))
              & (metric("quadkey", "summary_right") == 1)
              & (metric("quadkey", "summary_blocks") <= 2),
    covers=(73,))

scenario.claim(
    "airport records: the layout follows the access pattern (whole record vs one field)",
    seed="002", section="Simple Table > Airport Metadata",
    quote="each field is its own column family, with a null qualifier ... there is one column "
          "family, and the field name is the column qualifier ... there one column, and the "
          "entire record is serialized into its value. The answer comes down to the pattern of "
          "access from your application.",
    criterion=(metric("serialized_record", "record_ms") <= metric("one_family", "record_ms"))
              & (metric("one_family", "record_ms") < metric("family_per_field", "record_ms"))
              & (metric("serialized_record", "field_value_bytes")
                 > 3 * metric("one_family", "field_value_bytes"))
              & (metric("family_per_field", "field_blocks")
                 <= metric("one_family", "field_blocks")),
    covers=(74,))

scenario.claim(
    "timezone by versions: one cell, read with max timestamp = the event's time",
    seed="002", section="Simple Table > Airport Timezone",
    quote="Next, we will store the TZ offset at the exact timestamp marking the beginning of its "
          "rule. When you do a query, specify that you want one value, with the max timestamp "
          "set to the time of the event at that airport.",
    criterion=(metric("timezone_versions", "tz_right") == 1)
              & (metric("timezone_versions", "tz_cells") == 1)
              & (metric("timezone_versions", "tz_all_cells") >= 10),
    covers=(75,))

scenario.bar_chart("graph", "graph: blocks per request (linked, unlinked, all links)",
                   ["hit_blocks", "miss_blocks", "neighbours_blocks"], unit="blocks per request")
scenario.bar_chart("airport", "airport layouts: makespan per whole record and per field",
                   ["record_ms", "field_ms"], unit="ms")
