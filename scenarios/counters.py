"""Counters: concurrent clients counting page views with read-modify-write puts, with
check-and-put retries, or with atomic increments; the most-frequent-URL trick (timestamp =
count) and the five most recent URLs (VERSIONS 5); and a referential check before each write.

Seed claims: 000 "Supported Datatypes > Counters" and "Constraints"; 002 "Web Logs:
Rows-As-Columns" ("Atomic Counters", "Most-Frequent URLs", "Most-Recent URLs"); 004 "Defining
requirements: more work up front always pays".

Concurrency is simulated, not threaded: `clients` clients each hold one logical update in
progress, and a seeded scheduler picks which client takes its next step (one request), so two
clients' reads and writes interleave the same way on every run. A read-modify-write update is
two steps (Get, then Put of the value + 1); with check-and-put the Put only applies if the
value is still the one read, else the client reads again; an increment is one step, applied
under the row lock on the region server (HRegion.increment). Every variant makes the same
`--ops` page views of the same URLs.
"""

from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.parts import by_test
from hsim.scenario.readers import record_time_per_op, record_write_throughput
from hsim.scenario.setup import create_table, settle
from hsim.workloads.distributions import Zipfian

scenario = Scenario(
    "counters",
    "concurrent counting by read-modify-write, check-and-put and increment (lost updates, "
    "round trips); the most-frequent-URL timestamp trick; checks before writes",
    sizes={"small": 2000, "default": 10000, "large": 50000, "sweep": 5000},
    servers=1,
    scale=1 / 256,
    params={"clients": 8, "urls": 50, "cookies": 40, "customers": 10000},
    sweep={"clients": [2, 32], "urls": [10, 200]},
    ops_meaning="page views (or orders) per variant",
)

scenario.variant("read_modify_write", "Get the count, Put count + 1: two round trips, no lock",
                 test="count", update="rmw")
scenario.variant("check_and_put", "Get the count, checkAndPut count + 1 if unchanged, else "
                 "read again", test="count", update="cas")
scenario.variant("increment", "one Increment: the region server adds under the row lock",
                 test="count", update="incr")
scenario.variant("timestamp_trick", "incr the URL's count, then Put the URL into a VERSIONS 1 "
                 "cell with timestamp = count; read: one Get of that cell", test="frequent",
                 trick=True)
scenario.variant("read_all_counts", "incr the URL's count; read: Get every count of the cookie "
                 "and take the largest", test="frequent", trick=False)
scenario.variant("unchecked_writes", "Put each order", test="constraint", check=False)
scenario.variant("checked_writes", "Get the order's customer first (referential integrity), "
                 "Put the order only if it exists", test="constraint", check=True)


def _views(ctx, p):
    """The page views every variant makes: (cookie, url), URLs zipfian per cookie."""
    rng = ctx.shared_rng()
    urls = Zipfian(0, p["urls"] - 1, rng)
    return [(rng.randrange(p["cookies"]), urls.next()) for _ in range(ctx.ops)]


def _count(ctx, variant, p):
    """`clients` clients share the page views; each counts its view in the URL's hit counter
    (row = URL), so popular pages see concurrent updates."""
    table = create_table(ctx, "page_hits", ["d"], split_enabled=False)
    views = _views(ctx, p)
    queue = iter(views)
    schedule = ctx.rng  # which client steps next: the same on every run of this seed
    clients = [None] * p["clients"]  # each: [row, column, value read or None]
    done = trips = retries = 0
    update = variant["update"]
    before = ctx.loads()
    while done < len(views):
        c = schedule.randrange(len(clients))
        if clients[c] is None:
            view = next(queue, None)
            if view is None:
                continue  # no views left to take: another client finishes its own
            clients[c] = [b"/page/%d" % view[1], b"d:hits", None]
        row, col, seen = clients[c]
        trips += 1
        if update == "incr":
            table.increment(row, col)
        elif seen is None:  # step 1 of 2: read the count
            cells = table.get(row, columns=[col])
            clients[c][2] = cells[0].value if cells else b""
            ctx.tick()
            continue
        else:  # step 2 of 2: write count + 1
            new = (int.from_bytes(seen, "big") + 1).to_bytes(8, "big")
            if update == "rmw":
                table.put(row, {col: new})
            elif not table.check_and_put(row, col, seen or None, {col: new}):
                retries += 1
                clients[c][2] = None  # someone else wrote it: read again
                ctx.tick()
                continue
        clients[c] = None
        done += 1
        ctx.tick()
    counted = sum(int.from_bytes(c.value, "big") for row in table.scan(caching=1000)
                  for c in row)
    io = ctx.io(since=before)
    ctx.record("lost_updates", len(views) - counted, "updates lost")
    ctx.record("lost_share", (len(views) - counted) / len(views), "share of updates lost", "%")
    ctx.record("round_trips_per_update", trips / len(views), "round trips per counted view")
    ctx.record("retries_per_update", retries / len(views), "retries per counted view")
    ctx.record("server_requests_per_update", (io["read_requests"] + io["write_requests"])
               / len(views), "requests the server served per view")
    record_time_per_op(ctx, "ms_per_update", before, len(views), "makespan per view")


def _frequent(ctx, variant, p):
    """Count each view, keep each cookie's most frequent URL, and its five most recent ones."""
    ctx.admin.create_table("cookie_url", ["u"], split_enabled=False)
    ctx.admin.create_table("cookie_stats", {"c": {"VERSIONS": 1}, "r": {"VERSIONS": 5}},
                           split_enabled=False)
    counts_t, stats = ctx.table("cookie_url"), ctx.table("cookie_stats")
    views = _views(ctx, p)
    truth: dict = {}
    recent: dict = {}
    before = ctx.loads()
    for cookie, url in views:
        row, name = b"c%04d" % cookie, b"/page/%d" % url
        count = counts_t.increment(row, b"u:" + name)
        stats.put(row, {b"r:url": name})  # one version per view; the family keeps five
        if variant["trick"]:
            stats.put(row, {b"c:url": name}, timestamp=count)
        truth.setdefault(cookie, {})[name] = count
        recent.setdefault(cookie, []).append(name)
        ctx.tick()
    record_time_per_op(ctx, "write_ms_per_view", before, len(views),
                       "writes: makespan per view")
    settle(ctx, "cookie_url", "cookie_stats")
    before = ctx.loads()
    right = cells = 0
    for cookie, counts in sorted(truth.items()):
        row = b"c%04d" % cookie
        if variant["trick"]:
            got = stats.get(row, columns=[b"c:url"])
            best = got[0].value
        else:
            got = counts_t.get(row)
            best = max(got, key=lambda c: int.from_bytes(c.value, "big")).qualifier
        cells += len(got)
        right += counts[best] == max(counts.values())
    n = len(truth)
    ctx.record("most_frequent_right", right / n, "most frequent URL: right answers", "%")
    ctx.record("cells_per_query", cells / n, "most frequent URL: cells returned per query")
    record_time_per_op(ctx, "read_ms_per_query", before, n,
                       "most frequent URL: makespan per query")
    recent_right = 0
    for cookie, seen in sorted(recent.items()):
        got = stats.get(b"c%04d" % cookie, columns=[b"r:url"], max_versions=10)
        recent_right += [c.value for c in got] == seen[::-1][:5]
    ctx.record("most_recent_right", recent_right / n, "five most recent URLs: right answers",
               "%")
    ctx.record("recent_cells_kept", sum(1 for row in stats.scan(columns=["r"], max_versions=100)
                                        for _ in row) / n,
               "recent-URL cells kept per cookie")


def _constraint(ctx, variant, p):
    """Orders for customers; one order in ten names a customer that does not exist."""
    ctx.admin.create_table("customers", ["d"], split_enabled=False)
    ctx.admin.create_table("orders", ["d"], split_enabled=False)
    customers, orders = ctx.table("customers"), ctx.table("orders")
    rng = ctx.shared_rng()
    record = b"x" * 200
    ctx.expect(p["customers"] + ctx.ops)
    for i in range(p["customers"]):
        customers.put(b"cust%08d" % (2 * i), {b"d:profile": record})
        ctx.tick()
    settle(ctx, "customers")
    before = ctx.loads()
    written = refused = 0
    for n in range(ctx.ops):
        cust = 2 * rng.randrange(p["customers"]) + (rng.randrange(10) == 0)  # odd: no such
        key = b"cust%08d" % cust
        if variant["check"] and not customers.exists(key):
            refused += 1
        else:
            orders.put(key + b"-%08d" % n, {b"d:order": record})
            written += 1
        ctx.tick()
    ctx.record("orders_written", written, "orders written")
    ctx.record("orders_refused", refused, "orders refused (no such customer)")
    record_write_throughput(ctx, before, ctx.ops, label="orders handled per second (simulated)")


scenario.run(by_test({"count": _count, "frequent": _frequent, "constraint": _constraint}))


scenario.claim(
    "increments are atomic on the region server; read-modify-write loses updates",
    seed="000", section="Supported Datatypes > Counters",
    quote="One supported datatype that deserves special mention are \"counters\" (i.e., the "
          "ability to do atomic increments of numbers). ... Synchronization on counters are "
          "done on the RegionServer, not in the client.",
    criterion=(metric("increment", "lost_updates") == 0)
              & (metric("read_modify_write", "lost_updates") > 0)
              & (metric("increment", "round_trips_per_update") == 1),
    covers=(49,))

scenario.claim(
    "without transactions, a count kept by the client needs retry logic and more round trips",
    seed="004", section="Defining requirements: more work up front always pays",
    quote="keeping a count makes the client code complicated ... Given that HBase doesn’t have "
          "the concept of transactions ... it isn’t thread-safe. ... You’ll have to build logic "
          "to roll back or repeat the write operation in your client code.",
    criterion=(metric("read_modify_write", "lost_updates") > 0)
              & (metric("check_and_put", "lost_updates") == 0)
              & (metric("check_and_put", "retries_per_update") > 0)
              & (metric("check_and_put", "round_trips_per_update")
                 > 2 * metric("increment", "round_trips_per_update")),
    covers=(92, 49))

scenario.claim(
    "timestamp = count makes the most frequent URL one cell; VERSIONS 5 keeps the five most "
    "recent",
    seed="002", section="Web Logs: Rows-As-Columns > Most-Frequent URLs",
    quote="To find the value of the most-frequent URL for a given cookie, do a `get(table: "
          "\"cookie_stats\", row: cookie, col: 'c')`. HBase will return the \"most recent\" "
          "value, namely the one with the highest timestamp, which means the value with the "
          "highest count.",
    criterion=(each(("timestamp_trick", "read_all_counts"), "most_frequent_right") == 1)
              & (metric("timestamp_trick", "cells_per_query") == 1)
              & (metric("read_all_counts", "cells_per_query") >= 5)
              & (metric("timestamp_trick", "most_recent_right") == 1)
              & (metric("timestamp_trick", "recent_cells_kept") <= 5),
    covers=(79,))

scenario.claim(
    "a referential check before each write dramatically lowers write throughput",
    seed="000", section="Constraints",
    quote="Constraints could also be used to enforce referential integrity, but this is "
          "strongly discouraged as it will dramatically decrease the write throughput of the "
          "tables where integrity checking is enabled.",
    # the check is a Get before each Put; what that does to the throughput is the cost
    # model's pricing of the extra requests, so the claim is arithmetic, not a measurement
    kind="arithmetic",
    criterion=metric("checked_writes", "write_throughput")
    < 0.5 * metric("unchecked_writes", "write_throughput"),
    covers=(52,))

scenario.bar_chart("round_trips", "round trips per counted page view",
                   ["round_trips_per_update", "retries_per_update"], unit="round trips per view")
scenario.bar_chart("lost", "page views lost", ["lost_updates"])
