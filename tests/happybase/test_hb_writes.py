"""happybase's writes (put, delete, batch) and counters with HBase's results, in-process and
over a socket."""

import struct

import pytest
from thriftpy2.thrift import TApplicationException

from hsim.thrift.idl import ttypes


def test_put_with_and_without_timestamp(env, table):
    now = env.clock.advance(1_000)  # the next request gets exactly this time
    table.put(b"r", {b"cf:a": b"1"})
    table.put(b"r", {"cf:b": "two"}, timestamp=5, wal=False)
    assert table.row(b"r", include_timestamp=True) == {b"cf:a": (b"1", now),
                                                       b"cf:b": (b"two", 5)}
    table.put(b"r", {b"cf:a": b""})  # an empty value is a value
    assert table.row(b"r", columns=[b"cf:a"]) == {b"cf:a": b""}


def test_put_errors_change_nothing(table):
    with pytest.raises(TApplicationException) as e:  # Put to a bare family: mutateRows' IAE
        table.put(b"r", {b"cf": b"x"})
    assert b"Invalid famAndQf provided." in e.value.message
    with pytest.raises(ttypes.IOError) as e:
        table.put(b"r", {b"nope:a": b"x"})
    assert b"NoSuchColumnFamilyException" in e.value.message
    assert table.row(b"r") == {}


def test_delete_row_columns_and_families(env, table):
    table.put(b"r", {b"cf:a": b"1", b"cf:b": b"2", b"g:x": b"3"}, timestamp=10)
    table.delete(b"r", columns=[b"cf:a"])
    assert table.row(b"r") == {b"cf:b": b"2", b"g:x": b"3"}
    table.delete(b"r", columns=[b"cf"])  # a bare family: DeleteFamily
    assert table.row(b"r") == {b"g:x": b"3"}
    table.put(b"r2", {b"cf:a": b"1", b"g:x": b"3"}, timestamp=10)
    table.delete(b"r2")
    assert table.row(b"r2") == {}


def test_delete_timestamp_removes_every_version_at_or_below_it(table):
    for ts in (10, 20, 30):
        table.put(b"r", {b"cf:a": b"v%d" % ts, b"cf:b": b"w%d" % ts}, timestamp=ts)
    table.delete(b"r", columns=[b"cf:a"], timestamp=20)
    assert table.cells(b"r", b"cf:a", include_timestamp=True) == [(b"v30", 30)]
    # the marker also masks a put at or below 20 written after it
    table.put(b"r", {b"cf:a": b"late"}, timestamp=15)
    assert table.cells(b"r", b"cf:a") == [b"v30"]
    table.delete(b"r", timestamp=20)  # every family, every column, <= 20
    assert table.row(b"r") == {b"cf:a": b"v30", b"cf:b": b"w30"}


def test_batch_sends_on_exit_and_in_batch_size_chunks(table):
    with table.batch() as b:
        b.put(b"r1", {b"cf:a": b"1"})
        b.put(b"r2", {b"cf:a": b"2"})
        assert table.row(b"r1") == {}
    assert table.row(b"r2") == {b"cf:a": b"2"}

    b = table.batch(batch_size=3)
    b.put(b"s1", {b"cf:a": b"1", b"cf:b": b"1"})
    assert table.row(b"s1") == {}
    b.put(b"s2", {b"cf:a": b"2"})  # 3 mutations (cells, not rows): sent
    assert table.row(b"s1") == {b"cf:a": b"1", b"cf:b": b"1"}
    b.put(b"s3", {b"cf:a": b"3"})
    assert table.row(b"s3") == {}
    b.send()
    assert table.row(b"s3") == {b"cf:a": b"3"}


def test_batch_transaction_sends_nothing_on_error(table):
    with pytest.raises(KeyError):
        with table.batch(transaction=True) as b:
            b.put(b"r1", {b"cf:a": b"1"})
            raise KeyError("application error")
    assert table.row(b"r1") == {}
    with pytest.raises(KeyError):
        with table.batch() as b:
            b.put(b"r1", {b"cf:a": b"1"})
            raise KeyError("application error")
    assert table.row(b"r1") == {b"cf:a": b"1"}


def test_batch_timestamp_applies_to_puts_and_deletes(table):
    table.put(b"r", {b"cf:a": b"old"}, timestamp=5)
    with table.batch(timestamp=7) as b:
        b.put(b"r2", {b"cf:a": b"x"})
        b.delete(b"r", columns=[b"cf:a"])
    assert table.row(b"r2", include_timestamp=True) == {b"cf:a": (b"x", 7)}
    assert table.row(b"r") == {}


@pytest.mark.parametrize("delete_first", [False, True])
def test_batch_delete_masks_put_of_the_same_column_whatever_the_order(table, delete_first):
    table.put(b"r", {b"cf:b": b"keep"}, timestamp=1)
    with table.batch() as b:  # mutateRows: all puts, then all deletes
        if delete_first:
            b.delete(b"r", columns=[b"cf:a"])
        b.put(b"r", {b"cf:a": b"new"})
        if not delete_first:
            b.delete(b"r", columns=[b"cf:a"])
    assert table.row(b"r") == {b"cf:b": b"keep"}


def test_batch_argument_checks_are_happybases(table):
    with pytest.raises(TypeError):
        table.batch(timestamp="1")
    with pytest.raises(TypeError):
        table.batch(transaction=True, batch_size=2)
    with pytest.raises(ValueError):
        table.batch(batch_size=0)


def test_counters(table):
    assert table.counter_get(b"r", b"cf:c") == 0  # an increment by 0 ...
    assert table.row(b"r") == {b"cf:c": b"\x00" * 8}  # ... which writes the cell
    assert table.counter_inc(b"r", b"cf:c") == 1
    assert table.counter_inc(b"r", "cf:c", value=41) == 42
    assert table.counter_dec(b"r", b"cf:c", value=50) == -8
    assert table.row(b"r")[b"cf:c"] == struct.pack(">q", -8)
    table.counter_set(b"r", b"cf:d", 10)
    assert table.counter_inc(b"r", b"cf:d", 5) == 15
    assert table.counter_inc(b"r", b"g", 3) == 3  # a bare family counts in the empty qualifier
    assert table.row(b"r", columns=[b"g:"]) == {b"g:": struct.pack(">q", 3)}


def test_counter_on_a_non_counter_cell_is_an_ioerror(table):
    table.put(b"r", {b"cf:c": b"abc"})
    with pytest.raises(ttypes.IOError) as e:
        table.counter_inc(b"r", b"cf:c")
    assert b"Field is not a long, it's 3 bytes wide" in e.value.message
    assert table.row(b"r") == {b"cf:c": b"abc"}
