"""One live process per data directory (a held lock refuses a second one; a dead process's
lock is taken over), and close() is final (later requests raise ClusterClosedError)."""

import os
import signal
import subprocess
import sys

import pytest

import hsim
from hsim.errors import ClusterClosedError, DataDirLockedError
from hsim.storage.dir_lock import LOCK_FILE

from .disk import snapshot

# A child that opens the directory, writes, says so, then waits to be killed.
_HOLDER = """
import sys, hsim
c = hsim.Cluster(data_dir=sys.argv[1])
c.admin.create_table("t", ["f"])
for i in range(1000):
    c.table("t").put(b"r%04d" % i, {b"f:q": b"v"})
print("ready", flush=True)
sys.stdin.read()
"""


def _holder(path):
    p = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline() == "ready\n"
    return p


def test_a_second_live_process_is_refused_and_changes_nothing(tmp_path):
    p = _holder(tmp_path)
    try:
        before = snapshot(tmp_path)
        with pytest.raises(DataDirLockedError, match=f"pid {p.pid}.*AlreadyBeingCreated"):
            hsim.Cluster(data_dir=tmp_path)
        assert snapshot(tmp_path) == before  # the first's live WAL is where it was
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(10)
    # the holder died: its lock is stale, taken over, and every acknowledged write is there
    with hsim.Cluster(data_dir=tmp_path) as c:
        assert c.table("t").count() == 1000
        assert (tmp_path / LOCK_FILE).read_text().strip() == str(os.getpid())


def test_the_same_process_cannot_open_a_directory_twice(tmp_path):
    with hsim.Cluster(data_dir=tmp_path) as c:
        c.admin.create_table("t", ["f"])
        with pytest.raises(DataDirLockedError):
            hsim.Cluster(data_dir=tmp_path)
        c.table("t").put(b"r", {b"f:q": b"v"})
    with hsim.Cluster(data_dir=tmp_path) as c:  # close() released it
        assert c.table("t").count() == 1


def test_a_lock_file_naming_a_dead_pid_is_taken_over(tmp_path):
    (tmp_path / LOCK_FILE).write_text("999999999\n")
    with hsim.Cluster(data_dir=tmp_path) as c:
        c.admin.create_table("t", ["f"])
    assert (tmp_path / LOCK_FILE).read_text().strip() == str(os.getpid())


@pytest.mark.parametrize("data_dir", [False, True])
def test_close_is_final(tmp_path, data_dir):
    c = hsim.Cluster(data_dir=tmp_path if data_dir else None)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    t.put(b"a", {b"f:q": b"1"})
    t.put(b"b", {b"f:q": b"2"})
    rows = t.scan(caching=1)
    next(rows)
    c.close()
    c.close()  # idempotent
    calls = [lambda: t.put(b"c", {b"f:q": b"3"}), lambda: t.get(b"a"), lambda: list(t.scan()),
             lambda: next(rows), lambda: c.admin.create_table("u", ["f"]),
             lambda: c.admin.flush("t")]
    for call in calls:
        with pytest.raises(ClusterClosedError, match="closed.*DoNotRetryIOException"):
            call()
    if data_dir:
        with hsim.Cluster(data_dir=tmp_path) as c2:
            assert [r[0].row for r in c2.table("t").scan()] == [b"a", b"b"]


def test_a_request_waiting_for_the_lock_when_close_runs_is_refused(tmp_path):
    import threading

    c = hsim.Cluster(data_dir=tmp_path)
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    lock = c.lock
    lock.acquire()  # a request in flight
    errors = []

    def put():
        try:
            t.put(b"late", {b"f:q": b"v"})
        except ClusterClosedError as e:
            errors.append(e)

    waiter = threading.Thread(target=put)
    waiter.start()
    waiter.join(0.2)  # it waits for the lock
    c.close()
    lock.release()
    waiter.join(10)
    assert len(errors) == 1
    with hsim.Cluster(data_dir=tmp_path) as c2:
        assert c2.table("t").count() == 0  # refused, so not applied (and not lost)
