"""HBase 2.x's Thrift2 `THBaseService` over hsim's native client API, method for method as
HBase's thrift2 ThriftHBaseServiceHandler implements it (structs converted as ThriftUtilities
does: hsim.thrift2_server.convert and .descriptors).

- one call is one request of the cluster (one clock tick), as for Thrift-1;
- getMultiple returns one TResult per TGet, an empty one (no row) where nothing was found;
- deleteMultiple applies every delete and returns an empty list (the deletes that failed
  raise instead, as HBase's Table.delete does);
- checkAndMutate compares with EQUAL only (hsim's check-and-mutate): another operator is
  refused with TIOError, never run as EQUAL;
- getClusterId is derived from the cluster's seed (hsim writes no hbase.id file);
- the slow-log and access-control calls are refused: hsim keeps no slow log and has no
  AccessController (HBase without it refuses grant/revoke too).

Method and argument names are the IDL's, since thriftpy2's processor calls them by name.
"""

from __future__ import annotations

import itertools
import re
import uuid

from hsim.errors import (DoNotRetryError, HsimError, InvalidArgumentError,
                         NamespaceNotFoundError)
from hsim.gateway.faults import Faults
from hsim.gateway.scanners import MAX_SCANNERS, MAX_SCANNERS_PER_CONNECTION, Scanners
from hsim.thrift2_server import convert as cv
from hsim.thrift2_server import descriptors as dsc
from hsim.thrift2_server.errors import ReadOnlyError, rpc
from hsim.thrift2_server.idl import ttypes

_COMPARE = ttypes.TCompareOperator


def _name(table) -> str:
    """The table argument of the data methods: a name as bytes ("ns:q" or "q")."""
    from hsim.client import validation

    return validation.table_name(table.decode("utf-8", "replace"))


def _results(rows):
    for cells in rows:
        yield cv.tresult(cells)


def _location(r):
    """regionLocationFromHBase: the server ("host,port,startcode") and the region."""
    host, port, start_code = (r.server.split(",") + ["", "0", "0"])[:3]
    return ttypes.THRegionLocation(
        serverName=ttypes.TServerName(hostName=host, port=int(port or 0),
                                      startCode=int(start_code or 0)),
        regionInfo=ttypes.THRegionInfo(
            regionId=r.region_id, tableName=r.table.encode(), startKey=r.start_key,
            endKey=r.end_key, offline=False, split=False, replicaId=0))


class THBaseServiceHandler:
    """Serves one cluster. Thread-safe as the Thrift-1 handler is. `read_only`: every write
    answers TIOError (hbase.thrift.readonly)."""

    def __init__(self, cluster, max_scanners: int = MAX_SCANNERS,
                 max_scanners_per_connection: int = MAX_SCANNERS_PER_CONNECTION,
                 read_only: bool = False):
        self.cluster = cluster
        self.admin = cluster.admin
        self.read_only = read_only
        self.scanners = Scanners(cluster.config.scanner_timeout_ms, max_scanners,
                                 max_scanners_per_connection)
        self.faults = Faults()  # failure injection: faults.fail_next(n, "ioerror"|"disconnect")

    def connection(self):
        """`with handler.connection():` around the calls of one client connection."""
        return self.scanners.connection()

    def _table(self, table):
        return self.cluster.table(_name(table))

    def _writable(self) -> None:
        if self.read_only:
            raise ReadOnlyError()

    # --- reads ----------------------------------------------------------------------------------
    @rpc()
    def exists(self, table, tget):
        return bool(self._table(table).get(tget.row, **cv.get_args(tget)))

    @rpc()
    def existsAll(self, table, tgets):
        t = self._table(table)
        return [bool(t.get(g.row, **cv.get_args(g))) for g in tgets]

    @rpc()
    def get(self, table, tget):
        return cv.tresult(self._table(table).get(tget.row, **cv.get_args(tget)))

    @rpc()
    def getMultiple(self, table, tgets):
        t = self._table(table)
        args = [cv.get_args(g) for g in tgets]  # every Get built before any is sent
        return [cv.tresult(t.get(g.row, **a)) for g, a in zip(tgets, args)]

    # --- writes ---------------------------------------------------------------------------------
    @rpc()
    def put(self, table, tput):
        self._writable()
        t = self._table(table)
        t.mutate_rows(cv.put_mutations(tput))

    @rpc()
    def putMultiple(self, table, tputs):
        self._writable()
        t = self._table(table)
        t.mutate_rows([m for p in tputs for m in cv.put_mutations(p)])

    @rpc()
    def deleteSingle(self, table, tdelete):
        self._writable()
        t = self._table(table)
        t.mutate_rows(cv.delete_mutations(tdelete))

    @rpc()
    def deleteMultiple(self, table, tdeletes):
        self._writable()
        t = self._table(table)
        t.mutate_rows([m for d in tdeletes for m in cv.delete_mutations(d)])
        return []

    @rpc()
    def checkAndPut(self, table, row, family, qualifier, value, tput):
        self._writable()
        t = self._table(table)
        return t.check_and_mutate(row, family + b":" + qualifier, value, cv.put_mutations(tput))

    @rpc()
    def checkAndDelete(self, table, row, family, qualifier, value, tdelete):
        self._writable()
        t = self._table(table)
        return t.check_and_mutate(row, family + b":" + qualifier, value,
                                  cv.delete_mutations(tdelete))

    @rpc()
    def checkAndMutate(self, table, row, family, qualifier, compareOperator, value,
                       rowMutations):
        self._writable()
        t = self._table(table)
        if compareOperator != _COMPARE.EQUAL:
            op = _COMPARE._VALUES_TO_NAMES.get(compareOperator, compareOperator)
            raise DoNotRetryError(f"hsim's checkAndMutate compares with EQUAL only, not {op}")
        if rowMutations.row != row:
            raise DoNotRetryError("The row of the mutations doesn't match the checked row")
        return t.check_and_mutate(row, family + b":" + qualifier, value,
                                  cv.row_mutations(rowMutations))

    @rpc()
    def mutateRow(self, table, trowMutations):
        self._writable()
        t = self._table(table)
        mutations = cv.row_mutations(trowMutations)
        if mutations:
            t.mutate_rows(mutations)

    @rpc()
    def increment(self, table, tincrement):
        self._writable()
        t = self._table(table)
        amounts = {c.family + b":" + c.qualifier: c.amount for c in tincrement.columns}
        cells = t.increment_cells(tincrement.row, amounts,
                                  durability=cv.durability(tincrement.durability))
        return cv.tresult(cells if tincrement.returnResults is not False else [])

    @rpc()
    def append(self, table, tappend):
        self._writable()
        t = self._table(table)
        data = {c.family + b":" + c.qualifier: c.value for c in tappend.columns}
        cells = t.append_cells(tappend.row, data, durability=cv.durability(tappend.durability))
        return cv.tresult(cells if tappend.returnResults is not False else [])

    # --- scanners -------------------------------------------------------------------------------
    @rpc(locked=False)
    def openScanner(self, table, tscan):
        self.scanners.check_room()
        args = cv.scan_args(tscan)  # the filter string is parsed outside the cluster's lock
        with self.cluster.request():
            rows = self._table(table).scan(lazy=True, **args)
            return self.scanners.add(rows, _results)

    @rpc()
    def getScannerRows(self, scannerId, numRows):
        if numRows < 0:
            raise InvalidArgumentError(f"Illegal Capacity: {numRows}")  # new ArrayList<>(n)
        return self.scanners.next(scannerId, numRows)

    @rpc()
    def closeScanner(self, scannerId):
        self.scanners.close(scannerId)

    @rpc()
    def getScannerResults(self, table, tscan, numRows):
        rows = self._table(table).scan(lazy=True, **cv.scan_args(tscan))
        try:
            return [cv.tresult(cells) for cells in itertools.islice(rows, max(numRows, 0))]
        finally:
            rows.close()

    # --- regions --------------------------------------------------------------------------------
    @rpc()
    def getRegionLocation(self, table, row, reload):
        for r in self.admin.regions(_name(table)):
            if r.start_key <= row and (not r.end_key or row < r.end_key):
                return _location(r)
        raise HsimError(f"No region found for row {row!r}")  # never: the regions cover all

    @rpc()
    def getAllRegionLocations(self, table):
        return [_location(r) for r in self.admin.regions(_name(table))]

    # --- tables ---------------------------------------------------------------------------------
    @rpc()
    def getTableDescriptor(self, table):
        return dsc.table_to_thrift(self.admin.describe(dsc.table_name(table)))

    @rpc()
    def getTableDescriptors(self, tables):
        return [dsc.table_to_thrift(self.admin.describe(dsc.table_name(t))) for t in tables]

    @rpc()
    def tableExists(self, tableName):
        return self.admin.table_exists(dsc.table_name(tableName))

    def _names(self, regex, include_sys: bool) -> list[str]:
        """HMaster's listTableDescriptors(pattern): the pattern matches the whole name, and
        a table of the default namespace also as "default:<name>"."""
        names = list(self.admin.list_tables())
        if include_sys and self.admin.table_exists("hbase:meta"):
            names.append("hbase:meta")
        if regex is None:
            return sorted(names)
        try:
            pattern = re.compile(regex)
        except re.error as e:
            raise InvalidArgumentError(f"bad table name pattern {regex!r}: {e}") from None
        return sorted(n for n in names if pattern.fullmatch(n) or
                      (":" not in n and pattern.fullmatch("default:" + n)))

    @rpc()
    def getTableDescriptorsByPattern(self, regex, includeSysTables):
        return [dsc.table_to_thrift(self.admin.describe(n))
                for n in self._names(regex, includeSysTables)]

    @rpc()
    def getTableNamesByPattern(self, regex, includeSysTables):
        return [dsc.table_name_to_thrift(n) for n in self._names(regex, includeSysTables)]

    def _in_namespace(self, name: str) -> list[str]:
        if name not in self.admin.list_namespaces():
            raise NamespaceNotFoundError(name)
        return [n for n in sorted(self.admin.list_tables())
                if (n.rpartition(":")[0] or "default") == name]

    @rpc()
    def getTableDescriptorsByNamespace(self, name):
        return [dsc.table_to_thrift(self.admin.describe(n)) for n in self._in_namespace(name)]

    @rpc()
    def getTableNamesByNamespace(self, name):
        return [dsc.table_name_to_thrift(n) for n in self._in_namespace(name)]

    @rpc()
    def createTable(self, desc, splitKeys):
        name, families, attrs = dsc.table_from_thrift(desc)
        self.admin.create_table(name, families, split_keys=splitKeys or None, **attrs)

    @rpc()
    def deleteTable(self, tableName):
        self.admin.delete_table(dsc.table_name(tableName))

    @rpc()
    def truncateTable(self, tableName, preserveSplits):
        self.admin.truncate_table(dsc.table_name(tableName), bool(preserveSplits))

    @rpc()
    def enableTable(self, tableName):
        self.admin.enable_table(dsc.table_name(tableName))

    @rpc()
    def disableTable(self, tableName):
        self.admin.disable_table(dsc.table_name(tableName))

    @rpc()
    def isTableEnabled(self, tableName):
        return self.admin.is_table_enabled(dsc.table_name(tableName))

    @rpc()
    def isTableDisabled(self, tableName):
        return self.admin.is_table_disabled(dsc.table_name(tableName))

    @rpc()
    def isTableAvailable(self, tableName):
        name = dsc.table_name(tableName)  # every region of an enabled table is open
        return self.admin.table_exists(name) and self.admin.is_table_enabled(name)

    @rpc()
    def isTableAvailableWithSplit(self, tableName, splitKeys):
        name = dsc.table_name(tableName)
        return self.admin.table_exists(name) and self.admin.is_table_enabled(name)

    @rpc()
    def addColumnFamily(self, tableName, column):
        self.admin.add_family(dsc.table_name(tableName), *dsc.family_from_thrift(column))

    @rpc()
    def deleteColumnFamily(self, tableName, column):
        self.admin.delete_family(dsc.table_name(tableName), column)

    @rpc()
    def modifyColumnFamily(self, tableName, column):
        self.admin.alter_family(dsc.table_name(tableName), *dsc.family_from_thrift(column))

    @rpc()
    def modifyTable(self, desc):
        """Admin.modifyTable: the families become the descriptor's (added, changed, removed)."""
        name, families, attrs = dsc.table_from_thrift(desc)
        if not families:
            raise DoNotRetryError("Table should have at least one column family.")
        current = list(self.admin.describe(name).families)
        for fam, cf in families.items():
            if fam in current:
                self.admin.alter_family(name, fam, cf)
            else:
                self.admin.add_family(name, fam, cf)
        for fam in current:
            if fam not in families:
                self.admin.delete_family(name, fam)
        self.admin.alter_table(name, **attrs)

    # --- namespaces -----------------------------------------------------------------------------
    @staticmethod
    def _no_configuration(desc) -> None:
        if desc.configuration:
            raise InvalidArgumentError("hsim does not model namespace configuration")

    @rpc()
    def createNamespace(self, namespaceDesc):
        self._no_configuration(namespaceDesc)
        self.admin.create_namespace(namespaceDesc.name)

    @rpc()
    def modifyNamespace(self, namespaceDesc):
        self._no_configuration(namespaceDesc)
        if namespaceDesc.name not in self.admin.list_namespaces():
            raise NamespaceNotFoundError(namespaceDesc.name)

    @rpc()
    def deleteNamespace(self, name):
        self.admin.drop_namespace(name)

    @rpc()
    def getNamespaceDescriptor(self, name):
        if name not in self.admin.list_namespaces():
            raise NamespaceNotFoundError(name)
        return dsc.namespace_to_thrift(name)

    @rpc()
    def listNamespaceDescriptors(self):
        return [dsc.namespace_to_thrift(n) for n in self.admin.list_namespaces()]

    @rpc()
    def listNamespaces(self):
        return self.admin.list_namespaces()

    # --- the server -----------------------------------------------------------------------------
    @rpc()
    def getThriftServerType(self):
        return ttypes.TThriftServerType.TWO

    @rpc()
    def getClusterId(self):
        return str(uuid.uuid5(uuid.NAMESPACE_OID, f"hsim-cluster-{self.cluster.seed}"))

    @rpc()
    def getSlowLogResponses(self, serverNames, logQueryFilter):
        raise DoNotRetryError("hsim keeps no slow log (hbase.regionserver.slowlog.buffer)")

    @rpc()
    def clearSlowLogResponses(self, serverNames):
        raise DoNotRetryError("hsim keeps no slow log (hbase.regionserver.slowlog.buffer)")

    @rpc()
    def grant(self, info):
        raise DoNotRetryError("hsim has no AccessController: grant is not supported")

    @rpc()
    def revoke(self, info):
        raise DoNotRetryError("hsim has no AccessController: revoke is not supported")
