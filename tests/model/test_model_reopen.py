"""Model-based test of the data directory: writes under every durability, flushes,
compactions, splits and DDL, with clean close/reopen, crash/reopen and crashes at step k of a
DDL operation or a split in between, and a disk that fills up after some more writes and is
freed again. A clean close keeps everything; a crash keeps every acknowledged SYNC_WAL and
FSYNC_WAL write and may lose only SKIP_WAL and ASYNC_WAL writes that were in no store file yet;
a write the full disk refused is not applied."""

import errno
import os
import shutil
import sys
import tempfile

import hypothesis.strategies as st
from durability_machine import DURABLE, ROWS, DurabilityMachine
from hypothesis import HealthCheck, settings
from hypothesis.stateful import rule

import pytest

import hsim
from hsim.errors import DiskIOError
from hsim.storage import fs

pytestmark = pytest.mark.slow  # hypothesis state machines and long property runs

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "storage"))
from crash_steps import Killed, steps  # noqa: E402  (the disk-step crash injection)

CONFIG = hsim.Config(compaction_min_files=2)


class ReopenMachine(DurabilityMachine):
    def __init__(self):
        super().__init__()
        self.root = tempfile.mkdtemp(prefix="hsim-model-")
        self.refused = (DiskIOError,)
        self.writes_left = None  # writes before the disk is full (None: room)
        fs.pwrite = self._pwrite
        self.cluster = self._open()
        self.cluster.admin.create_table("t", ["f", "g"], split_keys=[b"k"])
        self.crashes = 0  # crashes injected mid-DDL or mid-split

    def _open(self):
        return hsim.Cluster(2, clock=hsim.ManualClock(1000), config=CONFIG, data_dir=self.root)

    def _pwrite(self, fd, data, offset):
        if self.writes_left is not None:
            if self.writes_left <= 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            self.writes_left -= 1
        return os.pwrite(fd, data, offset)

    @rule(after=st.integers(0, 4))
    def disk_fills(self, after):
        self.writes_left = after

    @rule()
    def disk_freed(self):
        self.writes_left = None

    @rule(op=st.sampled_from(["create", "delete", "truncate", "split"]),
          k=st.integers(1, 30), point=st.sampled_from([b"c", b"p", b"v0005"]))
    def ddl(self, op, k, point):
        # Not on a full disk: DDL and splits whose journal records and files cannot be written
        # are not made safe yet (docs/durability.md, "Faults").
        if self.writes_left is None:
            super().ddl(op, k, point)

    @rule(point=st.sampled_from([b"c", b"p", b"v0005"]))
    def split(self, point):
        # Not on a full disk: a split whose daughters' files and journal records cannot be
        # written is not made safe yet (docs/durability.md, "Faults").
        if self.writes_left is None:
            super().split(point)

    @property
    def table(self):
        return self.cluster.table("t")

    @rule(row=st.sampled_from(ROWS), d=st.sampled_from(DURABLE), fam=st.sampled_from("fg"))
    def put(self, row, d, fam):
        self.cluster.clock.advance(1)
        self.serial += 1
        try:
            self.table.put(row, {b"f:q": b"%d" % self.serial, fam.encode() + b":x": b"x"},
                           durability=d)
        except DiskIOError:
            return  # not applied
        self.model[row] = b"%d" % self.serial

    @rule()
    def close_and_reopen(self):
        try:
            self.cluster.close()  # flushes: nothing may be lost
        except DiskIOError:  # a flush the full disk refused: the process is killed instead
            self.crash_and_reopen()
            return
        self.model.update(self.volatile)
        self.volatile.clear()
        self.cluster = self._open()

    @rule()
    def crash_and_reopen(self):
        self._crash()

    def _crash(self):
        for fd_state in self.cluster.data_dir._wals.values():
            os.close(fd_state[0])  # SIGKILL: the files close, nothing is flushed
        self.cluster.data_dir._wals = {}
        self.cluster.data_dir.lock.release()  # the kernel drops a dead process's lock
        try:
            self.cluster = self._open()
        except DiskIOError:  # the replay could not flush; nothing changed: free space, again
            self.writes_left = None
            self.cluster = self._open()
        rows = self._rows()
        for r in [r for r in self.volatile if r not in rows]:
            del self.volatile[r]

    def run_crashing(self, action, k: int) -> bool:
        """The action with a crash just before its k-th disk step (if it has that many)."""
        def kill():
            raise Killed

        try:
            with steps(k, kill):
                action()
            return False
        except Killed:
            self._crash()
            self.crashes += 1
            return True

    def teardown(self):
        self.writes_left = None
        fs.pwrite = os.pwrite
        if self.cluster.data_dir is not None:
            self.cluster.close()
        shutil.rmtree(self.root, ignore_errors=True)


ReopenMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=25,
                                           derandomize=True, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow])
test_reopen = ReopenMachine.TestCase
