"""YCSB core workloads: key names, record shape, operation mixes, determinism."""

import collections

import pytest

from hsim.errors import InvalidArgumentError
from hsim.workloads.ycsb import CORE_WORKLOADS, CoreWorkload, WorkloadSpec

MIXES = {  # workloads/workload[a-f] in YCSB
    "A": {"read": 0.5, "update": 0.5},
    "B": {"read": 0.95, "update": 0.05},
    "C": {"read": 1.0},
    "D": {"read": 0.95, "insert": 0.05},
    "E": {"scan": 0.95, "insert": 0.05},
    "F": {"read": 0.5, "rmw": 0.5},
}
DISTRIBUTIONS = {"A": "zipfian", "B": "zipfian", "C": "zipfian", "D": "latest",
                 "E": "zipfian", "F": "zipfian"}


def test_key_names_are_ycsbs():
    w = CoreWorkload("A")
    # CoreWorkload.buildKeyName(0, 1, false): "user" + Utils.fnvhash64(0)
    assert w.key_name(0) == b"user6284781860667377211"
    assert w.key_name(1) == b"user8517097267634966620"
    ordered = CoreWorkload("A", insert_order="ordered", zero_padding=8)
    assert ordered.key_name(5) == b"user00000005"


@pytest.mark.parametrize("name", sorted(MIXES))
def test_operation_mix_and_distribution(name):
    w = CoreWorkload(name, record_count=2000, operation_count=20_000, seed=11)
    assert w.request_distribution == DISTRIBUTIONS[name]
    kinds = collections.Counter(op.kind for op in w.run())
    assert sum(kinds.values()) == 20_000
    assert set(kinds) == set(MIXES[name])
    for kind, p in MIXES[name].items():
        assert kinds[kind] / 20_000 == pytest.approx(p, abs=0.015), kind


def test_same_seed_same_ops_other_seed_differs():
    def ops(seed):
        w = CoreWorkload("E", record_count=500, operation_count=2000, seed=seed)
        return list(w.load()), list(w.run())

    assert ops(3) == ops(3)
    assert ops(3)[1] != ops(4)[1]
    assert ops(3)[0] != ops(4)[0]  # values differ; keys are the same records
    assert [o.row for o in ops(3)[0]] == [o.row for o in ops(4)[0]]


def test_load_inserts_full_records_of_ten_100_byte_fields():
    w = CoreWorkload("A", record_count=300)
    ops = list(w.load())
    assert len(ops) == 300
    assert [op.row for op in ops] == [w.key_name(i) for i in range(300)]
    for op in ops:
        assert op.kind == "insert"
        assert list(op.values) == [b"f:field%d" % i for i in range(10)]
        for v in op.values.values():
            assert len(v) == 100
            assert all(32 <= b <= 127 for b in v)  # RandomByteIterator's printable range
    # a value's byte at each position follows YCSB's masks 31, 63, 95 (+ ' ')
    firsts = {op.values[b"f:field0"][0] for op in ops}
    thirds = {op.values[b"f:field0"][2] for op in ops}
    assert max(firsts) <= 32 + 31 < max(thirds)


def test_reads_touch_only_records_that_exist():
    w = CoreWorkload("D", record_count=1000, operation_count=5000, seed=2)
    existing = {w.key_name(i) for i in range(1000)}
    for op in w.run():
        if op.kind == "insert":
            existing.add(op.row)
        else:
            assert op.row in existing


def test_workload_d_inserts_new_records_and_reads_the_latest():
    n = 5000
    w = CoreWorkload("D", record_count=n, operation_count=10_000, seed=5)
    ops = list(w.run())
    inserts = [op.row for op in ops if op.kind == "insert"]
    assert inserts == [w.key_name(n + i) for i in range(len(inserts))]
    number = {w.key_name(i): i for i in range(n + len(inserts))}
    reads = [number[op.row] for op in ops if op.kind == "read"]
    # most reads go to the newest 1% of the records
    assert sum(1 for k in reads if k >= n - n // 100) / len(reads) > 0.5


def test_zipfian_requests_are_skewed_over_scattered_keys():
    w = CoreWorkload("C", record_count=1000, operation_count=20_000, seed=6)
    counts = collections.Counter(op.row for op in w.run())
    top = counts.most_common(10)
    assert sum(c for _, c in top) / 20_000 > 0.08  # 1% of the keys, ~12% of the reads
    assert len(counts) > 500


def test_scans_of_workload_e():
    w = CoreWorkload("E", record_count=1000, operation_count=10_000, seed=7)
    lengths = [op.scan_length for op in w.run() if op.kind == "scan"]
    assert min(lengths) == 1 and max(lengths) == 100  # uniform on [1, maxscanlength=100]
    assert sum(lengths) / len(lengths) == pytest.approx(50.5, abs=2)
    longer = CoreWorkload("E", record_count=1000, operation_count=500, max_scan_length=1000)
    assert max(op.scan_length for op in longer.run() if op.kind == "scan") > 100


def test_updates_and_read_modify_writes_write_one_field():
    w = CoreWorkload("F", record_count=500, operation_count=2000, seed=8)
    for op in w.run():
        assert op.columns is None  # readallfields=true
        if op.kind == "rmw":
            assert len(op.values) == 1
            (col, v), = op.values.items()
            assert col in w.columns and len(v) == 100
    w = CoreWorkload("A", record_count=500, operation_count=200, write_all_fields=True,
                     read_all_fields=False)
    for op in w.run():
        if op.kind == "update":
            assert len(op.values) == 10
        else:
            assert len(op.columns) == 1 and op.columns[0] in w.columns


def test_overrides_and_custom_specs():
    w = CoreWorkload("A", request_distribution="hotspot", record_count=1000,
                     operation_count=10_000, family=b"d", field_count=3, field_length=8)
    ops = list(w.run())
    number = {w.key_name(i): i for i in range(1000)}
    hot = sum(1 for op in ops if number[op.row] < 200)
    assert hot / len(ops) == pytest.approx(0.8, abs=0.02)
    assert w.columns == (b"d:field0", b"d:field1", b"d:field2")
    spec = WorkloadSpec("scan-only", "all scans", read=0, update=0, scan=1.0)
    assert {op.kind for op in CoreWorkload(spec, operation_count=100).run()} == {"scan"}
    assert CORE_WORKLOADS["E"].max_scan_length == 100


def test_bad_options_are_clear_errors():
    with pytest.raises(InvalidArgumentError, match="unknown YCSB workload"):
        CoreWorkload("Z")
    with pytest.raises(InvalidArgumentError, match="request distribution"):
        CoreWorkload("A", request_distribution="gaussian")
    with pytest.raises(InvalidArgumentError):
        CoreWorkload("A", record_count=1)
    with pytest.raises(InvalidArgumentError):
        CoreWorkload(WorkloadSpec("x", "", read=0, update=0))
    with pytest.raises(InvalidArgumentError):
        CoreWorkload("A", insert_order="random")
