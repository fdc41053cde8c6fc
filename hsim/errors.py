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
    """A request names a column family the table does not have."""

    hbase_exception = "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"


class TableNotFoundError(DoNotRetryError):
    """The table does not exist."""

    hbase_exception = "org.apache.hadoop.hbase.TableNotFoundException"


class TableExistsError(DoNotRetryError):
    """create_table of a name that is already taken."""

    hbase_exception = "org.apache.hadoop.hbase.TableExistsException"


class TableNotDisabledError(DoNotRetryError):
    """The operation needs a disabled table (delete_table, some schema changes)."""

    hbase_exception = "org.apache.hadoop.hbase.TableNotDisabledException"


class TableNotEnabledError(DoNotRetryError):
    """The operation needs an enabled table (disable_table of a disabled one)."""

    hbase_exception = "org.apache.hadoop.hbase.TableNotEnabledException"


class TableDisabledError(DoNotRetryError):
    """A read or write to a disabled table."""

    hbase_exception = "org.apache.hadoop.hbase.TableNotEnabledException"


class WrongRegionError(DoNotRetryError):
    """A row sent to a region whose key range does not hold it."""

    hbase_exception = "org.apache.hadoop.hbase.regionserver.WrongRegionException"


class WrongRowError(HsimError):
    """A RowMutations (Table.check_and_mutate's mutations) holding a mutation of another row."""

    hbase_exception = "org.apache.hadoop.hbase.client.WrongRowIOException"


class NotServingRegionError(HsimError):
    """A request sent to a region server for a region it does not hold (closed, moved, split)."""

    hbase_exception = "org.apache.hadoop.hbase.NotServingRegionException"


class RegionTooBusyError(HsimError):
    """The region's memstore is over its blocking size: writes wait for a flush."""

    hbase_exception = "org.apache.hadoop.hbase.RegionTooBusyException"


class UnknownRegionError(HsimError):
    """An admin operation names a region that does not exist."""

    hbase_exception = "org.apache.hadoop.hbase.UnknownRegionException"


class IncompatibleFilterError(DoNotRetryError):
    """A filter combined with a request it cannot serve."""

    hbase_exception = "org.apache.hadoop.hbase.filter.IncompatibleFilterException"


class TimeoutIOError(HsimError):
    """A request's work ran past its budget (a regular expression's matching time) and was
    abandoned; nothing it would have written was applied."""

    hbase_exception = "org.apache.hadoop.hbase.exceptions.TimeoutIOException"


class TooManyScannersError(DoNotRetryError):
    """The Thrift server's open-scanner cap (per connection or per server) is reached: close
    scanners or wait for idle ones to expire."""

    hbase_exception = "org.apache.hadoop.hbase.DoNotRetryIOException"


class UnknownScannerError(DoNotRetryError):
    """A gateway's scanner id that was never handed out, was closed or whose lease expired."""

    hbase_exception = "org.apache.hadoop.hbase.UnknownScannerException"


class FilterParseError(InvalidArgumentError):
    """A filter string ParseFilter would reject."""

    hbase_exception = "java.lang.IllegalArgumentException"


class NamespaceNotFoundError(DoNotRetryError):
    """A table named in a namespace that does not exist (create it with create_namespace)."""

    hbase_exception = "org.apache.hadoop.hbase.NamespaceNotFoundException"


class NamespaceExistError(DoNotRetryError):
    """create_namespace of a namespace that already exists."""

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


class CatalogError(HsimError):
    """HMaster.checkTableModifiable: hbase:meta cannot be written, altered, truncated or
    dropped."""

    hbase_exception = "java.io.IOException"


class CatalogDisableError(HsimError):
    """DisableTableProcedure.prepareDisable refuses to disable hbase:meta."""

    hbase_exception = "org.apache.hadoop.hbase.constraint.ConstraintException"


class CorruptWALError(HsimError):
    """A WAL whose bytes do not parse (WALSplitter's CorruptedLogFileException)."""

    hbase_exception = "org.apache.hadoop.hbase.wal.WALSplitter$CorruptedLogFileException"


class FileSystemVersionError(HsimError):
    """A data directory written by another hsim format version (FSUtils.checkVersion)."""

    hbase_exception = "org.apache.hadoop.hbase.util.FileSystemVersionException"


class CorruptHFileError(HsimError):
    """A store file whose bytes are not a readable HFile (truncated, overwritten, missing)."""

    hbase_exception = "org.apache.hadoop.hbase.io.hfile.CorruptHFileException"


class TableInfoMissingError(HsimError):
    """A table directory without a readable descriptor (FSTableDescriptors)."""

    hbase_exception = "org.apache.hadoop.hbase.TableInfoMissingException"


class DeserializationError(HsimError):
    """A .regioninfo or reference file that does not parse (RegionInfo.parseFrom)."""

    hbase_exception = "org.apache.hadoop.hbase.exceptions.DeserializationException"


class DiskIOError(HsimError):
    """A write to the data directory the disk refused (full, or an I/O error): what it was part
    of is not applied, or is left as it was and retried (docs/durability.md)."""

    hbase_exception = "java.io.IOException"


class DamagedWALError(DiskIOError):
    """A WAL append or sync that did not reach the disk: the mutation is not applied and not
    acknowledged (AbstractFSWAL's DamagedWALException)."""

    hbase_exception = "org.apache.hadoop.hbase.regionserver.wal.DamagedWALException"


class DroppedSnapshotError(DiskIOError):
    """A flush that could not write its file: the MemStore snapshot is put back and the flush
    retried later; the edits stay in the WAL (DroppedSnapshotException)."""

    hbase_exception = "org.apache.hadoop.hbase.DroppedSnapshotException"


class ClusterClosedError(DoNotRetryError):
    """A request on a Cluster after close() (ConnectionImplementation.checkClosed)."""


class DataDirLockedError(HsimError):
    """A data directory another live process has open: its lock file is held (as HDFS refuses
    a second writer of a file hbck's lock holds)."""

    hbase_exception = "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException"


class RegionChainError(HsimError):
    """A data directory whose regions do not tile a table: a hole or an overlap in the region
    chain (hbck's HOLE_IN_REGION_CHAIN, OVERLAP_IN_REGION_CHAIN), or a .regioninfo whose
    boundaries do not match its region's name."""


class CorruptProcedureStoreError(HsimError):
    """A procedure journal whose records do not parse (before its torn tail)."""

    hbase_exception = ("org.apache.hadoop.hbase.procedure2.store.wal."
                       "CorruptedWALProcedureStoreException")


class MergeRegionError(DoNotRetryError):
    """A merge the master refuses: the same region twice, regions of two tables, regions not
    adjacent (unless forcible), a region not online or still holding merge references."""

    hbase_exception = "org.apache.hadoop.hbase.exceptions.MergeRegionException"


class SnapshotExistsError(DoNotRetryError):
    """A snapshot of that name exists already."""

    hbase_exception = "org.apache.hadoop.hbase.snapshot.SnapshotExistsException"


class SnapshotNotFoundError(DoNotRetryError):
    """No snapshot of that name."""

    hbase_exception = "org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException"
