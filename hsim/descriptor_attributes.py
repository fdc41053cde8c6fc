"""Every family and table attribute HBase 2.x defines, and what hsim does with each.

ColumnFamilyDescriptorBuilder and TableDescriptorBuilder name the attributes a schema can set.
hsim either models one (a ColumnFamily or TableDescriptor field), accepts it only at the value
hsim behaves as (any other value would change what HBase does, and is refused), or refuses it
outright. A refusal is one line naming the attribute and what hsim models instead, so no
setting is accepted and ignored. docs/schema-attributes.md is the table of these decisions.
"""

from __future__ import annotations

from hsim.configuration_keys import KEYS
from hsim.configuration_keys import validate as validate_configuration
from hsim.errors import InvalidArgumentError

# Family attributes only accepted at one value: name -> (the accepted values, any case, what
# hsim does instead).
FAMILY_ONLY = {
    "REPLICATION_SCOPE": (("0",), "hsim has no replication peers, so no edit is shipped"),
    "IN_MEMORY_COMPACTION": (("NONE",), "hsim's MemStore is the DefaultMemStore (no "
                                        "CompactingMemStore)"),
    "NEW_VERSION_BEHAVIOR": (("FALSE",), "hsim applies HBase's default version semantics "
                                         "(deletes mask later-written puts of older timestamps)"),
    "COMPRESS_TAGS": (("TRUE",), "hsim writes tags as HBase does by default"),
    "DFS_REPLICATION": (("0",), "hsim has no HDFS; a file's replica count changes nothing it "
                                "models"),
    "IS_MOB": (("FALSE",), "hsim has no MOB files; every value is stored in the HFiles"),
    "INDEX_BLOCK_ENCODING": (("NONE",), "hsim writes HBase's default index blocks"),
}
# Family attributes refused whatever their value: name -> what hsim does instead.
FAMILY_REFUSED = {
    "STORAGE_POLICY": "hsim has no HDFS storage tiers",
    "COMPRESSION_COMPACT": "hsim compresses compaction output with COMPRESSION",
    "COMPRESSION_COMPACT_MAJOR": "hsim compresses compaction output with COMPRESSION",
    "COMPRESSION_COMPACT_MINOR": "hsim compresses compaction output with COMPRESSION",
    "ENCRYPTION": "hsim writes HFiles unencrypted",
    "ENCRYPTION_KEY": "hsim writes HFiles unencrypted",
    "MOB_THRESHOLD": "hsim has no MOB files; every value is stored in the HFiles",
    "MOB_COMPACT_PARTITION_POLICY": "hsim has no MOB files; every value is stored in the HFiles",
    "METADATA": "hsim keeps no family METADATA; set the attributes it models by name, or "
                "CONFIGURATION for the keys it reads",
}
# Table attributes only accepted at one value.
TABLE_ONLY = {
    "READONLY": (("FALSE",), "every hsim table takes writes"),
    "COMPACTION_ENABLED": (("TRUE",), "hsim compacts every table (Config.compaction_policy "
                                      "chooses how)"),
    "REGION_REPLICATION": (("1",), "hsim serves one replica of each region"),
    # modelled (hsim.regions.flush_policy): the two policies a DefaultMemStore region has
    "FLUSH_POLICY": (tuple("org.apache.hadoop.hbase.regionserver." + name
                           for name in ("FlushAllStoresPolicy", "FlushAllLargeStoresPolicy")),
                     "the flush policies of a DefaultMemStore region"),
}
TABLE_REFUSED = {
    "IS_META": "only hbase:meta is a catalog table",
}
# HRegion's configuration holds the table's values (a CompoundConfiguration over them), so a
# METADATA entry named like a setting is one: refused as a CONFIGURATION key unless hsim reads it.
_SETTING_PREFIXES = ("hbase.", "hfile.", "io.storefile.")


def check(name: str, value, scope: str) -> None:
    """Refuse (InvalidArgumentError) an attribute hsim does not model at this value."""
    if scope == "table" and name.startswith(_SETTING_PREFIXES) and name not in KEYS:
        validate_configuration({name: value}, "table")  # refused with the registry's line
    key = name.upper()
    refused = FAMILY_REFUSED if scope == "family" else TABLE_REFUSED
    only = FAMILY_ONLY if scope == "family" else TABLE_ONLY
    if key in refused:
        raise InvalidArgumentError(f"{scope} attribute {key} is not modelled by hsim: "
                                   f"{refused[key]}")
    if key in only:
        allowed, instead = only[key]
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        if text.upper() not in {a.upper() for a in allowed}:
            raise InvalidArgumentError(
                f"{scope} attribute {key} => {text!r} is not modelled by hsim (only "
                f"{' or '.join(allowed)}): {instead}")


def known(name: str, scope: str) -> bool:
    """Whether `name` is one of the attributes `check` rules on."""
    key = name.upper()
    if scope == "family":
        return key in FAMILY_ONLY or key in FAMILY_REFUSED
    return key in TABLE_ONLY or key in TABLE_REFUSED or name.startswith(_SETTING_PREFIXES)
