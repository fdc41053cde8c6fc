"""How a failed request comes back to a Thrift2 client, as HBase's thrift2
ThriftHBaseServiceHandler sends it (the shared rules: hsim.gateway.errors).

Every method catches IOException and sends `TIOError` with the exception's message and
`canRetry` false for a DoNotRetryIOException (getTIOError). An unknown scanner id is
`TIllegalArgument("Invalid scanner Id")`. Anything else (an IllegalArgumentException from a
malformed TDelete, a bad table name) escapes the handler, and libthrift answers
TApplicationException(INTERNAL_ERROR). A read-only gateway answers every write with TIOError
"Thrift Server is in Read-only mode." (DoNotRetryIOException).
"""

from __future__ import annotations

import logging

from thriftpy2.thrift import TApplicationException

from hsim.errors import DoNotRetryError, HsimError, UnknownScannerError
from hsim.gateway.errors import ErrorMapping, java_text, rpc_decorator
from hsim.thrift.errors import dropped, internal_error
from hsim.thrift2_server.idl import ttypes

log = logging.getLogger("hsim.thrift2")


class ReadOnlyError(DoNotRetryError):
    """A write to a gateway started read-only (hbase.thrift.readonly)."""

    def __init__(self):
        super().__init__("Thrift Server is in Read-only mode.")


def tio_error(e: BaseException):
    if isinstance(e, HsimError):
        message = e.message or e.hbase_exception
        return ttypes.TIOError(message=message, canRetry=not isinstance(e, DoNotRetryError))
    return ttypes.TIOError(message=java_text(e), canRetry=False)


class _Thrift2Errors(ErrorMapping):
    """How the Thrift2 server answers each hsim error: the TIOError or TIllegalArgument its IDL
    declares."""

    declared = (ttypes.TIOError, ttypes.TIllegalArgument, TApplicationException)

    def io_error(self, e):
        if isinstance(e, UnknownScannerError):
            return ttypes.TIllegalArgument(message="Invalid scanner Id")
        return tio_error(e)

    def illegal_argument(self, e):
        return ttypes.TIllegalArgument(message=java_text(e))

    def internal_error(self, api, cause=None):
        return internal_error(api, cause)

    def fault(self, f):
        if f.kind == "disconnect":
            return dropped(f.api)
        return ttypes.TIOError(message=java_text(f), canRetry=True)


rpc = rpc_decorator(_Thrift2Errors(), log)
