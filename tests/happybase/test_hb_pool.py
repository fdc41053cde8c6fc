"""happybase's ConnectionPool under threads, in-process and over a socket."""

import threading

import pytest
from happybase import NoConnectionsAvailable


def test_pool_under_threads_counts_every_increment(env):
    env.conn.create_table("t", {"cf": None})
    pool = env.pool(4)
    threads, per_thread = 8, 50

    def work(i):
        for n in range(per_thread):
            with pool.connection() as conn:
                t = conn.table("t")
                t.counter_inc(b"counter", b"cf:hits")
                t.put(b"row-%d-%03d" % (i, n), {b"cf:v": b"%d" % n})

    ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    t = env.conn.table("t")
    assert t.counter_get(b"counter", b"cf:hits") == threads * per_thread
    assert sum(1 for _ in t.scan(row_prefix=b"row-")) == threads * per_thread


def test_pool_reuses_the_thread_connection_and_times_out(env):
    pool = env.pool(1)
    with pool.connection() as outer:
        with pool.connection() as inner:
            assert inner is outer
        got = []
        t = threading.Thread(target=lambda: got.append(_try_get(pool)))
        t.start()
        t.join()
        assert got == ["none available"]
    with pool.connection(timeout=0.01) as again:
        assert again is outer
        assert again.tables() == []


def _try_get(pool):
    try:
        with pool.connection(timeout=0.01):
            return "got one"
    except NoConnectionsAvailable:
        return "none available"


def test_pool_argument_checks_are_happybases(env):
    with pytest.raises(TypeError):
        env.pool("2")
    with pytest.raises(ValueError):
        env.pool(0)
