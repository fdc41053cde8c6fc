"""The Thrift-1 `Hbase` service over hsim's native API, method for method as HBase's
ThriftHBaseServiceHandler (hbase-thrift, branch-2) implements it:

- a read timestamp T is `setTimeRange(0, T)`: versions strictly older than T;
- a delete timestamp T is `Delete.addColumns(f, q, T)` / `addFamily(f, T)`: every version <= T;
- the non-Ts methods pass HConstants.LATEST_TIMESTAMP, which the region turns into its now;
- mutateRows[Ts] builds one Put and one Delete per row, then applies all the puts, then all the
  deletes; mutateRow[Ts] applies its row's delete first, then its put;
- rows whose Result is empty are left out (ThriftUtilities.rowResultFromHBase);
- majorCompact requests the same compaction as compact, as HBase 2's handler does
  (it calls Admin.compactRegion / Admin.compact for both);
- getRowOrBefore is in happybase's older IDL but not in HBase 2's: an unknown method.

Method and argument names are the IDL's, since thriftpy2's processor calls them by name.
Errors: see hsim.thrift.errors.
"""

from __future__ import annotations

from thriftpy2.thrift import TApplicationException

from hsim.client.batch import Mutation
from hsim.durability import Durability
from hsim.errors import HsimError, InvalidArgumentError, TableNotFoundError, UnknownRegionError
from hsim.filters.parser import parse_filter
from hsim.cell import check_row
from hsim.client import validation
from hsim.gateway import columns as cols
from hsim.gateway.errors import Escaped
from hsim.gateway.faults import Faults
from hsim.gateway.ordering import java_order
from hsim.gateway.scanners import MAX_SCANNERS, MAX_SCANNERS_PER_CONNECTION, Scanners
from hsim.thrift.descriptors import family_from_thrift, family_to_thrift
from hsim.thrift.errors import rpc
from hsim.thrift.idl import LATEST_TIMESTAMP, ttypes
from hsim.thrift.results import row_result, row_results, tcells

_HREGION_VERSION = 1  # ThriftHBaseServiceHandler.HREGION_VERSION


def _table_name(name) -> str:
    """TableName.valueOf: an illegal name is an IllegalArgumentException."""
    return validation.table_name(name.decode("utf-8", "replace"))


def _upto(timestamp: int):
    """setTimeRange(0, T); LATEST_TIMESTAMP reads everything."""
    return None if timestamp == LATEST_TIMESTAMP else (0, timestamp)


def _qualified(column: bytes) -> tuple[bytes, bytes]:
    """KeyValue.parseColumn(c)[1] on a bare family is an ArrayIndexOutOfBoundsException."""
    family, qualifier = cols.parse_column(column)
    if qualifier is None:
        raise Escaped(InvalidArgumentError(f"column {column!r} has no qualifier"))
    return family, qualifier


def _scanner_open(api: str, *fields: str):
    """A scannerOpen* RPC that opens a scanner from `fields` (HbaseHandler._open's keywords),
    given positionally after tableName and before the attributes map."""

    def open_scanner(self, tableName, *args):
        if len(args) != len(fields) + 1:
            raise TypeError(f"{api}() takes tableName, {', '.join(fields)} and attributes")
        return self._open(tableName, **dict(zip(fields, args)))

    open_scanner.__name__ = open_scanner.__qualname__ = api
    return rpc()(open_scanner)


class HbaseHandler:
    """Serves one cluster. Thread-safe: each native call takes the cluster's lock, and open
    scanners are read region by region in batches."""

    def __init__(self, cluster, max_scanners: int = MAX_SCANNERS,
                 max_scanners_per_connection: int = MAX_SCANNERS_PER_CONNECTION):
        self.cluster = cluster
        self.admin = cluster.admin
        self.scanners = Scanners(cluster.config.scanner_timeout_ms, max_scanners,
                                 max_scanners_per_connection)
        self.faults = Faults()  # failure injection: faults.fail_next(n, "ioerror"|"disconnect")

    def _table(self, name):
        return self.cluster.table(_table_name(name))

    def connection(self):
        """`with handler.connection():` around the calls of one client connection, so that
        scanners count against that connection's cap (and are not left behind by it)."""
        return self.scanners.connection()

    # --- tables -------------------------------------------------------------------------------
    @rpc()
    def enableTable(self, tableName):
        self.admin.enable_table(_table_name(tableName))

    @rpc()
    def disableTable(self, tableName):
        self.admin.disable_table(_table_name(tableName))

    @rpc()
    def isTableEnabled(self, tableName):
        return self.admin.is_table_enabled(_table_name(tableName))

    @rpc()
    def compact(self, tableNameOrRegionName):
        self._compact(tableNameOrRegionName)

    @rpc()
    def majorCompact(self, tableNameOrRegionName):
        self._compact(tableNameOrRegionName)

    def _compact(self, target: bytes) -> None:
        """Admin.compactRegion, and on an unknown region Admin.compact(TableName)."""
        name = target.decode("utf-8", "replace")
        try:
            self.admin.compact(name)
        except UnknownRegionError:
            raise TableNotFoundError(_table_name(target)) from None

    @rpc()
    def getTableNames(self):
        return sorted(n.encode("utf-8") for n in self.admin.list_tables())

    @rpc()
    def getColumnDescriptors(self, tableName):
        families = self.admin.describe(_table_name(tableName)).families
        return {f + b":": family_to_thrift(f, families[f])
                for f in sorted(families, key=lambda f: java_order(f + b":"))}

    @rpc()
    def getTableRegions(self, tableName):
        try:
            regions = self.admin.regions(_table_name(tableName))
        except TableNotFoundError:
            return []  # "an empty list if the table does not exist"
        return [_region_info(r) for r in regions]

    @rpc(catches_illegal_argument=True)
    def createTable(self, tableName, columnFamilies):
        try:
            name = _table_name(tableName)  # outside the Java method's try
        except InvalidArgumentError as e:
            raise Escaped(e) from None
        if self.admin.table_exists(name):
            raise ttypes.AlreadyExists(message="table name already in use")
        families = {}
        for cd in columnFamilies:
            family, cf = family_from_thrift(cd)
            if family in families:
                raise InvalidArgumentError(
                    f"Family '{family.decode('utf-8', 'replace')}' already exists so cannot "
                    "be added")
            families[family] = cf
        self.admin.create_table(name, families)

    @rpc()
    def deleteTable(self, tableName):
        name = _table_name(tableName)
        if not self.admin.table_exists(name):
            raise HsimError("table does not exist")  # a plain java.io.IOException
        self.admin.delete_table(name)

    # --- reads ----------------------------------------------------------------------------------
    @rpc()
    def get(self, tableName, row, column, attributes):
        return tcells(self._table(tableName).get(row, columns=cols.select([column])))

    @rpc()
    def getVer(self, tableName, row, column, numVersions, attributes):
        return self._get_versions(tableName, row, column, LATEST_TIMESTAMP, numVersions)

    @rpc()
    def getVerTs(self, tableName, row, column, timestamp, numVersions, attributes):
        return self._get_versions(tableName, row, column, timestamp, numVersions)

    def _get_versions(self, table_name, row, column, timestamp, versions) -> list:
        table = self._table(table_name)
        if versions <= 0:
            raise HsimError("versions must be positive")  # Get.readVersions: an IOException
        cells = table.get(row, columns=cols.select([column]), time_range=_upto(timestamp),
                          max_versions=versions)
        return tcells(cells)

    @rpc()
    def getRow(self, tableName, row, attributes):
        return self._rows(tableName, [row], None, LATEST_TIMESTAMP)

    @rpc()
    def getRowWithColumns(self, tableName, row, columns, attributes):
        return self._rows(tableName, [row], columns, LATEST_TIMESTAMP)

    @rpc()
    def getRowTs(self, tableName, row, timestamp, attributes):
        return self._rows(tableName, [row], None, timestamp)

    @rpc()
    def getRowWithColumnsTs(self, tableName, row, columns, timestamp, attributes):
        return self._rows(tableName, [row], columns, timestamp)

    @rpc()
    def getRows(self, tableName, rows, attributes):
        return self._rows(tableName, rows, None, LATEST_TIMESTAMP)

    @rpc()
    def getRowsWithColumns(self, tableName, rows, columns, attributes):
        return self._rows(tableName, rows, columns, LATEST_TIMESTAMP)

    @rpc()
    def getRowsTs(self, tableName, rows, timestamp, attributes):
        return self._rows(tableName, rows, None, timestamp)

    @rpc()
    def getRowsWithColumnsTs(self, tableName, rows, columns, timestamp, attributes):
        return self._rows(tableName, rows, columns, timestamp)

    def _rows(self, table_name, rows, columns, timestamp) -> list:
        table = self._table(table_name)
        selected = cols.select(columns)
        tr = _upto(timestamp)
        out = []
        for row in rows:
            cells = table.get(row, columns=selected, time_range=tr)
            if cells:
                out.append(row_result(row, cells))
        return out

    # --- writes ---------------------------------------------------------------------------------
    @rpc(catches_illegal_argument=True)
    def mutateRow(self, tableName, row, mutations, attributes):
        self._mutate_row(tableName, row, mutations, LATEST_TIMESTAMP)

    @rpc(catches_illegal_argument=True)
    def mutateRowTs(self, tableName, row, mutations, timestamp, attributes):
        self._mutate_row(tableName, row, mutations, timestamp)

    def _mutate_row(self, table_name, row, mutations, ts) -> None:
        table = self._table(table_name)
        check_row(row)  # new Put(row, ts) / new Delete(row)
        if ts < 0:
            raise InvalidArgumentError(f"Timestamp cannot be negative. ts={ts}")
        data, deletes = {}, []
        put_wal = None
        for m in mutations:
            family, qualifier = cols.parse_column(m.column)
            if m.isDelete:
                deletes.append(_delete(row, m.column, family, qualifier, ts, m))
            else:
                put_wal = _durability(m)
                if qualifier is not None:  # a put to a bare family is only logged (LOG.warn)
                    data[m.column] = m.value if m.value is not None else b""
        if deletes:
            _one_delete(deletes)
            table.mutate_rows(deletes)
        if data:
            table.put(row, data, timestamp=ts, durability=put_wal)

    @rpc(catches_illegal_argument=True)
    def mutateRows(self, tableName, rowBatches, attributes):
        self._mutate_rows(tableName, rowBatches, LATEST_TIMESTAMP)

    @rpc(catches_illegal_argument=True)
    def mutateRowsTs(self, tableName, rowBatches, timestamp, attributes):
        self._mutate_rows(tableName, rowBatches, timestamp)

    def _mutate_rows(self, table_name, batches, ts) -> None:
        try:  # the Puts and Deletes are built before the Java method's try
            puts, deletes = _row_mutations(batches, ts)
        except InvalidArgumentError as e:
            raise Escaped(e) from None
        table = self._table(table_name)
        if puts:
            table.mutate_rows(puts)
        if deletes:
            table.mutate_rows(deletes)

    @rpc()
    def atomicIncrement(self, tableName, row, column, value):
        family, qualifier = cols.parse_column(column)
        column = family + b":" + (qualifier or b"")  # a bare family counts in the empty qualifier
        return self._table(tableName).increment(row, column, value)

    @rpc()
    def increment(self, increment):
        self._increment(increment)

    @rpc()
    def incrementRows(self, increments):
        for inc in increments:
            self._increment(inc)

    def _increment(self, inc) -> None:
        if not inc.row or not inc.table:
            raise InvalidArgumentError("Must supply a table and a row key; can't increment")
        family, qualifier = _qualified(inc.column)
        self._table(inc.table).increment(inc.row, family + b":" + qualifier, inc.ammount)

    @rpc()
    def append(self, append):
        if not append.row or not append.table:
            raise InvalidArgumentError("Must supply a table and a row key; can't append")
        if len(append.columns) != len(append.values):
            raise InvalidArgumentError(
                "Sizes of columns and values in tappend object are not matching")
        data = {}
        for column, value in zip(append.columns, append.values):
            _qualified(column)
            data[column] = value
        # the Result of the Append: the cells it wrote
        return tcells(self._table(append.table).append_cells(append.row, data))

    @rpc(catches_illegal_argument=True)
    def checkAndPut(self, tableName, row, column, value, mput, attributes):
        check_row(row)
        _qualified(mput.column)
        data = {mput.column: mput.value if mput.value is not None else b""}
        table = self._table(tableName)
        _qualified(column)
        # HRegion.checkAndMutate: an empty expected value matches a missing or empty cell.
        return table.check_and_put(row, column, value, data)

    @rpc()
    def deleteAll(self, tableName, row, column, attributes):
        self._delete_all(tableName, row, column, LATEST_TIMESTAMP)

    @rpc()
    def deleteAllTs(self, tableName, row, column, timestamp, attributes):
        self._delete_all(tableName, row, column, timestamp)

    def _delete_all(self, table_name, row, column, ts) -> None:
        table = self._table(table_name)
        check_row(row)
        family, qualifier = cols.parse_column(column)
        table.mutate_rows([_delete(row, column, family, qualifier, ts)])

    @rpc()
    def deleteAllRow(self, tableName, row, attributes):
        self._table(tableName).delete_row(row, timestamp=LATEST_TIMESTAMP)

    @rpc()
    def deleteAllRowTs(self, tableName, row, timestamp, attributes):
        self._table(tableName).delete_row(row, timestamp=timestamp)

    # --- scanners -------------------------------------------------------------------------------
    @rpc(locked=False)
    def scannerOpenWithScan(self, tableName, scan, attributes):
        # ParseFilter runs in the handler thread before the scan reaches a region: a long
        # filter string costs its own request, not the cluster lock every client waits on
        self.scanners.check_room()
        filt = parse_filter(scan.filterString) if scan.filterString else None
        with self.cluster.request():
            return self._open(tableName, start=scan.startRow, stop=scan.stopRow,
                              columns=scan.columns, timestamp=scan.timestamp,
                              caching=scan.caching, batch=scan.batchSize, filter=filt,
                              reversed=bool(scan.reversed), sort_columns=bool(scan.sortColumns))

    # The other scannerOpen* calls of Hbase.thrift: each passes some of the Scan's fields, named
    # here in the order they come after tableName (attributes, last, are not used).
    scannerOpen = _scanner_open("scannerOpen", "start", "columns")
    scannerOpenWithStop = _scanner_open("scannerOpenWithStop", "start", "stop", "columns")
    # Scan(prefix) with WhileMatchFilter(PrefixFilter(prefix)): the rows with the prefix.
    scannerOpenWithPrefix = _scanner_open("scannerOpenWithPrefix", "prefix", "columns")
    scannerOpenTs = _scanner_open("scannerOpenTs", "start", "columns", "timestamp")
    scannerOpenWithStopTs = _scanner_open("scannerOpenWithStopTs", "start", "stop", "columns",
                                          "timestamp")

    def _open(self, table_name, start=None, stop=None, prefix=None, columns=None,
              timestamp=None, caching=None, batch=None, filter=None, reversed=False,
              sort_columns=False) -> int:
        self.scanners.check_room()  # before anything is read
        table = self._table(table_name)
        if batch is not None and batch <= 0:
            batch = None  # Scan.setBatch(n <= 0): no batching
        rows = table.scan(
            start_row=start, stop_row=stop, row_prefix=prefix, columns=cols.select(columns),
            time_range=None if timestamp is None else _upto(timestamp), filter=filter,
            reversed=reversed, caching=caching if caching and caching > 0 else 1000,
            batch=batch, lazy=True)  # HBase 2's getScanner reads nothing until next()
        return self.scanners.add(rows, row_results(sort_columns))

    @rpc()
    def scannerGetList(self, id, nbRows):
        if nbRows < 0:
            raise InvalidArgumentError(f"Illegal Capacity: {nbRows}")  # new ArrayList<>(n)
        return self.scanners.next(id, nbRows)

    @rpc()
    def scannerGet(self, id):
        return self.scanners.next(id, 1)

    @rpc()
    def scannerClose(self, id):
        self.scanners.close(id)

    # --- the rest of the IDL --------------------------------------------------------------------
    @rpc()
    def getRowOrBefore(self, tableName, row, family):
        raise TApplicationException(TApplicationException.UNKNOWN_METHOD,
                                    "Invalid method name: 'getRowOrBefore'")

    @rpc()
    def getRegionInfo(self, row):
        """The region a meta row key ("table,row,99999999999999") falls in: as HBase, the
        first row of a reversed scan of hbase:meta's info family from that key."""
        from hsim.client.catalog import META_TABLE, parse_region_info

        text = row.decode("latin-1")
        found = next(iter(self.cluster.table(META_TABLE).scan(
            start_row=row, reversed=True, limit=1, columns=["info"])), None)
        if not found:
            raise HsimError(f"Cannot find row in {META_TABLE}, row={text}")
        cells = {c.qualifier: c.value for c in found}
        info = parse_region_info(cells.get(b"regioninfo", b""))
        if info is None:
            raise HsimError(f"RegionInfo REGIONINFO was null or  empty in Meta for row={text}")
        host, _, port = cells.get(b"server", b"").rpartition(b":")
        return ttypes.TRegionInfo(
            startKey=info.get(3, b""), endKey=info.get(4, b""), id=info.get(1, 0),
            name=found[0].row, version=_HREGION_VERSION, serverName=host or None,
            port=int(port or 0))


def _region_info(r):
    """TRegionInfo from the native RegionInfo; the server name is "host,port,startcode"."""
    host, _, rest = r.server.partition(",")
    return ttypes.TRegionInfo(
        startKey=r.start_key, endKey=r.end_key, id=r.region_id, name=r.name.encode("utf-8"),
        version=_HREGION_VERSION, serverName=host.encode("utf-8"),
        port=int(rest.partition(",")[0] or 0))


def _durability(m) -> Durability:
    """Mutation.writeToWAL: SYNC_WAL when set (the IDL's default), else SKIP_WAL
    (ThriftHBaseServiceHandler.mutateRowTs)."""
    return Durability.SKIP_WAL if m.writeToWAL is False or m.writeToWAL == 0 else \
        Durability.SYNC_WAL


def _one_delete(row_deletes: list) -> None:
    """A row's deletes are one Delete, whose durability is its last Thrift Mutation's
    writeToWAL (each setDurability call replaces the one before)."""
    for d in row_deletes:
        d.durability = row_deletes[-1].durability


def _delete(row, column, family, qualifier, ts, m=None) -> Mutation:
    d = None if m is None else _durability(m)
    if qualifier is None:
        return Mutation("delete_family", row, column=family, timestamp=ts, durability=d)
    return Mutation("delete_columns", row, column=column, timestamp=ts, durability=d)


def _row_mutations(batches, ts) -> tuple[list, list]:
    """One Put and one Delete per BatchMutation (ThriftHBaseServiceHandler.mutateRowsTs)."""
    if ts < 0:
        raise InvalidArgumentError(f"Timestamp cannot be negative. ts={ts}")
    puts, deletes = [], []
    for batch in batches:
        row = batch.row
        check_row(row)
        data = {}
        put_wal = None
        first_delete = len(deletes)
        for m in batch.mutations:
            family, qualifier = cols.parse_column(m.column)
            if m.isDelete:
                deletes.append(_delete(row, m.column, family, qualifier, ts, m))
            elif qualifier is None:
                raise InvalidArgumentError("Invalid famAndQf provided.")
            else:
                data[m.column] = m.value if m.value is not None else b""
                put_wal = _durability(m)
        if len(deletes) > first_delete:
            _one_delete(deletes[first_delete:])
        if data:
            puts.append(Mutation("put", row, data=data, timestamp=ts, durability=put_wal))
    return puts, deletes
