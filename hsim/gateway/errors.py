"""How a failed request reads to a gateway's client: the Java exception text HBase's servers
put in their answers, and the mapping from hsim's errors to a protocol's exceptions that every
Thrift method goes through (`rpc`).

HBase's Thrift handlers catch IOException and answer the protocol's I/O error; some methods
also catch IllegalArgumentException and answer the protocol's illegal-argument error; anything
else escapes the handler and libthrift answers TApplicationException(INTERNAL_ERROR). hsim's
texts keep the Java class name and message but no stack frames, and an internal error adds the
cause so that it says what went wrong.
"""

from __future__ import annotations

import functools
import logging

from hsim.errors import HsimError, InvalidArgumentError
from hsim.gateway.faults import InjectedFault


def java_text(e: BaseException) -> str:
    """Throwables.getStackTraceAsString without the frames: "java.class.Name: message"."""
    if isinstance(e, InjectedFault):
        return f"java.io.IOException: {e.message}"
    if isinstance(e, HsimError):
        return f"{e.hbase_exception}: {e.message}" if e.message else e.hbase_exception
    return f"{type(e).__name__}: {e}"


class Escaped(Exception):
    """An exception the Java method throws outside its try block (a Put built before the
    `try`, an index out of range on a bare family): it reaches the client as an internal error
    even where the method turns IllegalArgumentException into the protocol's own error."""

    def __init__(self, cause: BaseException):
        super().__init__(str(cause))
        self.cause = cause


class ErrorMapping:
    """One protocol's answers. `declared`: exceptions sent as they are raised; the methods
    build the protocol's exception for an IOException, an IllegalArgumentException, anything
    else (`internal_error`) and an injected fault."""

    declared: tuple = ()

    def io_error(self, e: BaseException) -> Exception:
        raise NotImplementedError

    def illegal_argument(self, e: BaseException) -> Exception:
        raise NotImplementedError

    def internal_error(self, api: str, cause: BaseException | None = None) -> Exception:
        raise NotImplementedError

    def fault(self, f: InjectedFault) -> Exception:
        raise NotImplementedError


def rpc_decorator(mapping: ErrorMapping, log: logging.Logger):
    """The `rpc` decorator of a protocol's handler (whose instances have `.cluster` and
    `.faults`): run a method as one request of the cluster and map what it raises."""

    def rpc(catches_illegal_argument: bool = False, locked: bool = True):
        """`catches_illegal_argument`: the Java method turns IllegalArgumentException into the
        protocol's illegal-argument error (otherwise it escapes as an internal error).
        `locked=False`: the method takes `cluster.request()` itself, after the work that needs
        no lock (parsing a filter string), so that work holds up no other client."""

        def wrap(fn):
            api = fn.__name__

            @functools.wraps(fn)
            def call(self, *args, **kwargs):
                try:
                    self.faults.check(api)
                except InjectedFault as f:
                    raise mapping.fault(f) from None
                try:
                    if not locked:
                        return fn(self, *args, **kwargs)
                    with self.cluster.request():  # one call is one request: one clock tick
                        return fn(self, *args, **kwargs)
                except mapping.declared:
                    raise
                except Escaped as e:
                    raise mapping.internal_error(api, e.cause) from None
                except InvalidArgumentError as e:
                    if catches_illegal_argument:
                        raise mapping.illegal_argument(e) from None
                    raise mapping.internal_error(api, e) from None
                except HsimError as e:
                    raise mapping.io_error(e) from None
                except Exception as e:  # a bug, or a request HBase would answer with an NPE
                    log.warning("%s failed", api, exc_info=True)
                    raise mapping.internal_error(api, e) from None

            return call

        return wrap

    return rpc
