"""Schema descriptors: ColumnFamily (HColumnDescriptor / ColumnFamilyDescriptorBuilder) and
TableDescriptor, with HBase's defaults and HBase's validation."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from hsim import descriptor_attributes as attributes
from hsim.bytes import utf8
from hsim.cell import MAX_ROW_LENGTH
from hsim.configuration_keys import FAMILY, TABLE
from hsim.configuration_keys import validate as validate_configuration
from hsim.errors import DoNotRetryError, InvalidArgumentError
from hsim.keep_deleted_cells import KeepDeletedCells

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from typing import Any

FOREVER = None  # TTL => FOREVER (HConstants.FOREVER = Integer.MAX_VALUE seconds)
_INT_MAX = 2**31 - 1
BLOOM_TYPES = ("NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH")
COMPRESSIONS = ("NONE", "SNAPPY", "LZ4", "GZ", "ZSTD")
# BloomFilterUtil.PREFIX_LENGTH_KEY: a ROWPREFIX_FIXED_LENGTH family's CONFIGURATION key
PREFIX_LENGTH_KEY = "RowPrefixBloomFilter.prefix_length"
# DataBlockEncoding values HBase 2.x writes (hsim/engine/encoding/)
DATA_BLOCK_ENCODINGS = ("NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1")


@dataclass(frozen=True)
class ColumnFamily:
    """A column family's options. The family's name is the key it is registered under."""

    max_versions: int = 1  # VERSIONS
    min_versions: int = 0  # MIN_VERSIONS
    ttl: int | None = FOREVER  # TTL in seconds; None = FOREVER
    # KEEP_DELETED_CELLS; False/True/"TTL" (any case) are accepted and stored as the enum
    keep_deleted_cells: KeepDeletedCells = KeepDeletedCells.FALSE
    bloom_filter: str = "ROW"  # BLOOMFILTER
    block_size: int = 65536  # BLOCKSIZE
    compression: str = "NONE"  # COMPRESSION
    in_memory: bool = False  # IN_MEMORY
    block_cache: bool = True  # BLOCKCACHE
    data_block_encoding: str = "NONE"  # DATA_BLOCK_ENCODING
    # The cache life cycle (CacheConfig; hsim.engine.cache_config): blocks cached as a flush
    # writes them, every block cached when a file opens, blocks evicted when a region closes
    cache_data_on_write: bool = False  # CACHE_DATA_ON_WRITE
    cache_index_on_write: bool = False  # CACHE_INDEX_ON_WRITE
    cache_blooms_on_write: bool = False  # CACHE_BLOOMS_ON_WRITE
    prefetch_blocks_on_open: bool = False  # PREFETCH_BLOCKS_ON_OPEN
    evict_blocks_on_close: bool = False  # EVICT_BLOCKS_ON_CLOSE
    # CONFIGURATION: the hsim-read keys of hsim.configuration_keys, text to text
    configuration: dict = field(default_factory=dict, hash=False)

    def __post_init__(self):
        object.__setattr__(self, "configuration", validate_configuration(self.configuration,
                                                                         FAMILY))
        # Normalise the spellings the shell and happybase use.
        kd = KeepDeletedCells.of(self.keep_deleted_cells)
        if kd is not None:
            object.__setattr__(self, "keep_deleted_cells", kd)
        if isinstance(self.bloom_filter, str):
            object.__setattr__(self, "bloom_filter", self.bloom_filter.upper())
        if isinstance(self.compression, str):
            c = self.compression.upper()
            object.__setattr__(self, "compression", "GZ" if c == "GZIP" else c)
        if isinstance(self.data_block_encoding, str):
            object.__setattr__(self, "data_block_encoding", self.data_block_encoding.upper())
        if self.ttl == _INT_MAX and not isinstance(self.ttl, bool):
            object.__setattr__(self, "ttl", None)
        self.validate()

    def validate(self) -> None:
        """ColumnFamilyDescriptorBuilder's checks and TableDescriptorChecker's sanity checks."""
        for name in ("max_versions", "min_versions", "ttl", "block_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, type(None))) or \
                    (value is None and name != "ttl") or (value or 0) > _INT_MAX:
                raise InvalidArgumentError(f"{_OPTION_NAMES[name]} must be an int up to "
                                           f"{_INT_MAX}, not {value!r}")
        for name in _BOOLEANS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidArgumentError(
                    f"{_OPTION_NAMES[name]} must be true or false, not {getattr(self, name)!r}")
        if not isinstance(self.max_versions, int) or self.max_versions <= 0:
            raise InvalidArgumentError("Maximum versions must be positive")
        if not isinstance(self.min_versions, int) or self.min_versions < 0:
            raise DoNotRetryError("Min versions for column family must be positive.")
        if self.min_versions > self.max_versions:
            raise InvalidArgumentError(
                f"Set MaxVersion to {self.max_versions} while minVersion is {self.min_versions}."
                " Maximum versions must be >= minimum versions "
            )
        if self.ttl is not None and (not isinstance(self.ttl, int) or self.ttl <= 0):
            raise DoNotRetryError("TTL for column family must be positive.")
        if not isinstance(self.keep_deleted_cells, KeepDeletedCells):
            raise InvalidArgumentError(
                f"KEEP_DELETED_CELLS must be FALSE, TRUE or TTL, not {self.keep_deleted_cells!r}"
            )
        if self.bloom_filter not in BLOOM_TYPES:
            raise InvalidArgumentError(f"BLOOMFILTER must be one of {BLOOM_TYPES}")
        if self.bloom_filter == "ROWPREFIX_FIXED_LENGTH":
            bloom_prefix_length(self)
        if self.compression not in COMPRESSIONS:
            raise InvalidArgumentError(f"COMPRESSION must be one of {COMPRESSIONS}")
        if self.data_block_encoding not in DATA_BLOCK_ENCODINGS:
            # DataBlockEncoding.valueOf: IllegalArgumentException
            raise InvalidArgumentError(f"DATA_BLOCK_ENCODING must be one of "
                                       f"{DATA_BLOCK_ENCODINGS}, not {self.data_block_encoding!r}")
        bs = self.block_size
        if not isinstance(bs, int) or not (1024 <= bs <= 16 * 1024 * 1024):
            # TableDescriptorChecker: "Block size for column family X must be between 1K and 16MB."
            raise DoNotRetryError("Block size for column family must be between 1K and 16MB.")

    @property
    def ttl_ms(self) -> int | None:
        """HStore.determineTTLFromFamily: FOREVER means no expiry, else seconds x 1000."""
        return None if self.ttl is None else self.ttl * 1000

    def replace(self, **changes: Any) -> "ColumnFamily":
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_options(cls, options: dict | None) -> "ColumnFamily":
        """Build from a dict using hsim names or HBase shell names (VERSIONS, TTL, ...)."""
        if options is None:
            return cls()
        if isinstance(options, ColumnFamily):
            return options
        names = {f.name for f in dataclasses.fields(cls)}
        kwargs = {}
        for k, v in options.items():
            key = _SHELL_NAMES.get(str(k).upper(), str(k).lower())
            if key == "name":
                continue
            if attributes.known(str(k), FAMILY):
                attributes.check(str(k), v, FAMILY)  # accepted only at hsim's own value
                continue
            if key not in names:
                raise InvalidArgumentError(f"unknown column family option {k!r}")
            kwargs[key] = v
        return cls(**kwargs)

    def to_dict(self) -> dict:
        """Every setting by name, as plain values (KEEP_DELETED_CELLS as FALSE/TRUE/TTL)."""
        return {**dataclasses.asdict(self), "keep_deleted_cells": self.keep_deleted_cells.value}


_SHELL_NAMES = {
    "VERSIONS": "max_versions",
    "MAX_VERSIONS": "max_versions",
    "MIN_VERSIONS": "min_versions",
    "TTL": "ttl",
    "KEEP_DELETED_CELLS": "keep_deleted_cells",
    "BLOOMFILTER": "bloom_filter",
    "BLOCKSIZE": "block_size",
    "COMPRESSION": "compression",
    "IN_MEMORY": "in_memory",
    "BLOCKCACHE": "block_cache",
    "DATA_BLOCK_ENCODING": "data_block_encoding",
    "CACHE_DATA_ON_WRITE": "cache_data_on_write",
    "CACHE_INDEX_ON_WRITE": "cache_index_on_write",
    "CACHE_BLOOMS_ON_WRITE": "cache_blooms_on_write",
    "PREFETCH_BLOCKS_ON_OPEN": "prefetch_blocks_on_open",
    "EVICT_BLOCKS_ON_CLOSE": "evict_blocks_on_close",
    "CONFIGURATION": "configuration",
    "NAME": "name",
}

_BOOLEANS = ("in_memory", "block_cache", "cache_data_on_write", "cache_index_on_write",
             "cache_blooms_on_write", "prefetch_blocks_on_open", "evict_blocks_on_close")
_OPTION_NAMES = {v: k for k, v in reversed(_SHELL_NAMES.items())}  # max_versions -> VERSIONS


def bloom_prefix_length(family) -> int | None:
    """BloomFilterUtil.getBloomFilterParam: a ROWPREFIX_FIXED_LENGTH family's prefix length,
    from its CONFIGURATION key RowPrefixBloomFilter.prefix_length (None for other blooms).
    TableDescriptorChecker.checkBloomFilterType refuses a missing or bad one."""
    if family.bloom_filter != "ROWPREFIX_FIXED_LENGTH":
        return None
    value = (getattr(family, "configuration", None) or {}).get(PREFIX_LENGTH_KEY)
    head = "Failed to get bloom filter param: Bloom filter type is ROWPREFIX_FIXED_LENGTH, "
    if value is None:
        raise DoNotRetryError(head + f"{PREFIX_LENGTH_KEY} not specified.")
    if not re.fullmatch(r"[+-]?[0-9]+", str(value)):  # Integer.parseInt's grammar
        raise DoNotRetryError(f"Failed to get bloom filter param: Number format exception when "
                              f"parsing {PREFIX_LENGTH_KEY} for BloomType "
                              f"ROWPREFIX_FIXED_LENGTH:{value}")
    n = int(str(value))
    if not 0 < n <= MAX_ROW_LENGTH:
        raise DoNotRetryError(head + f"the value of {PREFIX_LENGTH_KEY} must >=0 and < "
                              f"{MAX_ROW_LENGTH}")
    return n


def validate_family_name(name: bytes) -> bytes:
    """ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName."""
    if isinstance(name, str):
        name = utf8(name, "family")
    if not name:
        raise InvalidArgumentError("Column Family name can not be empty")
    if name[0:1] == b".":
        raise InvalidArgumentError(f"Column Family names cannot start with a period: {name!r}")
    for ch in name:
        if ch in b":\\/" or ch < 32 or ch == 127:
            raise InvalidArgumentError(
                f"Illegal character <{ch}>. Column Family names cannot contain control "
                f"characters or colons: {name!r}"
            )
    if name == b"recovered.edits":
        raise InvalidArgumentError("Column Family name cannot be: recovered.edits")
    if len(name) > 127:
        raise InvalidArgumentError("Family name length exceeds 127 (Byte.MAX_VALUE)")
    return name


def validate_table_name(name: str) -> str:
    """TableName.isLegalTableQualifierName (with an optional 'namespace:' prefix)."""
    if isinstance(name, bytes):
        name = name.decode("utf-8")
    if not isinstance(name, str) or not name:
        raise InvalidArgumentError("Table qualifier must not be empty")
    qualifier = name.split(":", 1)[1] if ":" in name else name
    if not qualifier:
        raise InvalidArgumentError("Table qualifier must not be empty")
    if qualifier[0] in ".-":
        raise InvalidArgumentError(
            f"Illegal first character <{ord(qualifier[0])}> at 0. User-space table qualifiers "
            f"can only start with 'alphanumeric characters' from any language: {qualifier}"
        )
    for i, ch in enumerate(qualifier):
        if not (ch.isalnum() or ch in "_.-"):
            raise InvalidArgumentError(
                f"Illegal character code:{ord(ch)}, <{ch}> at {i}. User-space table qualifiers "
                f"may only contain 'alphanumeric characters' and digits: {qualifier}"
            )
    return name


@dataclass
class TableDescriptor:
    """A table: its name, families and the table attributes that override Config."""

    name: str
    families: dict[bytes, ColumnFamily] = field(default_factory=dict)
    max_filesize: int | None = None  # MAX_FILESIZE
    memstore_flush_size: int | None = None  # MEMSTORE_FLUSHSIZE
    split_policy: str | None = None  # SPLIT_POLICY
    split_enabled: bool = True  # SPLIT_ENABLED
    key_prefix_length: int | None = None  # KeyPrefixRegionSplitPolicy.prefix_length
    key_prefix_delimiter: bytes | None = None  # DelimitedKeyPrefixRegionSplitPolicy.delimiter
    durability: int = 0  # DURABILITY (hsim.Durability; USE_DEFAULT = SYNC_WAL)
    # TableDescriptor's other values (OWNER, PRIORITY, METADATA and CONFIGURATION entries,
    # ...): str -> str, kept and shown as HBase keeps them; hsim reads MERGE_ENABLED and the
    # normalizer's (NORMALIZATION_ENABLED, NORMALIZER_TARGET_*) from here, as HBase does
    values: dict = field(default_factory=dict)
    # CONFIGURATION entries hsim reads (hsim.configuration_keys), text to text
    configuration: dict = field(default_factory=dict)

    def __post_init__(self):
        validate_table_name(self.name)
        self.configuration = validate_configuration(self.configuration, TABLE)
        for k, v in self.values.items():
            if attributes.known(k, TABLE):
                attributes.check(k, v, TABLE)
        if not self.families:
            raise DoNotRetryError("Table should have at least one column family.")
