"""hsim's exceptions. Each one stands for an HBase exception and names it in its message.

Every error is raised *before* anything is applied, so a failed request changes nothing.
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


class CorruptWALError(HsimError):
    """A WAL whose bytes do not parse (WALSplitter's CorruptedLogFileException)."""

    hbase_exception = "org.apache.hadoop.hbase.wal.WALSplitter$CorruptedLogFileException"
