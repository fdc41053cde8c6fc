"""`hsim serve --fail-next N --fail-kind KIND`: the first N calls fail as a client sees it."""

import signal

import happybase
import pytest
from thriftpy2.transport import TTransportException

from hsim.thrift.idl import ttypes

pytestmark = pytest.mark.slow  # `hsim serve` processes over sockets


def test_serve_fails_the_first_calls(hsim_serve):
    with hsim_serve("--fail-next", "1", "--fail-kind", "disconnect") as (proc, port):
        conn = happybase.Connection("127.0.0.1", port)
        with pytest.raises(TTransportException):
            conn.tables()
        conn = happybase.Connection("127.0.0.1", port)  # retry on a new connection
        assert conn.tables() == []
        conn.close()
        proc.send_signal(signal.SIGTERM)
        proc.communicate()
    with hsim_serve("--fail-next", "2") as (proc, port):
        conn = happybase.Connection("127.0.0.1", port)
        for _ in range(2):
            with pytest.raises(ttypes.IOError):
                conn.create_table("t", {"cf": None})
        conn.create_table("t", {"cf": None})
        assert conn.tables() == [b"t"]
        conn.close()
        proc.send_signal(signal.SIGTERM)
        proc.communicate()
