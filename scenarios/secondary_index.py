"""Secondary indexes: "which users live in city c?" asked of a users table keyed by user id,
answered by a full scan with a server-side filter, by a full scan filtered in the client, by an
index table written alongside the data (dual write), by an index table a periodic job rebuilds,
or (for "how many") by a summary table a periodic job rebuilds.

Seed claims: 000 "Secondary Indexes and Alternate Query Paths" (its "Filter Query",
"Periodic-Update Secondary Index", "Dual-Write Secondary Index" and "Summary Tables"); 004
"Fitering Data" (push-down predicates).

Every variant loads the same `--ops` users (a 200-byte profile and a city), into a cluster whose
block cache holds `cache_share` of the users table (its KeyValue bytes), so a full scan reads
most of the table from disk as it would on a table too large for the cache (the seed's "large
table"); then it runs the same
rounds: `updates_per_query` users move to another city, a periodic job runs when due (every
`rebuild_every` updates: a full scan of the users, as the book's MapReduce job would), and one
query asks for a city's users. Costs are split by phase (writes and jobs vs queries) from the
cluster's counts; answers are compared with the truth the driver keeps.

The cost model prices the rows a read examines, not only those it returns: the full scan pays
for every user row its filter drops, and, the table being larger than the cache, for reading
its blocks from disk.
"""

from hsim.cell import Cell
from hsim.filters import BinaryComparator, SingleColumnValueFilter
from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.setup import create_table, settle
from hsim.scenario.tallies import table_bytes
from hsim.workloads.costmodel import LOAD_FIELDS, ServerLoad

scenario = Scenario(
    "secondary_index",
    "full scan with a filter (server or client side) vs dual-write index vs periodically "
    "rebuilt index vs summary table: write cost, read cost, space, staleness",
    sizes={"small": 1000, "default": 5000, "sweep": 2000},
    servers=1,
    scale=1 / 256,
    params={"cities": 50, "queries": 40, "updates_per_query": 25, "rebuild_every": 500,
            "cache_share": 0.5},
    sweep={"cities": [10, 200], "rebuild_every": [100, 2000]},
    ops_meaning="users loaded per variant",
)

scenario.variant("filter_scan", "no index: a full scan with SingleColumnValueFilter on the "
                 "region server", index=None, push_down=True)
scenario.variant("client_filter", "no index: a full scan of the city column, filtered in the "
                 "client", index=None, push_down=False)
scenario.variant("dual_write", "each update: Get the old city, Put the user, Delete the old "
                 "index row, Put the new one; query: one prefix scan of the index",
                 index="dual")
scenario.variant("periodic_index", "each update: Put the user; a job rebuilds the index table "
                 "from a full scan; query: one prefix scan of the index", index="periodic")
scenario.variant("summary_table", "each update: Put the user; a job rewrites a count per city; "
                 "query (how many): one Get", index="summary")

CITY = b"d:city"
PROFILE = b"p" * 200


def _city(n):
    return b"city%03d" % n


def _uid(n):
    return b"user%07d" % n


@scenario.run
def run(ctx, variant):
    p = ctx.params
    rng = ctx.shared_rng()
    kind = variant["index"]
    cache = int(p["cache_share"] * users_table_bytes(ctx.ops))
    ctx.config = ctx.config.replace(block_cache_size=cache)  # before the cluster is made
    users = create_table(ctx, "users", ["d"], split_enabled=False)
    if kind:
        ctx.admin.create_table("by_city", ["i"], split_enabled=False)
    index = ctx.table("by_city") if kind else None
    truth = {}
    rounds = p["queries"]
    ctx.expect(ctx.ops + rounds * (p["updates_per_query"] + 1))
    for n in range(ctx.ops):
        truth[n] = rng.randrange(p["cities"])
        users.put(_uid(n), {CITY: _city(truth[n]), b"d:profile": PROFILE})
        if kind == "dual":
            index.put(_city(truth[n]) + b"/" + _uid(n), {b"i:": b""})
        ctx.tick()
    if kind in ("periodic", "summary"):
        _job(ctx, kind, users, index, p)
    tables = ("users", "by_city")[:2 if kind else 1]
    settle(ctx, *tables)
    space = {name: table_bytes(ctx, name) for name in tables}

    writes, reads = _zero(ctx), _zero(ctx)
    logged_writes = logged_reads = ctx.logged(ctx.loads())  # their request log entries (none
    # yet), for the timeline
    updates = since_job = stale = 0
    returned = 0
    for _ in range(rounds):
        before = ctx.loads()
        for _ in range(p["updates_per_query"]):
            n = rng.randrange(ctx.ops)
            new = truth[n] = rng.randrange(p["cities"])
            if kind == "dual":  # the index row to delete is found from the row's old value
                old_city = users.get(_uid(n), columns=[CITY])[0].value
                users.put(_uid(n), {CITY: _city(new)})
                index.delete_row(old_city + b"/" + _uid(n))
                index.put(_city(new) + b"/" + _uid(n), {b"i:": b""})
            else:
                users.put(_uid(n), {CITY: _city(new)})
            updates += 1
            since_job += 1
            ctx.tick()
        if kind in ("periodic", "summary") and since_job >= p["rebuild_every"]:
            _job(ctx, kind, users, index, p)
            since_job = 0
        writes = _add(writes, ctx.loads(), before)
        logged_writes = logged_writes + ctx.logged(before)
        city = rng.randrange(p["cities"])
        want = {_uid(n) for n, c in truth.items() if c == city}
        before = ctx.loads()
        got, size = _query(kind, variant, users, index, _city(city))
        reads = _add(reads, ctx.loads(), before)
        logged_reads = logged_reads + ctx.logged(before)
        returned += size
        stale += (got != len(want)) if kind == "summary" else (got != want)
        ctx.tick()
    io_w = {f: sum(getattr(x, f) for x in writes) for f in LOAD_FIELDS}
    io_r = {f: sum(getattr(x, f) for x in reads) for f in LOAD_FIELDS}
    ctx.record("requests_per_update", (io_w["read_requests"] + io_w["write_requests"])
               / updates, "server requests per update (jobs included)")
    ctx.record_priced("write_ms_per_update", writes, ops=updates, per=updates,
                      requests=logged_writes,
                      label="makespan per update (jobs included)")
    ctx.record("rows_scanned_per_update", io_w["scan_rows"] / updates,
               "rows read per update (jobs included)")
    ctx.record_priced("ms_per_query", reads, ops=rounds, per=rounds, requests=logged_reads,
                      label="makespan per query")
    ctx.record("blocks_per_query", (io_r["cache_hits"] + io_r["blocks_read_from_disk"])
               / rounds, "data blocks read per query")
    ctx.record("disk_blocks_per_query", io_r["blocks_read_from_disk"] / rounds,
               "of which read from disk (not the block cache)")
    ctx.record("rpcs_per_query", io_r["read_requests"] / rounds, "read RPCs per query")
    ctx.record("rows_examined_per_query", io_r["rows_examined"] / rounds,
               "rows the servers examined per query (filtered ones included)")
    ctx.record("bytes_to_client_per_query", returned / rounds,
               "bytes returned to the client per query", "B")
    ctx.record("stale_answers", stale / rounds, "queries answered wrong (stale)", "%")
    ctx.record("store_bytes", sum(space.values()), "store file bytes, all tables", "B")
    ctx.record("index_space_share", (sum(space.values()) - space["users"]) / space["users"],
               "index or summary bytes / data bytes", "%")
    ctx.record("users_bytes", space["users"], "users table, store file bytes", "B")
    ctx.record("block_cache_bytes", cache, "block cache size", "B")


def users_table_bytes(users: int) -> int:
    """The users table's KeyValue bytes (a city and a profile cell per user), the size the
    block cache is set against."""
    one = (Cell(_uid(0), b"d", b"city", 0, value=_city(0)).serialized_size
           + Cell(_uid(0), b"d", b"profile", 0, value=PROFILE).serialized_size)
    return users * one


def _query(kind, variant, users, index, city):
    """The query's answer (user ids, or a count) and the bytes of the cells it returned."""
    if kind == "summary":
        cells = index.get(city, columns=[b"i:count"])
        return (int.from_bytes(cells[0].value, "big") if cells else 0), _bytes(cells)
    if kind:
        rows = list(index.scan(row_prefix=city + b"/"))
        return {r[0].row[len(city) + 1:] for r in rows}, sum(_bytes(r) for r in rows)
    if variant["push_down"]:
        rows = list(users.scan(columns=[CITY], filter=SingleColumnValueFilter(
            b"d", b"city", "=", BinaryComparator(city), filter_if_missing=True)))
        return {r[0].row for r in rows}, sum(_bytes(r) for r in rows)
    rows = list(users.scan(columns=[CITY]))
    return {r[0].row for r in rows if r[0].value == city}, sum(_bytes(r) for r in rows)


def _job(ctx, kind, users, index, p):
    """The periodic job (a MapReduce job in the book): a full scan of the users, then the
    index (or the counts) written again from it."""
    ctx.admin.disable_table("by_city")
    ctx.admin.truncate_table("by_city")  # comes back enabled, empty
    counts: dict = {}
    for row in users.scan(columns=[CITY]):
        city = row[0].value
        if kind == "periodic":
            index.put(city + b"/" + row[0].row, {b"i:": b""})
        counts[city] = counts.get(city, 0) + 1
    if kind == "summary":
        for city, n in sorted(counts.items()):
            index.put(city, {b"i:count": n.to_bytes(8, "big")})


def _bytes(cells):
    return sum(c.serialized_size for c in cells)


def _zero(ctx):
    return [ServerLoad(x.server) for x in ctx.loads()]


def _add(acc, now, before):
    """acc + (now - before), server by server."""
    old = {x.server: x for x in before}
    out = []
    for a, x in zip(acc, now):
        b = old.get(x.server, ServerLoad(x.server))
        out.append(ServerLoad(x.server, *(getattr(a, f) + getattr(x, f) - getattr(b, f)
                                          for f in LOAD_FIELDS)))
    return out


scenario.claim(
    "a secondary index takes additional space and processing on every write",
    seed="000", section="Secondary Indexes and Alternate Query Paths",
    quote="It should not be a surprise that secondary indexes require additional cluster space "
          "and processing.",
    criterion=(metric("dual_write", "store_bytes") > metric("filter_scan", "store_bytes"))
              & (metric("periodic_index", "store_bytes") > metric("filter_scan", "store_bytes"))
              & (metric("dual_write", "requests_per_update")
                 >= 3 * metric("filter_scan", "requests_per_update"))
              & (metric("periodic_index", "rows_scanned_per_update")
                 > metric("filter_scan", "rows_scanned_per_update"))
              & (metric("dual_write", "write_ms_per_update")
                 > metric("filter_scan", "write_ms_per_update")),
    covers=(50,))

scenario.claim(
    "a periodically updated index can be out of sync with the data; a dual-write one is not",
    seed="000", section="Secondary Indexes and Alternate Query Paths > Periodic-Update "
                        "Secondary Index",
    quote="The job could be executed intra-day, but depending on load-strategy it could still "
          "potentially be out of sync with the main data table.",
    criterion=(each(("periodic_index", "summary_table"), "stale_answers") > 0)
              & (each(("dual_write", "filter_scan"), "stale_answers") == 0),
    covers=(50,))

scenario.claim(
    "a filter query is a full scan: far costlier per query than an index",
    seed="000", section="Secondary Indexes and Alternate Query Paths > Filter Query",
    quote="In this case, no secondary index is created. However, don't try a full-scan on a "
          "large table like this from an application (i.e., single-threaded client).",
    proposition="don't try a full-scan on a large table like this from an application",
    # the full scan's work, counted: every user row examined and every block read, against
    # the index's rows and blocks; the simulated times only report what the prices make of it
    criterion=(metric("filter_scan", "rows_examined_per_query")
               > 5 * metric("dual_write", "rows_examined_per_query"))
              & (metric("filter_scan", "blocks_per_query")
                 > 5 * metric("dual_write", "blocks_per_query")),
    extras=(metric("filter_scan", "ms_per_query") > 5 * metric("dual_write", "ms_per_query"))
           & (metric("summary_table", "ms_per_query") < metric("filter_scan", "ms_per_query")),
    covers=(51,))

scenario.claim(
    "a filter pushed down to the region server returns only the matching rows",
    seed="004", section="Fitering Data",
    quote="push-down predicates",
    criterion=(each(("filter_scan", "client_filter"), "stale_answers") == 0)
              & (metric("filter_scan", "bytes_to_client_per_query")
                 < 0.2 * metric("client_filter", "bytes_to_client_per_query"))
              & (metric("filter_scan", "rpcs_per_query")
                 <= metric("client_filter", "rpcs_per_query")),
    covers=(93,))

scenario.bar_chart("query_cost", "cost of one query", ["ms_per_query", "blocks_per_query"])
scenario.bar_chart("write_cost", "cost of one update (jobs included)",
                   ["requests_per_update", "write_ms_per_update"])
