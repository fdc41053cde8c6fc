"""The helpers the scenarios share (hsim.scenario.setup, readers, tallies): each does what the
scenarios used to write by hand, on a real run's cluster."""

import pytest

from hsim.scenario import Scenario, ScenarioError
from hsim.scenario.context import Run
from hsim.scenario.criteria import each, metric
from hsim.scenario.parts import by_test
from hsim.scenario.readers import (blocks_since, record_time_per_op, record_time_range_read,
                                   record_write_spread, record_write_throughput)
from hsim.scenario.setup import MANUAL_FLUSHES, create_table, settle
from hsim.scenario.tallies import region_reads, table_bytes
from hsim.scenario.timeseries import record_value

SPLITS = [b"r1", b"r2", b"r3"]


def _run(config=None) -> Run:
    sc = Scenario("helpers", "helpers under test", sizes={"small": 10, "default": 10}, servers=2,
                  config=config)
    sc.variant("v")
    return Run(sc, sc.variants[0], ops=10, seed=1, scale=1 / 256, servers=2, params={})


def _loaded(ctx, rows=40, **options):
    table = create_table(ctx, "t", ["d"], split_keys=SPLITS, **options)
    for i in range(rows):
        table.put(b"r0-%04d" % i, {b"d:v": b"x" * 50})
        ctx.tick()
    return table


def test_create_table_makes_the_table_with_its_options():
    ctx = _run()
    table = _loaded(ctx, split_enabled=False)
    assert [r.start_key for r in ctx.admin.regions("t")] == [b""] + SPLITS
    assert len(table.get(b"r0-0001")) == 1


def test_manual_flushes_keep_everything_in_memstores_until_settle_leaves_one_file_a_store():
    ctx = _run(config=MANUAL_FLUSHES)
    table = _loaded(ctx)
    assert ctx.cluster.metrics().servers[0].store_files + \
        ctx.cluster.metrics().servers[1].store_files == 0
    ctx.admin.flush("t")
    table.put(b"r0-9999", {b"d:v": b"y"})
    settle(ctx, "t")
    files = [len(fs) for r in ctx.admin.regions("t") for fs in r.store_files.values()]
    assert files == [1, 0, 0, 0]


def test_record_time_per_op_is_record_cost_per_request_and_repriced_later():
    ctx = _run()
    table = _loaded(ctx)
    before = ctx.loads()
    for i in range(10):
        table.get(b"r0-%04d" % i)
    whole = ctx.cost(before, ops=10).makespan_ms
    value = record_time_per_op(ctx, "get_ms", before, 10, "makespan per Get")
    assert value == pytest.approx(whole / 10) and value > 0
    assert ctx.metrics["get_ms"] == value and ctx.labels["get_ms"] == "makespan per Get"
    assert ctx.priced["get_ms"][1:] == (10, "makespan_ms", 10)  # the sweep re-prices it


def test_record_write_throughput_is_ops_per_simulated_second():
    ctx = _run()
    _loaded(ctx)
    value = record_write_throughput(ctx, ops=40)
    assert value == pytest.approx(ctx.cost(ops=40).throughput_ops_per_s)
    assert ctx.units["write_throughput"] == "ops/s"


def test_blocks_since_counts_cache_hits_as_touched_not_read():
    ctx = _run()
    table = _loaded(ctx)
    settle(ctx, "t")
    before = ctx.loads()
    table.get(b"r0-0001")  # cold: its blocks come from the file
    touched, disk = blocks_since(ctx, before)
    assert touched >= disk > 0
    before = ctx.loads()
    table.get(b"r0-0001")  # warm: the same blocks from the block cache
    assert blocks_since(ctx, before)[0] > 0 and blocks_since(ctx, before)[1] == 0


def test_record_write_spread_names_where_the_writes_landed():
    ctx = _run()
    _loaded(ctx)  # every row sorts before r1: one region takes them all
    spread = record_write_spread(ctx, "t")
    assert ctx.metrics["regions_written"] == 1 == spread["regions_written"]
    assert ctx.labels["regions_written"] == "regions written (of 4)"
    assert ctx.metrics["last_region_write_share"] == 0
    assert ctx.metrics["max_server_write_share"] == 1
    other = _run()
    _loaded(other)
    record_write_spread(other, "t", "write_hotspot_ratio")
    assert list(other.metrics) == ["write_hotspot_ratio"]


def test_tallies_sum_the_regions_and_show_which_a_read_visited():
    ctx = _run()
    table = _loaded(ctx)
    assert table_bytes(ctx, "t") == 0  # all in the memstore yet
    settle(ctx, "t")
    assert table_bytes(ctx, "t") == sum(r.size for r in ctx.admin.regions("t")) > 0
    assert table_bytes(ctx, "t", "t") == 2 * table_bytes(ctx, "t")
    start = region_reads(ctx, "t")
    table.get(b"r2-0000")
    assert [b - a for a, b in zip(start, region_reads(ctx, "t"))] == [0, 0, 1, 0]


def test_each_is_the_same_comparison_for_every_listed_variant_in_order():
    both = each(("a", "b"), "lost") == 0
    by_hand = (metric("a", "lost") == 0) & (metric("b", "lost") == 0)
    assert str(both) == str(by_hand) == "a.lost == 0 and b.lost == 0"
    results = {"a": {"lost": 0}, "b": {"lost": 3}}
    assert both.judge(results) == by_hand.judge(results)
    assert both.judge(results)[0] is False
    assert (each(("a", "b"), "lost") < metric("c", "lost")).variants() == {"a", "b", "c"}


def test_by_test_runs_the_test_the_variant_names_and_says_when_there_is_none():
    sc = Scenario("parts", "a scenario in parts", sizes={"small": 1, "default": 1})
    sc.variant("a", test="one")
    sc.variant("b", test="two")
    seen = []
    run = by_test({"one": lambda ctx, variant, p: seen.append((variant.name, p["k"]))})
    ctx = Run(sc, sc.variants[0], ops=1, seed=1, scale=1 / 256, servers=1, params={"k": 7})
    run(ctx, sc.variants[0])
    assert seen == [("a", 7)]
    with pytest.raises(ScenarioError, match="variant 'b' names no test of one"):
        run(ctx, sc.variants[1])


def test_record_time_range_read_records_what_the_design_made_the_reader_scan():
    from hsim.workloads.keys import TimestampLead

    ctx = _run()
    design, entities = TimestampLead(), [b"m1", b"m2"]
    table = create_table(ctx, "ts", ["d"])
    for i in range(20):
        ts = ctx.clock.now()
        table.put(design.row_key(ts, entities[i % 2]), {b"d:v": record_value(ts, b"")})
        ctx.tick()
    hi = ctx.clock.now()
    read = record_time_range_read(ctx, table, design, hi - 5, hi, entities, "last 5 ms")
    assert ctx.metrics["time_range_rows_wanted"] == read["rows_wanted"] == 5
    assert ctx.metrics["time_range_rows_read"] == read["rows_read"] >= 5
    assert ctx.labels["time_range_scans"] == "last 5 ms: scans"
