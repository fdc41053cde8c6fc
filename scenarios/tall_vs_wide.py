"""Tall vs wide: per-user list data stored as one row per (user, item), as one row per user with a
column per item, or as the middle path (one row per user and page of items, "rows as columns").

Seed claims: 000 "Case Study - List Data" and "Tall/Wide/Middle Schema Design Smackdown".

Every variant stores the same items: users drawn from a zipfian distribution (a few users own
most items, the power law of the seed's question), item ids counting up per user, small values.
The table starts as one region and splits as it grows; its MAX_FILESIZE is 1/16 of the
data, so a region holding more than that must split. Then the reads of the seed's question.

A Get with a ColumnPaginationFilter stops where HBase's StoreScanner does (the filter's
NEXT_ROW after the page), so the wide variant's "first 30 values" reads the blocks the page
spans, not the whole row's. "I/O efficient" is judged on the distinct blocks a cold read of
the heaviest user's list fetches from disk (a block touched twice is read once); a scanner
keeps the block it ended a batch in for the next batch, as HBase's does, so the tall design
reads no block twice either.
"""


from hsim.cell import Cell
from hsim.engine.hfile import HFileWriter
from hsim.filters import ColumnPaginationFilter
from hsim.scenario import Scenario
from hsim.scenario.criteria import metric
from hsim.scenario.measure import evict_table_blocks
from hsim.scenario.setup import create_table, settle
from hsim.workloads.distributions import Zipfian

scenario = Scenario(
    "tall_vs_wide",
    "one row per item vs one row per user with a column per item vs pages of items: storage, "
    "get and scan cost, and the wide row that can't be split",
    sizes={"small": 15000, "default": 100000, "large": 400000},
    servers=1,
    scale=1 / 1024,
    params={"users": 500, "page": 100, "value_bytes": 20},
    sweep={"users": [250, 1000]},
    ops_meaning="items stored per variant",
)

scenario.variant("tall", "row [user:8][item:8], one empty qualifier", layout="tall")
scenario.variant("wide", "row [user:8], qualifier [item:8]", layout="wide")
scenario.variant("middle", "row [user:8][page:4], qualifier [item:8] (rows as columns)",
                 layout="middle")


def _cell(layout: str, user: int, item: int, page: int) -> tuple[bytes, bytes]:
    u = b"u%07d" % user
    if layout == "tall":
        return u + item.to_bytes(8, "big"), b"d:"
    if layout == "wide":
        return u, b"d:" + item.to_bytes(8, "big")
    return u + (item // page).to_bytes(4, "big"), b"d:" + item.to_bytes(8, "big")


@scenario.run
def run(ctx, variant):
    p = ctx.params
    layout = variant["layout"]
    rng = ctx.shared_rng()  # the same items in every variant
    users = Zipfian(0, p["users"] - 1, rng)
    counts = [0] * p["users"]
    value = b"v" * p["value_bytes"]
    est_bytes = ctx.ops * (16 + 2 + 1 + 12 + 8 + p["value_bytes"])
    max_filesize = max(64 << 10, est_bytes // 16)
    table = create_table(ctx, "lists", ["d"], max_filesize=max_filesize)
    written = []
    for _ in range(ctx.ops):
        u = users.next()
        row, col = _cell(layout, u, counts[u], p["page"])
        counts[u] += 1
        table.put(row, {col: value})
        written.append((row, col))
        ctx.tick()
    settle(ctx, "lists")
    regions = ctx.admin.regions("lists")
    sizes = [r.size for r in regions]
    heavy = max(range(len(counts)), key=counts.__getitem__)
    light = [u for u in range(len(counts)) if 0 < counts[u] <= 30][:50]
    ctx.record("store_bytes", sum(sizes), "store file bytes (all regions)", "B")
    ctx.record("one_file_bytes", _one_file(ctx, written, value), "the items in one HFile", "B")
    ctx.record("regions", len(regions), "regions")
    ctx.record("largest_region_vs_max", max(sizes) / max_filesize,
               "largest region / MAX_FILESIZE", "x")
    ctx.record("heaviest_user_items", counts[heavy], "items of the heaviest user")

    def measured(label, key, reads):
        before = ctx.loads()
        cells = reads()
        io = ctx.io(since=before)
        ctx.record(f"{key}_cells", cells, f"{label}: cells returned")
        ctx.record(f"{key}_requests", io["scan_rows"], f"{label}: rows read")
        ctx.record(f"{key}_rpcs", io["read_requests"], f"{label}: read requests (RPCs)")
        ctx.record(f"{key}_blocks", io["cache_hits"] + io["blocks_read_from_disk"],
                   f"{label}: blocks read")
        ctx.record_cost(f"{key}_ms", before, ops=1, label=f"{label}: makespan")

    measured("heaviest user, all items", "heavy_all", lambda: _all_items(table, layout, heavy))
    measured("light users, all items", "light_all",
             lambda: sum(_all_items(table, layout, u) for u in light))
    measured("heaviest user, first 30", "heavy_30", lambda: _first(table, layout, heavy, 30))
    evict_table_blocks(ctx.cluster, "lists")  # last: the other reads keep their warm cache
    before = ctx.loads()
    _all_items(table, layout, heavy)
    ctx.record("heavy_all_disk_blocks", ctx.io(since=before)["blocks_read_from_disk"],
               "heaviest user, all items, cold cache: blocks read from disk (each once)")


def _one_file(ctx, written, value) -> int:
    """The size of one HFile holding every item: the space the layout itself takes, without
    the per-file overhead (trailer, index, bloom) that more, smaller regions add."""
    ts = ctx.clock.now()
    cells = sorted(Cell.make(row, b"d", col[2:], ts, 4, value, 1) for row, col in written)
    w = HFileWriter(ctx.cluster.admin.describe("lists").families[b"d"], ctx.config)
    w.append_all(cells)
    return len(w.finish(max_seq_id=1, major_compaction=True, create_time=ts))


def _user_prefix(user: int) -> bytes:
    return b"u%07d" % user


def _all_items(table, layout, user) -> int:
    if layout == "wide":
        return len(table.get(_user_prefix(user)))
    return sum(len(cells) for cells in table.scan(row_prefix=_user_prefix(user)))


def _first(table, layout, user, n) -> int:
    u = _user_prefix(user)
    if layout == "tall":
        return sum(len(c) for c in table.scan(row_prefix=u, limit=n, caching=n))
    if layout == "wide":
        return len(table.get(u, filter=ColumnPaginationFilter(n, 0)))
    return sum(len(c) for c in table.scan(row_prefix=u, limit=1, caching=1,
                                          filter=ColumnPaginationFilter(n, 0)))


scenario.claim(
    "tall and wide take the same space",
    seed="000", section="Case Study - List Data",
    quote="Note that neither case fundamentally uses more disk space than the other; you're "
          "just \"shifting\" part of the identifying information for a value either to the "
          "left (into the row key, in option one) or to the right (into the column qualifiers "
          "in option 2).",
    criterion=(metric("tall", "one_file_bytes") - metric("wide", "one_file_bytes")
               < 0.05 * metric("wide", "one_file_bytes"))
              & (metric("wide", "one_file_bytes") - metric("tall", "one_file_bytes")
                 < 0.05 * metric("wide", "one_file_bytes")),
    covers=(62,))


scenario.claim(
    "prefer rows: a very wide row cannot be split",
    seed="000", section="Tall/Wide/Middle Schema Design Smackdown > Rows vs. Columns",
    quote="The context is typically in extreme cases of wide tables, such as having 1 row with "
          "1 million attributes, or 1 million rows with 1 columns apiece. Preference: Rows "
          "(generally speaking).",
    criterion=(metric("wide", "largest_region_vs_max") > 1.5)
              & (metric("tall", "largest_region_vs_max") < 1.5),
    covers=(60,))


scenario.claim(
    "rows as columns is the I/O-efficient middle path",
    seed="000", section="Tall/Wide/Middle Schema Design Smackdown > Rows as Columns",
    quote="This approach is often more complex, and may require the additional complexity of "
          "re-writing your data, but has the advantage of being I/O efficient.",
    proposition="has the advantage of being I/O efficient",
    # I/O: the distinct blocks a cold read of the heaviest user's list fetches from disk (a
    # block touched twice is read once), against the tall design's
    criterion=metric("middle", "heavy_all_disk_blocks") < metric("tall", "heavy_all_disk_blocks"),
    extras=(metric("middle", "heavy_all_blocks") < metric("tall", "heavy_all_blocks"))
           & (metric("middle", "heavy_all_ms") < metric("tall", "heavy_all_ms"))
           & (metric("middle", "largest_region_vs_max") < 1.5),
    covers=(61,))


scenario.claim(
    "a page of 30 items: a column slice of the wide row is not fundamentally worse than "
    "scanning 30 tall rows",
    seed="000", section="Case Study - List Data",
    quote="as long as you're not trying to do too much in a single request, or do things like "
          "scanning over and returning all of the cells in the row, it shouldn't be "
          "fundamentally worse. The client has methods that allow you to get specific slices "
          "of columns.",
    proposition="it shouldn't be fundamentally worse. The client has methods that allow you to "
                "get specific slices of columns.",
    # the Get with ColumnPaginationFilter stops at the filter's NEXT_ROW after the page (in
    # the block the page ends in), so "not fundamentally worse": the same cells, from at most
    # one block more than the tall scan (either may straddle a block boundary), and not the
    # whole row's blocks ("scanning over ... all of the cells in the row")
    criterion=(metric("wide", "heavy_30_cells") == metric("tall", "heavy_30_cells"))
              & (metric("wide", "heavy_30_blocks") <= metric("tall", "heavy_30_blocks") + 1)
              & (metric("wide", "heavy_30_blocks") < 0.5 * metric("wide", "heavy_all_blocks")),
    extras=metric("wide", "heavy_30_ms") <= 2 * metric("tall", "heavy_30_ms"),
    covers=(63,))
