"""Model-based test of read points: scans left open while random puts, deletes, flushes,
compactions (small compaction_min_files / compaction_max_files, so stores hold several files and
minor compactions pick some of them), splits at rows present in many files, and clock moves
happen; read one row per request.

The reference is hsim itself at the scan's opening: a scan of a one-region table returns
exactly what a complete scan returned when it opened (its read point), whatever happens while it
is open. A split while it is open moves it to the daughter at a new read point: then it must
still return each row once, in order, and what it returns after the split must be what the
store held at the split. After every step the cluster's books must balance and a reversed scan
must mirror the forward one.
"""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import hsim
from hsim.rowrange import RowRange
import pytest

pytestmark = pytest.mark.slow  # hypothesis state machines and long property runs

ROWS = [b"r%02d" % i for i in range(12)]
SPLITS = [b"r03", b"r06", b"r08"]


def view(cells) -> tuple:
    return tuple((c.row, c.qualifier, c.timestamp, c.type_code, c.value) for c in cells)


class ScanInterleaving(RuleBasedStateMachine):
    @initialize(versions=st.integers(1, 3), min_files=st.integers(2, 3),
                max_files=st.integers(2, 3), flush_size=st.sampled_from([1024, 4096, 1 << 30]))
    def setup(self, versions, min_files, max_files, flush_size):
        config = hsim.Config(memstore_flush_size=flush_size, compaction_min_files=min_files,
                             compaction_max_files=max(min_files, max_files),
                             major_compaction_period_ms=0,
                             split_policy="ConstantSizeRegionSplitPolicy",
                             region_max_filesize=1 << 50)
        self.cluster = hsim.Cluster(config=config, clock=hsim.ManualClock(10_000))
        self.cluster.admin.create_table(
            "t", {"f": hsim.ColumnFamily(max_versions=versions, block_size=1024)})
        self.table = self.cluster.table("t")
        self.n = 0
        self.scan = None
        for row in ROWS:  # every row present from the start, so that scans have batches
            for q in (b"a", b"b"):
                self.put(row, q)

    # --- writes and the store's own changes -------------------------------------------------
    @rule(row=st.sampled_from(ROWS), q=st.sampled_from([b"a", b"b"]))
    def put(self, row, q):
        self.n += 1
        self.table.put(row, {b"f:" + q: b"v%d" % self.n})

    @rule(row=st.sampled_from(ROWS))
    def delete_row(self, row):
        self.table.delete_row(row)

    @rule(row=st.sampled_from(ROWS), q=st.sampled_from([b"a", b"b"]))
    def delete_latest(self, row, q):
        self.table.delete_column(row, b"f:" + q)

    @rule()
    def flush(self):
        self.cluster.admin.flush("t")

    @rule()
    def compact(self):
        self.cluster.admin.compact("t")

    @rule()
    def major_compact(self):
        self.cluster.admin.major_compact("t")

    @rule(ms=st.sampled_from([1, 100]))
    def advance(self, ms):
        self.cluster.clock.advance(ms)

    @rule(point=st.sampled_from(SPLITS))
    def split(self, point):
        self.cluster.admin.flush("t")  # so the split row lies in many files
        hits = self.scan is not None and self._current_range().contains(point)
        try:
            self.cluster.admin.split("t", point)
        except hsim.HsimError:
            return  # a region start, or a region with references: refused as by HBase
        if hits:
            # the scanner's region closed: at its next read it reopens in the daughter that
            # holds the rows after its last one, at a new read point
            self.scan["exact"] = False
            self.scan["reopen"] = "pending"

    def _current_range(self) -> RowRange:
        """The key range of the region the open scan is reading (or will read first)."""
        s = self.scan
        got = s["got"]
        if got:
            row = got[-1][0][0]
        else:
            row = None if s["args"]["reversed"] else b""
        return self._region_range(row)

    def _region_range(self, row) -> RowRange:
        """The key range of the region that holds `row` (None: the last region)."""
        for r in self.cluster.admin.regions("t"):
            keys = RowRange.half_open(r.start_key, r.end_key)
            if (row is None and not r.end_key) or (row is not None and keys.contains(row)):
                return keys
        raise AssertionError("no region holds the scan's position")

    # --- scans left open --------------------------------------------------------------------
    @precondition(lambda self: self.scan is None)
    @rule(reversed=st.booleans(), versions=st.sampled_from([1, 3]))
    def open_scan(self, reversed, versions):
        args = dict(reversed=reversed, max_versions=versions)
        self.scan = {
            "args": args, "got": [],
            "expected": [view(r) for r in self.table.scan(**args)],
            "exact": len(self.cluster.admin.regions("t")) == 1,
            "gen": self.table.scan(caching=1, **args), "reopen": None}

    @precondition(lambda self: self.scan is not None)
    @rule()
    def read_one(self):
        s = self.scan
        self._take_reopen_snapshot(s)
        try:
            row = view(next(s["gen"]))
        except StopIteration:
            self._finish()
            return
        s["got"].append(row)
        self._check_prefix(s)

    @precondition(lambda self: self.scan is not None)
    @rule()
    def drain(self):
        s = self.scan
        self._take_reopen_snapshot(s, drain=True)
        s["got"].extend(view(r) for r in s["gen"])
        self._check_prefix(s)
        self._finish()

    def _take_reopen_snapshot(self, s, drain: bool = False) -> None:
        """Right before the read that reopens the scanner after a split: what the daughter
        holds now past the last row fetched is what the scan must return from it.

        Opening the scan fetched its first batch (one row at caching=1, before any split), so
        until that row is handed out the next read returns it from the client's buffer, and
        the reopen comes one read later (at once, when draining)."""
        if s["reopen"] != "pending":
            return
        fetched = s["got"] or s["expected"][:1]
        if not s["got"] and fetched and not drain:
            return  # this read hands out the buffered first row; the next one reopens
        keys = self._region_range(fetched[-1][0][0]) if fetched else self._current_range()
        now = [view(r) for r in self.table.scan(**s["args"])]
        if fetched:
            last = fetched[-1][0][0]
            now = [r for r in now if (r[0][0] < last if s["args"]["reversed"] else
                                      r[0][0] > last)]
        s["reopen"] = {"keys": keys, "mark": len(fetched),
                       "expected": [r for r in now if keys.contains(r[0][0])]}

    def _check_prefix(self, s, finished: bool = False) -> None:
        rows = [r[0][0] for r in s["got"]]
        ordered = sorted(set(rows), reverse=s["args"]["reversed"])
        assert rows == ordered, "each row once, in order"
        if s["exact"]:
            want = s["expected"] if finished else s["expected"][:len(s["got"])]
            assert s["got"] == want, "as of the read point"
        if isinstance(s["reopen"], dict):
            r = s["reopen"]
            after = [x for x in s["got"][r["mark"]:] if r["keys"].contains(x[0][0])]
            want = r["expected"] if finished else r["expected"][:len(after)]
            assert after == want, "after a split, the daughter as of its new read point"

    def _finish(self) -> None:
        s, self.scan = self.scan, None
        self._check_prefix(s, finished=True)

    # --- after every step ------------------------------------------------------------------
    @invariant()
    def books_balance(self):
        if hasattr(self, "cluster"):
            self.cluster.check_invariants()

    @invariant()
    def reversed_mirrors_forward(self):
        if not hasattr(self, "cluster"):
            return
        forward = [view(r) for r in self.table.scan(max_versions=3)]
        backward = [view(r) for r in self.table.scan(max_versions=3, reversed=True)]
        assert backward == forward[::-1]

    def teardown(self):
        if getattr(self, "scan", None) is not None:
            self.scan["gen"].close()


ScanInterleaving.TestCase.settings = settings(
    max_examples=150, stateful_step_count=40, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
test_scans_interleaved_with_writes_flushes_compactions_splits = ScanInterleaving.TestCase
