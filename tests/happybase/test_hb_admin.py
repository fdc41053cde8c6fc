"""happybase's Connection admin methods, table prefixes, families() and regions(), with
HBase's Thrift-1 results, in-process and over a socket."""

import pytest
from thriftpy2.thrift import TApplicationException

from hsim.thrift.idl import ttypes

_FOREVER = 2**31 - 1  # HConstants.FOREVER, what an unset TTL reads back as


def test_create_table_maps_column_descriptors(env):
    env.conn.create_table("t", {
        "plain": None,
        "tuned": {"max_versions": 7, "compression": "SNAPPY", "in_memory": True,
                  "bloom_filter_type": "ROWCOL", "block_cache_enabled": True,
                  "time_to_live": 3600},
        "gz:": {"compression": "gz"},
    })
    fams = env.conn.table("t").families()
    assert list(fams) == [b"gz", b"plain", b"tuned"]
    # the IDL's defaults are what HBase sets for a family happybase creates bare
    assert fams[b"plain"] == {
        "name": b"plain:", "max_versions": 3, "compression": b"NONE", "in_memory": False,
        "bloom_filter_type": b"NONE", "bloom_filter_vector_size": 0,
        "bloom_filter_nb_hashes": 0, "block_cache_enabled": False, "time_to_live": _FOREVER}
    assert fams[b"tuned"] == {
        "name": b"tuned:", "max_versions": 7, "compression": b"SNAPPY", "in_memory": True,
        "bloom_filter_type": b"ROWCOL", "bloom_filter_vector_size": 0,
        "bloom_filter_nb_hashes": 0, "block_cache_enabled": True, "time_to_live": 3600}
    assert fams[b"gz"]["compression"] == b"GZ"
    cf = env.cluster.admin.describe("t").families[b"tuned"]
    assert (cf.max_versions, cf.ttl, cf.bloom_filter, cf.block_size) == (7, 3600, "ROWCOL", 65536)


def test_family_ttl_expires_cells(env):
    env.conn.create_table("t", {"cf": {"time_to_live": 2}})
    t = env.conn.table("t")
    t.put(b"r", {b"cf:a": b"1"})
    env.clock.advance(2_000)  # expired once ts < now - ttl
    assert t.row(b"r") == {b"cf:a": b"1"}
    env.clock.advance(1)
    assert t.row(b"r") == {}


def test_create_table_errors(env):
    env.conn.create_table("t", {"cf": None})
    with pytest.raises(ttypes.AlreadyExists) as e:
        env.conn.create_table("t", {"cf": None})
    assert e.value.message == b"table name already in use"
    with pytest.raises(ttypes.IllegalArgument) as e:
        env.conn.create_table("u", {"cf": {"bloom_filter_type": "row"}})  # BloomType.valueOf
    assert b"No enum constant org.apache.hadoop.hbase.regionserver.BloomType.row" in \
        e.value.message
    with pytest.raises(ttypes.IllegalArgument) as e:
        env.conn.create_table("u", {"cf": {"compression": "zip"}})
    assert b"Unsupported compression algorithm name: zip" in e.value.message
    with pytest.raises(ttypes.IllegalArgument) as e:
        env.conn.create_table("u", {"cf": {"max_versions": 0}})
    assert b"Maximum versions must be positive" in e.value.message
    with pytest.raises(TApplicationException):  # TableName.valueOf outside the try
        env.conn.create_table("bad name", {"cf": None})
    with pytest.raises(ValueError):  # happybase's own check
        env.conn.create_table("u", {})
    assert env.conn.tables() == [b"t"]


def test_tables_enable_disable_delete(env):
    assert env.conn.tables() == []
    for name in ("b", "a"):
        env.conn.create_table(name, {"cf": None})
    assert env.conn.tables() == [b"a", b"b"]
    assert env.conn.is_table_enabled("a") is True
    env.conn.disable_table("a")
    assert env.conn.is_table_enabled("a") is False
    with pytest.raises(ttypes.IOError) as e:
        env.conn.table("a").row(b"r")
    assert b"TableNotEnabledException" in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        env.conn.disable_table("a")
    assert b"TableNotEnabledException" in e.value.message
    env.conn.enable_table("a")
    with pytest.raises(ttypes.IOError) as e:
        env.conn.enable_table("a")
    assert b"TableNotDisabledException" in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        env.conn.delete_table("a")
    assert b"TableNotDisabledException" in e.value.message
    env.conn.delete_table("a", disable=True)
    assert env.conn.tables() == [b"b"]
    with pytest.raises(ttypes.IOError) as e:
        env.conn.delete_table("a")
    assert e.value.message == b"java.io.IOException: table does not exist"
    with pytest.raises(ttypes.IOError) as e:
        env.conn.is_table_enabled("a")
    assert e.value.message == b"org.apache.hadoop.hbase.TableNotFoundException: a"


@pytest.mark.parametrize("major", [False, True])
def test_compact_table_requests_a_normal_compaction(env, major):
    """HBase 2's Thrift-1 majorCompact calls Admin.compactRegion/compact like compact does, so
    two store files stay two (a minor selection needs hbase.hstore.compaction.min = 3)."""
    env.conn.create_table("t", {"cf": None})
    t = env.conn.table("t")
    for i in range(2):
        t.put(b"r%d" % i, {b"cf:a": b"x"})
        env.cluster.admin.flush("t")
    files = lambda: env.cluster.admin.regions("t")[0].store_file_count  # noqa: E731
    assert files() == 2
    env.conn.compact_table("t", major=major)
    assert files() == 2
    env.cluster.admin.major_compact("t")
    assert files() == 1
    assert [k for k, _ in t.scan()] == [b"r0", b"r1"]
    region = env.cluster.admin.regions("t")[0].name
    env.conn.compact_table(region, major=major)  # a region name is accepted too
    with pytest.raises(ttypes.IOError) as e:
        env.conn.compact_table("missing")
    assert b"TableNotFoundException" in e.value.message


def test_table_prefix(env):
    app = env.connection(table_prefix="app")
    app.create_table("t", {"cf": None})
    env.conn.create_table("other", {"cf": None})
    assert env.conn.tables() == [b"app_t", b"other"]
    assert app.tables() == [b"t"]
    app.table("t").put(b"r", {b"cf:a": b"1"})
    assert env.conn.table("app_t").row(b"r") == {b"cf:a": b"1"}
    assert app.table("other", use_prefix=False).name == b"other"
    dash = env.connection(table_prefix=b"app", table_prefix_separator=b"-")
    assert dash.table("t").name == b"app-t"
    with pytest.raises(TypeError):
        env.connection(table_prefix=1)


def test_regions(env):
    env.conn.create_table("t", {"cf": None})
    t = env.conn.table("t")
    (region,) = t.regions()
    assert (region["start_key"], region["end_key"], region["version"]) == (b"", b"", 1)
    assert (region["server_name"], region["port"]) == (b"rs1.hsim", 16020)
    for r in (b"a", b"m", b"z"):
        t.put(r, {b"cf:a": b"1"})
    env.cluster.admin.split("t", b"m")
    regions = t.regions()
    assert [(r["start_key"], r["end_key"]) for r in regions] == [(b"", b"m"), (b"m", b"")]
    native = env.cluster.admin.regions("t")
    assert [r["name"] for r in regions] == [n.name.encode() for n in native]
    assert [r["id"] for r in regions] == [n.region_id for n in native]
    assert [k for k, _ in t.scan()] == [b"a", b"m", b"z"]
    assert [k for k, _ in t.scan(reverse=True)] == [b"z", b"m", b"a"]
    assert env.conn.table("missing").regions() == []


def test_closed_connection_fails_and_reopens(env):
    env.conn.create_table("t", {"cf": None})
    env.conn.close()
    with pytest.raises(Exception):  # noqa: B017  (thriftpy2 raises what its socket raises)
        env.conn.tables()
    env.conn.open()
    assert env.conn.tables() == [b"t"]
