"""`hsim serve` as a process: real happybase against it, every transport and protocol, clean
shutdown on SIGTERM and SIGINT, and the 8-thread concurrency test."""

import signal
import struct
import threading

import happybase
import pytest

pytestmark = pytest.mark.slow  # `hsim serve` processes over sockets


def _stop(proc, sig):
    proc.send_signal(sig)
    out = proc.communicate()[0]
    return proc.returncode, out


def test_serve_buffered_binary_and_sigterm(hsim_serve):
    with hsim_serve("--servers", "2") as (proc, port):
        conn = happybase.Connection("127.0.0.1", port)
        conn.create_table("t", {"cf": {"max_versions": 2}})
        t = conn.table("t")
        t.put(b"r1", {b"cf:a": b"1"})
        t.put(b"r2", {b"cf:a": b"2"}, timestamp=5)
        assert t.row(b"r2", include_timestamp=True) == {b"cf:a": (b"2", 5)}
        ts = t.row(b"r1", include_timestamp=True)[b"cf:a"][1]
        assert ts > 1_600_000_000_000  # the default clock is wall time
        assert [k for k, _ in t.scan()] == [b"r1", b"r2"]
        servers = {r["server_name"] for r in t.regions()}
        assert servers == {b"rs1.hsim"}
        conn.close()
        code, out = _stop(proc, signal.SIGTERM)
    assert code == 0
    assert "stopped after 1 connection(s)" in out


def test_serve_framed_compact_manual_clock_config_and_sigint(hsim_serve):
    args = ("--transport", "framed", "--protocol", "compact", "--clock", "manual",
            "--config", '{"scale": 0.001, "compaction_min_files": 4}')
    with hsim_serve(*args) as (proc, port):
        conn = happybase.Connection("127.0.0.1", port, transport="framed", protocol="compact")
        conn.create_table("t", {"cf": None})
        t = conn.table("t")
        t.put(b"r", {b"cf:a": b"x"})
        assert t.row(b"r", include_timestamp=True) == {b"cf:a": (b"x", 0)}
        assert t.counter_inc(b"r", b"cf:n", 3) == 3
        code, out = _stop(proc, signal.SIGINT)  # with the client still connected
    assert code == 0 and "stopped" in out


def test_serve_refuses_bad_arguments(hsim_serve):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "hsim.cli", "serve", "--config", '{"nope": 1}'],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "argument --config: unknown Config field(s): nope" in r.stderr
    with hsim_serve() as (_proc, port):
        r = subprocess.run([sys.executable, "-m", "hsim.cli", "serve", "--port", str(port)],
                           capture_output=True, text=True)
        assert r.returncode == 1 and "cannot listen" in r.stderr


@pytest.mark.parametrize("transport", ["buffered", "framed"])
def test_eight_threads_of_counters_and_puts_lose_nothing(hsim_serve, transport):
    threads, per_thread = 8, 60
    with hsim_serve("--transport", transport) as (_proc, port):
        setup = happybase.Connection("127.0.0.1", port, transport=transport)
        setup.create_table("t", {"cf": None, "c": None})
        returned = [[] for _ in range(threads)]
        errors = []

        def work(i):
            try:
                conn = happybase.Connection("127.0.0.1", port, transport=transport)
                t = conn.table("t")
                for n in range(per_thread):
                    returned[i].append(t.counter_inc(b"shared", b"c:hits"))
                    t.counter_inc(b"shared", b"c:t%d" % i)
                    with t.batch() as b:
                        b.put(b"row-%d-%03d" % (i, n), {b"cf:n": b"%d" % n})
                        b.put(b"last-%d" % i, {b"cf:n": b"%d" % n})
                conn.close()
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert errors == []
        t = setup.table("t")
        total = threads * per_thread
        # every increment counted exactly once: each returned a distinct value 1..total
        assert sorted(v for vals in returned for v in vals) == list(range(1, total + 1))
        counts = t.row(b"shared")
        assert struct.unpack(">q", counts[b"c:hits"])[0] == total
        for i in range(threads):
            assert t.counter_get(b"shared", b"c:t%d" % i) == per_thread
            assert t.row(b"last-%d" % i) == {b"cf:n": b"%d" % (per_thread - 1)}
        assert sum(1 for _ in t.scan(row_prefix=b"row-", batch_size=97)) == total
