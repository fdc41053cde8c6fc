"""Region.mutate builds a one-Put-cell mutation's cell inline: it must equal what the general
path (Region.cells_of) builds from the same entry, and any entry it does not take (a timestamp,
a Delete, an unknown family, a bad timestamp) must go the general way, errors included."""

from hypothesis import given, settings
from hypothesis import strategies as st

import hsim
from hsim.cell import DELETE, DELETE_COLUMN, LATEST_TIMESTAMP, NO_TTL, PUT
from hsim.errors import HsimError

_entries = st.tuples(
    st.sampled_from([b"f", b"g", b"nofam"]), st.binary(max_size=4),
    st.one_of(st.none(), st.none(), st.just(LATEST_TIMESTAMP), st.integers(-2, 10)),
    st.sampled_from([int(PUT), int(PUT), int(DELETE), int(DELETE_COLUMN)]),
    st.binary(max_size=8), st.sampled_from([NO_TTL, 0, 500]))


def _region():
    c = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(7))
    c.admin.create_table("t", ["f", "g"])
    t = c.table("t")
    t.put(b"r", {b"f:a": b"old"})  # a version for a latest-version Delete to find
    return t._region(b"")


def _outcome(fn):
    try:
        return fn()
    except HsimError as e:
        return type(e).__name__, str(e)


@settings(max_examples=150, deadline=None)
@given(_entries, st.sampled_from([b"r", b"s"]), st.integers(7, 20))
def test_one_entry_mutation_equals_the_general_path(entry, row, now):
    fast, general = _region(), _region()
    seq = fast.seq_id
    got = _outcome(lambda: fast.mutate(row, [entry], now))
    want = _outcome(lambda: general.cells_of(row, [entry], now, general.seq_id + 1))
    assert got == want
    assert fast.seq_id == (seq if isinstance(got, tuple) else seq + 1)  # bad input: no change
