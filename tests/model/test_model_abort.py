"""Model-based test of crash recovery: writes under every durability, flushes, compactions,
splits, balancing, region-server aborts and new servers, against a model of what an
acknowledged write guarantees: SYNC_WAL and FSYNC_WAL writes always come back; a SKIP_WAL or
ASYNC_WAL write (to a row written only once) survives a flush, and may vanish with its server
before one, and the crash report counts exactly the ones that vanished."""

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import hsim
from hsim import Durability

ROWS = [b"a", b"g", b"m", b"t"]
DURABLE = [Durability.USE_DEFAULT, Durability.SYNC_WAL, Durability.FSYNC_WAL]


class CrashMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.cluster = hsim.Cluster(2, clock=hsim.ManualClock(1000),
                                    config=hsim.Config(compaction_min_files=2))
        self.cluster.admin.create_table("t", ["f"], split_keys=[b"k"])
        self.table = self.cluster.table("t")
        self.model: dict[bytes, bytes] = {}  # durable rows -> value
        self.volatile: dict[bytes, bytes] = {}  # unflushed SKIP/ASYNC rows -> value
        self.serial = 0

    def _now_moves(self):
        self.cluster.clock.advance(1)

    @rule(row=st.sampled_from(ROWS), d=st.sampled_from(DURABLE))
    def put(self, row, d):
        self._now_moves()
        self.serial += 1
        value = b"%d" % self.serial
        self.table.put(row, {b"f:q": value}, durability=d)
        self.model[row] = value

    @rule(row=st.sampled_from(ROWS), d=st.sampled_from(DURABLE))
    def delete(self, row, d):
        self._now_moves()
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
    def balance(self):
        self.cluster.admin.balance()

    @rule(index=st.integers(0, 3))
    def abort(self, index):
        servers = len(self.cluster.region_servers)
        if servers < 2:
            self.cluster.start_region_server()
            servers += 1
        report = self.cluster.abort_region_server(index % servers)
        # Only unflushed SKIP/ASYNC rows may vanish (the invariant checks every other row);
        # the report counts exactly those that did.
        dead_rows = {r for r in self.volatile if r not in self._rows()}
        assert report.lost == len(dead_rows)
        for r in dead_rows:
            del self.volatile[r]

    @rule()
    def start_server(self):
        if len(self.cluster.region_servers) < 4:
            self.cluster.start_region_server()

    def _rows(self) -> dict:
        return {cells[0].row: cells[0].value for cells in self.table.scan()}

    @invariant()
    def acknowledged_writes_are_there(self):
        assert self._rows() == {**self.model, **self.volatile}


CrashMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=30,
                                          derandomize=True, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
test_crash_recovery = CrashMachine.TestCase
