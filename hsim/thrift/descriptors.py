"""ColumnDescriptor (the Thrift-1 struct) <-> hsim ColumnFamily, as ThriftUtilities'
colDescFromThrift and colDescFromHbase map it.

colDescFromThrift sets every field the struct carries, so a happybase family created with no
options gets the IDL's defaults (VERSIONS 3, BLOOMFILTER NONE, BLOCKCACHE false), not HBase's
shell defaults; fields the struct lacks (BLOCKSIZE, MIN_VERSIONS, KEEP_DELETED_CELLS) keep
HBase's. A TTL of 0 or less means FOREVER, which reads back as Integer.MAX_VALUE.
"""

from __future__ import annotations

from hsim.errors import DoNotRetryError, InvalidArgumentError
from hsim.schema import ColumnFamily
from hsim.thrift.idl import ttypes

_INT_MAX = 2**31 - 1
# Compression.Algorithm names (getCompressionAlgorithmByName compares them lower-cased).
_HBASE_CODECS = ("lzo", "gz", "none", "snappy", "lz4", "bzip2", "zstd")
_HSIM_CODECS = {"none": "NONE", "gz": "GZ", "snappy": "SNAPPY", "lz4": "LZ4", "zstd": "ZSTD"}
_BLOOM_TYPES = ("NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH")
_HBASE_ONLY_BLOOMS = ("ROWPREFIX_DELIMITED",)


def family_from_thrift(cd) -> tuple[bytes, ColumnFamily]:
    """ThriftUtilities.colDescFromThrift: the family name (before any ':') and its options."""
    codec = cd.compression.lower()
    if codec not in _HBASE_CODECS:
        raise InvalidArgumentError(f"Unsupported compression algorithm name: {codec}")
    bloom = cd.bloomFilterType
    if bloom not in _BLOOM_TYPES:
        if bloom in _HBASE_ONLY_BLOOMS:
            raise InvalidArgumentError(f"hsim does not simulate BLOOMFILTER => {bloom}")
        raise InvalidArgumentError(
            f"No enum constant org.apache.hadoop.hbase.regionserver.BloomType.{bloom}")
    if not cd.name:
        raise ttypes.IllegalArgument(message="column name is empty")
    if codec not in _HSIM_CODECS:
        # What TableDescriptorChecker says on a cluster without the codec.
        raise DoNotRetryError(f"Compression algorithm '{codec}' previously failed test.")
    return cd.name.partition(b":")[0], ColumnFamily(
        max_versions=cd.maxVersions, compression=_HSIM_CODECS[codec], in_memory=cd.inMemory,
        block_cache=cd.blockCacheEnabled, ttl=cd.timeToLive if cd.timeToLive > 0 else None,
        bloom_filter=bloom)


def family_to_thrift(family: bytes, cf: ColumnFamily):
    """ThriftUtilities.colDescFromHbase; the bloom vector size and hash count stay 0."""
    return ttypes.ColumnDescriptor(
        name=family + b":", maxVersions=cf.max_versions, compression=cf.compression,
        inMemory=bool(cf.in_memory), blockCacheEnabled=bool(cf.block_cache),
        bloomFilterType=cf.bloom_filter, timeToLive=_INT_MAX if cf.ttl is None else cf.ttl,
        bloomFilterVectorSize=0, bloomFilterNbHashes=0)
