"""THBaseService method by method, as HBase's thrift2 handler and ThriftUtilities answer,
in-process and over a socket."""

import pytest
from thriftpy2.thrift import TApplicationException

from hsim.thrift2_server.idl import ttypes as T

TABLE = b"t"


def _put(client, row, cells, ts=None):
    client.put(TABLE, T.TPut(row=row, timestamp=ts, columnValues=[
        T.TColumnValue(family=f, qualifier=q, value=v,
                       timestamp=None if len(c) == 3 else c[3]) for c in cells
        for f, q, v in [c[:3]]]))


def _cells(result):
    return [(c.family, c.qualifier, c.value, c.timestamp) for c in result.columnValues]


def test_put_get_and_timestamps(client):
    _put(client, b"r", [(b"cf", b"a", b"1", 5), (b"cf", b"b", b"2")], ts=7)
    r = client.get(TABLE, T.TGet(row=b"r"))
    assert r.row == b"r" and _cells(r) == [(b"cf", b"a", b"1", 5), (b"cf", b"b", b"2", 7)]
    assert {c.type for c in r.columnValues} == {4}  # KeyValue.Type.Put
    # TGet.timestamp is one version time, and wins over timeRange
    r = client.get(TABLE, T.TGet(row=b"r", timestamp=5, timeRange=T.TTimeRange(0, 100)))
    assert _cells(r) == [(b"cf", b"a", b"1", 5)]
    r = client.get(TABLE, T.TGet(row=b"r", timeRange=T.TTimeRange(6, 8)))
    assert _cells(r) == [(b"cf", b"b", b"2", 7)]


def test_an_empty_result_has_no_row(client):
    r = client.get(TABLE, T.TGet(row=b"missing"))
    assert r.row is None and r.columnValues == []
    _put(client, b"r", [(b"cf", b"a", b"1")])
    got = client.getMultiple(TABLE, [T.TGet(row=b"r"), T.TGet(row=b"x")])
    assert [g.row for g in got] == [b"r", None]
    assert client.exists(TABLE, T.TGet(row=b"r")) is True
    assert client.existsAll(TABLE, [T.TGet(row=b"x"), T.TGet(row=b"r")]) == [False, True]


def test_columns_family_then_qualifier_and_versions(client):
    for ts in (1, 2, 3, 4):
        _put(client, b"r", [(b"cf", b"a", b"v%d" % ts, ts), (b"g", b"x", b"g%d" % ts, ts)])
    r = client.get(TABLE, T.TGet(row=b"r", maxVersions=5, columns=[T.TColumn(family=b"cf")]))
    assert [c[3] for c in _cells(r)] == [4, 3, 2]  # cf keeps 3 versions
    r = client.get(TABLE, T.TGet(row=b"r", columns=[T.TColumn(family=b"g", qualifier=b"x")]))
    assert _cells(r) == [(b"g", b"x", b"g4", 4)]


def test_delete_types(client):
    for ts in (1, 2, 3):
        _put(client, b"r", [(b"cf", b"a", b"a%d" % ts, ts), (b"cf", b"b", b"b%d" % ts, ts)])
    # DELETE_COLUMN without a timestamp: only the latest version
    client.deleteSingle(TABLE, T.TDelete(row=b"r", deleteType=T.TDeleteType.DELETE_COLUMN,
                                         columns=[T.TColumn(b"cf", b"a")]))
    r = client.get(TABLE, T.TGet(row=b"r", maxVersions=3, columns=[T.TColumn(b"cf", b"a")]))
    assert [c[3] for c in _cells(r)] == [2, 1]
    # with columns, the TDelete's own timestamp is ignored: DELETE_COLUMNS deletes them all
    client.deleteSingle(TABLE, T.TDelete(row=b"r", timestamp=1, columns=[T.TColumn(b"cf", b"b")]))
    r = client.get(TABLE, T.TGet(row=b"r", maxVersions=3, columns=[T.TColumn(b"cf", b"b")]))
    assert r.columnValues == []
    # DELETE_FAMILY_VERSION needs a timestamp: an IllegalArgumentException, outside the try
    with pytest.raises(TApplicationException, match="Timestamp is required"):
        client.deleteSingle(TABLE, T.TDelete(
            row=b"r", deleteType=T.TDeleteType.DELETE_FAMILY_VERSION, columns=[T.TColumn(b"cf")]))
    client.deleteSingle(TABLE, T.TDelete(row=b"r", deleteType=T.TDeleteType.DELETE_FAMILY_VERSION,
                                         columns=[T.TColumn(b"cf", timestamp=2)]))
    r = client.get(TABLE, T.TGet(row=b"r", maxVersions=3))
    assert [c[3] for c in _cells(r)] == [1]
    # no columns: the whole row up to the TDelete's timestamp
    _put(client, b"r", [(b"g", b"x", b"new", 9)])
    client.deleteSingle(TABLE, T.TDelete(row=b"r", timestamp=5))
    assert _cells(client.get(TABLE, T.TGet(row=b"r"))) == [(b"g", b"x", b"new", 9)]
    assert client.deleteMultiple(TABLE, [T.TDelete(row=b"r")]) == []
    assert client.get(TABLE, T.TGet(row=b"r")).columnValues == []


def test_check_and_mutate_and_row_mutations(client):
    put = T.TPut(row=b"r", columnValues=[T.TColumnValue(b"cf", b"a", b"1")])
    assert client.checkAndPut(TABLE, b"r", b"cf", b"a", None, put) is True
    assert client.checkAndPut(TABLE, b"r", b"cf", b"a", None, put) is False
    delete = T.TDelete(row=b"r", columns=[T.TColumn(b"cf", b"a")])
    assert client.checkAndDelete(TABLE, b"r", b"cf", b"a", b"2", delete) is False
    assert client.checkAndDelete(TABLE, b"r", b"cf", b"a", b"1", delete) is True
    mutations = T.TRowMutations(row=b"r", mutations=[
        T.TMutation(put=T.TPut(row=b"r", columnValues=[T.TColumnValue(b"cf", b"b", b"x")]))])
    assert client.checkAndMutate(TABLE, b"r", b"cf", b"a", T.TCompareOperator.EQUAL, None,
                                 mutations) is True
    with pytest.raises(T.TIOError, match="EQUAL only, not GREATER") as e:
        client.checkAndMutate(TABLE, b"r", b"cf", b"a", T.TCompareOperator.GREATER, b"0",
                              mutations)
    assert e.value.canRetry is False
    client.mutateRow(TABLE, T.TRowMutations(row=b"r", mutations=[
        T.TMutation(deleteSingle=T.TDelete(row=b"r", columns=[T.TColumn(b"cf", b"b")])),
        T.TMutation(put=T.TPut(row=b"r", columnValues=[T.TColumnValue(b"g", b"y", b"z")]))]))
    assert [c[:3] for c in _cells(client.get(TABLE, T.TGet(row=b"r")))] == [(b"g", b"y", b"z")]


def test_increment_and_append_return_the_cells_written(client):
    r = client.increment(TABLE, T.TIncrement(row=b"c",
                                             columns=[T.TColumnIncrement(b"cf", b"n", 5)]))
    assert _cells(r) == [(b"cf", b"n", (5).to_bytes(8, "big"), 1_000)]
    r = client.increment(TABLE, T.TIncrement(row=b"c", returnResults=False,
                                             columns=[T.TColumnIncrement(b"cf", b"n", 2)]))
    assert r.row is None and r.columnValues == []
    got = client.get(TABLE, T.TGet(row=b"c")).columnValues[0].value
    assert int.from_bytes(got, "big") == 7
    r = client.append(TABLE, T.TAppend(row=b"c", columns=[T.TColumnValue(b"cf", b"s", b"ab")]))
    r = client.append(TABLE, T.TAppend(row=b"c", columns=[T.TColumnValue(b"cf", b"s", b"cd")]))
    # the clock stands still: the new cell takes the old one's timestamp + 1 (HRegion.reckonDeltas)
    assert _cells(r) == [(b"cf", b"s", b"abcd", 1_001)]


def test_scanners(env, client):
    for i in range(10):
        _put(client, b"r%d" % i, [(b"cf", b"a", b"%d" % i)])
    sid = client.openScanner(TABLE, T.TScan(startRow=b"r2", stopRow=b"r8", caching=2))
    first = client.getScannerRows(sid, 4)
    assert [r.row for r in first] == [b"r2", b"r3", b"r4", b"r5"]
    assert [r.row for r in client.getScannerRows(sid, 10)] == [b"r6", b"r7"]
    assert client.getScannerRows(sid, 10) == []
    client.closeScanner(sid)
    with pytest.raises(T.TIllegalArgument, match="Invalid scanner Id"):
        client.getScannerRows(sid, 1)
    with pytest.raises(T.TIllegalArgument, match="Invalid scanner Id"):
        client.closeScanner(12345)
    rows = client.getScannerResults(TABLE, T.TScan(reversed=True, filterString=b"KeyOnlyFilter()"),
                                    3)
    assert [r.row for r in rows] == [b"r9", b"r8", b"r7"]
    assert {c.value for r in rows for c in r.columnValues} == {b""}
    assert len(env.handler.scanners) == 0


def test_tables_descriptors_and_namespaces(client):
    name = T.TTableName(ns=b"ns", qualifier=b"t2")
    with pytest.raises(T.TIOError, match="ns"):  # NamespaceNotFoundException
        client.createTable(T.TTableDescriptor(tableName=name, columns=[
            T.TColumnFamilyDescriptor(name=b"f")]), None)
    client.createNamespace(T.TNamespaceDescriptor(name="ns"))
    client.createTable(T.TTableDescriptor(tableName=name, columns=[
        T.TColumnFamilyDescriptor(name=b"f", maxVersions=4, timeToLive=60,
                                  bloomnFilterType=T.TBloomFilterType.ROWCOL,
                                  compressionType=T.TCompressionAlgorithm.GZ)]), [b"m"])
    desc = client.getTableDescriptor(name)
    f = desc.columns[0]
    assert (f.name, f.maxVersions, f.timeToLive, f.bloomnFilterType, f.compressionType) == \
        (b"f", 4, 60, T.TBloomFilterType.ROWCOL, T.TCompressionAlgorithm.GZ)
    assert f.attributes[b"VERSIONS"] == b"4" and f.attributes[b"TTL"] == b"60"
    assert client.tableExists(name) is True
    assert [n.qualifier for n in client.getTableNamesByNamespace("ns")] == [b"t2"]
    names = client.getTableNamesByPattern("t.*", False)
    assert [(n.ns, n.qualifier) for n in names] == [(b"default", b"t")]  # "default:t" too
    # in TableName order: "ns:t2" sorts before "t"
    assert [(n.ns, n.qualifier) for n in client.getTableNamesByPattern(None, False)] == \
        [(b"ns", b"t2"), (b"default", b"t")]
    assert len(client.getAllRegionLocations(b"ns:t2")) == 2
    loc = client.getRegionLocation(b"ns:t2", b"z", False)
    assert loc.regionInfo.startKey == b"m" and loc.regionInfo.tableName == b"ns:t2"
    # the descriptor read back is accepted again, a family changed and one added
    f.maxVersions = 2
    desc.columns.append(T.TColumnFamilyDescriptor(name=b"h"))
    client.modifyTable(desc)
    fams = {c.name: c.maxVersions for c in client.getTableDescriptor(name).columns}
    assert fams == {b"f": 2, b"h": 1}
    with pytest.raises(T.TIOError):
        client.deleteTable(name)  # enabled: TableNotDisabledException
    client.disableTable(name)
    assert client.isTableDisabled(name) and not client.isTableAvailable(name)
    client.deleteTable(name)
    client.deleteNamespace("ns")
    assert client.listNamespaces() == ["default", "hbase"]
    with pytest.raises(T.TIOError):
        client.getNamespaceDescriptor("ns")
    assert client.getThriftServerType() == T.TThriftServerType.TWO


def test_settings_hsim_does_not_model_are_refused(client):
    name = T.TTableName(qualifier=b"t3")
    for cd in (T.TColumnFamilyDescriptor(name=b"f", dfsReplication=3),
               T.TColumnFamilyDescriptor(name=b"f", compressTags=False),
               T.TColumnFamilyDescriptor(name=b"f", attributes={b"MOB_THRESHOLD": b"1"})):
        with pytest.raises(TApplicationException, match="hsim does not model"):
            client.createTable(T.TTableDescriptor(tableName=name, columns=[cd]), None)
    with pytest.raises(T.TIOError, match="previously failed test"):
        client.createTable(T.TTableDescriptor(tableName=name, columns=[T.TColumnFamilyDescriptor(
            name=b"f", compressionType=T.TCompressionAlgorithm.LZO)]), None)
    assert client.tableExists(name) is False
    for call in (lambda: client.getSlowLogResponses(set(), T.TLogQueryFilter()),
                 lambda: client.grant(T.TAccessControlEntity("u", 0, "R", "t3"))):
        with pytest.raises(T.TIOError, match="hsim"):
            call()


def test_errors_carry_hbase_messages_and_retry_flags(client):
    with pytest.raises(T.TIOError) as e:
        client.get(b"nope", T.TGet(row=b"r"))
    assert e.value.message == "nope" and e.value.canRetry is False  # TableNotFoundException
    with pytest.raises(T.TIOError, match="zz"):  # NoSuchColumnFamilyException
        _put(client, b"r", [(b"zz", b"a", b"1")])
    with pytest.raises(TApplicationException, match="Internal error processing get"):
        client.get(b"bad name!", T.TGet(row=b"r"))  # TableName.valueOf: IllegalArgument
    assert client.get(TABLE, T.TGet(row=b"r")).columnValues == []


def test_read_only_refuses_every_write(env, client):
    _put(client, b"r", [(b"cf", b"a", b"1")])
    env.handler.read_only = True
    for call in (lambda: _put(client, b"r", [(b"cf", b"a", b"2")]),
                 lambda: client.deleteSingle(TABLE, T.TDelete(row=b"r")),
                 lambda: client.increment(TABLE, T.TIncrement(
                     row=b"r", columns=[T.TColumnIncrement(b"cf", b"n")]))):
        with pytest.raises(T.TIOError, match="Read-only mode") as e:
            call()
        assert e.value.canRetry is False
    assert [c[2] for c in _cells(client.get(TABLE, T.TGet(row=b"r")))] == [b"1"]


def test_faults_then_success(env, client):
    env.handler.faults.fail_next(1, "ioerror")
    with pytest.raises(T.TIOError, match="hsim injected a failure in put") as e:
        _put(client, b"r", [(b"cf", b"a", b"1")])
    assert e.value.canRetry is True
    assert client.get(TABLE, T.TGet(row=b"r")).columnValues == []
    _put(client, b"r", [(b"cf", b"a", b"1")])
    assert client.exists(TABLE, T.TGet(row=b"r"))


def test_cache_blocks_false_reads_without_filling_the_block_cache(env, client):
    """TGet/TScan.cacheBlocks = false (Get/Scan.setCacheBlocks(false)): the data blocks read
    from files are not added to the cache; unset, they are."""
    for i in range(10):
        _put(client, b"r%d" % i, [(b"cf", b"a", b"%d" % i)])
    env.cluster.admin.flush("t")
    cache = env.cluster.region_servers[0].block_cache
    files = [sf for r in env.cluster.master.tables["t"].locator.regions
             for s in r.stores.values() for sf in s.files]
    keys = {(sf.reader.name, off) for sf in files for off in sf.reader._offsets}

    def data_blocks():
        return len(keys & set(cache._priority))

    assert keys and data_blocks() == 0  # a flush caches no data block (CACHE_DATA_ON_WRITE off)
    client.get(TABLE, T.TGet(row=b"r1", cacheBlocks=False))
    sid = client.openScanner(TABLE, T.TScan(cacheBlocks=False))
    assert len(client.getScannerRows(sid, 100)) == 10
    client.closeScanner(sid)
    assert data_blocks() == 0
    client.get(TABLE, T.TGet(row=b"r1"))
    assert data_blocks() > 0


def test_family_encoding_cache_flags_and_configuration_round_trip(client):
    """TColumnFamilyDescriptor's dataBlockEncoding, cache flags and configuration reach the
    family (ColumnFamilyDescriptorBuilder) and read back; an unread key is refused."""
    cd = T.TColumnFamilyDescriptor(
        name=b"f", dataBlockEncoding=T.TDataBlockEncoding.FAST_DIFF, cacheDataOnWrite=True,
        evictBlocksOnClose=True, bloomnFilterType=T.TBloomFilterType.ROWPREFIX_FIXED_LENGTH,
        configuration={"RowPrefixBloomFilter.prefix_length": "4"})
    client.createTable(T.TTableDescriptor(tableName=T.TTableName(qualifier=b"enc"),
                                          columns=[cd]), None)
    back = client.getTableDescriptor(T.TTableName(qualifier=b"enc")).columns[0]
    assert back.dataBlockEncoding == T.TDataBlockEncoding.FAST_DIFF
    assert back.cacheDataOnWrite and back.evictBlocksOnClose and not back.cacheIndexesOnWrite
    assert back.configuration == {"RowPrefixBloomFilter.prefix_length": "4"}
    assert back.attributes[b"DATA_BLOCK_ENCODING"] == b"FAST_DIFF"
    bad = T.TColumnFamilyDescriptor(name=b"f", configuration={"hbase.made.up": "1"})
    with pytest.raises(TApplicationException, match="not modelled by hsim"):
        client.createTable(T.TTableDescriptor(tableName=T.TTableName(qualifier=b"bad"),
                                              columns=[bad]), None)
    assert not client.tableExists(T.TTableName(qualifier=b"bad"))
