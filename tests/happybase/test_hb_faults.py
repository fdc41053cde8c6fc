"""Failure injection: the next N Thrift calls fail as a real client sees it."""

import pytest
from thriftpy2.transport import TTransportException

from hsim.thrift.idl import ttypes


def test_ioerror_then_success_changes_nothing(env, table):
    env.handler.faults.fail_next(2, "ioerror")
    for _ in range(2):
        with pytest.raises(ttypes.IOError, match="hsim injected a failure in mutateRows"):
            table.put(b"r", {b"cf:q": b"v"})
    assert table.row(b"r") == {}  # the failed calls ran nothing
    table.put(b"r", {b"cf:q": b"v"})  # the retry goes through
    assert table.row(b"r") == {b"cf:q": b"v"}
    assert env.handler.faults.injected == 2 and env.handler.faults.pending == 0


def test_dropped_connection_and_a_new_one(env, table):
    env.handler.faults.fail_next(1, "disconnect")
    with pytest.raises(TTransportException):
        table.row(b"r")
    conn = env.connection()  # what retry code does: a fresh connection
    assert conn.table("t").row(b"r") == {}


def test_bad_fault_requests_are_refused(hsim_faults):
    import hsim

    with pytest.raises(hsim.InvalidArgumentError):
        hsim_faults.fail_next(1, "slow")
    with pytest.raises(hsim.InvalidArgumentError):
        hsim_faults.fail_next(-1)
    assert hsim_faults.pending == 0


def test_the_plugin_fixture_reaches_the_in_process_server(hsim_faults, hsim_connection):
    hsim_faults.fail_next(1)
    with pytest.raises(ttypes.IOError):
        hsim_connection.tables()
    assert hsim_connection.tables() == []
