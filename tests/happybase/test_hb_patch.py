"""hsim.happybase's own parts: shared embedded clusters per (host, port), patch(), reset(),
and the pytest plugin's fixtures."""

import happybase
import happybase.connection
import happybase.pool
import pytest

import hsim
import hsim.happybase


@pytest.fixture(autouse=True)
def _fresh():
    hsim.happybase.reset()
    yield
    hsim.happybase.reset()


def test_connections_to_one_address_share_a_cluster():
    a = hsim.happybase.Connection("hbase1")
    a.create_table("t", {"cf": None})
    b = hsim.happybase.Connection("hbase1", 9090)
    assert b.tables() == [b"t"]
    assert hsim.happybase.Connection("hbase2").tables() == []
    assert hsim.happybase.Connection("hbase1", 9091).tables() == []
    assert hsim.happybase.cluster("hbase1").admin.list_tables() == ["t"]
    assert hsim.happybase.Connection().host == "localhost"


def test_reset_starts_from_empty_clusters_with_new_settings():
    conn = hsim.happybase.Connection()
    conn.create_table("t", {"cf": None})
    clock = hsim.ManualClock(5_000)
    hsim.happybase.reset(region_servers=2, clock=clock)
    assert conn.tables() == []  # the connection follows its address to the new cluster
    cluster = hsim.happybase.cluster()
    assert len(cluster.region_servers) == 2 and cluster.clock is clock
    conn.create_table("t", {"cf": None})
    conn.table("t").put(b"r", {b"cf:a": b"1"})
    assert conn.table("t").row(b"r", include_timestamp=True) == {b"cf:a": (b"1", 5_000)}


def test_attach_serves_a_given_cluster():
    cluster = hsim.Cluster(region_servers=1, clock=hsim.ManualClock(0))
    cluster.admin.create_table("native", ["f"])
    hsim.happybase.attach(cluster, "db", 9999)
    assert hsim.happybase.Connection("db", 9999).tables() == [b"native"]


def _app_tables(host):
    """Application code: it only knows happybase."""
    with happybase.ConnectionPool(2, host=host).connection() as conn:
        conn.create_table("app", {"cf": None})
    return happybase.Connection(host).tables()


def test_patch_as_context_manager_rebinds_every_name():
    originals = (happybase.Connection, happybase.ConnectionPool,
                 happybase.connection.Connection, happybase.pool.Connection)
    with hsim.happybase.patch():
        assert happybase.Connection is hsim.happybase.Connection
        assert happybase.ConnectionPool is hsim.happybase.ConnectionPool
        assert happybase.connection.Connection is hsim.happybase.Connection
        assert happybase.pool.Connection is hsim.happybase.Connection
        assert _app_tables("prod-hbase") == [b"app"]
    assert (happybase.Connection, happybase.ConnectionPool, happybase.connection.Connection,
            happybase.pool.Connection) == originals
    assert hsim.happybase.cluster("prod-hbase").admin.list_tables() == ["app"]


@hsim.happybase.patch()
def test_patch_as_decorator():
    assert _app_tables("other-hbase") == [b"app"]


def test_pool_class_works_without_patch():
    pool = hsim.happybase.ConnectionPool(3, host="h")
    with pool.connection() as conn:
        assert isinstance(conn, hsim.happybase.Connection)
        conn.create_table("t", {"cf": None})
    assert hsim.happybase.Connection("h").tables() == [b"t"]
    assert happybase.pool.Connection is happybase.connection.Connection  # not patched


def test_str_and_type_errors_are_the_wires():
    conn = hsim.happybase.Connection()
    conn.create_table("t", {"cf": None})
    t = conn.table("t")
    t.put("r", {"cf:a": "é"})  # str goes over the wire as UTF-8
    assert t.row(b"r") == {b"cf:a": "é".encode()}
    from thriftpy2.thrift import TDecodeException

    with pytest.raises(TDecodeException):
        t.put(b"r", {b"cf:a": 5})


# --- the pytest plugin ----------------------------------------------------------------------
def test_plugin_connection_reaches_the_test_cluster(hsim_connection, hsim_cluster, hsim_clock):
    hsim_connection.create_table("t", {"cf": None})
    assert hsim_cluster.admin.list_tables() == ["t"]
    now = hsim_clock.advance(42)
    hsim_connection.table("t").put(b"r", {b"cf:a": b"1"})
    assert hsim_cluster.table("t").get(b"r")[0].timestamp == now


@pytest.mark.parametrize("round", [1, 2])
def test_plugin_isolates_tests(hsim_connection, round):
    assert hsim_connection.tables() == []
    hsim_connection.create_table("t", {"cf": None})


@pytest.mark.hsim(region_servers=3, now=1_000)
def test_plugin_marker_and_patched_happybase(hsim_happybase, hsim_cluster, hsim_clock):
    assert len(hsim_cluster.region_servers) == 3 and hsim_clock.now() == 1_000
    assert _app_tables("localhost") == [b"app"]
    assert hsim_cluster.admin.list_tables() == ["app"]
    assert _app_tables("elsewhere") == [b"app"]
    elsewhere = hsim_happybase.cluster("elsewhere")
    assert elsewhere.clock is hsim_clock and len(elsewhere.region_servers) == 3
