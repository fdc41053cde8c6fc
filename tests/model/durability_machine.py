"""The rules the durability state machines share (crash recovery, the data directory): writes
under every durability, flushes, compactions and splits, against a model of what an
acknowledged write guarantees. A subclass supplies the cluster, its own `put` and the events
that lose or keep data (abort, close, crash), and `refused`: the errors a request may end with
because the disk refused a write (the request then applied nothing, or was a flush that did not
happen)."""

import hypothesis.strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from hsim import Durability

ROWS = [b"a", b"g", b"m", b"t"]
DURABLE = [Durability.USE_DEFAULT, Durability.SYNC_WAL, Durability.FSYNC_WAL]


class DurabilityMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.model: dict[bytes, bytes] = {}  # durable rows -> value
        self.volatile: dict[bytes, bytes] = {}  # unflushed SKIP/ASYNC rows -> value
        self.serial = 0
        self.refused: tuple = ()  # exception classes of a write the disk refused

    @rule(row=st.sampled_from(ROWS), d=st.sampled_from(DURABLE))
    def delete(self, row, d):
        self.cluster.clock.advance(1)
        try:
            self.table.delete_row(row, durability=d)
        except self.refused:
            return  # not applied
        self.model.pop(row, None)

    @rule(d=st.sampled_from([Durability.SKIP_WAL, Durability.ASYNC_WAL]))
    def volatile_put(self, d):
        self.serial += 1
        row = b"v%04d" % self.serial  # a fresh row: losing it uncovers nothing older
        self.table.put(row, {b"f:q": b"x"}, durability=d)
        self.volatile[row] = b"x"

    @rule()
    def flush(self):
        try:
            self.cluster.admin.flush("t")
        except self.refused:
            return  # some regions may have flushed: their rows stay volatile until a crash
        self.model.update(self.volatile)
        self.volatile.clear()

    @rule()
    def major_compact(self):
        self.cluster.admin.major_compact("t")

    @rule(point=st.sampled_from([b"c", b"p", b"v0005"]))
    def split(self, point):
        region = self.cluster.master.tables["t"].locator.locate(point)
        if region.valid_split_row(point):
            try:
                self.cluster.admin.split("t", point)
            except self.refused:
                pass  # the parent could not flush: it stays, unsplit

    def _rows(self) -> dict:
        return {cells[0].row: cells[0].value for cells in self.table.scan(columns=[b"f:q"])}

    @invariant()
    def acknowledged_writes_are_there(self):
        assert self._rows() == {**self.model, **self.volatile}
