"""The time range a cell covers (hsim/engine/time_range_tracker.py, HBase's
TimeRangeTracker.includeTimestamp(Cell)), and its two callers held to it: the MemStore's range
and the HFile writer's TIMERANGE file info, for each cell type alone and after a put."""

import pytest

from hsim.cell import (DELETE, DELETE_COLUMN, DELETE_FAMILY, DELETE_FAMILY_VERSION, PUT, Cell,
                       fields)
from hsim.engine.memstore import MemStore
from hsim.engine.time_range_tracker import lowest_covered

from hfile_helpers import roundtrip

# type -> the range a lone cell of it at ts 500 covers
LONE = {PUT: (500, 500), DELETE: (500, 500), DELETE_FAMILY_VERSION: (500, 500),
        DELETE_COLUMN: (0, 500), DELETE_FAMILY: (0, 500)}


@pytest.mark.parametrize("code", LONE, ids=lambda c: c.hbase_name)
def test_lowest_covered(code):
    assert lowest_covered(code, 500) == LONE[code][0]
    assert lowest_covered(code, 0) == 0


def cell(code, ts, q=b"a"):
    return Cell.make(b"r", b"f", q if code not in (DELETE_FAMILY, DELETE_FAMILY_VERSION)
                     else b"", ts, code, b"", 1)


def memstore_range(*cells) -> tuple:
    ms = MemStore()
    for c in cells:
        ms.add(fields(*c[:3], c.timestamp, c.type, c.value, c.seq_id, c.ttl))
    return ms.min_ts, ms.max_ts


def hfile_range(*cells) -> tuple:
    r = roundtrip(sorted(cells))
    return r.min_timestamp, r.max_timestamp


@pytest.mark.parametrize("code", LONE, ids=lambda c: c.hbase_name)
@pytest.mark.parametrize("tracked", [memstore_range, hfile_range], ids=["memstore", "hfile"])
def test_both_callers_follow_the_rule(tracked, code):
    assert tracked(cell(code, 500)) == LONE[code]
    # after a put at 700 (a different column): the marker widens the low end, not the high
    assert tracked(cell(PUT, 700, b"b"), cell(code, 500)) == (LONE[code][0], 700)
    # after a put at 300: a marker that reaches 0 lowers it, one that does not leaves it
    low = 0 if LONE[code][0] == 0 else 300
    assert tracked(cell(PUT, 300, b"b"), cell(code, 500)) == (low, 500)
