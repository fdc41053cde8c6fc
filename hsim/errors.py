"""hsim's exceptions. Each one stands for an HBase exception and names it in its message.

A request rejected by the client-side checks (hsim.client.validation: types, row and cell
sizes, timestamps, names, options) changes nothing: it is raised before anything is sent. A
multi-row batch is not one transaction, as in HBase: each row's mutation is atomic, a row the
server refuses (an unknown family, say) fails alone, the other rows are applied, and the batch
raises RetriesExhaustedWithDetailsError listing the failed rows and why.
"""


class HsimError(Exception):
    """Base of every hsim error. `hbase_exception` is the Java class it stands for."""

    hbase_exception = "java.io.IOException"

    def __init__(self, message: str = ""):
        self.message = message
        super().__init__(f"{message} ({self.hbase_exception})" if message else self.hbase_exception)


class InvalidArgumentError(HsimError, ValueError):
    """Bad argument: empty or oversized row, negative timestamp, bad family option, ..."""

    hbase_exception = "java.lang.IllegalArgumentException"


class DoNotRetryError(HsimError):
    """A request the server refuses for good (non-8-byte counter, raw scan with columns, ...)."""

    hbase_exception = "org.apache.hadoop.hbase.DoNotRetryIOException"


class NoSuchColumnFamilyError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"


class TableNotFoundError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.TableNotFoundException"


class TableExistsError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.TableExistsException"


class TableNotDisabledError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.TableNotDisabledException"


class TableNotEnabledError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.TableNotEnabledException"


class TableDisabledError(DoNotRetryError):
    """A read or write to a disabled table."""

    hbase_exception = "org.apache.hadoop.hbase.TableNotEnabledException"


class WrongRegionError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.regionserver.WrongRegionException"


class RegionTooBusyError(HsimError):
    hbase_exception = "org.apache.hadoop.hbase.RegionTooBusyException"


class UnknownRegionError(HsimError):
    hbase_exception = "org.apache.hadoop.hbase.UnknownRegionException"


class IncompatibleFilterError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.filter.IncompatibleFilterException"


class FilterParseError(InvalidArgumentError):
    """A filter string ParseFilter would reject."""

    hbase_exception = "java.lang.IllegalArgumentException"


class NamespaceNotFoundError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.NamespaceNotFoundException"


class NamespaceExistError(DoNotRetryError):
    hbase_exception = "org.apache.hadoop.hbase.NamespaceExistException"


class ConstraintError(DoNotRetryError):
    """A request the master refuses by rule (a reserved namespace, a non-empty namespace)."""

    hbase_exception = "org.apache.hadoop.hbase.constraint.ConstraintException"


class RetriesExhaustedWithDetailsError(HsimError):
    """Some rows of a batch failed on the server; the others were applied. `failures` lists
    (row, error) pairs, as RetriesExhaustedWithDetailsException.getCause(i) / getRow(i)."""

    hbase_exception = "org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException"

    def __init__(self, failures: list):
        self.failures = failures
        causes = "; ".join(f"{row!r}: {err}" for row, err in failures)
        super().__init__(f"Failed {len(failures)} action(s): {causes}")
