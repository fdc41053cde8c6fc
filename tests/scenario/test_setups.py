"""The comparisons are fair fights (issue 37's straw-man setups): presplit runs HBase's balancer,
secondary_index's users table is larger than the block cache, and hotspotting pre-splits
between metrics and salt buckets, as a designer would."""

import pytest

from hsim.bytes import to_bytes_binary
from hsim.scenario import run_scenario
from hsim.workloads.keys import entity_split_keys

pytestmark = pytest.mark.slow  # whole scenario runs


def _run(name, **kw):
    return run_scenario(name, plots=False, sensitivity="off", **kw)


def test_presplit_runs_the_balancer_and_it_moves_the_daughters():
    r = _run("presplit", ops="default", variants="no_presplit,book_hex_splits").results
    assert r["no_presplit"]["balancer_runs"] >= 1 and r["book_hex_splits"]["balancer_runs"] >= 1
    assert r["no_presplit"]["regions"] > 1 and r["no_presplit"]["balancer_moves"] >= 1
    # balanced, the daughters of the splits share the writes
    assert r["no_presplit"]["max_server_write_share"] < 0.9


def test_secondary_index_table_is_larger_than_the_block_cache():
    r = _run("secondary_index", ops="small", variants="filter_scan,dual_write").results
    scan = r["filter_scan"]
    assert scan["users_bytes"] > scan["block_cache_bytes"] > 0
    # the full scan reads from disk, not from a cache that holds the whole table
    assert scan["disk_blocks_per_query"] >= 0.5 * scan["blocks_per_query"] > 0


def test_hotspotting_splits_between_metrics_and_salt_buckets():
    report = _run("hotspotting", ops="small", params={"regions": 32},
                  variants="field_swap,salted")
    metrics = {b"metric%03d" % i for i in range(64)}
    starts = {v.name: [to_bytes_binary(x["start_key"]) for x in v.cluster["regions"]][1:]
              for v in report.variants}
    assert len(starts["field_swap"]) == 31 and set(starts["field_swap"]) <= metrics
    assert starts["salted"] == [bytes([b]) for b in range(1, 32)]
    # whole metrics per region: every region takes writes at any region count
    assert report.results["field_swap"]["regions_written"] == 32
    assert report.results["field_swap"]["write_hotspot_ratio"] < 1.5


def test_entity_split_keys_cut_between_entities():
    entities = [b"m%02d" % i for i in range(10)]
    assert entity_split_keys(entities, 5) == [b"m02", b"m04", b"m06", b"m08"]
    assert entity_split_keys(entities, 40) == entities[1:]  # at most one region per entity
    assert entity_split_keys(list(reversed(entities)), 2) == [b"m05"]
