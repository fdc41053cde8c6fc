"""hbase:meta: one row per region, derived from the live region map, read through Table."""

import struct

import pytest

import hsim
from hsim.errors import CatalogDisableError, CatalogError
from hsim.regions.meta import parse_region_info, region_info_text

META = "hbase:meta"


@pytest.fixture
def cluster():
    c = hsim.Cluster(region_servers=3, clock=hsim.ManualClock(1000))
    c.admin.create_table("t1", ["cf"], split_keys=[b"m"])
    return c


def catalog(c) -> dict:
    """row -> {qualifier: value} of the whole catalog."""
    return {cells[0].row: {x.qualifier: x.value for x in cells} for cells in c.table(META).scan()}


def test_one_row_per_region_keyed_and_valued_as_hbase(cluster):
    rows = catalog(cluster)
    regions = cluster.admin.regions("t1")
    assert list(rows) == [r.name.encode() for r in regions]
    first = rows[regions[0].name.encode()]
    assert regions[0].name == f"t1,,1000.{regions[0].encoded_name}."
    assert set(first) == {b"regioninfo", b"server", b"serverstartcode", b"seqnumDuringOpen",
                          b"sn", b"state"}
    info = parse_region_info(first[b"regioninfo"])
    assert first[b"regioninfo"].startswith(b"PBUF")
    assert (info[1], info[3], info[4], info[5], info[6]) == (1000, b"", b"m", 0, 0)
    assert parse_region_info(b"PBUF" + info[2]) == {1: b"default", 2: b"t1"}
    srv = regions[0].server
    assert first[b"server"] == srv.replace(",16020,1000", ":16020").encode()
    assert first[b"sn"] == srv.encode()
    assert struct.unpack(">q", first[b"serverstartcode"])[0] == 1000
    assert len(first[b"seqnumDuringOpen"]) == 8
    assert first[b"state"] == b"OPEN"
    assert region_info_text(first[b"regioninfo"]) == (
        f"{{ENCODED => {regions[0].encoded_name}, NAME => '{regions[0].name}', "
        "STARTKEY => '', ENDKEY => 'm'}")
    cells = cluster.table(META).get(regions[1].name)
    assert {c.timestamp for c in cells} == {1000}  # the region's open time
    assert all(c.family == b"info" for c in cells)


def test_scans_gets_filters_and_count(cluster):
    cluster.admin.create_table("t2", ["cf"])
    m = cluster.table(META)
    assert m.count() == 3
    assert [r[0].row[:3] for r in m.scan(start_row="t2,")] == [b"t2,"]
    assert [r[0].row[:4] for r in m.scan(stop_row="t1,m")] == [b"t1,,"]
    assert m.count(row_prefix="t1,") == 2
    assert m.count(filter="PrefixFilter('t2')") == 1
    states = [c.value for r in m.scan(columns=["info:state"]) for c in r]
    assert states == [b"OPEN"] * 3
    assert m.get("t9,,1", columns=["info:state"]) == []


def test_split_move_disable_enable_drop_are_seen(cluster):
    c, clock = cluster, cluster.clock
    t = c.table("t1")
    for i in range(20):
        t.put(f"a{i:02d}", {"cf:q": "v"})
    clock.advance(500)
    parent = c.admin.regions("t1")[0].name.encode()
    assert c.admin.split("t1", "a10")
    after = catalog(c)
    assert len(after) == 3
    starts = sorted(parse_region_info(v[b"regioninfo"])[3] for v in after.values())
    assert starts == [b"", b"a10", b"m"]
    assert parent not in after  # the parent's row is gone (the CatalogJanitor's work, at once)
    daughters = [r for r in c.table(META).scan() if parse_region_info(r[0].value)[1] == 1500]
    assert len(daughters) == 2 and all(x.timestamp == 1500 for r in daughters for x in r)

    clock.advance(100)
    srv = {r.name: r.server for r in c.admin.regions("t1")}
    moves = c.admin.balance()
    assert moves
    for region, _src, dst in moves:
        row = catalog(c)[region.encode()]
        assert row[b"sn"] == dst.encode() != srv[region].encode()
        cells = c.table(META).get(region, columns=["info:server"])
        assert cells[0].timestamp == 1600  # reopened on the new server now

    clock.advance(100)
    c.admin.disable_table("t1")
    assert {v[b"state"] for v in catalog(c).values()} == {b"CLOSED"}
    c.admin.enable_table("t1")
    assert {v[b"state"] for v in catalog(c).values()} == {b"OPEN"}
    c.admin.disable_table("t1")
    c.admin.delete_table("t1")
    assert catalog(c) == {}


def _refusals(c):
    m = c.table(META)
    row = c.admin.regions("t1")[0].name
    return [
        (CatalogError, lambda: m.put(row, {"info:state": "CLOSED"})),
        (CatalogError, lambda: m.put("x", {"info:a": "v"})),
        (CatalogError, lambda: m.delete_row(row)),
        (CatalogError, lambda: m.delete_columns(row, "info:state")),
        (CatalogError, lambda: m.increment(row, "info:n")),
        (CatalogError, lambda: m.append(row, {"info:state": "x"})),
        (CatalogError, lambda: m.check_and_put(row, "info:state", "OPEN", {"info:state": "x"})),
        (CatalogError, lambda: m.mutate_rows([hsim_put(row)])),
        (CatalogDisableError, lambda: c.admin.disable_table(META)),
        (CatalogError, lambda: c.admin.delete_table(META)),
        (CatalogError, lambda: c.admin.truncate_table(META)),
        (CatalogError, lambda: c.admin.alter_family(META, "info", max_versions=5)),
        (CatalogError, lambda: c.admin.add_family(META, "x")),
        (CatalogError, lambda: c.admin.delete_family(META, "info")),
        (CatalogError, lambda: c.admin.alter_table(META, max_filesize=1)),
        (hsim.errors.TableExistsError, lambda: c.admin.create_table(META, ["info"])),
    ]


def hsim_put(row):
    from hsim.client.batch import Mutation

    return Mutation("put", row, data={"info:state": "x"})


def test_every_refused_write_changes_nothing(cluster):
    c = cluster
    c.table("t1").put("r", {"cf:q": "v"})
    before, data = catalog(c), list(c.table("t1").scan())
    desc = repr(c.admin.describe(META))
    for err, call in _refusals(c):
        with pytest.raises(err) as e:
            call()
        assert e.value.hbase_exception in ("java.io.IOException",
                                           "org.apache.hadoop.hbase.constraint.ConstraintException",
                                           "org.apache.hadoop.hbase.TableExistsException")
        assert catalog(c) == before
        assert list(c.table("t1").scan()) == data
    assert repr(c.admin.describe(META)) == desc
    assert c.admin.is_table_enabled(META)


def test_admin_sees_it_as_a_system_table(cluster):
    a = cluster.admin
    assert a.table_exists(META) and a.table_exists(b"hbase:meta")
    assert a.list_tables() == ["t1"]
    desc = a.describe(META)
    assert list(desc.families) == [b"info"] and desc.families[b"info"].max_versions == 3


def test_flush_and_compact_of_the_catalog_do_nothing(cluster):
    before = catalog(cluster)
    cluster.admin.flush(META)
    cluster.admin.major_compact(META)
    assert cluster.admin.split(META) is False
    assert catalog(cluster) == before
