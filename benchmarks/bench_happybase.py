"""happybase against hsim: puts, gets and scanned rows per second through the real
happybase package in-process (hsim.happybase) and over loopback TCP to `hsim serve` (a separate
process), side by side with the native API in the same run; and how long a test's fresh cluster
with one table takes to set up.

    pytest benchmarks/bench_happybase.py --benchmark-only

Rates are in each benchmark's extra_info (ops_per_s: puts, gets or scanned rows per second).
"""

import re
import signal
import subprocess
import sys

import happybase
import pytest

import hsim
import hsim.happybase

N = 1_000  # puts or gets per round
SCAN_ROWS = 10_000
VALUE = b"v" * 100
KEYS = [b"row-%06d" % i for i in range(max(N, SCAN_ROWS))]


def _rate(benchmark, count):
    if benchmark.stats is not None:
        benchmark.extra_info["ops_per_s"] = round(count / benchmark.stats.stats.mean)


@pytest.fixture(scope="module")
def served():
    """`hsim serve` on a free loopback port, in its own process."""
    proc = subprocess.Popen([sys.executable, "-m", "hsim.cli", "serve", "--port", "0",
                             "--clock", "manual"], stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+) ", proc.stdout.readline()).group(1))
    yield port
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)
    proc.stdout.close()


def _native(name):
    cluster = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(0))
    cluster.admin.create_table(name, {"cf": None})
    return cluster.table(name)


def _happybase(api, name, served_port):
    if api == "in-process":
        hsim.happybase.reset()
        conn = hsim.happybase.Connection()
    else:
        conn = happybase.Connection("127.0.0.1", served_port)
    conn.create_table(name, {"cf": {"max_versions": 1}})
    return conn.table(name)


def _table(api, name, request):
    if api == "native":
        return _native(name)
    port = request.getfixturevalue("served") if api == "socket" else None
    return _happybase(api, name, port)


def _load(table, api, n):
    if api == "native":
        for k in KEYS[:n]:
            table.put(k, {b"cf:a": VALUE})
    else:
        with table.batch(batch_size=1000) as b:
            for k in KEYS[:n]:
                b.put(k, {b"cf:a": VALUE})


@pytest.mark.parametrize("api", ["native", "in-process", "socket"])
def test_puts(benchmark, api, request):
    table = _table(api, f"puts_{api.replace('-', '_')}", request)
    put = table.put
    keys = KEYS[:N]
    data = {b"cf:a": VALUE}

    def run():
        for k in keys:
            put(k, data)

    benchmark.pedantic(run, rounds=5)
    _rate(benchmark, N)


@pytest.mark.parametrize("api", ["native", "in-process", "socket"])
def test_gets(benchmark, api, request):
    table = _table(api, f"gets_{api.replace('-', '_')}", request)
    _load(table, api, N)
    get = table.get if api == "native" else table.row
    keys = KEYS[:N]

    def run():
        return sum(1 for k in keys if get(k))

    assert benchmark.pedantic(run, rounds=5) == N
    _rate(benchmark, N)


@pytest.mark.parametrize("api", ["native", "in-process", "socket"])
def test_scanned_rows(benchmark, api, request):
    table = _table(api, f"scan_{api.replace('-', '_')}", request)
    _load(table, api, SCAN_ROWS)
    scan = table.scan if api == "native" else (lambda: table.scan(batch_size=1000))

    def run():
        return sum(1 for _ in scan())

    assert benchmark.pedantic(run, rounds=5) == SCAN_ROWS
    _rate(benchmark, SCAN_ROWS)


def test_fresh_cluster_with_one_table(benchmark):
    """What the plugin's fixtures do for a test: a cluster on a manual clock, a happybase
    connection to it, one table created through happybase."""

    def run():
        cluster = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(0))
        hsim.happybase.reset()
        hsim.happybase.attach(cluster)
        conn = hsim.happybase.Connection()
        conn.create_table("t", {"cf": None})
        return conn

    benchmark.pedantic(run, rounds=200)
    if benchmark.stats is not None:
        benchmark.extra_info["ms"] = round(benchmark.stats.stats.mean * 1000, 3)
