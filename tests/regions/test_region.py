"""Region (HRegion) alone, without a server: what it promises RegionServer, Master and
recovery. A row mutation is checked whole before any of it applies and gets one sequence id;
cells without a timestamp take the request's time; a Delete of the latest version takes that
version's timestamp; reads merge the families in order; the flush size triggers a flush; a
split gives each daughter reference halves and closes the parent."""

import pytest

from hsim.cell import (DELETE, DELETE_COLUMN, FAMILY, NEG_TS, NO_TTL, PUT, QUALIFIER, VALUE,
                       Entry)
from hsim.config import Config
from hsim.engine.query_matcher import ScanQuery
from hsim.errors import InvalidArgumentError, NoSuchColumnFamilyError, WrongRegionError
from hsim.regions.region import Region, encode_region_name
from hsim.regions.region_scanner import region_rows
from hsim.schema import ColumnFamily, TableDescriptor

NOW = 5_000
Q = ScanQuery()


def region(start=b"", end=b"", config=None, **table) -> Region:
    desc = TableDescriptor("t", {b"a": ColumnFamily(max_versions=3), b"b": ColumnFamily()},
                           **table)
    return Region(desc, start, end, 1, config or Config())


def put(fam, q, value, ts=None):
    return (fam, q, ts, PUT, value, NO_TTL)


def seen(cells) -> list:
    return [(c.family, c.qualifier, c.timestamp, c.value) for c in cells]


@pytest.mark.parametrize("ts", [None, 7])
def test_an_entry_by_name_and_a_plain_tuple_in_its_order_write_the_same_cells(ts):
    """hsim.cell.Entry names the fields of the tuples the put path builds; the region (its
    one-Put fast path and cells_of) reads either the same way."""
    named = Entry(family=b"a", qualifier=b"x", timestamp=ts, code=int(PUT), value=b"v",
                  ttl=NO_TTL)
    plain = put(b"a", b"x", b"v", ts)
    assert named == plain
    for entries in ([named], [named, named._replace(qualifier=b"y")]):
        one, two = region(), region()
        got = one.mutate(b"r", entries, NOW)
        assert got == two.mutate(b"r", [tuple(e) for e in entries], NOW)
        assert [(c[FAMILY], c[QUALIFIER], -c[NEG_TS], c[VALUE]) for c in got] == [
            (b"a", e.qualifier, NOW if ts is None else ts, b"v") for e in entries]


def test_names_follow_region_info():
    r = region(b"m", b"")
    assert r.encoded_name == encode_region_name("t", b"m", 1)
    assert r.name == f"t,m,1.{r.encoded_name}."
    assert r.contains(b"m") and r.contains(b"zz") and not r.contains(b"l")


def test_a_mutation_gets_one_sequence_id_and_the_requests_time():
    r = region()
    cells = r.mutate(b"r", [put(b"a", b"x", b"1"), put(b"b", b"y", b"2", ts=7)], NOW)
    assert [-c[5] for c in cells] == [1, 1] and r.seq_id == 1
    assert [-c[3] for c in cells] == [NOW, 7]
    r.mutate(b"r", [put(b"a", b"x", b"3")], NOW + 1)
    assert r.seq_id == 2 and r.write_requests == 2
    got = r.get(b"r", {b"a": Q, b"b": Q}, NOW + 2)
    assert seen(got) == [(b"a", b"x", NOW + 1, b"3"), (b"b", b"y", 7, b"2")]
    assert r.read_requests == 1


@pytest.mark.parametrize("entries, error", [
    ([put(b"a", b"x", b"1"), put(b"nope", b"x", b"1")], NoSuchColumnFamilyError),
    ([put(b"a", b"x", b"1"), put(b"b", b"x", b"1", ts=-1)], InvalidArgumentError),
])
def test_a_bad_entry_refuses_the_whole_mutation(entries, error):
    r = region()
    with pytest.raises(error):
        r.mutate(b"r", entries, NOW)
    assert r.seq_id == 0 and r.memstore_heap == 0
    assert r.get(b"r", {b"a": Q, b"b": Q}, NOW) == []


@pytest.mark.parametrize("row, error, text", [
    (b"", InvalidArgumentError, "Row length is 0"),
    (b"x" * 32768, InvalidArgumentError, "Row length 32768 is > 32767"),
    (b"a", WrongRegionError, "out of range"),
    (b"z", WrongRegionError, "out of range"),
])
def test_rows_outside_the_region_or_malformed_are_refused(row, error, text):
    r = region(b"m", b"t")
    with pytest.raises(error, match=text):
        r.mutate(row, [put(b"a", b"x", b"1")], NOW)
    with pytest.raises(error, match=text):
        r.get(row, {b"a": Q}, NOW)
    assert r.seq_id == 0


def test_a_delete_of_the_latest_version_takes_that_versions_timestamp():
    r = region()
    r.mutate(b"r", [put(b"a", b"x", b"old", ts=10)], NOW)
    r.mutate(b"r", [put(b"a", b"x", b"new", ts=20)], NOW)
    (d,) = r.mutate(b"r", [(b"a", b"x", None, DELETE, b"", NO_TTL)], NOW)
    assert -d[3] == 20
    got = r.get(b"r", {b"a": ScanQuery(max_versions=3)}, NOW)
    assert seen(got) == [(b"a", b"x", 10, b"old")]
    # two in one Delete: the first and second newest visible versions
    r2 = region()
    for ts in (1, 2, 3):
        r2.mutate(b"r", [put(b"a", b"x", b"v", ts=ts)], NOW)
    cells = r2.mutate(b"r", [(b"a", b"x", None, DELETE, b"", NO_TTL)] * 2, NOW)
    assert [-c[3] for c in cells] == [3, 2]
    # nothing to delete: the request's time
    (d,) = region().mutate(b"r", [(b"a", b"x", None, DELETE, b"", NO_TTL)], NOW)
    assert -d[3] == NOW


def test_memstore_accounting_moves_with_writes_and_flushes():
    r = region()
    r.mutate(b"r", [put(b"a", b"x", b"1"), put(b"b", b"x", b"1")], NOW)
    heaps = sum(s.memstore.heap_size for s in r.stores.values())
    assert r.memstore_heap == heaps > 0
    assert r.lowest_unflushed_seq() == 1
    flushed = r.flush(NOW, force_all=True)
    assert {s.name for s in flushed} == {b"a", b"b"}
    assert r.memstore_heap == 0 and r.lowest_unflushed_seq() == 2
    assert seen(r.get(b"r", {b"a": Q}, NOW)) == [(b"a", b"x", NOW, b"1")]


def test_crossing_the_flush_size_flushes():
    r = region(memstore_flush_size=2048)
    i = 0
    while not r.stores[b"a"].files:
        r.mutate(b"r%04d" % i, [put(b"a", b"x", b"v" * 100)], NOW)
        i += 1
        assert i < 100
    assert r.memstore_heap < 2048 and r.stores[b"a"].counters.flushes == 1


def test_scan_is_clipped_to_the_region_and_counts_rows_read():
    r = region(b"b", b"d")
    for row in (b"b", b"c", b"cc"):
        r.mutate(row, [put(b"a", b"x", row)], NOW)
    rows = list(region_rows(r, None, None, {b"a": Q}, NOW))
    assert [row for row, _ in rows] == [b"b", b"c", b"cc"]
    assert [row for row, _ in region_rows(r, b"c", b"cc", {b"a": Q}, NOW)] == [b"c"]
    back = [row for row, _ in region_rows(r, b"cc", b"b", {b"a": Q}, NOW, reversed=True)]
    assert back == [b"cc", b"c"]
    assert r.read_requests == 3 + 1 + 2


def test_a_split_gives_each_daughter_its_half_and_closes_the_parent():
    r = region()
    for row in (b"a", b"b", b"c", b"d"):
        r.mutate(row, [put(b"a", b"x", row)], NOW)
    r.mutate(b"c", [(b"b", b"y", None, DELETE_COLUMN, b"", NO_TTL)], NOW)
    lo, hi = r.daughters(b"c", NOW + 1)
    assert r.closed and (lo.start_key, lo.end_key, hi.start_key, hi.end_key) == (
        b"", b"c", b"c", b"")
    assert lo.seq_id == hi.seq_id == r.seq_id and lo.region_id == hi.region_id == NOW + 1
    assert lo.has_references() and hi.has_references()
    assert [row for row, _ in region_rows(lo, None, None, {b"a": Q}, NOW)] == [b"a", b"b"]
    assert [row for row, _ in region_rows(hi, None, None, {b"a": Q}, NOW)] == [b"c", b"d"]
    with pytest.raises(WrongRegionError):
        lo.get(b"c", {b"a": Q}, NOW)


def test_valid_split_row_is_strictly_inside():
    r = region(b"b", b"d")
    assert [r.valid_split_row(x) for x in (None, b"", b"b", b"c", b"d")] == [
        False, False, False, True, False]


def test_a_table_configuration_entry_overrides_the_region_settings():
    r = region(configuration={"hbase.hregion.memstore.block.multiplier": "8"})
    assert r.settings.memstore_block_multiplier == 8
    assert r.blocking_memstore_size == r.flush_size * 8
    plain = region()
    assert plain.settings is plain.config
