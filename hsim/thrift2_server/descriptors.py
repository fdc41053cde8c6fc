"""TTableDescriptor / TColumnFamilyDescriptor / TTableName / TNamespaceDescriptor <-> hsim's
schema, as thrift2 ThriftUtilities converts them (tableDescriptorFromThrift,
columnFamilyDescriptorFromThrift and the FromHBase directions).

A family built from Thrift starts from ColumnFamilyDescriptorBuilder's defaults, takes its
`attributes` (HBase's option names: VERSIONS, TTL, ...) and then every typed field that is set.
Settings hsim does not model (DFS replication, replication scope, tag compression) are refused
unless they hold HBase's default, so a descriptor read back and sent again is accepted; the data
block encoding, the cache-on-write and evict-on-close flags and the family's configuration (the
keys hsim reads) are modelled.
A family reads back with HBase's `getValues()` as its attributes, as the builder fills them.
"""

from __future__ import annotations

from hsim.errors import DoNotRetryError, InvalidArgumentError
from hsim.gateway.families import family_values
from hsim.schema import BLOOM_TYPES, COMPRESSIONS, ColumnFamily
from hsim.thrift2_server.idl import ttypes

_INT_MAX = 2**31 - 1
_BLOOM = {v: k for k, v in ttypes.TBloomFilterType._VALUES_TO_NAMES.items()}
_CODEC = ttypes.TCompressionAlgorithm._VALUES_TO_NAMES
_KDC = ttypes.TKeepDeletedCells._VALUES_TO_NAMES
# Attributes with HBase's defaults that hsim accepts and reports without modelling them.
_FIXED = {"INDEX_BLOCK_ENCODING": "NONE", "REPLICATION_SCOPE": "0"}
_INTS = ("VERSIONS", "MIN_VERSIONS", "TTL", "BLOCKSIZE")
_BOOLS = ("IN_MEMORY", "BLOCKCACHE", "CACHE_DATA_ON_WRITE", "CACHE_INDEX_ON_WRITE",
          "CACHE_BLOOMS_ON_WRITE", "PREFETCH_BLOCKS_ON_OPEN", "EVICT_BLOCKS_ON_CLOSE")
_STRS = ("BLOOMFILTER", "COMPRESSION", "KEEP_DELETED_CELLS", "DATA_BLOCK_ENCODING")
_ENCODING = ttypes.TDataBlockEncoding._VALUES_TO_NAMES
# typed cache flags -> the family option each sets
_CACHE_FIELDS = {"cacheDataOnWrite": "CACHE_DATA_ON_WRITE",
                 "cacheIndexesOnWrite": "CACHE_INDEX_ON_WRITE",
                 "cacheBloomsOnWrite": "CACHE_BLOOMS_ON_WRITE",
                 "evictBlocksOnClose": "EVICT_BLOCKS_ON_CLOSE"}
# Typed fields hsim does not model, with the value HBase's builder gives them.
_UNMODELLED = {"dfsReplication": (None, 0), "scope": (None, 0), "compressTags": (None, True)}


def _text(b) -> str:
    return b.decode("utf-8", "replace") if isinstance(b, bytes) else str(b)


def _attribute_options(attributes) -> dict:
    out = {}
    for k, v in (attributes or {}).items():
        key, value = _text(k).upper(), _text(v)
        if key in _FIXED:
            if value.upper() != _FIXED[key]:
                raise InvalidArgumentError(f"hsim does not model {key} => '{value}'")
        elif key in _INTS:
            try:
                out[key] = int(value)
            except ValueError:
                raise InvalidArgumentError(f"{key} must be a number, not {value!r}") from None
        elif key in _BOOLS:
            out[key] = value.lower() == "true"
        elif key == "DATA_BLOCK_ENCODING":
            out[key] = value  # DataBlockEncoding.valueOf: the exact name
        elif key in _STRS:
            out[key] = value.upper()
        else:
            raise InvalidArgumentError(f"hsim does not model the family attribute {key}")
    return out


def family_from_thrift(cd) -> tuple[bytes, ColumnFamily]:
    """columnFamilyDescriptorFromThrift: the family's name and options."""
    if not cd.name:
        raise InvalidArgumentError("Column Family name can not be empty")
    for name, allowed in _UNMODELLED.items():
        if getattr(cd, name) not in allowed:
            raise InvalidArgumentError(f"hsim does not model TColumnFamilyDescriptor.{name} = "
                                       f"{getattr(cd, name)!r}")
    opts = _attribute_options(cd.attributes)
    if cd.blockSize is not None:
        opts["BLOCKSIZE"] = cd.blockSize
    if cd.bloomnFilterType is not None:
        bloom = ttypes.TBloomFilterType._VALUES_TO_NAMES.get(cd.bloomnFilterType, "ROW")
        if bloom not in BLOOM_TYPES:
            raise InvalidArgumentError(f"hsim does not simulate BLOOMFILTER => {bloom}")
        opts["BLOOMFILTER"] = bloom
    if cd.compressionType is not None:
        codec = _CODEC.get(cd.compressionType, "NONE")
        if codec not in COMPRESSIONS:  # what TableDescriptorChecker says without the codec
            raise DoNotRetryError(f"Compression algorithm '{codec.lower()}' previously failed "
                                  "test.")
        opts["COMPRESSION"] = codec
    if cd.dataBlockEncoding is not None:
        opts["DATA_BLOCK_ENCODING"] = _ENCODING.get(cd.dataBlockEncoding, str(cd.dataBlockEncoding))
    for field, key in _CACHE_FIELDS.items():
        if getattr(cd, field) is not None:
            opts[key] = bool(getattr(cd, field))
    if cd.configuration:  # the keys hsim reads (hsim.configuration_keys); others are refused
        opts["CONFIGURATION"] = {_text(k): _text(v) for k, v in cd.configuration.items()}
    if cd.keepDeletedCells is not None:
        opts["KEEP_DELETED_CELLS"] = _KDC.get(cd.keepDeletedCells, "FALSE")
    for field, key in (("maxVersions", "VERSIONS"), ("minVersions", "MIN_VERSIONS"),
                       ("timeToLive", "TTL"), ("blockCacheEnabled", "BLOCKCACHE"),
                       ("inMemory", "IN_MEMORY")):
        if getattr(cd, field) is not None:
            opts[key] = getattr(cd, field)
    if opts.get("TTL") == _INT_MAX:
        opts["TTL"] = None  # HConstants.FOREVER
    return cd.name, ColumnFamily.from_options(opts)


def family_to_thrift(name: bytes, cf: ColumnFamily):
    """columnFamilyDescriptorFromHBase."""
    return ttypes.TColumnFamilyDescriptor(
        name=name, attributes={k.encode(): v.encode() for k, v in family_values(cf).items()},
        configuration=dict(cf.configuration),
        blockSize=cf.block_size, bloomnFilterType=_BLOOM[cf.bloom_filter],
        compressionType=getattr(ttypes.TCompressionAlgorithm, cf.compression),
        dfsReplication=0,
        dataBlockEncoding=getattr(ttypes.TDataBlockEncoding, cf.data_block_encoding),
        keepDeletedCells=getattr(ttypes.TKeepDeletedCells, cf.keep_deleted_cells.value),
        maxVersions=cf.max_versions, minVersions=cf.min_versions, scope=0,
        timeToLive=_INT_MAX if cf.ttl is None else cf.ttl,
        blockCacheEnabled=bool(cf.block_cache), cacheBloomsOnWrite=cf.cache_blooms_on_write,
        cacheDataOnWrite=cf.cache_data_on_write, cacheIndexesOnWrite=cf.cache_index_on_write,
        compressTags=True, evictBlocksOnClose=cf.evict_blocks_on_close,
        inMemory=bool(cf.in_memory))


def table_name(tname) -> str:
    """tableNameFromThrift: TableName.valueOf(ns, qualifier); no namespace is `default`."""
    if tname is None or not tname.qualifier:
        raise InvalidArgumentError("Table qualifier must not be empty")
    qualifier = _text(tname.qualifier)
    ns = _text(tname.ns) if tname.ns else "default"
    return qualifier if ns == "default" else f"{ns}:{qualifier}"


def table_name_to_thrift(name: str):
    """tableNameFromHBase: the namespace is always set (`default` for a bare name)."""
    ns, _, qualifier = name.rpartition(":")
    return ttypes.TTableName(ns=(ns or "default").encode(), qualifier=qualifier.encode())


def table_to_thrift(desc):
    """tableDescriptorFromHBase: the name, the families in name order, the durability."""
    return ttypes.TTableDescriptor(
        tableName=table_name_to_thrift(desc.name),
        columns=[family_to_thrift(f, desc.families[f]) for f in sorted(desc.families)],
        attributes={str(k).encode(): str(v).encode() for k, v in desc.values.items()},
        durability=int(desc.durability))


def table_from_thrift(td) -> tuple[str, dict, dict]:
    """tableDescriptorFromThrift: (name, families, native create_table attributes)."""
    name = table_name(td.tableName)
    families: dict = {}
    for cd in td.columns or []:
        fam, cf = family_from_thrift(cd)
        if fam in families:
            raise InvalidArgumentError(f"Family '{_text(fam)}' already exists so cannot be "
                                       "added")
        families[fam] = cf
    attrs: dict = {"values": {_text(k): _text(v) for k, v in (td.attributes or {}).items()}}
    if td.durability:
        attrs["durability"] = ttypes.TDurability._VALUES_TO_NAMES[td.durability]
    return name, families, attrs


def namespace_to_thrift(name: str):
    return ttypes.TNamespaceDescriptor(name=name, configuration={})
