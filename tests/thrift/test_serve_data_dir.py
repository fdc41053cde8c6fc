"""`hsim serve --data-dir`: a real process, killed with SIGKILL mid-life, restarted on the same
directory, returns every write it acknowledged over happybase."""

import signal

import happybase
import pytest

pytestmark = pytest.mark.slow  # `hsim serve` processes over sockets


def test_sigkill_and_restart_keeps_every_acknowledged_write(hsim_serve, tmp_path):
    data_dir = str(tmp_path / "hbase")
    expected = {}
    with hsim_serve("--data-dir", data_dir, "--config", '{"memstore_flush_size": 65536}') \
            as (proc, port):
        conn = happybase.Connection("127.0.0.1", port)
        conn.create_table("t", {"f": {}})
        t = conn.table("t")
        for i in range(400):  # enough to flush a few HFiles and leave edits only in the WAL
            row = b"r%04d" % i
            t.put(row, {b"f:q": b"v" * 200 + row})
            expected[row] = {b"f:q": b"v" * 200 + row}
        with t.batch() as b:
            for i in range(20):
                b.put(b"b%02d" % i, {b"f:x": b"batched"})
                expected[b"b%02d" % i] = {b"f:x": b"batched"}
        t.delete(b"r0003")
        del expected[b"r0003"]
        t.counter_inc(b"c", b"f:n", 7)
        conn.close()
        proc.send_signal(signal.SIGKILL)  # no close(), no flush: what a crash leaves
        assert proc.wait() == -signal.SIGKILL
    with hsim_serve("--data-dir", data_dir) as (proc, port):
        conn = happybase.Connection("127.0.0.1", port)
        t = conn.table("t")
        assert t.counter_get(b"c", b"f:n") == 7
        got = {row: data for row, data in t.scan() if row != b"c"}
        assert got == expected
        conn.close()
