"""Increment, Append and checkAndMutate run inside the region (HRegion.increment, append,
checkAndMutate): one Mutate request, no Get RPC from the client; the region's reads count as
read requests (one per family read, as HRegion.reckonDeltasByStore and checkAndMutate's Get
do), the mutation as a write request, the check as checkMutatePassed/FailedCount."""

import pytest

import hsim


@pytest.fixture
def table(cluster):
    cluster.admin.create_table("t", ["f", "g"])
    return cluster, cluster.table("t")


def _counts(cluster):
    s = cluster.metrics().servers
    return {k: sum(getattr(x, k) for x in s) for k in
            ("read_rpcs", "read_requests", "write_requests", "check_mutate_passed",
             "check_mutate_failed", "filtered_read_requests")}


def _delta(before, after):
    return {k: after[k] - before[k] for k in before}


def test_three_atomic_operations_add_no_read_rpc(table):
    c, t = table
    t.put(b"r", {b"f:n": (1).to_bytes(8, "big"), b"f:s": b"a"})
    before = _counts(c)
    assert t.increment(b"r", b"f:n", 2) == 3
    assert t.append(b"r", {b"f:s": b"b"}) == {b"f:s": b"ab"}
    assert t.check_and_put(b"r", b"f:s", b"ab", {b"f:x": b"1"})
    d = _delta(before, _counts(c))
    assert d["read_rpcs"] == 0  # the client sent no Get
    assert d["read_requests"] == 3  # each read once inside the region
    assert d["write_requests"] == 3
    assert d["check_mutate_passed"] == 1 and d["check_mutate_failed"] == 0
    region = c.metrics().regions[0]
    assert region.read_requests == 3 and region.write_requests == 4


def test_a_failed_check_reads_once_and_writes_nothing(table):
    c, t = table
    t.put(b"r", {b"f:s": b"a"})
    before = _counts(c)
    assert not t.check_and_put(b"r", b"f:s", b"zz", {b"f:x": b"1"})
    assert not t.check_and_delete(b"r", b"f:s", b"zz")
    d = _delta(before, _counts(c))
    assert d == {"read_rpcs": 0, "read_requests": 2, "write_requests": 0,
                 "check_mutate_passed": 0, "check_mutate_failed": 2,
                 "filtered_read_requests": 0}
    assert [x.qualifier for x in t.get(b"r")] == [b"s"]


def test_an_increment_over_two_families_reads_each_family_once(table):
    c, t = table
    before = _counts(c)
    assert t.increment_columns(b"r", {b"g:b": 2, b"f:a": 1, b"f:c": 3}) == \
        {b"g:b": 2, b"f:a": 1, b"f:c": 3}
    d = _delta(before, _counts(c))
    assert d["read_requests"] == 2 and d["write_requests"] == 1 and d["read_rpcs"] == 0


def test_timestamps_follow_hregion(table):
    c, t = table
    c.clock.set(1_000)
    # increment and append of a missing cell: stamped now
    t.increment(b"r", b"f:n", 1)
    t.append(b"r", {b"f:s": b"x"})
    got = {x.qualifier: x.timestamp for x in t.get(b"r")}
    assert got[b"n"] == got[b"s"] and got[b"n"] >= 1_000
    # a cell stamped in the future: the new version is max(now, old + 1), so it stays newest
    t.put(b"r", {b"f:n": (5).to_bytes(8, "big"), b"f:s": b"y"}, timestamp=9_000)
    assert t.increment(b"r", b"f:n", 1) == 6
    assert t.append(b"r", {b"f:s": b"z"}) == {b"f:s": b"yz"}
    got = {x.qualifier: (x.timestamp, x.value) for x in t.get(b"r")}
    assert got[b"n"] == (9_001, (6).to_bytes(8, "big")) and got[b"s"] == (9_001, b"yz")


def test_check_and_put_is_never_hidden_behind_the_checked_cell(table):
    # HRegion.checkAndMutateInternal: a Put without timestamps gets max(now, checked cell ts)
    c, t = table
    c.clock.set(1_000)
    t.put(b"r", {b"f:q": b"v"}, timestamp=50_000)
    assert t.check_and_put(b"r", b"f:q", b"v", {b"f:q": b"w", b"g:o": b"1"})
    got = {(x.family, x.qualifier): (x.timestamp, x.value) for x in t.get(b"r")}
    assert got[(b"f", b"q")] == (50_000, b"w")  # the same coordinates: the later write wins
    assert got[(b"g", b"o")] == (50_000, b"1")
    # an explicit timestamp is kept
    assert t.check_and_put(b"r", b"f:q", b"w", {b"g:p": b"2"}, timestamp=7)
    assert [x.timestamp for x in t.get(b"r", columns=[b"g:p"])] == [7]


def test_check_on_a_missing_or_empty_cell(table):
    _c, t = table
    assert t.check_and_put(b"r", b"f:q", None, {b"f:q": b""})  # missing: None matches
    assert t.check_and_put(b"r", b"f:q", b"", {b"f:a": b"1"})  # empty: b"" matches too
    assert t.check_and_put(b"r", b"f:q", None, {b"f:b": b"2"})
    assert not t.check_and_put(b"r", b"f:a", None, {b"f:c": b"3"})  # present, not empty
    assert t.check_and_delete(b"r", b"f:a", b"1", columns=[b"f:b"])
    assert sorted(x.qualifier for x in t.get(b"r")) == [b"a", b"q"]


def test_bad_input_changes_nothing_and_reads_nothing(table):
    c, t = table
    t.put(b"r", {b"f:s": b"abc"})
    before = _counts(c)
    cells = t.get(b"r")
    with pytest.raises(hsim.DoNotRetryError, match="Field is not a long, it's 3 bytes wide"):
        t.increment_columns(b"r", {b"f:n": 1, b"f:s": 1})
    with pytest.raises(hsim.NoSuchColumnFamilyError, match="Column family x does not exist"):
        t.check_and_put(b"r", b"x:q", None, {b"f:q": b"1"})
    with pytest.raises(hsim.NoSuchColumnFamilyError, match="Column family x does not exist"):
        t.append(b"r", {b"f:s": b"d", b"x:s": b"d"})
    assert t.get(b"r") == cells  # nothing written (f:n not created either)
    d = _delta(before, _counts(c))
    assert d["write_requests"] == 0
    assert d["read_requests"] == 3  # the Gets above and the increment's one read, no more


def test_thrift_append_and_check_and_put_send_no_get(cluster):
    from thriftpy2.protocol import TBinaryProtocol

    from hsim.thrift.idl import ttypes
    from hsim.thrift.loopback import LoopbackClient, LoopbackServer, LoopbackTransport

    cluster.admin.create_table("t", ["f"])
    transport = LoopbackTransport()
    transport.open()
    client = LoopbackClient(LoopbackServer(cluster), transport, TBinaryProtocol)
    before = _counts(cluster)
    out = client.append(ttypes.TAppend(table=b"t", row=b"r", columns=[b"f:b", b"f:a"],
                                       values=[b"2", b"1"]))
    assert [x.value for x in out] == [b"1", b"2"]  # the Result: the cells written, in order
    put = ttypes.Mutation(column=b"f:c", value=b"3")
    assert client.checkAndPut(b"t", b"r", b"f:absent", b"", put, {}) is True
    assert client.checkAndPut(b"t", b"r", b"f:a", b"", put, {}) is False
    assert client.atomicIncrement(b"t", b"r", b"f:n", 4) == 4
    d = _delta(before, _counts(cluster))
    assert d["read_rpcs"] == 0 and d["read_requests"] == 4 and d["write_requests"] == 3


def test_a_bad_durability_is_refused_before_the_request():
    c = hsim.Cluster(clock=hsim.TickingClock(1_000))  # every request moves the clock
    c.admin.create_table("t", ["f"])
    t = c.table("t")
    t.put(b"other", {b"f:q": b"v"})
    now = c.clock.now()
    with pytest.raises(hsim.InvalidArgumentError):
        t.increment(b"r", b"f:n", 1, durability="SOMETIMES")
    with pytest.raises(hsim.InvalidArgumentError):
        t.check_and_put(b"r", b"f:q", None, {b"f:q": b"v"}, durability="SOMETIMES")
    assert c.clock.now() == now  # no request was sent
    assert t.get(b"r") == [] and c.clock.now() > now  # a request does move it


def test_a_server_refuses_an_atomic_operation_on_a_region_it_does_not_hold(table):
    c, t = table
    t.put(b"r", {b"f:n": (1).to_bytes(8, "big")})
    (region,) = c.master.tables["t"].locator.regions
    other = next(s for s in c.master.servers if s is not region.server)
    before = c.metrics().to_dict()
    with pytest.raises(hsim.NotServingRegionError):
        other.increment(region, b"r", [(b"f", b"n", 1)], -1, 2_000)
    with pytest.raises(hsim.NotServingRegionError):
        other.check_and_mutate(region, b"r", b"f", b"n", None, [], 2_000)
    assert c.metrics().to_dict() == before


def test_check_and_mutate_applies_row_mutations_atomically(table):
    from hsim.client.batch import Mutation

    c, t = table
    t.put(b"r", {b"f:state": b"open", b"f:old": b"x", b"g:n": b"1"})
    before = _counts(c)
    done = [Mutation("put", b"r", data={b"f:state": b"closed", b"g:by": b"me"}),
            Mutation("delete_columns", b"r", column=b"f:old")]
    assert not t.check_and_mutate(b"r", b"f:state", b"closed", done)
    assert t.check_and_mutate(b"r", b"f:state", b"open", done)
    d = _delta(before, _counts(c))
    assert d["read_rpcs"] == 0 and d["write_requests"] == 1  # one row mutation, one WAL edit
    assert d["check_mutate_passed"] == 1 and d["check_mutate_failed"] == 1
    got = {(x.family, x.qualifier): x.value for x in t.get(b"r")}
    assert got == {(b"f", b"state"): b"closed", (b"g", b"by"): b"me", (b"g", b"n"): b"1"}
    # RowMutations holds one row only: WrongRowIOException, nothing sent
    with pytest.raises(hsim.WrongRowError, match="<r2> doesn't match the original one <r>"):
        t.check_and_mutate(b"r", b"f:state", b"closed",
                           [Mutation("delete_row", b"r"), Mutation("delete_row", b"r2")])
    with pytest.raises(TypeError, match="mutations must be a non-empty list of Mutation"):
        t.check_and_mutate(b"r", b"f:state", b"closed", [])
    assert {(x.family, x.qualifier): x.value for x in t.get(b"r")} == got
