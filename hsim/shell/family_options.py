"""A column family's options in the shell: `{NAME => 'f', VERSIONS => 3, ...}` read into a
ColumnFamily (hbase/admin.rb hcd) and a family shown as `describe` shows it
(ColumnFamilyDescriptor#toString)."""

from __future__ import annotations

from hsim import descriptor_attributes
from hsim.errors import InvalidArgumentError
from hsim.keep_deleted_cells import KeepDeletedCells
from hsim.schema import DATA_BLOCK_ENCODINGS, ColumnFamily
from hsim.shell.args import java_bool, java_int, name_text, ttl_seconds
from hsim.shell.descriptor_text import family_text
from hsim.shell.formatter import human_bytes, human_ttl
from hsim.shell.parser import ruby_inspect, to_bytes, to_text
from hsim.shell.registry import ShellArgumentError

# Family options the engine models (shell name -> ColumnFamily field).
_FAMILY_OPTIONS = {
    "VERSIONS": "max_versions", "MIN_VERSIONS": "min_versions", "TTL": "ttl",
    "KEEP_DELETED_CELLS": "keep_deleted_cells", "BLOOMFILTER": "bloom_filter",
    "BLOCKSIZE": "block_size", "COMPRESSION": "compression", "IN_MEMORY": "in_memory",
    "BLOCKCACHE": "block_cache", "DATA_BLOCK_ENCODING": "data_block_encoding",
    "CACHE_DATA_ON_WRITE": "cache_data_on_write",
    "CACHE_INDEX_ON_WRITE": "cache_index_on_write",
    "CACHE_BLOOMS_ON_WRITE": "cache_blooms_on_write",
    "PREFETCH_BLOCKS_ON_OPEN": "prefetch_blocks_on_open",
    "EVICT_BLOCKS_ON_CLOSE": "evict_blocks_on_close", "CONFIGURATION": "configuration",
}
# The other attributes HBase defines: refused unless at hsim's own value
# (hsim.descriptor_attributes).
_BLOOM_TYPES = ("NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH")
_COMPRESSIONS = ("GZ", "NONE", "SNAPPY", "LZ4", "ZSTD")


def option_name(k) -> str:
    """An option name of a shell hash, as text (the key a Ruby hash was given)."""
    return to_text(k) if isinstance(k, str) else str(k)


def family_from_hash(arg: dict, current: ColumnFamily | None, out) -> tuple[bytes, ColumnFamily]:
    """Admin#hcd: a ColumnFamily from a `{NAME => 'f', VERSIONS => 3, ...}` hash, on top of the
    family's current options when it exists."""
    arg = dict(arg)
    name = arg.pop("NAME", None)
    if not name:
        raise ShellArgumentError(f"Column family {ruby_inspect(arg)} must have a name")
    fam = to_bytes(name_text(name))
    opts = (current or ColumnFamily()).to_dict()
    for k, v in arg.items():
        key = option_name(k)
        if descriptor_attributes.known(key, "family"):
            descriptor_attributes.check(key, _attribute_text(v), "family")
            continue
        field = _FAMILY_OPTIONS.get(key)
        if field is None:
            out.line(f"Unknown argument ignored for column family {name_text(name)}: {key}")
            continue
        if field in ("max_versions", "min_versions", "block_size"):
            v = java_int(v)
        elif field == "ttl":
            v = ttl_seconds(v)
        elif field == "configuration":
            v = _family_configuration(opts["configuration"], v)
        elif field in ("in_memory", "block_cache") or field.startswith(("cache_", "prefetch_",
                                                                            "evict_")):
            v = java_bool(v)
        elif field == "keep_deleted_cells":
            s = ("true" if v else "false") if isinstance(v, bool) else to_text(str(v))
            v = KeepDeletedCells.of(s)
            if v is None:
                raise InvalidArgumentError(
                    f"No enum constant org.apache.hadoop.hbase.KeepDeletedCells.{s.upper()}")
        elif field == "bloom_filter":
            v = to_text(str(v)).upper()
            if v not in _BLOOM_TYPES:
                raise ShellArgumentError(f"BloomFilter type {v} is not supported. Use one of "
                                         + " ".join(_BLOOM_TYPES))
        elif field == "compression":
            v = to_text(str(v)).upper()
            if v not in _COMPRESSIONS:
                raise ShellArgumentError(f"Compression {v} is not supported. Use one of "
                                         + " ".join(_COMPRESSIONS))
        elif field == "data_block_encoding":
            v = to_text(str(v))  # DataBlockEncoding.valueOf: the exact name
            if v not in DATA_BLOCK_ENCODINGS:
                raise InvalidArgumentError(
                    f"No enum constant org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.{v}"
                    f" (hsim writes {', '.join(DATA_BLOCK_ENCODINGS)})")
        opts[field] = v
    return fam, ColumnFamily(**opts)


def _attribute_text(v) -> str:
    """An attribute's value as the descriptor stores it (text; booleans as true/false)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return to_text(v) if isinstance(v, str) else str(v)


def _family_configuration(current: dict, value) -> dict:
    """admin.rb set_descriptor_config: each entry set on the family's configuration (an empty
    value removes it); the keys are checked when the ColumnFamily is built."""
    if not isinstance(value, dict):
        raise ShellArgumentError("CONFIGURATION must be a Hash type")
    out = dict(current)
    for k, v in value.items():
        text = _attribute_text(v)
        if text == "":
            out.pop(option_name(k), None)
        else:
            out[option_name(k)] = text
    return out


def family_description(name: bytes, cf: ColumnFamily) -> str:
    """ColumnFamilyDescriptor#toString as HBase 2.5 prints it in `describe`."""
    kdc = cf.keep_deleted_cells.value
    values = [
        ("INDEX_BLOCK_ENCODING", "NONE"), ("VERSIONS", cf.max_versions),
        ("KEEP_DELETED_CELLS", kdc), ("DATA_BLOCK_ENCODING", cf.data_block_encoding),
        ("TTL", human_ttl(cf.ttl)), ("MIN_VERSIONS", cf.min_versions),
        ("REPLICATION_SCOPE", 0), ("BLOOMFILTER", cf.bloom_filter),
        ("IN_MEMORY", str(cf.in_memory).lower()), ("COMPRESSION", cf.compression),
        ("BLOCKCACHE", str(cf.block_cache).lower()), ("BLOCKSIZE", human_bytes(cf.block_size)),
    ]
    # the cache settings are no reserved keys: set, they print under METADATA
    metadata = {shell: "true" for shell, field in _FAMILY_OPTIONS.items()
                if field.startswith(("cache_", "prefetch_", "evict_")) and getattr(cf, field)}
    return family_text(values, metadata, cf.configuration, name.decode("utf-8", "replace"))
