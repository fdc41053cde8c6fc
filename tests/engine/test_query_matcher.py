"""The two matchers, table-driven: one row's cells in; the cells a read returns (with the rule
that dropped each other cell), and the cells a minor and a major compaction keep.

UserMatcher and CompactionMatcher keep separate loops for speed (hsim/engine/query_matcher.py);
this table pins both to HBase's rules, case by case, and checks that they agree: reading a
row after either compaction returns what reading it before did. Sources for the expected
answers: NormalUserScanQueryMatcher / UserScanQueryMatcher.matchColumn (reads),
MinorCompactionScanQueryMatcher, MajorCompactionScanQueryMatcher and
DropDeletesCompactionScanQueryMatcher.tryDropDelete (compactions), ScanDeleteTracker,
ScanWildcardColumnTracker and ExplicitColumnTracker (versions), RawScanQueryMatcher.
"""

from collections import Counter

import pytest

from hsim.cell import (DELETE, DELETE_COLUMN, DELETE_FAMILY, DELETE_FAMILY_VERSION,
                       LATEST_TIMESTAMP, NO_TTL, PUT, fields)
from hsim.engine.query_matcher import (CELL_EXPIRED, COLUMN, DELETED, EXPIRED, MARKER,
                                       OVERWRITTEN, TIME_RANGE, VERSIONS, CompactionMatcher,
                                       ScanQuery, UserMatcher)
from hsim.schema import ColumnFamily

NOW = 1_000_000
KIND = {"P": PUT, "D": DELETE, "DC": DELETE_COLUMN, "DF": DELETE_FAMILY,
        "DFV": DELETE_FAMILY_VERSION}


def cell(spec: str) -> tuple:
    """'a@3' a put of column a at ts 3; 'DC:a@2' a DeleteColumn; 'DF@2' a DeleteFamily;
    'a@2#5' sequence id 5; 'a@2~7' a cell TTL of 7 ms. Timestamps below 0 count back from NOW."""
    kind, _, rest = spec.rpartition(":") if ":" in spec else ("P", "", spec)
    if spec.startswith(("DF@", "DFV@")):
        kind, rest = spec.split("@")[0], "@" + spec.split("@")[1]
    qualifier, _, rest = rest.partition("@")
    ttl = NO_TTL
    if "~" in rest:
        rest, ttl = rest.split("~")[0], int(rest.split("~")[1])
    ts, _, seq = rest.partition("#")
    ts = int(ts)
    return fields(b"r", b"f", qualifier.encode(), NOW + ts if ts < 0 else ts, KIND[kind],
                  spec.encode(), int(seq or 1), int(ttl))


def row(*specs: str) -> list:
    return sorted(cell(s) for s in specs)  # HBase order: the tuple's own order


def names(cells) -> list:
    return [c[6].decode() for c in cells]


# (id, family options, query options, cells, read returns, why the rest was dropped,
#  minor compaction keeps, major compaction keeps); None: the same as the read's input
CASES = [
    ("newest version only", {}, {}, ["a@3", "a@2", "a@1"],
     ["a@3"], {VERSIONS: 2}, ["a@3"], ["a@3"]),
    ("VERSIONS 2", {"max_versions": 2}, {}, ["a@3", "a@2", "a@1"],
     ["a@3", "a@2"], {VERSIONS: 1}, ["a@3", "a@2"], ["a@3", "a@2"]),
    ("Delete masks one version", {"max_versions": 3}, {}, ["a@3", "D:a@2", "a@2", "a@1"],
     ["a@3", "a@1"], {MARKER: 1, DELETED: 1}, ["a@3", "D:a@2", "a@1"], ["a@3", "a@1"]),
    ("DeleteColumn masks the older versions", {"max_versions": 3}, {},
     ["a@3", "DC:a@2", "a@2", "a@1"],
     ["a@3"], {MARKER: 1, DELETED: 2}, ["a@3", "DC:a@2"], ["a@3"]),
    ("DeleteFamily masks every column at or below it", {"max_versions": 3}, {},
     ["DF@2", "a@3", "a@2", "b@1"],
     ["a@3"], {MARKER: 1, DELETED: 2}, ["DF@2", "a@3"], ["a@3"]),
    ("DeleteFamilyVersion masks one timestamp in every column", {"max_versions": 3}, {},
     ["DFV@2", "a@3", "a@2", "b@2", "b@1"],
     ["a@3", "b@1"], {MARKER: 1, DELETED: 2}, ["DFV@2", "a@3", "b@1"], ["a@3", "b@1"]),
    ("family TTL", {"max_versions": 3, "ttl": 100}, {}, ["a@-50000", "a@-200000"],
     ["a@-50000"], {EXPIRED: 1}, ["a@-50000"], ["a@-50000"]),
    ("MIN_VERSIONS keeps an expired version", {"max_versions": 3, "min_versions": 1, "ttl": 100},
     {}, ["a@-200000", "a@-300000"],
     ["a@-200000"], {EXPIRED: 1}, ["a@-200000"], ["a@-200000"]),
    ("cell TTL", {"max_versions": 3}, {}, ["a@-10~5", "a@-20"],
     ["a@-20"], {CELL_EXPIRED: 1}, ["a@-20"], ["a@-20"]),
    ("time range", {"max_versions": 3}, {"time_range": (2, 3)}, ["a@3", "a@2", "a@1"],
     ["a@2"], {TIME_RANGE: 2}, ["a@3", "a@2", "a@1"], ["a@3", "a@2", "a@1"]),
    ("a marker after the time range still masks (KEEP_DELETED_CELLS false)", {"max_versions": 3},
     {"time_range": (0, 3)}, ["DC:a@5", "a@1"],
     [], {MARKER: 1, DELETED: 1}, ["DC:a@5"], []),
    ("KEEP_DELETED_CELLS true: a time range before the marker sees past it",
     {"max_versions": 3, "keep_deleted_cells": True}, {"time_range": (0, 2)},
     ["a@3", "DC:a@2", "a@2", "a@1"],
     ["a@1"], {TIME_RANGE: 2, MARKER: 1},
     ["a@3", "DC:a@2", "a@2", "a@1"], ["a@3", "DC:a@2", "a@2", "a@1"]),
    ("KEEP_DELETED_CELLS true: a plain read still hides deleted cells",
     {"max_versions": 3, "keep_deleted_cells": True}, {}, ["a@3", "DC:a@2", "a@2", "a@1"],
     ["a@3"], {MARKER: 1, DELETED: 2},
     ["a@3", "DC:a@2", "a@2", "a@1"], ["a@3", "DC:a@2", "a@2", "a@1"]),
    ("KEEP_DELETED_CELLS TTL: an unexpired marker and what it masks are kept",
     {"max_versions": 3, "ttl": 100, "keep_deleted_cells": "TTL"}, {},
     ["DC:a@-50000", "a@-60000"],
     [], {MARKER: 1, DELETED: 1}, ["DC:a@-50000", "a@-60000"], ["DC:a@-50000", "a@-60000"]),
    ("same timestamp: the newer write wins", {"max_versions": 3}, {}, ["a@2#5", "a@2#3"],
     ["a@2#5"], {OVERWRITTEN: 1}, ["a@2#5"], ["a@2#5"]),
    ("explicit columns", {}, {"columns": frozenset({b"a"})}, ["a@1", "b@1"],
     ["a@1"], {COLUMN: 1}, ["a@1", "b@1"], ["a@1", "b@1"]),
]


def _family(opts):
    return ColumnFamily(**opts)


def _query(opts):
    return ScanQuery(max_versions=opts.get("max_versions", 10),
                     time_range=opts.get("time_range", (0, LATEST_TIMESTAMP)),
                     columns=opts.get("columns"), raw=opts.get("raw", False))


def read(family, query, cells, why=None):
    return UserMatcher(family, query, NOW).match(list(cells), why)


def compact(family, cells, major):
    return CompactionMatcher(family, NOW, drop_deletes=major).match(list(cells))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_read_returns_and_says_why(case):
    _, fam, q, specs, returns, why, _, _ = case
    tally = Counter()
    out = read(_family(fam), _query(q), row(*specs), tally)
    assert names(out) == returns
    assert dict(tally) == why
    # without a tally (the fast path) the answer is the same
    assert names(read(_family(fam), _query(q), row(*specs))) == returns


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_compactions_keep(case):
    _, fam, _, specs, _, _, minor, major = case
    assert names(compact(_family(fam), row(*specs), major=False)) == minor
    assert names(compact(_family(fam), row(*specs), major=True)) == major


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_matchers_agree(case):
    """Reading after a minor or major compaction returns what reading before did (a plain
    read: a time range or column list can see cells a compaction is free to drop)."""
    _, fam, _, specs, _, _, _, _ = case
    family, query, cells = _family(fam), _query({}), row(*specs)
    before = read(family, query, cells)
    for major in (False, True):
        assert read(family, query, compact(family, cells, major)) == before


def test_compaction_tallies_what_it_drops():
    m = CompactionMatcher(_family({"max_versions": 3}), NOW, drop_deletes=True)
    m.match(row("a@3", "DC:a@2", "a@2", "a@1"))
    assert m.dropped == {"deleted": 2, "expired": 0, "versions": 0, "markers": 1}


def test_raw_read_returns_markers_and_masked_puts():
    family = _family({"max_versions": 3})
    out = read(family, _query({"raw": True, "max_versions": 3}), row("a@3", "DC:a@2", "a@2"))
    assert names(out) == ["a@3", "DC:a@2", "a@2"]


def test_marker_above_an_open_scanner_read_point_masks_nothing_yet():
    """maxReadPointToTrackVersions: a marker written after the oldest open scanner's read
    point is kept by a major compaction, and so is the put it would mask."""
    cells = row("a@2#1", "DC:a@3#9")
    m = CompactionMatcher(_family({}), NOW, drop_deletes=True, max_read_point=5)
    assert names(m.match(cells)) == ["DC:a@3#9", "a@2#1"]
