"""Master (HMaster) alone: what it promises Admin and the cluster. A table's regions follow
its split keys (checked, sorted) and are assigned round-robin; the table state machine
(create, disable, enable, delete, truncate) refuses the wrong order with HBase's exceptions;
a split puts both daughters on the parent's server and in the locator; the simple balancer
leaves every server at floor or ceil of the mean; the last server cannot be aborted."""

import pytest

from hsim.cell import NO_TTL, PUT
from hsim.clock import ManualClock
from hsim.config import Config
from hsim.engine.query_matcher import ScanQuery
from hsim.errors import (InvalidArgumentError, TableExistsError, TableNotDisabledError,
                         TableNotEnabledError, TableNotFoundError, UnknownRegionError)
from hsim.regions.master import Master
from hsim.schema import ColumnFamily, TableDescriptor


def master(servers=3, now=1_000) -> Master:
    return Master(servers, Config(), ManualClock(now))


def table(name="t") -> TableDescriptor:
    return TableDescriptor(name, {b"f": ColumnFamily()})


def bounds(m, name="t") -> list:
    return [(r.start_key, r.end_key) for r in m.table_state(name).locator.regions]


def write(m, row, value=b"v", name="t"):
    region = m.table_state(name).locator.locate(row)
    region.server.mutate(region, row, [(b"f", b"q", None, PUT, value, NO_TTL)], m.clock.now())


def test_split_keys_make_the_regions_sorted_and_assigned_round_robin():
    m = master()
    m.create_table(table(), ["m", b"c", b"t"])
    assert bounds(m) == [(b"", b"c"), (b"c", b"m"), (b"m", b"t"), (b"t", b"")]
    regions = m.table_state("t").locator.regions
    assert [r.server.index for r in regions] == [0, 1, 2, 0]
    assert all(r.region_id == 1_000 for r in regions)
    assert m.table_state("t").split_keys == [b"c", b"m", b"t"]


@pytest.mark.parametrize("keys, text", [
    ([b"a", b""], "Empty split key"),
    ([b"a", b"b", "a"], "Split keys must be unique"),
])
def test_bad_split_keys_are_refused_and_nothing_is_created(keys, text):
    m = master()
    with pytest.raises(InvalidArgumentError, match=text):
        m.create_table(table(), keys)
    assert "t" not in m.tables and all(not s.regions for s in m.servers)


def test_the_table_state_machine():
    m = master()
    m.create_table(table())
    with pytest.raises(TableExistsError):
        m.create_table(table())
    with pytest.raises(TableNotDisabledError):
        m.delete_table("t")
    with pytest.raises(TableNotDisabledError):
        m.enable_table("t")
    m.disable_table("t")
    with pytest.raises(TableNotEnabledError):
        m.disable_table("t")
    m.enable_table("t")
    m.disable_table("t")
    m.delete_table("t")
    with pytest.raises(TableNotFoundError):
        m.table_state("t")
    assert all(not s.regions for s in m.servers)


def test_disable_flushes_every_region():
    m = master()
    m.create_table(table(), [b"m"])
    write(m, b"a")
    write(m, b"z")
    m.disable_table("t")
    for r in m.table_state("t").locator.regions:
        assert r.memstore_heap == 0 and len(r.stores[b"f"].files) == 1


def test_truncate_keeps_the_split_points_and_gives_new_region_names():
    m = master()
    m.create_table(table(), [b"m"])
    write(m, b"a")
    old = {r.encoded_name for r in m.table_state("t").locator.regions}
    m.disable_table("t")
    m.truncate_table("t")
    st = m.table_state("t")
    assert bounds(m) == [(b"", b"m"), (b"m", b"")]
    assert not old & {r.encoded_name for r in st.locator.regions}
    assert all(r.region_id > 1_000 for r in st.locator.regions)  # same clock, higher id
    region = st.locator.locate(b"a")
    assert region.get(b"a", {b"f": ScanQuery()}, m.clock.now()) == []


def test_a_split_puts_both_daughters_on_the_parents_server():
    m = master()
    m.create_table(table())
    for row in (b"a", b"b", b"c", b"d"):
        write(m, row)
    (parent,) = m.table_state("t").locator.regions
    server = parent.server
    a, b = m.split_region(parent, b"c", m.clock.now())
    assert parent.closed and m.splits == 1
    assert bounds(m) == [(b"", b"c"), (b"c", b"")]
    assert a.server is server and b.server is server
    assert parent.encoded_name not in server.regions
    # the daughters compacted their references away at once
    assert not a.has_references() and not b.has_references()
    assert m.split_region(parent, b"b", m.clock.now()) is None  # a closed region: no split
    assert m.split_region(a, b"z", m.clock.now()) is None  # outside the region: none


def test_simple_balance_evens_out_the_region_counts():
    m = master(servers=3)
    m.create_table(table(), [bytes([c]) for c in b"bcdefgh"])  # 8 regions: 3, 3, 2
    srv = m.start_server()
    assert not srv.regions
    moves = m.simple_balance()
    assert sorted(len(s.regions) for s in m.servers) == [2, 2, 2, 2]
    assert len(moves) == 2 and all(dst == srv.name for _, _, dst in moves)
    assert m.simple_balance() == []  # balanced: nothing moves


def test_region_by_name_takes_the_full_or_the_encoded_name():
    m = master()
    m.create_table(table())
    (r,) = m.table_state("t").locator.regions
    assert m.region_by_name(r.name) is r and m.region_by_name(r.encoded_name) is r
    with pytest.raises(UnknownRegionError):
        m.region_by_name("nope")


def test_abort_server_moves_its_regions_and_refuses_the_last_one():
    m = master(servers=2)
    m.create_table(table(), [b"m"])
    write(m, b"a", b"kept")
    dead = m.table_state("t").locator.locate(b"a").server
    m.abort_server(dead.index)
    assert dead.name in m.dead_servers and len(m.servers) == 1
    region = m.table_state("t").locator.locate(b"a")
    assert region.server is m.servers[0]
    (c,) = region.get(b"a", {b"f": ScanQuery()}, m.clock.now())
    assert c.value == b"kept"  # replayed from the dead server's WAL
    with pytest.raises(InvalidArgumentError, match="last live region server"):
        m.abort_server(0)
    with pytest.raises(InvalidArgumentError, match="no live region server 5"):
        m.abort_server(5)
