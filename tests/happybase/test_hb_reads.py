"""happybase's read methods (row, rows, cells, scan) with the results HBase's Thrift-1 server
gives, in-process and over a socket."""

from collections import OrderedDict

import pytest
from thriftpy2.thrift import TApplicationException

from hsim.thrift.idl import ttypes


def _load(table, n=10):
    """Rows r00..r09: cf:a = str(i) at ts 10; g:x on even rows at ts 20."""
    with table.batch(timestamp=10) as b:
        for i in range(n):
            b.put(b"r%02d" % i, {b"cf:a": str(i).encode()})
    with table.batch(timestamp=20) as b:
        for i in range(0, n, 2):
            b.put(b"r%02d" % i, {b"g:x": b"x%d" % i})


# --- row / rows -------------------------------------------------------------------------------
def test_row_returns_latest_values_and_timestamps(table):
    table.put(b"r1", {b"cf:a": b"1", b"cf:b": b"2"}, timestamp=10)
    table.put(b"r1", {b"cf:a": b"3"}, timestamp=20)
    assert table.row(b"r1") == {b"cf:a": b"3", b"cf:b": b"2"}
    assert table.row(b"r1", include_timestamp=True) == {b"cf:a": (b"3", 20), b"cf:b": (b"2", 10)}
    assert table.row(b"missing") == {}


def test_row_timestamp_is_an_exclusive_upper_bound(table):
    for ts in (10, 20, 30):
        table.put(b"r", {b"cf:a": b"v%d" % ts}, timestamp=ts)
    assert table.row(b"r", timestamp=20) == {b"cf:a": b"v10"}
    assert table.row(b"r", timestamp=21) == {b"cf:a": b"v20"}
    assert table.row(b"r", timestamp=10) == {}
    assert table.row(b"r", timestamp=31, include_timestamp=True) == {b"cf:a": (b"v30", 30)}


def test_row_column_specs(table):
    table.put(b"r", {b"cf:a": b"1", b"cf:b": b"2", b"cf:": b"empty", b"g:x": b"3"})
    assert table.row(b"r", columns=[b"cf"]) == {b"cf:a": b"1", b"cf:b": b"2", b"cf:": b"empty"}
    # 'cf:' is the empty qualifier, not the family (CellUtil.parseColumn, HBASE-9549)
    assert table.row(b"r", columns=[b"cf:"]) == {b"cf:": b"empty"}
    assert table.row(b"r", columns=(b"cf:a", b"g")) == {b"cf:a": b"1", b"g:x": b"3"}
    assert table.row(b"r", columns=["cf:b"]) == {b"cf:b": b"2"}
    # Get.addColumn after addFamily narrows the family again; addFamily after widens it
    assert table.row(b"r", columns=[b"cf", b"cf:a"]) == {b"cf:a": b"1"}
    assert table.row(b"r", columns=[b"cf:a", b"cf"]) == {b"cf:a": b"1", b"cf:b": b"2",
                                                           b"cf:": b"empty"}
    assert table.row(b"r", columns=[b"cf:zz"]) == {}


def test_row_argument_checks_are_happybases(table):
    with pytest.raises(TypeError):
        table.row(b"r", columns=b"cf:a")
    with pytest.raises(TypeError):
        table.row(b"r", timestamp="10")


def test_row_errors(env, table):
    with pytest.raises(ttypes.IOError) as e:
        table.row(b"r", columns=[b"nope"])
    assert b"NoSuchColumnFamilyException" in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        env.conn.table("missing").row(b"r")
    assert e.value.message == b"org.apache.hadoop.hbase.TableNotFoundException: missing"
    with pytest.raises(TApplicationException) as e:  # new Get(empty row) escapes the handler
        table.row(b"")
    assert e.value.type == TApplicationException.INTERNAL_ERROR
    assert b"Row length is 0" in e.value.message


def test_row_column_map_is_in_java_bytebuffer_order(table):
    table.put(b"r", {b"cf:a": b"1", b"cf:B": b"2", b"cf:\xff": b"3"})
    # ByteBuffer.compareTo compares signed bytes: 0xff (-1) sorts first
    assert list(table.row(b"r")) == [b"cf:\xff", b"cf:B", b"cf:a"]


def test_rows_keeps_request_order_and_omits_missing_rows(table):
    _load(table, 4)
    got = table.rows([b"r03", b"nope", b"r00", b"r03"])
    assert got == [(b"r03", {b"cf:a": b"3"}), (b"r00", {b"cf:a": b"0", b"g:x": b"x0"}),
                   (b"r03", {b"cf:a": b"3"})]
    assert table.rows([]) == {}  # happybase's own quirk: no round trip, a dict
    assert table.rows([b"r00", b"r02"], columns=[b"g"]) == [(b"r00", {b"g:x": b"x0"}),
                                                           (b"r02", {b"g:x": b"x2"})]
    assert table.rows([b"r00", b"r01"], timestamp=20) == [(b"r00", {b"cf:a": b"0"}),
                                                          (b"r01", {b"cf:a": b"1"})]
    assert table.rows([b"r00"], timestamp=21, include_timestamp=True) == [
        (b"r00", {b"cf:a": (b"0", 10), b"g:x": (b"x0", 20)})]


# --- cells ------------------------------------------------------------------------------------
def test_cells_newest_first_capped_by_family_versions(table):
    for ts in range(1, 6):
        table.put(b"r", {b"cf:a": b"v%d" % ts}, timestamp=ts)
    assert table.cells(b"r", b"cf:a") == [b"v5", b"v4", b"v3"]  # VERSIONS => 3
    assert table.cells(b"r", b"cf:a", versions=2) == [b"v5", b"v4"]
    assert table.cells(b"r", b"cf:a", versions=2, timestamp=5) == [b"v4", b"v3"]
    assert table.cells(b"r", b"cf:a", versions=1, timestamp=4, include_timestamp=True) == [
        (b"v3", 3)]
    assert table.cells(b"r", b"cf:zz") == []
    assert table.cells(b"missing", b"cf:a") == []


def test_cells_of_a_family_and_argument_checks(table):
    table.put(b"r", {b"cf:a": b"1", b"cf:b": b"2"}, timestamp=5)
    assert table.cells(b"r", b"cf") == [b"1", b"2"]
    with pytest.raises(ValueError):
        table.cells(b"r", b"cf:a", versions=0)
    with pytest.raises(TypeError):
        table.cells(b"r", b"cf:a", versions="2")


# --- scan -------------------------------------------------------------------------------------
def _keys(rows):
    return [k for k, _ in rows]


def test_scan_whole_table_and_ranges(table):
    _load(table)
    rows = list(table.scan())
    assert _keys(rows) == [b"r%02d" % i for i in range(10)]
    assert rows[0] == (b"r00", {b"cf:a": b"0", b"g:x": b"x0"})
    assert rows[1] == (b"r01", {b"cf:a": b"1"})
    assert _keys(table.scan(row_start=b"r03", row_stop=b"r06")) == [b"r03", b"r04", b"r05"]
    assert _keys(table.scan(row_start=b"r075")) == [b"r08", b"r09"]
    assert _keys(table.scan(row_stop=b"r02")) == [b"r00", b"r01"]
    assert _keys(table.scan(row_prefix=b"r0")) == _keys(rows)
    assert list(table.scan(row_prefix=b"x")) == []
    with pytest.raises(TypeError):
        list(table.scan(row_prefix=b"r", row_start=b"r1"))


def test_scan_columns_timestamp_and_include_timestamp(table):
    _load(table, 4)
    assert list(table.scan(columns=[b"g:x"])) == [(b"r00", {b"g:x": b"x0"}),
                                                   (b"r02", {b"g:x": b"x2"})]
    assert list(table.scan(timestamp=20, row_stop=b"r02")) == [(b"r00", {b"cf:a": b"0"}),
                                                                (b"r01", {b"cf:a": b"1"})]
    assert list(table.scan(timestamp=10)) == []
    assert list(table.scan(row_stop=b"r01", include_timestamp=True)) == [
        (b"r00", {b"cf:a": (b"0", 10), b"g:x": (b"x0", 20)})]


def test_scan_filter_strings(table):
    _load(table)
    assert list(table.scan(filter="SingleColumnValueFilter('cf', 'a', =, 'binary:3')")) == [
        (b"r03", {b"cf:a": b"3"})]
    assert list(table.scan(filter=b"KeyOnlyFilter() AND PrefixFilter('r0')", limit=1)) == [
        (b"r00", {b"cf:a": b"", b"g:x": b""})]
    assert _keys(table.scan(filter="RowFilter(>=, 'binary:r08')")) == [b"r08", b"r09"]
    with pytest.raises(TApplicationException) as e:  # ParseFilter's IllegalArgumentException
        list(table.scan(filter="NoSuchFilter()"))
    assert b"Internal error processing scannerOpenWithScan" in e.value.message


@pytest.mark.parametrize("batch_size", [1, 3, 1000])
def test_scan_batch_size_and_limit(env, table, batch_size):
    _load(table)
    assert _keys(table.scan(batch_size=batch_size)) == [b"r%02d" % i for i in range(10)]
    assert _keys(table.scan(batch_size=batch_size, limit=4)) == [b"r00", b"r01", b"r02", b"r03"]
    assert env.open_scanners == 0


def test_scan_batching_cuts_rows_into_partial_results(table):
    _load(table, 3)
    assert list(table.scan(scan_batching=1)) == [
        (b"r00", {b"cf:a": b"0"}), (b"r00", {b"g:x": b"x0"}), (b"r01", {b"cf:a": b"1"}),
        (b"r02", {b"cf:a": b"2"}), (b"r02", {b"g:x": b"x2"})]


def test_scan_sorted_columns(table):
    table.put(b"r", {b"g:x": b"1", b"cf:b": b"2", b"cf:a": b"3", b"cf:\xff": b"4"})
    (key, row), = table.scan(sorted_columns=True)
    assert isinstance(row, OrderedDict)
    assert list(row) == [b"cf:a", b"cf:b", b"cf:\xff", b"g:x"]  # the Result's cell order


def test_scan_reverse(table):
    _load(table)
    assert _keys(table.scan(reverse=True)) == [b"r%02d" % i for i in range(9, -1, -1)]
    assert _keys(table.scan(reverse=True, row_start=b"r05", row_stop=b"r02")) == [
        b"r05", b"r04", b"r03"]
    table.put(b"s1", {b"cf:a": b"x"})
    assert _keys(table.scan(reverse=True, row_prefix=b"r0", limit=2)) == [b"r09", b"r08"]
    assert _keys(table.scan(reverse=True, limit=1)) == [b"s1"]


def test_scan_omits_rows_without_visible_cells(env, table):
    _load(table, 4)
    # deletes take the server's now (2026 on the ticking clock); the cells were written at 10, 20
    table.delete(b"r01")
    table.delete(b"r02", columns=[b"cf:a", b"g:x"])
    assert _keys(table.scan()) == [b"r00", b"r03"]
    assert _keys(table.scan(columns=[b"g"])) == [b"r00"]


def test_scanners_are_closed_when_done_or_abandoned(env, table):
    _load(table)
    gen = table.scan(batch_size=2)
    next(gen)
    assert env.open_scanners == 1
    gen.close()  # happybase's finally: scannerClose
    assert env.open_scanners == 0
    list(table.scan())
    assert env.open_scanners == 0


def test_scan_argument_checks_and_errors(env, table):
    with pytest.raises(ValueError):
        list(table.scan(batch_size=0))
    with pytest.raises(ValueError):
        list(table.scan(limit=0))
    with pytest.raises(ValueError):
        list(table.scan(scan_batching=0))
    with pytest.raises(ttypes.IOError) as e:
        list(env.conn.table("missing").scan())
    assert b"TableNotFoundException" in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        list(table.scan(columns=[b"nope:x"]))
    assert b"NoSuchColumnFamilyException" in e.value.message


def test_compat_090_scans_use_the_old_scanner_methods(env, table):
    _load(table, 4)
    old = env.connection(compat="0.90").table("t")
    assert _keys(old.scan()) == [b"r00", b"r01", b"r02", b"r03"]  # scannerOpen
    assert _keys(old.scan(row_start=b"r01", row_stop=b"r03")) == [b"r01", b"r02"]
    assert list(old.scan(row_stop=b"r01", timestamp=20)) == [(b"r00", {b"cf:a": b"0"})]
    assert list(old.scan(columns=[b"g"], timestamp=21)) == [(b"r00", {b"g:x": b"x0"}),
                                                            (b"r02", {b"g:x": b"x2"})]
