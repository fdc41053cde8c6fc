"""Each client check runs once per request, from hsim.client.validation (the one module that
holds them): a Get and a Scan counted check by check."""

from collections import Counter

import pytest

import hsim
from hsim.client import validation

CHECKS = ("row", "time_range", "read_options", "raw_columns", "read_columns", "query",
          "check_per_family", "check_batch", "known_family")


@pytest.fixture
def counted(monkeypatch):
    calls = Counter()
    for name in CHECKS:
        real = getattr(validation, name)

        def wrapper(*args, _real=real, _name=name, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(validation, name, wrapper)
    return calls


@pytest.fixture
def table():
    c = hsim.Cluster(clock=hsim.ManualClock(1_000))
    c.admin.create_table("t", ["f", "g"])
    t = c.table("t")
    t.put(b"r", {b"f:a": b"1", b"g:b": b"2"})
    return t


def test_a_get_runs_each_check_once(table, counted):
    got = table.get(b"r", columns=[b"f:a", b"g"], max_versions=2, time_range=(0, 5_000),
                    max_results_per_family=3)
    assert [c.value for c in got] == [b"1", b"2"]
    assert counted == Counter(row=1, time_range=1, read_options=1, read_columns=1,
                              check_per_family=1, raw_columns=1, known_family=2)


def test_a_scan_runs_each_check_once(table, counted):
    rows = list(table.scan(columns=[b"f:a"], time_range=(0, 5_000), batch=1))
    assert [[c.value for c in cells] for cells in rows] == [[b"1"]]
    assert counted == Counter(time_range=1, check_batch=1, check_per_family=1, query=1,
                              read_options=1, raw_columns=1, read_columns=1, known_family=1)
