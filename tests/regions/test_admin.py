"""Admin operations and their HBase errors; bad input changes nothing."""

import pytest

import hsim


def test_table_lifecycle_and_errors(cluster):
    a = cluster.admin
    a.create_table("t", ["f"])
    assert a.table_exists("t") and a.list_tables() == ["t"] and a.is_table_enabled("t")
    with pytest.raises(hsim.TableExistsError) as e:
        a.create_table("t", ["f"])
    assert "TableExistsException" in str(e.value)
    with pytest.raises(hsim.TableNotDisabledError):
        a.delete_table("t")  # HBase: drop only when disabled
    with pytest.raises(hsim.TableNotFoundError):
        a.disable_table("missing")
    with pytest.raises(hsim.TableNotFoundError):
        cluster.table("missing").put(b"r", {b"f:q": b"v"})
    with pytest.raises(hsim.TableNotDisabledError):
        a.enable_table("t")
    a.disable_table("t")
    with pytest.raises(hsim.TableNotEnabledError):
        a.disable_table("t")
    with pytest.raises(hsim.TableDisabledError):
        cluster.table("t").get(b"r")
    a.delete_table("t")
    assert not a.table_exists("t")


def test_bad_family_and_rows_change_nothing(cluster):
    cluster.admin.create_table("t", ["f", "g"])
    t = cluster.table("t")
    with pytest.raises(hsim.NoSuchColumnFamilyError) as e:
        t.put(b"r", {b"f:a": b"1", b"nope:b": b"2"})
    assert "NoSuchColumnFamilyException" in str(e.value)
    assert t.get(b"r") == []  # the f:a half was not applied either
    with pytest.raises(hsim.InvalidArgumentError, match="Row length is 0"):
        t.put(b"", {b"f:a": b"1"})
    with pytest.raises(hsim.InvalidArgumentError, match="is > 32767"):
        t.put(b"x" * 32768, {b"f:a": b"1"})
    with pytest.raises(hsim.InvalidArgumentError, match="No columns to put"):
        t.put(b"r", {})
    with pytest.raises(hsim.InvalidArgumentError, match="negative"):
        t.put(b"r", {b"f:a": b"1"}, timestamp=-1)
    with pytest.raises(hsim.DoNotRetryError, match="raw scan"):
        list(t.scan(raw=True, columns=[b"f:a"]))
    with pytest.raises(hsim.InvalidArgumentError, match="versions must be positive"):
        t.get(b"r", max_versions=0)
    assert sum(s.write_requests for s in cluster.metrics().servers) == 0


def test_family_admin(cluster):
    a = cluster.admin
    a.create_table("t", {"f": {"VERSIONS": 3}})
    assert a.describe("t").families[b"f"].max_versions == 3
    a.add_family("t", "g", hsim.ColumnFamily(ttl=60))
    t = cluster.table("t")
    t.put(b"r", {b"g:x": b"1", b"f:y": b"2"})
    assert [c.family for c in t.get(b"r")] == [b"f", b"g"]
    a.alter_family("t", "f", max_versions=1)
    assert a.describe("t").families[b"f"].max_versions == 1
    a.alter_family("t", "f", {"TTL": 10})
    assert a.describe("t").families[b"f"].ttl == 10
    with pytest.raises(hsim.NoSuchColumnFamilyError):
        a.alter_family("t", "zz", max_versions=2)
    with pytest.raises(hsim.InvalidArgumentError):
        a.alter_family("t", "f", min_versions=5)  # MIN_VERSIONS > VERSIONS is refused
    assert a.describe("t").families[b"f"].min_versions == 0
    a.delete_family("t", "g")
    assert [c.family for c in t.get(b"r")] == [b"f"]
    with pytest.raises(hsim.InvalidArgumentError):
        a.delete_family("t", "f")  # the only family


def test_descriptor_validation():
    with pytest.raises(hsim.InvalidArgumentError):
        hsim.ColumnFamily(max_versions=0)
    with pytest.raises(hsim.InvalidArgumentError):
        hsim.ColumnFamily(max_versions=1, min_versions=2)
    with pytest.raises(hsim.InvalidArgumentError):
        hsim.ColumnFamily(bloom_filter="BOGUS")
    with pytest.raises(hsim.DoNotRetryError):
        hsim.ColumnFamily(ttl=0)
    c = hsim.Cluster(clock=hsim.ManualClock(0))
    with pytest.raises(hsim.InvalidArgumentError):
        c.admin.create_table("t", ["bad:name"])
    with pytest.raises(hsim.InvalidArgumentError):
        c.admin.create_table("-t", ["f"])
    with pytest.raises(hsim.DoNotRetryError):
        c.admin.create_table("t", [])
    assert c.admin.list_tables() == []


def test_truncate_preserves_splits(cluster):
    cluster.admin.create_table("t", ["f"], split_keys=[b"m"])
    cluster.table("t").put(b"a", {b"f:q": b"1"})
    cluster.admin.disable_table("t")
    cluster.admin.truncate_table("t")
    assert [r.start_key for r in cluster.admin.regions("t")] == [b"", b"m"]
    assert list(cluster.table("t").scan()) == []


def test_balance_evens_region_counts():
    c = hsim.Cluster(region_servers=3, clock=hsim.ManualClock(0))
    c.admin.create_table("t", ["f"], split_keys=[b"%02d" % i for i in range(1, 9)])
    # crowd everything onto one server, then balance
    srv = c.master.servers
    for r in list(srv[1].regions.values()) + list(srv[2].regions.values()):
        c.master._move(r, r.server, srv[0])
    assert [len(s.regions) for s in srv] == [9, 0, 0]
    moves = c.admin.balance()
    assert sorted(len(s.regions) for s in srv) == [3, 3, 3]
    assert len(moves) == 6
    assert c.admin.balance() == []


def test_alter_family_flushes_under_the_old_schema(cluster):
    """A schema change reopens the regions (HBase): the MemStore is flushed with the old
    VERSIONS first, so the older versions stay stored until a major compaction."""
    cluster.admin.create_table("t", {"f": {"VERSIONS": 3}})
    t = cluster.table("t")
    for ts in (1, 2, 3):
        t.put(b"r", {b"f:q": b"v%d" % ts}, timestamp=ts)
    cluster.admin.alter_family("t", "f", max_versions=1)
    assert [c.timestamp for c in t.get(b"r", max_versions=3)] == [3]  # reads: at once
    assert [c.timestamp for c in t.scan(raw=True, max_versions=3).__next__()] == [3, 2, 1]
    cluster.admin.major_compact("t")
    assert [c.timestamp for c in t.scan(raw=True, max_versions=3).__next__()] == [3]
