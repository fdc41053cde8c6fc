"""The order object: customer/order keys, four ways to store an order (normalized tables, record
types in one row range, denormalized line items, one BLOB), what a multi-row update gives up,
and a twit stream per user (denormalized) vs reading each followee's twits (normalized).

Seed claims: 000 "Case Study - Customer/Order" (its "Single Table? Multiple Tables?" and "Order
Object Design"); 004 "Modeling for even distribution of data and load" (a tall table trades off
atomicity) and "De-normalization".

Orders: every variant stores the same `--ops` orders of `customers` customers, each order with
1-3 shipping locations of 1-4 line items. Keys are [customer:8][order:8]. Each variant reads
every order once and changes the address of `updates` shipping locations; while an update is
half applied (between two of its Puts), a reader reads the order, as another client could.

Twits: the read hot spot is judged on the share of timelines that read the region holding
the popular user's rows (every one when each timeline reads its followees); the busiest
region's share of all reads is reported beside it.
"""

import hashlib
import json

from hsim.filters import FuzzyRowFilter
from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.parts import by_test
from hsim.scenario.readers import record_time_per_op
from hsim.scenario.setup import create_table, settle
from hsim.scenario.tallies import region_reads, table_bytes

scenario = Scenario(
    "order_object",
    "customer/order keys; normalized vs record types vs denormalized vs BLOB orders: reads per "
    "order, bytes, update cost, atomicity; a twit stream per user vs reading followees",
    sizes={"small": 600, "default": 3000, "sweep": 1200},
    servers=4,
    scale=1 / 256,
    params={"customers": 100, "updates": 200, "users": 200, "follows": 10, "regions": 8},
    sweep={"customers": [20, 400], "follows": [5, 40]},
    ops_meaning="orders (and twits) per variant",
)

scenario.variant("normalized", "tables ORDER, SHIPPING_LOCATION, LINE_ITEM: a Get and two "
                 "prefix scans per order", test="order", design="normalized")
scenario.variant("record_types", "one table, rows [order][O], [order][S][loc], "
                 "[order][L][loc][line]: one prefix scan", test="order", design="record_types")
scenario.variant("denormalized", "one table, the ship-to fields copied onto each line item "
                 "row [order][L][line]: one prefix scan", test="order", design="denormalized")
scenario.variant("object_blob", "one row per order, one JSON cell holding the object graph: "
                 "one Get", test="order", design="blob")
scenario.variant("customer_numeric", "CUSTOMER++ with [customer:8][type][order:8] keys",
                 test="customer", key=lambda n: n.to_bytes(8, "big"))
scenario.variant("customer_md5", "CUSTOMER++ with [MD5(customer)][type][MD5(order)] keys",
                 test="customer", key=lambda n: hashlib.md5(b"%d" % n).digest())
scenario.variant("read_followees", "normalized: twits keyed [user][reverse ts]; a timeline "
                 "scans each followee's newest twits", test="twits", fanout=False)
scenario.variant("stream_per_user", "denormalized: each twit written into every follower's "
                 "stream [user][reverse ts]; a timeline is one scan", test="twits", fanout=True)

ADDRESS = 60
MAX_TS = 2 ** 63 - 1


def _order_data(ctx, p):
    """[(order key, {loc: address}, [(loc, line, item bytes)])], the same for every variant."""
    rng = ctx.shared_rng()
    orders = []
    for n in range(ctx.ops):
        key = rng.randrange(p["customers"]).to_bytes(8, "big") + n.to_bytes(8, "big")
        locs = {loc: b"%02d street %d, city %d" % (loc, rng.randrange(999), rng.randrange(99))
                for loc in range(rng.randint(1, 3))}
        lines = [(loc, i, b"item%05d qty %d price %d" % (rng.randrange(10 ** 5),
                                                          rng.randint(1, 9), rng.randrange(999)))
                 for loc in locs for i in range(rng.randint(1, 4))]
        orders.append((key, locs, lines))
    return orders


def _puts(design, key, locs, lines):
    """The (table, row, cells) Puts that store an order in this design."""
    head = {b"d:date": b"2026-11-25", b"d:total": b"%d" % len(lines)}
    if design == "blob":
        graph = {"order": {k.decode(): v.decode() for k, v in head.items()},
                 "ship": {str(loc): {"address": a.decode(), "lines": [
                     it.decode() for lc, _, it in lines if lc == loc]} for loc, a in locs.items()}}
        return [("orders", key, {b"d:order": json.dumps(graph, sort_keys=True).encode()})]
    if design == "normalized":
        return ([("orders", key, head)]
                + [("ship", key + bytes([loc]), {b"d:addr": a}) for loc, a in locs.items()]
                + [("lines", key + bytes([loc, i]), {b"d:item": it}) for loc, i, it in lines])
    if design == "record_types":
        return ([("orders", key + b"O", head)]
                + [("orders", key + b"S" + bytes([loc]), {b"d:addr": a})
                   for loc, a in locs.items()]
                + [("orders", key + b"L" + bytes([loc, i]), {b"d:item": it})
                   for loc, i, it in lines])
    return ([("orders", key + b"O", head)]  # denormalized: line numbers unique in the order
            + [("orders", key + b"L" + bytes([n]), {b"d:item": it, b"d:loc": bytes([loc]),
                                                    b"d:shipto": locs[loc]})
               for n, (loc, _, it) in enumerate(lines)])


def _read(design, tables, key):
    """Read one order back: ({loc: {addresses seen}}, cells returned)."""
    if design == "blob":
        cells = tables["orders"].get(key)
        graph = json.loads(cells[0].value)
        return {int(k): {v["address"].encode()} for k, v in graph["ship"].items()}, cells
    if design == "normalized":
        cells = tables["orders"].get(key)
        ship = [c for row in tables["ship"].scan(row_prefix=key) for c in row]
        cells += ship + [c for row in tables["lines"].scan(row_prefix=key) for c in row]
        return {c.row[-1]: {c.value} for c in ship}, cells
    cells = [c for row in tables["orders"].scan(row_prefix=key) for c in row]
    seen: dict = {}
    if design == "record_types":
        for c in cells:
            if c.row[16:17] == b"S":
                seen[c.row[17]] = {c.value}
        return seen, cells
    rows: dict = {}
    for c in cells:
        rows.setdefault(c.row, {})[c.qualifier] = c.value
    for r in rows.values():
        if b"loc" in r:
            seen.setdefault(r[b"loc"][0], set()).add(r[b"shipto"])
    return seen, cells


def _orders(ctx, variant, p):
    design = variant["design"]
    names = ("orders", "ship", "lines") if design == "normalized" else ("orders",)
    for name in names:
        ctx.admin.create_table(name, ["d"], split_enabled=False)
    tables = {name: ctx.table(name) for name in names}
    orders = _order_data(ctx, p)
    ctx.expect(len(orders) * 2 + p["updates"])
    before = ctx.loads()
    for key, locs, lines in orders:
        for name, row, cells in _puts(design, key, locs, lines):
            tables[name].put(row, cells)
        ctx.tick()
    record_time_per_op(ctx, "write_ms_per_order", before, len(orders),
                       "makespan per order written")
    ctx.record("puts_per_order", ctx.io(since=before)["write_requests"] / len(orders),
               "Puts per order written")
    settle(ctx, *names)
    ctx.record("store_bytes_per_order", table_bytes(ctx, *names) / len(orders),
               "store file bytes per order", "B")
    before = ctx.loads()
    returned = 0
    for key, _, _ in orders:
        _, cells = _read(design, tables, key)
        returned += sum(c.serialized_size for c in cells)
        ctx.tick()
    io = ctx.io(since=before)
    ctx.record("rpcs_per_order_read", io["read_requests"] / len(orders), "read RPCs per order")
    ctx.record("bytes_per_order_read", returned / len(orders), "bytes returned per order", "B")
    record_time_per_op(ctx, "read_ms_per_order", before, len(orders),
                       "makespan per order read")
    _address_updates(ctx, design, tables, orders, p)


def _address_updates(ctx, design, tables, orders, p):
    """Change one shipping location's address, Put by Put; a reader reads the order between
    two Puts of the same update."""
    rng = ctx.shared_rng()
    half = written = puts = 0
    before = ctx.loads()
    for u in range(p["updates"]):
        key, locs, lines = orders[rng.randrange(len(orders))]
        loc = rng.choice(sorted(locs))
        locs[loc] = b"%02d new street %d" % (loc, u)
        if design == "blob":  # read the object, change it, write it whole
            tables["orders"].get(key)
            changes = _puts(design, key, locs, lines)
        else:
            changes = [c for c in _puts(design, key, locs, lines)
                       if locs[loc] in c[2].values()]
        torn = False
        for i, (name, row, cells) in enumerate(changes):
            tables[name].put(row, cells)
            written += sum(len(v) for v in cells.values())
            puts += 1
            if i < len(changes) - 1:  # another client reads the order now
                seen, _ = _read(design, tables, key)
                torn |= any(len(a) > 1 for a in seen.values())
        half += torn
        ctx.tick()
    n = p["updates"]
    io = ctx.io(since=before)
    ctx.record("puts_per_address_update", puts / n, "Puts per address change")
    ctx.record("requests_per_address_update", (io["read_requests"] + io["write_requests"]) / n,
               "requests per address change (with any interleaved read)")
    ctx.record("value_bytes_per_address_update", written / n,
               "value bytes written per address change", "B")
    ctx.record("half_updates_seen", half / n,
               "address changes a concurrent reader saw half applied", "%")


def _customers(ctx, variant, p):
    """CUSTOMER++: a customer row ([customer][1]) and its order rows ([customer][2][order]) in
    one table; read everything about a customer, then every customer record."""
    key = variant["key"]
    table = create_table(ctx, "customer_pp", ["d"], split_enabled=False)
    rng = ctx.shared_rng()
    for c in range(p["customers"]):
        table.put(key(c) + b"\x01", {b"d:name": b"customer %d" % c})
    for n in range(ctx.ops):
        table.put(key(rng.randrange(p["customers"])) + b"\x02" + key(n), {b"d:order": b"o" * 80})
        ctx.tick()
    settle(ctx, "customer_pp")
    before = ctx.loads()
    rows = 0
    for c in range(p["customers"]):
        rows += sum(1 for _ in table.scan(row_prefix=key(c)))
    io = ctx.io(since=before)
    ctx.record("rows_per_customer_read", rows / p["customers"],
               "rows one customer's scan returned")
    ctx.record("rpcs_per_customer_read", io["read_requests"] / p["customers"],
               "read RPCs to read everything about a customer")
    ctx.record("key_bytes_per_order_row", len(key(0)) * 2 + 1, "key bytes of an order row", "B")
    before = ctx.loads()
    width = len(key(0))  # FuzzyRowFilter: any customer bytes, then type 1
    found = sum(1 for row in table.scan(filter=FuzzyRowFilter(
        [(bytes(width) + b"\x01", bytes([1]) * width + b"\x00")])))
    io = ctx.io(since=before)
    ctx.record("customer_records_found", found, "customer records a type scan found")
    ctx.record("blocks_per_type_scan", io["cache_hits"] + io["blocks_read_from_disk"],
               "blocks read to find every customer record")
    before = ctx.loads()
    list(table.scan(row_prefix=key(0)))
    io = ctx.io(since=before)
    ctx.record("blocks_per_customer_read", io["cache_hits"] + io["blocks_read_from_disk"],
               "blocks read to read one customer")


def _twits(ctx, variant, p):
    """`users` users; user 0 is followed by everyone, the rest follow `follows` random users.
    Each of `--ops` twits is by a random user (one in ten by user 0); then every user reads
    their timeline (the 10 newest twits of the users they follow)."""
    rng = ctx.shared_rng()
    users = p["users"]
    follows = {u: {0} | set(rng.sample(range(1, users), p["follows"])) - {u}
               for u in range(users)}
    followers: dict = {}
    for u, fs in follows.items():
        for f in fs:
            followers.setdefault(f, []).append(u)
    splits = [(users * i // p["regions"]).to_bytes(4, "big") for i in range(1, p["regions"])]
    table = create_table(ctx, "twits", ["d"], split_keys=splits, split_enabled=False)
    ctx.expect(ctx.ops + users)
    before = ctx.loads()
    for n in range(ctx.ops):
        author = 0 if rng.randrange(10) == 0 else rng.randrange(1, users)
        twit = {b"d:t": b"twit %d by %d" % (n, author)}
        rts = (MAX_TS - ctx.clock.now()).to_bytes(8, "big")
        owners = followers.get(author, []) if variant["fanout"] else [author]
        for owner in owners:
            table.put(owner.to_bytes(4, "big") + rts + n.to_bytes(4, "big"), twit)
        ctx.tick()
    ctx.record("puts_per_twit", ctx.io(since=before)["write_requests"] / ctx.ops,
               "Puts per twit posted")
    record_time_per_op(ctx, "write_ms_per_twit", before, ctx.ops,
                       "makespan per twit posted")
    ctx.admin.flush("twits")
    start = region_reads(ctx, "twits")
    before = ctx.loads()
    touched = 0  # timelines that read the region holding user 0's rows (the first region)
    for u in range(users):
        owners = [u] if variant["fanout"] else sorted(follows[u])
        at = region_reads(ctx, "twits")[0]
        for owner in owners:
            list(table.scan(row_prefix=owner.to_bytes(4, "big"), limit=10))
        touched += region_reads(ctx, "twits")[0] > at
        ctx.tick()
    reads = [r - s for r, s in zip(region_reads(ctx, "twits"), start)]
    ctx.record("popular_region_timeline_share", touched / users,
               "timelines that read the popular user's region", "%")
    io = ctx.io(since=before)
    ctx.record("rpcs_per_timeline", io["read_requests"] / users, "read RPCs per timeline")
    record_time_per_op(ctx, "read_ms_per_timeline", before, users,
                       "makespan per timeline read")
    ctx.record("hot_region_read_share", max(reads) / sum(reads),
               "busiest region's share of timeline reads", "%")


scenario.run(by_test({"order": _orders, "customer": _customers, "twits": _twits}))


scenario.claim(
    "CUSTOMER++: one scan gets everything about a customer; a record type needs a full scan",
    seed="000", section="Case Study - Customer/Order > Single Table? Multiple Tables?",
    quote="The advantage of this particular CUSTOMER++ approach is that organizes many "
          "different record-types by customer-id (e.g., a single scan could get you everything "
          "about that customer). The disadvantage is that it's not as easy to scan for a "
          "particular record-type.",
    criterion=(each(("customer_numeric", "customer_md5"), "rpcs_per_customer_read") == 1)
              & (metric("customer_md5", "rows_per_customer_read")
                 == metric("customer_numeric", "rows_per_customer_read"))
              & (metric("customer_numeric", "blocks_per_type_scan")
                 > 3 * metric("customer_numeric", "blocks_per_customer_read"))
              & (metric("customer_md5", "key_bytes_per_order_row")
                 > metric("customer_numeric", "key_bytes_per_order_row")),
    covers=(58,))

scenario.claim(
    "a BLOB order is one Get; normalized tables need a Get and scans; denormalizing makes "
    "updates cost more",
    seed="000", section="Case Study - Customer/Order > Order Object Design",
    quote="Pros are being able to manage complex object graphs with minimal I/O (e.g., a single "
          "HBase Get per Order in this example)",
    criterion=(metric("object_blob", "rpcs_per_order_read") == 1)
              & (metric("normalized", "rpcs_per_order_read") >= 3)
              & (metric("record_types", "rpcs_per_order_read") == 1)
              & (metric("object_blob", "read_ms_per_order")
                 < metric("normalized", "read_ms_per_order"))
              & (metric("denormalized", "puts_per_address_update")
                 > metric("record_types", "puts_per_address_update"))
              & (metric("object_blob", "value_bytes_per_address_update")
                 > metric("record_types", "value_bytes_per_address_update")),
    covers=(59,))

scenario.claim(
    "a tall design gives up atomicity: a reader sees a multi-row update half applied",
    seed="004", section="Modeling for even distribution of data and load",
    quote="To gain the performance benefits of a tall table, you trade off atomicity for "
          "certain operations * Put operations at a row level are atomic",
    criterion=(metric("denormalized", "half_updates_seen") > 0)
              & (each(("object_blob", "record_types"), "half_updates_seen") == 0),
    covers=(64,))

scenario.claim(
    "a stream per user optimises reads, reading followees optimises writes; a popular user is "
    "a read hot spot",
    seed="004", section="De-normalization",
    quote="The region hosting the popular user’s twits is constantly answering requests because "
          "you’ve created a read hot spot. ... From a performance standpoint, normalization "
          "optimizes for writes, and de-normalization optimizes for reads.",
    # "constantly answering requests": the share of timelines that read the popular user's
    # region (all of them when each reads its followees, only its own region's users' with a
    # stream each); reads and writes optimised: the read RPCs and the Puts each design makes
    criterion=(metric("read_followees", "popular_region_timeline_share") >= 0.9)
              & (metric("stream_per_user", "popular_region_timeline_share")
                 < 0.5 * metric("read_followees", "popular_region_timeline_share"))
              & (metric("stream_per_user", "rpcs_per_timeline")
                 < metric("read_followees", "rpcs_per_timeline"))
              & (metric("stream_per_user", "puts_per_twit")
                 > metric("read_followees", "puts_per_twit")),
    extras=(metric("stream_per_user", "read_ms_per_timeline")
            < metric("read_followees", "read_ms_per_timeline"))
           & (metric("stream_per_user", "write_ms_per_twit")
              > metric("read_followees", "write_ms_per_twit"))
           & (metric("read_followees", "hot_region_read_share")
              > metric("stream_per_user", "hot_region_read_share")),
    covers=(91,))

scenario.bar_chart("order_read", "reading one order", ["rpcs_per_order_read"])
scenario.bar_chart("timeline", "timeline reads: busiest region's share",
                   ["hot_region_read_share"])
