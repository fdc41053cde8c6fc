"""Model-based test of the data directory: writes under every durability, flushes,
compactions and splits, with clean close/reopen and crash/reopen in between. A clean close
keeps everything; a crash keeps every SYNC_WAL and FSYNC_WAL write and may lose only SKIP_WAL
and ASYNC_WAL writes that were in no store file yet."""

import os
import shutil
import tempfile

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import hsim
from hsim import Durability

ROWS = [b"a", b"g", b"m", b"t"]
DURABLE = [Durability.USE_DEFAULT, Durability.SYNC_WAL, Durability.FSYNC_WAL]
CONFIG = hsim.Config(compaction_min_files=2)


class ReopenMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.root = tempfile.mkdtemp(prefix="hsim-model-")
        self.cluster = self._open()
        self.cluster.admin.create_table("t", ["f", "g"], split_keys=[b"k"])
        self.model: dict[bytes, bytes] = {}  # durable rows -> value
        self.volatile: dict[bytes, bytes] = {}  # unflushed SKIP/ASYNC rows -> value
        self.serial = 0

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

    @rule(row=st.sampled_from(ROWS), d=st.sampled_from(DURABLE))
    def delete(self, row, d):
        self.cluster.clock.advance(1)
        self.table.delete_row(row, durability=d)
        self.model.pop(row, None)

    @rule(d=st.sampled_from([Durability.SKIP_WAL, Durability.ASYNC_WAL]))
    def volatile_put(self, d):
        self.serial += 1
        row = b"v%04d" % self.serial  # a fresh row: losing it uncovers nothing older
        self.table.put(row, {b"f:q": b"x"}, durability=d)
        self.volatile[row] = b"x"

    @rule()
    def flush(self):
        self.cluster.admin.flush("t")
        self.model.update(self.volatile)
        self.volatile.clear()

    @rule()
    def major_compact(self):
        self.cluster.admin.major_compact("t")

    @rule(point=st.sampled_from([b"c", b"p", b"v0005"]))
    def split(self, point):
        region = self.cluster.master.tables["t"].locator.locate(point)
        if region.valid_split_row(point):
            self.cluster.admin.split("t", point)

    @rule()
    def close_and_reopen(self):
        self.cluster.close()  # flushes: nothing may be lost
        self.model.update(self.volatile)
        self.volatile.clear()
        self.cluster = self._open()

    @rule()
    def crash_and_reopen(self):
        for fd_state in self.cluster.data_dir._wals.values():
            os.close(fd_state[0])  # SIGKILL: the files close, nothing is flushed
        self.cluster.data_dir._wals = {}
        self.cluster = self._open()
        rows = self._rows()
        for r in [r for r in self.volatile if r not in rows]:
            del self.volatile[r]

    def _rows(self) -> dict:
        return {cells[0].row: cells[0].value for cells in self.table.scan(columns=[b"f:q"])}

    @invariant()
    def acknowledged_writes_are_there(self):
        assert self._rows() == {**self.model, **self.volatile}

    def teardown(self):
        if self.cluster.data_dir is not None:
            self.cluster.close()
        shutil.rmtree(self.root, ignore_errors=True)


ReopenMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=25,
                                           derandomize=True, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow])
test_reopen = ReopenMachine.TestCase
