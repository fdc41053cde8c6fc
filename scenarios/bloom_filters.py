"""Bloom filters: Gets of rows that do not exist, of columns a row does not have, and of cells
that exist, with BLOOMFILTER NONE, ROW and ROWCOL over a store of several files.

Seed claims: 003 "Bloom Filters", 002 "Help HBase be Lazy".

Every variant writes the same rows (random keys, four columns each) into a one-region table and
flushes it into `files` store files of equal size (compactions off), so every file's key range
covers every row. Then two kinds of single-column Gets, `gets` of each (0: a tenth of the
rows). A Get of a missing row must look into every file unless a bloom says no; what the blooms
say yes to without reason is the measured false-positive rate, next to the configured one
(io.storefile.bloom.error.rate). ROWCOL runs at 1 - sqrt(1 - err) per probe
(BloomFilterFactory) because a one-column Get probes it twice, for the row+column and for the
row's empty qualifier where a row delete sits (StoreFileReader.checkGeneralBloomFilter): the
check as a whole stays at err.
"""

import hashlib
import math

from hsim.scenario import Scenario
from hsim.scenario.criteria import metric
from hsim.scenario.measure import blocks_touched, family_totals
from hsim.scenario.readers import record_time_per_op
from hsim.scenario.setup import MANUAL_FLUSHES, create_table

scenario = Scenario(
    "bloom_filters",
    "gets of missing rows and columns with BLOOMFILTER NONE, ROW, ROWCOL: blocks read per "
    "get, simulated get time, false-positive rate measured vs configured",
    sizes={"small": 6000, "default": 20000, "large": 100000, "sweep": 3000},
    servers=1,
    scale=1 / 256,
    # flushes come from the scenario (`files` of them), never from sizes; no compactions
    config={**MANUAL_FLUSHES,
            "compaction_min_files": 1000, "blocking_store_files": 100000},
    params={"files": 6, "gets": 0, "columns": 4, "value_bytes": 50},
    derive=lambda p, ops: {"gets": p["gets"] or max(100, ops // 10)},  # 0: a tenth of --ops
    sweep={"files": [3, 12]},
    ops_meaning="rows written per variant",
)

for bloom in ("NONE", "ROW", "ROWCOL"):
    scenario.variant(bloom.lower(), f"BLOOMFILTER => '{bloom}'", bloom=bloom)


def _row(tag: bytes, i: int) -> bytes:
    return hashlib.md5(tag + b"%d" % i).hexdigest()[:16].encode()


@scenario.run
def run(ctx, variant):
    p = ctx.params
    bloom = variant["bloom"]
    table = create_table(ctx, "t", {"d": {"BLOOMFILTER": bloom}}, split_enabled=False)
    cols = [b"d:c%d" % c for c in range(p["columns"])]
    value = b"v" * p["value_bytes"]
    per_file = max(1, -(-ctx.ops // p["files"]))  # ceil: exactly `files` flushes
    for i in range(ctx.ops):
        table.put(_row(b"r", i), {c: value for c in cols})
        if (i + 1) % per_file == 0:
            ctx.admin.flush("t")
        ctx.tick()
    ctx.admin.flush("t")
    rng = ctx.shared_rng()
    files = ctx.cluster.metrics().servers[0].store_files
    ctx.record("store_files", files, "store files")
    ctx.record("bloom_bytes", ctx.cluster.metrics().bloom_bytes, "bloom filter size", "B")

    kinds = (
        ("missing_row", lambda k: (_row(b"m", k), cols[0])),
        ("missing_column", lambda k: (_row(b"r", k % ctx.ops), b"d:absent")),
    )
    for kind, target in kinds:
        before_loads = ctx.loads()
        before_blocks = blocks_touched(ctx.cluster)
        before_bloom = family_totals(ctx.cluster, "t")["d"]
        found = 0
        gets = p["gets"]
        for _ in range(gets):
            row, col = target(rng.randrange(10**9))
            found += bool(table.get(row, columns=[col]))
        io = ctx.io(since=before_loads)
        label = kind.replace("_", " ")
        ctx.record(f"{kind}_disk_blocks", io["blocks_read_from_disk"] / gets,
                   f"{label}: blocks from disk per get")
        ctx.record(f"{kind}_blocks", (blocks_touched(ctx.cluster) - before_blocks) / gets,
                   f"{label}: blocks touched per get")
        record_time_per_op(ctx, f"{kind}_ms", before_loads, gets,
                           f"{label}: makespan per get")
        if kind == "missing_row":
            after = family_totals(ctx.cluster, "t")["d"]
            checks = after["bloom_checks"] - before_bloom["bloom_checks"]
            negatives = after["bloom_negatives"] - before_bloom["bloom_negatives"]
            ctx.record("bloom_checks", checks, "missing row: bloom checks")
            ctx.record("false_positive_rate", (checks - negatives) / checks if checks else None,
                       "missing row: false-positive rate", "%")
            ctx.record("configured_rate", _configured(bloom, ctx.config.bloom_error_rate),
                       "configured false-positive rate", "%")
        if found:
            ctx.note(f"{kind}: {found:,} of {gets:,} gets found a cell")


def _configured(bloom: str, err: float):
    """The false-positive rate of one file's check: ROW probes once at err; ROWCOL probes twice
    at 1 - sqrt(1 - err) each, so either probe says yes with probability err."""
    if bloom == "NONE":
        return None
    if bloom == "ROWCOL":
        per_probe = 1 - math.sqrt(1 - err)
        return 1 - (1 - per_probe) ** 2
    return err


scenario.bar_chart("blocks_per_get", "blocks read from disk per get",
                   ["missing_row_disk_blocks", "missing_column_disk_blocks"], unit="blocks")


scenario.claim(
    "bloom filters cut the disk reads of Gets for missing rows",
    seed="003", section="Bloom Filters",
    quote="Bloom filters, which can reduce disk reads, can be enabled for column families.",
    criterion=(metric("row", "missing_row_disk_blocks")
               <= 0.2 * metric("none", "missing_row_disk_blocks"))
              & (metric("rowcol", "missing_row_disk_blocks")
                 <= 0.2 * metric("none", "missing_row_disk_blocks")),
    covers=(68,))


scenario.claim(
    "without a bloom, Gets of missing rows are useless and costly",
    seed="002", section="Keep it Stupidly Simple > Help HBase be Lazy",
    quote='In the autocomplete example, many requests will be for non-existent rows (eg '
          '"hdaoop"). These will of course be cache misses (there\'s nothing to cache), making '
          'the queries not just useless but also costly.',
    # "cache misses": without a bloom each Get of a missing row reads a block from disk, and
    # more than three times the blocks a ROW bloom leaves it; the simulated time is an extra
    criterion=(metric("none", "missing_row_disk_blocks") >= 1)
              & (metric("none", "missing_row_disk_blocks")
                 > 3 * metric("row", "missing_row_disk_blocks")),
    extras=metric("none", "missing_row_ms") > 3 * metric("row", "missing_row_ms"),
    covers=(68,))


scenario.claim(
    "the bloom answers 'not here' at about the configured false-positive rate",
    seed="002", section="Keep it Stupidly Simple > Help HBase be Lazy",
    quote="HBase will capture all row keys into a Bloom Filter; on each request, it will "
          "quickly make sure it's worth trying to retrieve a value before doing so.",
    criterion=(metric("row", "false_positive_rate") <= 2 * metric("row", "configured_rate") + 0.002)
              & (metric("rowcol", "false_positive_rate")
                 <= 2 * metric("rowcol", "configured_rate") + 0.002),
    covers=(68,))


scenario.claim(
    "a ROWCOL bloom also rejects columns a row does not have",
    seed="003", section="Bloom Filters",
    quote="If ``ROWCOL``, the hash of the row, column family name, and column family qualifier "
          "will be added to the bloom on each key insert.",
    criterion=metric("rowcol", "missing_column_disk_blocks")
                     < 0.2 * metric("row", "missing_column_disk_blocks"),
    covers=(69,))
