"""Each scenario at its small size: the direction of its headline results, read from the measured
numbers (not from the verdicts the scenario prints)."""

import pytest

from hsim.scenario import run_scenario

_cache = {}


def run(name):
    if name not in _cache:
        _cache[name] = run_scenario(name, ops="small")
    return _cache[name]


def results(name):
    return run(name).results


def test_hotspotting_timestamp_keys_hit_one_server_hashed_keys_spread():
    r = results("hotspotting")
    assert r["timestamp_lead"]["max_server_write_share"] >= 0.9
    assert r["timestamp_lead"]["regions_written"] == 1
    for design in ("salted", "hashed_prefix", "reversed", "field_swap"):
        assert r[design]["write_hotspot_ratio"] < 1.5, design
    assert r["salted"]["write_throughput"] > 3 * r["timestamp_lead"]["write_throughput"]
    # reads: one scan per salt, one scan for the timestamp, one per value of the hash byte;
    # reversing loses time order (a full scan)
    assert r["salted"]["time_range_scans"] == 16 and r["timestamp_lead"]["time_range_scans"] == 1
    h = r["hashed_prefix"]
    assert h["time_range_scans"] == 256 and h["time_range_rows_read"] == h["time_range_rows_wanted"]
    assert r["reversed"]["time_range_rows_read"] == 4000
    # salting's read cost in simulated time: 16 scans take longer than one
    assert r["salted"]["time_range_read_ms"] > r["timestamp_lead"]["time_range_read_ms"]
    # every design finds them (the rebalanced variants make no reads: test_hotspotting.py)
    assert len({v["time_range_rows_wanted"] for v in r.values()
                if "time_range_rows_wanted" in v}) == 1


def test_presplit_bytes_split_leaves_regions_empty_custom_splits_use_all():
    r = results("presplit")
    assert r["bytes_split"]["split_lead_bytes"] == [48, 54, 61, 68, 75, 82, 88, 95, 102]
    assert r["bytes_split"]["empty_regions"] == 7
    assert r["book_hex_splits"]["empty_regions"] == r["hex_string_split"]["empty_regions"] == 0
    assert r["book_hex_splits"]["region_skew"] < 1.3
    assert r["no_presplit"]["max_server_write_share"] == 1.0


@pytest.mark.slow
def test_index_size_follows_block_size_and_key_length():
    r = results("index_size")
    b = r["baseline"]
    assert 5 < r["block_8k"]["index_bytes"] / b["index_bytes"] < 11
    assert b["index_bytes"] > r["block_256k"]["index_bytes"]
    assert r["long_row"]["index_bytes"] > 2 * b["index_bytes"]
    # full first keys carry family and qualifier; HBase 2's shortened keys do not
    per_entry = {v: r[v]["index_bytes"] / r[v]["data_blocks"] for v in ("baseline", "long_family")}
    per_entry_full = {v: r[v]["index_bytes_full_keys"] / r[v]["data_blocks"]
                      for v in ("baseline", "long_family")}
    assert per_entry_full["long_family"] > 1.3 * per_entry_full["baseline"]
    assert per_entry["long_family"] < 1.1 * per_entry["baseline"]
    # compression shrinks the data, not the index
    assert r["gz"]["data_bytes"] < 0.5 * b["data_bytes"]
    assert r["gz"]["index_bytes"] == b["index_bytes"]
    assert r["id_as_string"]["row_key_bytes"] > 2 * b["row_key_bytes"]
    # FAST_DIFF: smaller data and cached blocks, the same blocks and index
    fd = r["fast_diff"]
    assert fd["data_bytes"] < 0.5 * b["data_bytes"] and fd["cache_bytes"] < 0.5 * b["cache_bytes"]
    assert (fd["index_bytes"], fd["data_blocks"]) == (b["index_bytes"], b["data_blocks"])


@pytest.mark.slow
def test_compaction_io_trades_write_amplification_for_fewer_files():
    r = results("compaction_io")
    none, default = r["no_compaction"], r["default"]
    assert none["write_amplification"] == 1.0 and none["compactions"] == 0
    assert default["write_amplification"] > 1.5
    assert none["store_files_mean"] > 3 * default["store_files_mean"]
    assert none["blocks_per_get"] > 2 * default["blocks_per_get"]
    assert none["blocks_per_time_range_get"] < none["blocks_per_get"] / 2
    assert r["ratio_5"]["write_amplification"] > r["ratio_0.5"]["write_amplification"]
    assert r["ratio_5"]["store_files_mean"] < r["ratio_0.5"]["store_files_mean"]
    alter = r["alter_block_size"]
    assert alter["index_after_alter"] == alter["index_before_alter"]
    assert alter["index_after_major"] > 4 * alter["index_before_alter"]


def test_column_families_flush_all_drags_small_families():
    r = results("column_families")
    flush_all, per_family = r["three_flush_all"], r["three_per_family"]
    # a region whose small families got no row since the last flush has nothing to write
    assert 0.9 * flush_all["flushes_big"] <= flush_all["flushes_small"] <= flush_all["flushes_big"]
    assert per_family["flushes_small"] < flush_all["flushes_small"] / 2
    assert flush_all["small_flush_bytes"] < 0.1 * flush_all["big_flush_bytes"]
    assert flush_all["files_written"] > per_family["files_written"]
    assert r["separate_tables"]["small_scan_regions"] == 1
    assert per_family["small_scan_regions"] == 8
    assert r["one_family"]["small_scan_blocks"] > 3 * per_family["small_scan_blocks"]
    assert len({v["small_scan_rows"] for v in r.values()}) == 1


@pytest.mark.slow
def test_bloom_filters_skip_files_at_the_configured_rate():
    r = results("bloom_filters")
    assert r["none"]["missing_row_disk_blocks"] > 5 * r["row"]["missing_row_disk_blocks"]
    assert r["none"]["missing_row_ms"] > 2 * r["row"]["missing_row_ms"]
    assert r["none"]["bloom_checks"] == 0
    # HBase folds a chunk that holds few keys, which then runs below the configured 1%
    # (BloomFilterUtil.actualErrorRate of the folded size)
    assert r["row"]["false_positive_rate"] < 0.01
    assert r["rowcol"]["false_positive_rate"] < 0.015
    assert r["rowcol"]["missing_column_disk_blocks"] < r["row"]["missing_column_disk_blocks"] / 5
    assert r["rowcol"]["bloom_bytes"] > 2 * r["row"]["bloom_bytes"]


@pytest.mark.slow
def test_versions_ttl_reads_and_space():
    r = results("versions_ttl")
    assert r["versions_1"]["versions_after_updates"] == 1
    assert r["versions_10"]["versions_after_updates"] == 10
    assert r["versions_1"]["raw_cells_before_major"] > r["versions_1"]["raw_cells_after_major"]
    assert r["ttl"]["versions_an_hour_later"] == 0 and r["ttl"]["raw_cells_after_major"] == 0
    assert r["ttl"]["expired_files_dropped"] > 0
    assert r["ttl_min_versions"]["versions_an_hour_later"] == 2
    assert r["ttl_min_versions"]["expired_files_dropped"] == 0
    assert r["versions_10"]["deleted_point_in_time"] == 0
    assert r["keep_deleted"]["deleted_point_in_time"] == 10
    assert r["keep_deleted"]["deleted_now"] == 0
    assert r["versions_10"]["bytes_after_major"] > 5 * r["versions_1"]["bytes_after_major"]
    series = run("versions_ttl").variant("ttl").series["versions visible per row"]
    assert series[-1][1] == 0 and max(y for _, y in series) > 1


@pytest.mark.slow
def test_tall_vs_wide_same_space_but_the_wide_row_does_not_split():
    r = results("tall_vs_wide")
    t, w = r["tall"], r["wide"]
    assert abs(t["one_file_bytes"] - w["one_file_bytes"]) < 0.05 * w["one_file_bytes"]
    assert w["largest_region_vs_max"] > 1.5 > t["largest_region_vs_max"]
    assert t["heavy_all_cells"] == w["heavy_all_cells"] == r["middle"]["heavy_all_cells"]
    assert r["middle"]["heavy_all_requests"] < t["heavy_all_requests"] / 10


def test_log_data_layouts():
    r = results("log_data")
    assert r["ts_lead"]["max_server_write_share"] >= 0.9
    assert r["bucketed"]["write_hotspot_ratio"] < 1.5 and r["bucketed"]["time_range_scans"] == 32
    assert r["host_lead"]["write_hotspot_ratio"] < 1.5
    assert r["host_lead_reverse_ts"]["recent_rows_read"] == 10
    assert r["host_lead"]["recent_rows_read"] > 20
    assert r["host_lead"]["recent_rows_read_reversed"] == 10
    assert len({v["time_range_rows_wanted"] for v in r.values()}) == 1


@pytest.mark.slow
def test_ycsb_mixes_and_costs():
    r = results("ycsb")
    assert r["C"]["mix"] == "read 100%"
    assert r["A"]["mix"].startswith("read 4") and "update" in r["A"]["mix"]
    assert "scan" in r["E"]["mix"] and "rmw" in r["F"]["mix"]
    assert r["C"]["service_ms"] < r["E"]["service_ms"]
    assert r["C_hot_together"]["cache_hit_rate"] > r["C_hot_scattered"]["cache_hit_rate"]
    assert r["C_hot_together"]["hot_blocks"] < r["C_hot_scattered"]["hot_blocks"]
    # one data block per narrow Get; a wide row spans blocks, in the cache and on disk
    assert r["C"]["get_hit_blocks"] <= 1.1 and r["C"]["get_miss_disk_reads"] < 1.5
    assert r["C_wide"]["get_hit_blocks"] > 1.5 * r["C"]["get_hit_blocks"]
    assert r["C_wide"]["get_miss_ms"] > r["C"]["get_miss_ms"]
    for v in r.values():
        assert v["throughput"] > 0 and v["p50_ms"] <= v["p95_ms"] <= v["p99_ms"]


@pytest.mark.parametrize("name", [
    "hotspotting", "presplit", "compaction_io", "column_families", "bloom_filters",
    "versions_ttl", "log_data", "ycsb"])
def test_every_claim_holds_at_the_small_size(name):
    assert [c.verdict for c in run(name).claims] == ["held"] * len(run(name).claims)


def test_tall_vs_wide_verdicts_at_the_small_size():
    """The column page holds now that a Get stops at the filter's page; the middle path's
    "I/O efficient" does not: the tall scan keeps its block between batches (a finding)."""
    verdicts = {c.title: c.verdict for c in run("tall_vs_wide").claims}
    assert verdicts["rows as columns is the I/O-efficient middle path"] == "did not hold"
    assert [v for t, v in verdicts.items() if "middle path" not in t] == ["held"] * 3


def test_index_size_says_which_claims_hold_for_which_index_keys():
    verdicts = {c.title: c.verdict for c in run("index_size").claims}
    full = [v for t, v in verdicts.items() if "(full first keys)" in t]
    hbase2 = [v for t, v in verdicts.items() if "(HBase 2's shortened keys)" in t]
    assert full == ["held"] and hbase2 == ["did not hold"]
    assert verdicts["compression makes for larger indices"] == "did not hold"
    # FAST_DIFF strips repeated coordinates from blocks (the long family wholly), not the index
    assert verdicts["a data block encoding shrinks the data and the cached blocks, not the "
                    "index: index keys keep their coordinates"] == "held"
    assert verdicts["values are always freighted with their coordinates, FAST_DIFF-encoded too: "
                    "long names make bigger files"] == "did not hold"


@pytest.mark.parametrize("name", ["hotspotting", "presplit", "compaction_io", "column_families",
                                  "bloom_filters", "versions_ttl", "tall_vs_wide", "log_data",
                                  "ycsb", "index_size"])
def test_every_claim_has_a_criterion_and_a_cost_sensitivity_sweep(name):
    from hsim.scenario.loader import load_scenario
    from hsim.workloads.costmodel import CostModel

    scenario = load_scenario(name)
    claims = run(name).to_dict()["claims"]
    assert len(claims) == len(scenario.claims) > 0
    for declared, c in zip(scenario.claims, claims):
        assert c["criterion"] == str(declared.criterion) and c["criterion"]
        assert c["verdict"] in ("held", "did not hold")
        assert [(s["vary"], s["param"]) for s in c["sensitivity"]] == \
            [(u, f"{u} {f}") for u in CostModel.UNITS for f in ("x0.5", "x2")]
        assert all(s["seed"] == 1 and s["size"] == "small" for s in c["sensitivity"])
        flips = [s for s in c["sensitivity"] if s["verdict"] != "held"]
        assert c["robust"] == (c["verdict"] == "held" and not flips)
        assert c["robustness"].startswith("robust" if c["robust"] else ("depends", "did not"))
    assert all(scenario.sweep.values())  # each names its key parameter(s) to re-run over
