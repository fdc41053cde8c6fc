"""Rows vs versions: an entity's history kept as reverse-timestamp rows or as versions of one
cell; what happens to history under TTL (whole expired files, hbase.store.delete.expired.
storefile off, cell TTLs against the family's) and to deleted cells kept by
KEEP_DELETED_CELLS; and what changing a rowkey costs.

Seed claims: 000 "Rows vs. Versions", "Reverse Timestamps", "Time To Live (TTL)", "Keeping
Deleted Cells" and "Immutability of Rowkeys".

The history designs store the same `--ops` readings of `keys` entities (a reading every
`interval_s` seconds, round-robin over the entities) and answer the same questions: the
latest reading of an entity, its reading as of a past time, and its whole history. Versions
are done as an HBase user keeping history would: VERSIONS => Integer.MAX_VALUE, each reading
put with its own timestamp, the as-of query a Get with a time range. Rows put each reading
under [key][Long.MAX_VALUE - timestamp] and answer each question with one Scan from the
entity's key (or from its key and the reversed time) that stops at the first row. The other
tests use one-region tables (splitting off), so what each store keeps stays in view, and
compact only when the scenario asks (a minor compaction that takes every file is promoted to a
major one, which would drop deleted cells at a moment that depends on the flush sizes).
"""

from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.parts import by_test
from hsim.scenario.readers import record_time_per_op
from hsim.scenario.setup import create_table, settle

MINUTE = 60_000
LONG_MAX = (1 << 63) - 1
INT_MAX = (1 << 31) - 1

scenario = Scenario(
    "rows_vs_versions",
    "history as reverse-timestamp rows vs versions; TTL with expired files kept or dropped, "
    "cell TTL vs family TTL; KEEP_DELETED_CELLS under TTL and VERSIONS; changing a rowkey",
    sizes={"small": 2000, "default": 20000, "large": 100000, "sweep": 5000},
    servers=1,
    scale=1 / 256,
    params={"keys": 20, "interval_s": 10, "queries": 200, "value_bytes": 100, "columns": 5},
    sweep={"keys": [5, 100]},
    ops_meaning="readings (or cells) written per variant",
)

scenario.variant("versions", "one row per entity, VERSIONS => Integer.MAX_VALUE, a reading "
                 "per version", test="history", rows=False)
scenario.variant("reverse_ts_rows", "a row per reading: [key][Long.MAX_VALUE - timestamp]",
                 test="history", rows=True)
_FLUSH_ONLY = {"compaction_min_files": 1000, "blocking_store_files": 100000}
scenario.variant("expired_files_dropped", "TTL => 10 minutes, "
                 "hbase.store.delete.expired.storefile true (the default)", test="expiry",
                 config=_FLUSH_ONLY)
scenario.variant("expired_files_kept", "TTL => 10 minutes, "
                 "hbase.store.delete.expired.storefile false", test="expiry",
                 config={**_FLUSH_ONLY, "delete_expired_storefile": False})
scenario.variant("fifo_raw_data", "TTL => 10 minutes, FIFOCompactionPolicy (raw data kept "
                 "for its TTL, never rewritten)", test="expiry",
                 config={"compaction_policy": "fifo", "blocking_store_files": 1000})
scenario.variant("cell_ttl", "family TTL => 10 minutes; cells put with no TTL, a 2-minute "
                 "TTL and a 60-minute TTL", test="cell_ttl")
scenario.variant("keep_deleted", "KEEP_DELETED_CELLS => TRUE, VERSIONS => 3, TTL => 30 "
                 "minutes; rows deleted after 10 versions", test="kdc")
scenario.variant("update_value", "change one value of each row: one Put", test="rekey",
                 rekey=False, config=_FLUSH_ONLY)
scenario.variant("change_rowkey", "change each row's key: Get the row, Put it under the new "
                 "key, delete the old row", test="rekey", rekey=True, config=_FLUSH_ONLY)


def _entity(i: int) -> bytes:
    return b"sensor%05d" % i


def _history(ctx, variant, p):
    """The same readings stored as rows or as versions; the same three questions asked."""
    rows = variant["rows"]
    family = {"d": {} if rows else {"VERSIONS": INT_MAX}}
    table = create_table(ctx, "history", family)
    start, keys, step = ctx.clock.now(), p["keys"], p["interval_s"] * 1000
    pad = b"r" * p["value_bytes"]
    ctx.expect(ctx.ops + 3 * p["queries"])
    for n in range(ctx.ops):
        ts, key = start + (n // keys) * step, _entity(n % keys)
        value = b"%08d" % n + pad
        if rows:
            table.put(key + (LONG_MAX - ts).to_bytes(8, "big"), {b"d:v": value}, timestamp=ts)
        else:
            table.put(key, {b"d:v": value}, timestamp=ts)
        ctx.tick()
    settle(ctx, "history")
    end = start + ((ctx.ops - 1) // keys) * step
    rng = ctx.shared_rng()
    asks = [(_entity(rng.randrange(keys)), rng.randrange(start, end + 1))
            for _ in range(p["queries"])]

    def latest(key):
        if rows:
            return next(iter(table.scan(row_prefix=key, limit=1)), [])
        return table.get(key)

    def as_of(key, t):
        if rows:
            stop = key[:-1] + bytes([key[-1] + 1])
            return next(iter(table.scan(key + (LONG_MAX - t).to_bytes(8, "big"), stop,
                                        limit=1)), [])
        return table.get(key, time_range=(0, t + 1))

    def history(key):
        if rows:
            return [c for row in table.scan(row_prefix=key) for c in row]
        return table.get(key, max_versions=INT_MAX)

    right = 0
    for name, ask in (("latest", lambda k, t: latest(k)), ("as_of", as_of)):
        before = ctx.loads()
        for key, t in asks:
            cells = ask(key, t)
            want = end if name == "latest" else start + (t - start) // step * step
            right += len(cells) == 1 and cells[0].timestamp == want
            ctx.tick()
        io = ctx.io(since=before)
        ctx.record(f"{name}_blocks_per_query", (io["cache_hits"] + io["blocks_read_from_disk"])
                   / len(asks), f"{name.replace('_', ' ')} reading: blocks per query")
        record_time_per_op(ctx, f"{name}_ms_per_query", before, len(asks),
                           f"{name.replace('_', ' ')} reading: makespan per query")
    ctx.record("answers_right", right / (2 * len(asks)), "latest and as-of answers right", "%")
    sample = sorted({k for k, _ in asks})
    before = ctx.loads()
    kept = sum(len(history(k)) for k in sample)
    ctx.tick(len(sample))
    ctx.record("history_kept", kept / sum(len(range(i, ctx.ops, keys)) for i in
                                          (int(k[6:]) for k in sample)),
               "share of the readings the whole-history read returns", "%")
    record_time_per_op(ctx, "history_ms_per_entity", before, len(sample),
                       "whole history: makespan per entity")
    ctx.record("regions", len(ctx.cluster.metrics().regions), "regions of the table")


def _files_of_readings(ctx, table, name, rounds, rows, pad, **put_args):
    """`rounds` rounds of a put to every row, one store file each, a minute apart."""
    for _ in range(rounds):
        for r in rows:
            table.put(r, {b"d:v": pad}, **put_args)
            ctx.tick()
        ctx.admin.flush(name)
        ctx.clock.advance(MINUTE)


def _expiry(ctx, variant, p):
    """Thirty rounds of puts a minute apart under a 10-minute TTL, each flushed into a store
    file of its own (compactions only when asked, so whole files can expire); then a minor
    compaction request, where expired files go, and a major compaction."""
    table = create_table(ctx, "t", {"d": {"TTL": 10 * 60}}, split_enabled=False)
    rows = [b"row%06d" % i for i in range(max(1, ctx.ops // 30))]
    _files_of_readings(ctx, table, "t", 30, rows, b"v" * p["value_bytes"])
    ctx.admin.compact("t")
    store = ctx.cluster.metrics().regions[0].stores[0]
    ctx.record("expired_files_dropped", store.expired_files_dropped,
               "expired store files dropped unread by the minor compaction")
    ctx.record("store_files_after_minor", store.store_files,
               "store files after the minor compaction")
    ctx.record("store_file_bytes_after_minor", store.store_file_bytes,
               "store file bytes after the minor compaction", "B")
    before = ctx.loads()
    ctx.admin.major_compact("t")
    ctx.record("major_bytes_read", ctx.io(since=before)["bytes_compacted_read"],
               "bytes the major compaction then reads", "B")
    ctx.record("compaction_bytes_written", ctx.io()["bytes_compacted_written"],
               "bytes compactions wrote, the major one included (FIFO: no cell)", "B")


def _cell_ttl(ctx, variant, p):
    """Three columns per row under a 10-minute family TTL: no cell TTL, 2 minutes, 60
    minutes; read at 5 minutes and at 15 minutes."""
    table = create_table(ctx, "t", {"d": {"TTL": 10 * 60}}, split_enabled=False)
    rows = [b"row%06d" % i for i in range(max(1, ctx.ops // 3))]
    pad = b"v" * p["value_bytes"]
    cols = {"none": (b"d:none", None), "short": (b"d:short", 2 * MINUTE),
            "long": (b"d:long", 60 * MINUTE)}
    for r in rows:
        for col, ttl in cols.values():
            table.put(r, {col: pad}, ttl_ms=ttl)
        ctx.tick(3)
    ctx.admin.flush("t")
    sample = rows[: p["queries"]]
    for minutes in (5, 15):
        ctx.clock.advance(MINUTE * (minutes - (5 if minutes == 15 else 0)))
        for name, (col, _) in cols.items():
            ctx.record(f"{name}_visible_{minutes}m",
                       sum(len(table.get(r, columns=[col])) for r in sample) / len(sample),
                       f"cell TTL {name}: share of rows that still return it at {minutes} min",
                       "%")
    ctx.admin.major_compact("t")
    ctx.record("raw_cells_after_major", sum(len(r) for r in table.scan(raw=True)),
               "cells left after a major compaction at 15 min (raw scan)")


def _kdc(ctx, variant, p):
    """Ten versions of every row, then every row deleted: what a point-in-time query sees
    after a major compaction, and again once the TTL has passed."""
    table = create_table(ctx, "t", {"d": {"KEEP_DELETED_CELLS": True, "VERSIONS": 3,
                                          "TTL": 30 * 60}}, split_enabled=False)
    rows = [b"row%06d" % i for i in range(max(1, ctx.ops // 10))]
    _files_of_readings(ctx, table, "t", 10, rows, b"v" * p["value_bytes"])
    t_delete = ctx.clock.now()
    for r in rows:
        table.delete_row(r)
    ctx.clock.advance(1)
    sample = rows[: p["queries"]]

    def point_in_time():
        return sum(len(table.get(r, max_versions=100, time_range=(0, t_delete)))
                   for r in sample) / len(sample)

    def raw_puts():
        return sum(1 for row in table.scan(raw=True, max_versions=1000) for c in row
                   if not c.type.is_delete) / len(rows)

    ctx.record("versions_written", 10, "versions written per row before the delete")
    ctx.record("deleted_now", sum(len(table.get(r)) for r in sample) / len(sample),
               "versions a plain Get returns after the delete")
    ctx.admin.major_compact("t")
    ctx.record("point_in_time_after_major", point_in_time(),
               "versions a Get as of before the delete returns, after a major compaction")
    ctx.record("deleted_cells_kept", raw_puts(), "deleted cells kept per row (raw scan)")
    ctx.clock.advance(30 * MINUTE)
    ctx.admin.major_compact("t")
    ctx.record("point_in_time_past_ttl", point_in_time(),
               "versions a Get as of before the delete returns once the TTL has passed")
    ctx.record("deleted_cells_past_ttl", raw_puts(),
               "deleted cells kept per row once the TTL has passed (raw scan)")


def _rekey(ctx, variant, p):
    """Rows of `columns` cells; each row then either gets one new value or a new key."""
    table = create_table(ctx, "t", ["d"], split_enabled=False)
    pad = b"v" * p["value_bytes"]
    rows = [b"user%08d" % i for i in range(max(1, ctx.ops // p["columns"]))]
    ctx.expect(len(rows) * 2)
    for r in rows:
        table.put(r, {b"d:c%d" % c: pad for c in range(p["columns"])})
        ctx.tick()
    ctx.admin.flush("t")
    before = ctx.loads()
    for r in rows:
        if variant["rekey"]:
            cells = table.get(r)
            table.put(b"member" + r[4:], {c.family + b":" + c.qualifier: c.value for c in cells})
            table.delete_row(r)
        else:
            table.put(r, {b"d:c0": pad})
        ctx.tick()
    io = ctx.io(since=before)
    n = len(rows)
    ctx.record("requests_per_change", (io["read_requests"] + io["write_requests"]) / n,
               "requests per change")
    ctx.record("wal_bytes_per_change", io["wal_bytes"] / n, "WAL bytes written per change", "B")
    record_time_per_op(ctx, "ms_per_change", before, n, "makespan per change")
    ctx.admin.flush("t")
    ctx.record("raw_cells_per_row_before_major",
               sum(len(r) for r in table.scan(raw=True, max_versions=100)) / n,
               "cells on disk per original row before a major compaction (raw scan)")
    ctx.admin.major_compact("t")
    ctx.record("cells_per_row_after_major", sum(len(r) for r in table.scan()) / n,
               "cells per row after a major compaction")


scenario.run(by_test({"history": _history, "expiry": _expiry, "cell_ttl": _cell_ttl, "kdc": _kdc,
                      "rekey": _rekey}))


scenario.claim(
    "history as reverse-timestamp rows keeps every version and reads any of them as fast as "
    "versions do",
    seed="000", section="Reverse Timestamps",
    quote="This technique would be used instead of using <<schema.versions,schema.versions>> "
          "where the intent is to hold onto all versions \"forever\" (or a very long time) and "
          "at the same time quickly obtain access to any other version by using the same Scan "
          "technique.",
    criterion=(metric("reverse_ts_rows", "history_kept") == 1)
              & (each(("reverse_ts_rows", "versions"), "answers_right") == 1)
              & (metric("reverse_ts_rows", "as_of_ms_per_query")
                 <= metric("versions", "as_of_ms_per_query"))
              & (metric("reverse_ts_rows", "latest_ms_per_query")
                 <= 1.5 * metric("versions", "latest_ms_per_query")),
    covers=(31,))

scenario.claim(
    "rows vs versions: rows preferred, the as-of read touching fewer blocks",
    seed="000", section="Rows vs. Versions",
    quote="The rows-approach would require storing a timestamp in some portion of the rowkey so "
          "that they would not overwite with each successive update. Preference: Rows "
          "(generally speaking).",
    criterion=metric("reverse_ts_rows", "as_of_blocks_per_query")
    <= metric("versions", "as_of_blocks_per_query"),
    covers=(31,))

scenario.claim(
    "with hbase.store.delete.expired.storefile false, expired files are not dropped unread",
    seed="000", section="Time To Live (TTL)",
    quote="Store files which contains only expired rows are deleted on minor compaction. "
          "Setting `hbase.store.delete.expired.storefile` to `false` disables this feature.",
    criterion=(metric("expired_files_dropped", "expired_files_dropped") > 0)
              & (metric("expired_files_kept", "expired_files_dropped") == 0)
              & (metric("expired_files_kept", "store_file_bytes_after_minor")
                 > 2 * metric("expired_files_dropped", "store_file_bytes_after_minor"))
              & (metric("expired_files_kept", "major_bytes_read")
                 > 2 * metric("expired_files_dropped", "major_bytes_read")),
    covers=(43,))

scenario.claim(
    "a cell TTL shortens a cell's life but cannot extend it past the family TTL",
    seed="000", section="Time To Live (TTL)",
    quote="Cell TTLs are expressed in units of milliseconds instead of seconds. ... A cell TTLs "
          "cannot extend the effective lifetime of a cell beyond a ColumnFamily level TTL "
          "setting.",
    criterion=(metric("cell_ttl", "none_visible_5m") == 1)
              & (metric("cell_ttl", "short_visible_5m") == 0)
              & (metric("cell_ttl", "long_visible_5m") == 1)
              & (metric("cell_ttl", "none_visible_15m") == 0)
              & (metric("cell_ttl", "long_visible_15m") == 0),
    covers=(44,))

scenario.claim(
    "kept deleted cells are subject to TTL and never more than VERSIONS of them are kept",
    seed="000", section="Keeping Deleted Cells",
    quote="Deleted cells are still subject to TTL and there will never be more than \"maximum "
          "number of versions\" deleted cells.",
    criterion=(metric("keep_deleted", "deleted_now") == 0)
              & (metric("keep_deleted", "point_in_time_after_major") > 0)
              & (metric("keep_deleted", "point_in_time_after_major") <= 3)
              & (metric("keep_deleted", "deleted_cells_kept") <= 3)
              & (metric("keep_deleted", "point_in_time_past_ttl") == 0)
              & (metric("keep_deleted", "deleted_cells_past_ttl") == 0),
    covers=(47,))

scenario.claim(
    "a rowkey cannot be changed: the row is deleted and inserted again",
    seed="000", section="Immutability of Rowkeys",
    quote="Rowkeys cannot be changed. The only way they can be \"changed\" in a table is if the "
          "row is deleted and then re-inserted.",
    criterion=(metric("change_rowkey", "requests_per_change")
               >= 3 * metric("update_value", "requests_per_change"))
              & (metric("change_rowkey", "wal_bytes_per_change")
                 > 3 * metric("update_value", "wal_bytes_per_change"))
              & (metric("change_rowkey", "raw_cells_per_row_before_major")
                 > 2 * metric("change_rowkey", "cells_per_row_after_major")),
    covers=(32,))

scenario.bar_chart("read_cost", "makespan per query: latest, as-of, whole history",
                   ["latest_ms_per_query", "as_of_ms_per_query", "history_ms_per_entity"],
                   unit="ms")
scenario.bar_chart("expiry", "under a TTL: bytes kept after the minor compaction, bytes the "
                   "major then reads", ["store_file_bytes_after_minor", "major_bytes_read"],
                   unit="B")
