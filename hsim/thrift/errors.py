"""How a failed request comes back to a Thrift-1 client, as HBase's ThriftHBaseServiceHandler
sends it (the shared rules: hsim.gateway.errors).

The Java handler catches IOException and sends `IOError` whose message is the exception's
stack trace (`Throwables.getStackTraceAsString`: "class: message" then the frames). Some methods
(createTable, mutateRow[s][Ts], checkAndPut) also catch IllegalArgumentException and send
`IllegalArgument`. Anything else escapes the handler, and libthrift's ProcessFunction answers
with TApplicationException(INTERNAL_ERROR, "Internal error processing <method>"). An unknown
or expired scanner id is IllegalArgument("scanner ID is invalid").
"""

from __future__ import annotations

import logging

from thriftpy2.thrift import TApplicationException
from thriftpy2.transport import TTransportException

from hsim.errors import UnknownScannerError
from hsim.gateway.errors import ErrorMapping, Escaped, java_text, rpc_decorator
from hsim.thrift.idl import ttypes

__all__ = ["Escaped", "DroppedConnection", "internal_error", "rpc", "THRIFT_ERRORS"]

log = logging.getLogger("hsim.thrift")


class DroppedConnection(TTransportException):
    """The server hangs up on this call (over a socket: the connection is closed)."""


def internal_error(api: str, cause: BaseException | None = None) -> TApplicationException:
    text = f"Internal error processing {api}"
    if cause is not None:
        text += f" ({java_text(cause)})"
    return TApplicationException(TApplicationException.INTERNAL_ERROR, text)


def dropped(api: str) -> DroppedConnection:
    """thriftpy2's end-of-file, as when a Thrift server dies or a proxy resets the socket."""
    return DroppedConnection(TTransportException.END_OF_FILE,
                             f"TSocket read 0 bytes (hsim injected a dropped connection in {api})")


class _Thrift1Errors(ErrorMapping):
    """How the Thrift-1 server answers each hsim error: the IOError, IllegalArgument or
    AlreadyExists its IDL declares."""

    declared = (ttypes.IOError, ttypes.IllegalArgument, ttypes.AlreadyExists,
                TApplicationException)

    def io_error(self, e):
        if isinstance(e, UnknownScannerError):
            return ttypes.IllegalArgument(message=e.message)
        return ttypes.IOError(message=java_text(e))

    def illegal_argument(self, e):
        return ttypes.IllegalArgument(message=java_text(e))

    def internal_error(self, api, cause=None):
        return internal_error(api, cause)

    def fault(self, f):
        return dropped(f.api) if f.kind == "disconnect" else ttypes.IOError(message=java_text(f))


THRIFT_ERRORS = _Thrift1Errors()
rpc = rpc_decorator(THRIFT_ERRORS, log)
