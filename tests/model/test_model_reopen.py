"""Model-based test of the data directory: writes under every durability, flushes,
compactions, splits and DDL, with clean close/reopen, crash/reopen and crashes at step k of a
DDL operation or a split in between. A clean close
keeps everything; a crash keeps every SYNC_WAL and FSYNC_WAL write and may lose only SKIP_WAL
and ASYNC_WAL writes that were in no store file yet."""

import os
import shutil
import sys
import tempfile

import hypothesis.strategies as st
from durability_machine import DURABLE, ROWS, DurabilityMachine
from hypothesis import HealthCheck, settings
from hypothesis.stateful import rule

import hsim

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "storage"))
from crash_steps import Killed, steps  # noqa: E402  (the disk-step crash injection)

CONFIG = hsim.Config(compaction_min_files=2)


class ReopenMachine(DurabilityMachine):
    def __init__(self):
        super().__init__()
        self.root = tempfile.mkdtemp(prefix="hsim-model-")
        self.cluster = self._open()
        self.cluster.admin.create_table("t", ["f", "g"], split_keys=[b"k"])
        self.crashes = 0  # crashes injected mid-DDL or mid-split

    def _open(self):
        return hsim.Cluster(2, clock=hsim.ManualClock(1000), config=CONFIG, data_dir=self.root)

    @property
    def table(self):
        return self.cluster.table("t")

    @rule(row=st.sampled_from(ROWS), d=st.sampled_from(DURABLE), fam=st.sampled_from("fg"))
    def put(self, row, d, fam):
        self.cluster.clock.advance(1)
        self.serial += 1
        self.table.put(row, {b"f:q": b"%d" % self.serial, fam.encode() + b":x": b"x"},
                       durability=d)
        self.model[row] = b"%d" % self.serial

    @rule()
    def close_and_reopen(self):
        self.cluster.close()  # flushes: nothing may be lost
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
        if self.cluster.data_dir is not None:
            self.cluster.close()
        shutil.rmtree(self.root, ignore_errors=True)


ReopenMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=25,
                                           derandomize=True, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow])
test_reopen = ReopenMachine.TestCase
