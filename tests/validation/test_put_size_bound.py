"""Table.put checks hbase.client.keyvalue.maxsize with an inline bound and calls
validation.cell_size only to raise: it must reject exactly the cells cell_size rejects, and a
rejected put must change nothing."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hsim
from hsim.client import validation as v


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=30), st.text("abcdef", min_size=1, max_size=5).map(
       str.encode), st.binary(max_size=20).filter(lambda q: b":" not in q),
       st.binary(max_size=120), st.integers(-3, 3), st.booleans())
def test_put_rejects_exactly_what_cell_size_rejects(row, fam, q, value, delta, unlimited):
    size = v.KV_OVERHEAD + len(row) + len(fam) + len(q) + len(value)
    max_size = delta if unlimited else size + delta  # around the cell's size, or <= 0
    c = hsim.Cluster(config=hsim.Config(keyvalue_max_size=max_size), clock=hsim.ManualClock(1))
    c.admin.create_table("t", [fam])
    t = c.table("t")
    try:
        v.cell_size(row, fam, q, value, max_size)
        expected = None
    except hsim.InvalidArgumentError as e:
        expected = str(e)
    if expected is None:
        t.put(row, {fam + b":" + q: value})
        assert [cell.value for cell in t.get(row)] == [value]
    else:
        with pytest.raises(hsim.InvalidArgumentError) as got:
            t.put(row, {fam + b":" + q: value})
        assert str(got.value) == expected
        assert t.get(row) == [] and c.metrics().servers[0].write_requests == 0
