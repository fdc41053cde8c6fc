"""The rules the durability state machines share (crash recovery, the data directory): writes
under every durability, flushes, compactions, splits, DDL on a second table and reads of
hbase:meta, against a model of what an acknowledged write guarantees. A subclass supplies the
cluster, its own `put` and the events that lose or keep data (abort, close, crash, and a crash
at step k of a DDL operation or a split: `run_crashing`), and `refused`: the errors a request
may end with because the disk refused a write (the request then applied nothing, or was a
flush that did not happen)."""

import hypothesis.strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from hsim import Durability

ROWS = [b"a", b"g", b"m", b"t"]
SIDE = "side"  # the table the DDL rules create, drop and truncate
DURABLE = [Durability.USE_DEFAULT, Durability.SYNC_WAL, Durability.FSYNC_WAL]


class DurabilityMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.model: dict[bytes, bytes] = {}  # durable rows -> value
        self.volatile: dict[bytes, bytes] = {}  # unflushed SKIP/ASYNC rows -> value
        self.serial = 0
        self.refused: tuple = ()  # exception classes of a write the disk refused
        self.side: dict | None = None  # the side table's rows (None: no side table)

    def run_crashing(self, action, k: int) -> bool:
        """Run `action`; a subclass that can crashes at its disk step k, reopens, and returns
        True (then the action may be wholly done or wholly undone)."""
        action()
        return False

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

    @rule(op=st.sampled_from(["create", "delete", "truncate", "split"]),
          k=st.integers(1, 30), point=st.sampled_from([b"c", b"p", b"v0005"]))
    def ddl(self, op, k, point):
        """Create, drop or truncate the side table, or split t; maybe crashed at step k."""
        admin = self.cluster.admin
        if op != "split" and (op == "create") != (self.side is None):
            op = "create" if self.side is None else "delete"
        if op == "split":
            region = self.cluster.master.tables["t"].locator.locate(point)
            if not region.valid_split_row(point):
                return
            self.run_crashing(lambda: admin.split("t", point), k)
            return  # t's rows: the invariant checks every one
        actions = {"create": lambda: admin.create_table(SIDE, ["f"], split_keys=[b"m"]),
                   "delete": lambda: (admin.disable_table(SIDE), admin.delete_table(SIDE)),
                   "truncate": lambda: (admin.disable_table(SIDE), admin.truncate_table(SIDE))}
        before = self.side
        after = None if op == "delete" else {}
        if not self.run_crashing(actions[op], k):
            self.side = after
        elif SIDE not in self.cluster.admin.list_tables():
            assert op in ("create", "delete")
            self.side = None
        else:
            admin = self.cluster.admin  # the reopened cluster's
            if not admin.is_table_enabled(SIDE):  # crashed between disable and the drop
                admin.enable_table(SIDE)
            rows = self._side_rows()
            assert rows in (before, after)
            self.side = rows
        if self.side is not None:
            for row in (b"b", b"x"):
                self.serial += 1
                self.cluster.table(SIDE).put(row, {b"f:q": b"%d" % self.serial},
                                             durability=Durability.FSYNC_WAL)
                self.side[row] = b"%d" % self.serial

    @rule()
    def read_meta(self):
        """Reading hbase:meta (as the shell and Thrift do) changes no server's books."""
        rows = list(self.cluster.table("hbase:meta").scan())
        assert len(rows) == sum(len(s.locator.regions)
                                for s in self.cluster.master.tables.values())
        self.cluster.check_invariants()

    def _side_rows(self) -> dict:
        return {cells[0].row: cells[0].value for cells in self.cluster.table(SIDE).scan()}

    @invariant()
    def side_table_is_as_acknowledged(self):
        if self.side is None:
            assert SIDE not in self.cluster.admin.list_tables()
        else:
            assert self._side_rows() == self.side

    def _rows(self) -> dict:
        return {cells[0].row: cells[0].value for cells in self.table.scan(columns=[b"f:q"])}

    @invariant()
    def acknowledged_writes_are_there(self):
        assert self._rows() == {**self.model, **self.volatile}
