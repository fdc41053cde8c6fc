"""Crash injection at step k of a DDL operation, a split or a merge: every call that changes
the disk (os.write, os.replace, os.rename, os.remove, os.unlink, os.rmdir) is a step; the
crash comes just before step k is taken. `run_op` injects it in this process (an exception
that unwinds, then what SIGKILL leaves: open files closed, the lock dropped); `CHILD` is the
same op in a child process that SIGKILLs itself at step k."""

import contextlib
import os

import hsim

STEP_CALLS = ("write", "replace", "rename", "remove", "unlink", "rmdir")
CFG = dict(memstore_flush_size=64 * 1024)
ROWS = [b"r%04d" % i for i in range(120)]
OPS = ("create", "delete", "truncate", "split", "merge")


class Killed(BaseException):
    """The crash, in this process (not an Exception: nothing may catch it)."""


@contextlib.contextmanager
def steps(k: int, on_step, log: list | None = None):
    """Patch the disk calls; `on_step()` runs before the k-th one (1-based). `log` gets each
    call's arguments."""
    real = {name: getattr(os, name) for name in STEP_CALLS}
    count = [0]

    def wrap(name):
        def call(*a, **kw):
            count[0] += 1
            if log is not None:
                log.append(a)
            if count[0] == k:
                on_step()
            return real[name](*a, **kw)
        return call

    for name in STEP_CALLS:
        setattr(os, name, wrap(name))
    try:
        yield count
    finally:
        for name, fn in real.items():
            setattr(os, name, fn)


def open_cluster(path):
    return hsim.Cluster(2, config=hsim.Config(**CFG), clock=hsim.ManualClock(1000), data_dir=path)


def setup(c, op: str) -> None:
    """Acknowledged rows in t (two regions) and in keep; t disabled for delete and truncate."""
    c.admin.create_table("t", ["f", "g"], split_keys=[b"m"])
    c.admin.create_table("keep", ["f"])
    for r in ROWS:
        c.table("t").put(r, {b"f:q": r, b"g:x": b"x" * 100})
        c.table("keep").put(r, {b"f:q": r})
    c.admin.flush("t")
    c.table("t").put(b"r0001", {b"f:q": b"new"})  # one edit only in the WAL
    if op in ("delete", "truncate"):
        c.admin.disable_table("t")


def do(c, op: str) -> None:
    if op == "create":
        c.admin.create_table("u", ["f"], split_keys=[b"c", b"x"])
    elif op == "delete":
        c.admin.delete_table("t")
    elif op == "truncate":
        c.admin.truncate_table("t")
    elif op == "merge":
        a, b = c.admin.regions("t")
        c.admin.merge_regions(a.encoded_name, b.encoded_name)
    else:
        c.admin.split("t", b"r0060")


def _all_rows(c, table: str) -> dict:
    t = c.table(table)
    scanned = {cells[0].row: cells[0].value for cells in t.scan(columns=[b"f:q"])}
    got = {r: t.get(r, [b"f:q"])[0].value for r in ROWS if t.get(r, [b"f:q"])}
    assert scanned == got, "Get and Scan disagree"
    return scanned


def check(c, op: str) -> str:
    """Every acknowledged row readable by Get and Scan, the regions tiling every table, and the
    op either wholly done or wholly not; returns which ("done" or "undone")."""
    c.check_invariants()  # regions tile each table, books balance
    want = {r: (b"new" if r == b"r0001" else r) for r in ROWS}
    assert _all_rows(c, "keep") == {r: r for r in ROWS}
    tables = c.admin.list_tables()
    if op == "create":
        if "u" not in tables:
            return "undone"
        assert [r.start_key for r in c.master.tables["u"].locator.regions] == [b"", b"c", b"x"]
        assert c.table("u").count() == 0
        return "done"
    if op == "split":
        assert _all_rows(c, "t") == want
        return "done" if len(c.master.tables["t"].locator.regions) == 3 else "undone"
    if op == "merge":
        assert _all_rows(c, "t") == want
        return "done" if len(c.master.tables["t"].locator.regions) == 1 else "undone"
    if op == "delete" and "t" not in tables:
        return "done"
    if not c.admin.is_table_enabled("t"):
        c.admin.enable_table("t")
    rows = _all_rows(c, "t")
    if op == "truncate" and not rows:
        return "done"
    assert rows == want
    return "undone"


def run_op(path, op: str, k: int):
    """Set up, run `op` with a crash at step k, reopen; returns (the reopened cluster, whether
    the op ran to its end without reaching step k)."""
    c = open_cluster(path)
    setup(c, op)

    def kill():
        raise Killed

    finished = True
    with steps(k, kill):
        try:
            do(c, op)
        except Killed:
            finished = False
    if finished:
        c.close()
    else:
        for st in c.data_dir._wals.values():
            os.close(st[0])
        c.data_dir.lock.release()
    return open_cluster(path), finished


def step_of(op: str, marker: bytes, path) -> int:
    """The step (1-based) at which `op` journals the state `marker`, found by running it."""
    log: list = []
    with open_cluster(path) as c:
        setup(c, op)
        with steps(0, None, log):
            do(c, op)
    return next(i + 1 for i, a in enumerate(log)
                if len(a) > 1 and isinstance(a[1], bytes) and marker in a[1])


CHILD = """
import os, signal, sys
sys.path.insert(0, sys.argv[3])
from crash_steps import do, open_cluster, setup, steps
c = open_cluster(sys.argv[1])
setup(c, sys.argv[2])
with steps(int(sys.argv[4]), lambda: os.kill(os.getpid(), signal.SIGKILL)):
    do(c, sys.argv[2])
c.close()
print("finished")
"""
