"""A column family's settings by HBase's option names, as ColumnFamilyDescriptor.getValues()
holds them once ColumnFamilyDescriptorBuilder has filled its defaults: what Thrift2's
TColumnFamilyDescriptor.attributes and REST's ColumnSchemaModel report."""

from __future__ import annotations

_INT_MAX = 2**31 - 1  # HConstants.FOREVER: a TTL that never expires


def family_values(cf) -> dict:
    """Every option the builder sets, as text (TTL FOREVER is Integer.MAX_VALUE)."""
    return {
        "BLOOMFILTER": cf.bloom_filter, "REPLICATION_SCOPE": "0",
        "VERSIONS": str(cf.max_versions), "MIN_VERSIONS": str(cf.min_versions),
        "COMPRESSION": cf.compression, "TTL": str(_INT_MAX if cf.ttl is None else cf.ttl),
        "BLOCKSIZE": str(cf.block_size), "IN_MEMORY": str(bool(cf.in_memory)).lower(),
        "BLOCKCACHE": str(bool(cf.block_cache)).lower(),
        "KEEP_DELETED_CELLS": cf.keep_deleted_cells.value,
        "DATA_BLOCK_ENCODING": cf.data_block_encoding,
        # the cache settings are no reserved keys: HBase's getValues() holds them once set
        **{name: "true" for name, field in _CACHE_FLAGS.items() if getattr(cf, field)}}


_CACHE_FLAGS = {"CACHE_DATA_ON_WRITE": "cache_data_on_write",
                "CACHE_INDEX_ON_WRITE": "cache_index_on_write",
                "CACHE_BLOOMS_ON_WRITE": "cache_blooms_on_write",
                "PREFETCH_BLOCKS_ON_OPEN": "prefetch_blocks_on_open",
                "EVICT_BLOCKS_ON_CLOSE": "evict_blocks_on_close"}
