"""Versions and time: VERSIONS, TTL, MIN_VERSIONS and KEEP_DELETED_CELLS, seen through what
reads return as the clock moves (point-in-time queries included) and through the space each
family keeps before and after a major compaction.

Seed claims: 000 "Number of Versions" (maximum and minimum), "Time To Live (TTL)" and "Keeping
Deleted Cells".

Every variant runs the same history on a one-region table: `updates` rounds, one every
`interval_min` minutes, each writing a new version of every row and flushing it into a store
file of its own (flushes and compactions happen only when the scenario asks, so what each
setting keeps stays visible until the major compaction). Then every other row is deleted, the
clock moves on past the TTL, a minor compaction runs (where expired files go), then a major one.
"""

from hsim.scenario import Scenario
from hsim.scenario.criteria import metric
from hsim.scenario.setup import MANUAL_FLUSHES, create_table

MINUTE = 60_000

scenario = Scenario(
    "versions_ttl",
    "VERSIONS, TTL, MIN_VERSIONS, KEEP_DELETED_CELLS: what reads return over time (point-in-"
    "time queries) and the space each keeps after major compaction",
    sizes={"small": 4000, "default": 40000, "large": 200000},
    servers=1,
    scale=1 / 256,
    config={**MANUAL_FLUSHES,
            "compaction_min_files": 1000, "blocking_store_files": 100000},
    params={"updates": 10, "interval_min": 6, "ttl_min": 30, "sample": 200, "value_bytes": 100},
    sweep={"updates": [5, 20]},
    ops_meaning="puts per variant (rows x updates)",
)

scenario.variant("versions_1", "VERSIONS => 1 (the default)", family={})
scenario.variant("versions_10", "VERSIONS => 10", family={"VERSIONS": 10})
scenario.variant("ttl", "VERSIONS => 10, TTL => 30 minutes", family={"VERSIONS": 10},
                 ttl=True)
scenario.variant("ttl_min_versions", "VERSIONS => 10, TTL => 30 minutes, MIN_VERSIONS => 2",
                 family={"VERSIONS": 10, "MIN_VERSIONS": 2}, ttl=True)
scenario.variant("keep_deleted", "VERSIONS => 10, KEEP_DELETED_CELLS => TRUE",
                 family={"VERSIONS": 10, "KEEP_DELETED_CELLS": True})


@scenario.run
def run(ctx, variant):
    p = ctx.params
    family = dict(variant["family"])
    if variant.params.get("ttl"):
        family["TTL"] = p["ttl_min"] * 60
    table = create_table(ctx, "t", {"d": family})
    clock = ctx.clock
    start = clock.now()
    rows = [b"row%06d" % i for i in range(max(2, ctx.ops // p["updates"]))]
    live, gone = rows[0::2][: p["sample"]], rows[1::2][: p["sample"]]
    pad = b"v" * p["value_bytes"]

    def visible(sample, **get_args):
        return sum(len(table.get(r, max_versions=100, **get_args)) for r in sample) / len(sample)

    def point():
        minutes = (clock.now() - start) / MINUTE
        ctx.point("versions visible per row", round(minutes, 1), visible(live))

    for k in range(p["updates"]):
        for r in rows:
            table.put(r, {b"d:v": b"%04d" % k + pad})
            ctx.tick()
        ctx.admin.flush("t")
        point()
        clock.advance(p["interval_min"] * MINUTE)
    ctx.record("versions_after_updates", visible(live), "versions a Get returns after the updates")

    t_delete = clock.now()
    for r in rows[1::2]:
        table.delete_row(r)
    clock.advance(1)
    ctx.admin.flush("t")
    ctx.record("deleted_now", visible(gone), "deleted rows: versions a Get returns")
    ctx.record("deleted_point_in_time", visible(gone, time_range=(0, t_delete)),
               "deleted rows: versions as of before the delete")

    for _ in range(4):  # an hour, a quarter at a time
        clock.advance(15 * MINUTE)
        point()
    ctx.record("versions_an_hour_later", visible(live), "versions a Get returns an hour later")

    before = _space(ctx)
    ctx.record("raw_cells_before_major", before[0], "cells kept before the major (raw scan)")
    ctx.record("bytes_before_major", before[1], "store file bytes before the major", "B")
    ctx.admin.compact("t")  # a minor compaction request: where whole expired files are dropped
    store = ctx.cluster.metrics().regions[0].stores[0]
    ctx.record("expired_files_dropped", store.expired_files_dropped,
               "expired store files dropped by the minor compaction")
    ctx.admin.major_compact("t")
    after = _space(ctx)
    ctx.record("raw_cells_after_major", after[0], "cells kept after the major (raw scan)")
    ctx.record("bytes_after_major", after[1], "store file bytes after the major", "B")
    ctx.record("cells_per_live_row_after_major", _raw_cells(table, live) / len(live),
               "cells per live row after the major")
    ctx.record("deleted_point_in_time_after_major", visible(gone, time_range=(0, t_delete)),
               "deleted rows, as of before the delete, after the major")
    ctx.record("rows", len(rows), "rows")


def _raw_cells(table, rows) -> int:
    return sum(len(table.get(r, max_versions=1000, raw=True)) for r in rows)


def _space(ctx) -> tuple[int, int]:
    cells = sum(len(c) for c in ctx.table("t").scan(raw=True, max_versions=1000))
    return cells, ctx.cluster.metrics().servers[0].store_file_bytes


scenario.line_chart("versions_over_time", "versions a Get returns for a live row, over time",
                    "versions visible per row", xlabel="minutes", ylabel="versions")
scenario.bar_chart("space_after_major", "store file bytes before and after the major compaction",
                   ["bytes_before_major", "bytes_after_major"], unit="B")


scenario.claim(
    "HBase keeps every version written until a compaction removes the excess",
    seed="000", section="Number of Versions > Maximum Number of Versions",
    quote="HBase does _not_ overwrite row values, but rather stores different values per row by "
          "time (and qualifier). Excess versions are removed during major compactions.",
    criterion=(metric("versions_1", "raw_cells_before_major") > 2 * metric("versions_1", "rows"))
              & (metric("versions_1", "cells_per_live_row_after_major") == 1)
              & (metric("versions_1", "versions_after_updates") == 1),
    covers=(38,))


scenario.claim(
    "many versions make big store files",
    seed="000", section="Number of Versions > Maximum Number of Versions",
    quote="It is not recommended setting the number of max versions to an exceedingly high "
          "level (e.g., hundreds or more) unless those old values are very dear to you because "
          "this will greatly increase StoreFile size.",
    criterion=metric("versions_10", "bytes_after_major")
                     > 4 * metric("versions_1", "bytes_after_major"),
    covers=(39,))


scenario.claim(
    "a TTL expires every version of a row, the current one included",
    seed="000", section="Time To Live (TTL)",
    quote="ColumnFamilies can set a TTL length in seconds, and HBase will automatically delete "
          "rows once the expiration time is reached. This applies to _all_ versions of a row - "
          "even the current one.",
    criterion=(metric("ttl", "versions_an_hour_later")
               == 0) & (metric("ttl", "raw_cells_after_major") == 0),
    covers=(41,))


scenario.claim(
    "store files holding only expired cells are dropped on minor compaction, unless "
    "MIN_VERSIONS is set",
    seed="000", section="Time To Live (TTL)",
    quote="Store files which contains only expired rows are deleted on minor compaction. "
          "Setting `hbase.store.delete.expired.storefile` to `false` disables this feature. "
          "Setting link:[minimum number of versions] to other than 0 also disables this.",
    criterion=(metric("ttl", "expired_files_dropped") > 0)
              & (metric("ttl_min_versions", "expired_files_dropped") == 0),
    covers=(42,))


scenario.claim(
    "MIN_VERSIONS keeps the newest versions past the TTL",
    seed="000", section="Number of Versions > Minimum Number of Versions",
    quote='allow configurations such as "keep the last T minutes worth of data, at most N '
          'versions, _but keep at least M versions around_" (where M is the value for minimum '
          'number of row versions, M<N).',
    criterion=(metric("ttl_min_versions", "versions_an_hour_later") == 2)
              & (metric("ttl_min_versions", "cells_per_live_row_after_major") == 2),
    covers=(40,))


scenario.claim(
    "by default a delete hides older versions even from a point-in-time query",
    seed="000", section="Keeping Deleted Cells",
    quote="By default, delete markers extend back to the beginning of time. ... operations will "
          "not see a deleted cell (row or column), even when the Get or Scan operation "
          "indicates a time range before the delete marker was placed.",
    criterion=(metric("versions_10", "deleted_now")
               == 0) & (metric("versions_10", "deleted_point_in_time") == 0),
    covers=(45,))


scenario.claim(
    "KEEP_DELETED_CELLS allows point-in-time queries in the presence of deletes",
    seed="000", section="Keeping Deleted Cells",
    quote="ColumnFamilies can optionally keep deleted cells. In this case, deleted cells can "
          "still be retrieved, as long as these operations specify a time range that ends "
          "before the timestamp of any delete that would affect the cells. This allows for "
          "point-in-time queries even in the presence of deletes.",
    criterion=(metric("keep_deleted", "deleted_now")
               == 0) & (metric("keep_deleted", "deleted_point_in_time") > 0)
              & (metric("keep_deleted", "deleted_point_in_time_after_major") > 0)
              & (metric("keep_deleted", "bytes_after_major")
                 > metric("versions_10", "bytes_after_major")),
    covers=(46,))
