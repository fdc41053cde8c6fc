"""Table.put's one-column fast path builds the entry _put_entries would: random puts (good and
bad) through both give the same errors, the same cells and the same WAL bytes. A dict subclass
forces the general path (the fast path takes plain dicts only)."""

from hypothesis import given, settings
from hypothesis import strategies as st

import hsim


class _General(dict):
    """A put's data that skips the fast path."""


_cols = st.sampled_from([b"f:q", b"f:", b"g:q2", "f:q", b"f", b"nofam:q", 5])
_values = st.one_of(st.binary(max_size=60), st.text(max_size=3), st.integers(0, 3), st.none())
_any = st.tuples(
    st.one_of(st.binary(min_size=1, max_size=8), st.just(b""), st.just("r")),
    st.dictionaries(_cols, _values, max_size=2),
    st.one_of(st.none(), st.integers(-1, 5)), st.one_of(st.none(), st.integers(-1, 100)))
_fast = st.tuples(st.binary(min_size=1, max_size=8),  # what the fast path takes, mostly
                  st.dictionaries(st.sampled_from([b"f:q", b"f:", b"g:q2"]),
                                  st.binary(max_size=60), min_size=1, max_size=1),
                  st.none(), st.none())
_puts = st.lists(st.one_of(_fast, _any), max_size=25)


def _run(puts, general, max_size):
    c = hsim.Cluster(config=hsim.Config(keyvalue_max_size=max_size), clock=hsim.TickingClock())
    c.admin.create_table("t", ["f", "g"])
    t = c.table("t")
    outcome = []
    for row, data, ts, ttl in puts:
        try:
            t.put(row, _General(data) if general else data, timestamp=ts, ttl_ms=ttl)
            outcome.append(None)
        except Exception as e:  # the error's type and message must match
            outcome.append((type(e).__name__, str(e)))
    cells = [tuple(cell) for cells in t.scan(raw=True, max_versions=10) for cell in cells]
    wal = [bytes(f.buf) for s in c.master.servers for f in s.wal.files]
    return outcome, cells, wal, [s.write_requests for s in c.master.servers]


@settings(max_examples=80, deadline=None)
@given(_puts, st.one_of(st.integers(22, 95), st.sampled_from([0, -1, 10 << 20])))
def test_fast_path_equals_the_general_path(puts, max_size):
    assert _run(puts, False, max_size) == _run(puts, True, max_size)
