"""Model-based test of snapshots in a data directory: random sequences of puts, flushes, major
compactions, splits, snapshots, clones, restores, snapshot deletes, table drops, clean restarts and
crashes, against a model of each table's rows and each snapshot's copy. After every step: every
table reads as the model says, the snapshots are the model's, check_invariants() holds, every
file a store or a snapshot reads is on disk (under data/ or archive/), and archive/ holds no
file that nothing reads (HFileCleaner's rule)."""

from __future__ import annotations

import os
import shutil
import tempfile

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import hsim

from .disk import crash

ROWS = [b"a", b"k", b"t"]
TABLES = ["t", "c1", "c2"]
SNAPS = ["s1", "s2"]


class SnapshotMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.dir = tempfile.mkdtemp()
        self.now = 1000
        self.cluster = self._open()
        self.cluster.admin.create_table("t", {"f": {}}, split_keys=[b"k"])
        self.tables: dict = {"t": {}}  # table -> {row: value}
        self.snaps: dict = {}  # snapshot -> (table, {row: value})
        self.values = 0

    def _open(self):
        return hsim.Cluster(2, clock=hsim.ManualClock(self.now), data_dir=self.dir)

    def teardown(self):
        if self.cluster.data_dir is not None:
            self.cluster.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @rule(table=st.sampled_from(TABLES), row=st.sampled_from(ROWS))
    def put(self, table, row):
        if table not in self.tables:
            return
        self.values += 1
        value = b"v%d" % self.values
        self.cluster.table(table).put(row, {b"f:q": value})
        self.tables[table][row] = value

    @rule(table=st.sampled_from(TABLES), major=st.booleans())
    def flush_or_compact(self, table, major):
        if table in self.tables:
            (self.cluster.admin.major_compact if major else self.cluster.admin.flush)(table)

    @rule(table=st.sampled_from(TABLES), point=st.sampled_from([b"d", b"p", b"w"]))
    def split(self, table, point):
        if table in self.tables and point not in {r.start_key for r in
                                                  self.cluster.admin.regions(table)}:
            self.cluster.admin.split(table, point)

    @rule(name=st.sampled_from(SNAPS), table=st.sampled_from(TABLES))
    def snapshot(self, name, table):
        if name in self.snaps or table not in self.tables:
            return
        self.cluster.admin.snapshot(name, table)
        self.snaps[name] = (table, dict(self.tables[table]))

    @rule(name=st.sampled_from(SNAPS), table=st.sampled_from(TABLES))
    def clone(self, name, table):
        if name not in self.snaps or table in self.tables:
            return
        self.cluster.admin.clone_snapshot(name, table)
        self.tables[table] = dict(self.snaps[name][1])

    @rule(name=st.sampled_from(SNAPS))
    def restore(self, name):
        if name not in self.snaps:
            return
        table, rows = self.snaps[name]
        if table in self.tables:
            self.cluster.admin.disable_table(table)
        self.cluster.admin.restore_snapshot(name)
        self.cluster.admin.enable_table(table)
        self.tables[table] = dict(rows)

    @rule(name=st.sampled_from(SNAPS))
    def delete_snapshot(self, name):
        if name in self.snaps:
            self.cluster.admin.delete_snapshot(name)
            del self.snaps[name]

    @precondition(lambda self: len(self.tables) > 1)
    @rule(table=st.sampled_from(TABLES))
    def drop(self, table):
        if table in self.tables:
            self.cluster.admin.disable_table(table)
            self.cluster.admin.delete_table(table)
            del self.tables[table]

    @rule(clean=st.booleans())
    def restart(self, clean):
        self.now = self.cluster.clock.now() + 1000
        if clean:
            self.cluster.close()
        else:
            crash(self.cluster)  # kill -9
        self.cluster = self._open()

    @invariant()
    def agrees_with_the_model(self):
        c = self.cluster
        assert sorted(c.admin.list_tables()) == sorted(self.tables)
        for table, rows in self.tables.items():
            got = {cells[0].row: cells[0].value for cells in c.table(table).scan()}
            assert got == rows, table
        assert sorted(s.name for s in c.admin.list_snapshots()) == sorted(self.snaps)
        c.check_invariants()

    @invariant()
    def nothing_read_is_gone_and_nothing_unread_is_archived(self):
        dd = self.cluster.data_dir
        with self.cluster.lock:
            dd._master, dd._held = self.cluster.master, None
            held = {dd.archive.homes[r] for r in dd.held()}
        on_disk = set()
        for top in ("data", os.path.join("archive", "data")):
            base = os.path.join(self.dir, top)
            for d, _dirs, files in os.walk(base):
                on_disk.update(os.path.relpath(os.path.join(d, f), base).replace(os.sep, "/")
                               for f in files if "." not in f and "=" not in f)
        assert held <= on_disk
        archived = set()
        base = os.path.join(self.dir, "archive", "data")
        for d, _dirs, files in os.walk(base):
            archived.update(os.path.relpath(os.path.join(d, f), base).replace(os.sep, "/")
                            for f in files)
        assert archived <= held


SnapshotMachine.TestCase.settings = settings(
    max_examples=12, stateful_step_count=15, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
test_snapshots_against_a_model = SnapshotMachine.TestCase
