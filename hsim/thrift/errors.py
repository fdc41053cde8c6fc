"""How a failed request comes back to a Thrift-1 client, as HBase's ThriftHBaseServiceHandler
sends it.

The Java handler catches IOException and sends `IOError` whose message is the exception's
stack trace (`Throwables.getStackTraceAsString`: "class: message" then the frames). Some methods
(createTable, mutateRow[s][Ts], checkAndPut) also catch IllegalArgumentException and send
`IllegalArgument`. Anything else escapes the handler, and libthrift's ProcessFunction answers
with TApplicationException(INTERNAL_ERROR, "Internal error processing <method>"). hsim sends the
same types; messages keep the Java class name and message but no stack frames, and an internal
error adds the cause after HBase's text so that it says what went wrong.
"""

from __future__ import annotations

import functools
import logging

from thriftpy2.thrift import TApplicationException

from hsim.errors import HsimError, InvalidArgumentError
from hsim.thrift.idl import ttypes

log = logging.getLogger("hsim.thrift")

_DECLARED = (ttypes.IOError, ttypes.IllegalArgument, ttypes.AlreadyExists, TApplicationException)


def java_text(e: BaseException) -> str:
    """Throwables.getStackTraceAsString without the frames: "java.class.Name: message"."""
    if isinstance(e, HsimError):
        return f"{e.hbase_exception}: {e.message}" if e.message else e.hbase_exception
    return f"{type(e).__name__}: {e}"


def internal_error(api: str, cause: BaseException | None = None) -> TApplicationException:
    text = f"Internal error processing {api}"
    if cause is not None:
        text += f" ({java_text(cause)})"
    return TApplicationException(TApplicationException.INTERNAL_ERROR, text)


def io_error(e: BaseException) -> ttypes.IOError:
    return ttypes.IOError(message=java_text(e))


def illegal_argument(e: BaseException) -> ttypes.IllegalArgument:
    return ttypes.IllegalArgument(message=java_text(e))


class Escaped(Exception):
    """An exception the Java method throws outside its try block (a Put built before the
    `try`, an index out of range on a bare family): it reaches the client as an internal error
    even where the method turns IllegalArgumentException into IllegalArgument."""

    def __init__(self, cause: BaseException):
        super().__init__(str(cause))
        self.cause = cause


def rpc(catches_illegal_argument: bool = False, locked: bool = True):
    """Run a handler method as one request of the cluster, and map what it raises onto what
    HBase's handler sends for that method.
    `catches_illegal_argument`: the Java method turns IllegalArgumentException into
    IllegalArgument (otherwise it escapes as an internal error).
    `locked=False`: the method takes `cluster.request()` itself, after the work that needs no
    lock (parsing a filter string), so that work holds up no other client."""

    def wrap(fn):
        api = fn.__name__

        @functools.wraps(fn)
        def call(self, *args):
            self.faults.check(api)
            try:
                if not locked:
                    return fn(self, *args)
                with self.cluster.request():  # one Thrift call is one request: one clock tick
                    return fn(self, *args)
            except _DECLARED:
                raise
            except Escaped as e:
                raise internal_error(api, e.cause) from None
            except InvalidArgumentError as e:
                if catches_illegal_argument:
                    raise illegal_argument(e) from None
                raise internal_error(api, e) from None
            except HsimError as e:
                raise io_error(e) from None
            except Exception as e:  # a bug, or a request HBase would answer with an NPE
                log.warning("%s failed", api, exc_info=True)
                raise internal_error(api, e) from None

        return call

    return wrap

