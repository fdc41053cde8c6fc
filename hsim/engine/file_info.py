"""HFile file-info keys: the names under which an HFile records its metadata (HFileInfo,
HStoreFile, HFileWriterImpl), and their values' encoding (Bytes.toBytes of a long or an int,
big-endian), shared by the writer and the reader."""

import struct

_LONG = struct.Struct(">q")
_INT = struct.Struct(">i")

LONG_MAX = (1 << 63) - 1

# File info keys (HFileInfo, HStoreFile, HFileWriterImpl).
LASTKEY = b"hfile.LASTKEY"
AVG_KEY_LEN = b"hfile.AVG_KEY_LEN"
AVG_VALUE_LEN = b"hfile.AVG_VALUE_LEN"
CREATE_TIME_TS = b"hfile.CREATE_TIME_TS"
MAX_TAGS_LEN = b"hfile.MAX_TAGS_LEN"
TAGS_COMPRESSED = b"hfile.TAGS_COMPRESSED"
MAX_MEMSTORE_TS_KEY = b"MAX_MEMSTORE_TS_KEY"
KEY_VALUE_VERSION = b"KEY_VALUE_VERSION"
BLOOM_FILTER_TYPE = b"BLOOM_FILTER_TYPE"
LAST_BLOOM_KEY = b"LAST_BLOOM_KEY"
BLOOM_FILTER_PARAM = b"BLOOM_FILTER_PARAM"  # a ROWPREFIX_FIXED_LENGTH bloom's prefix length
DELETE_FAMILY_COUNT = b"DELETE_FAMILY_COUNT"
MAX_SEQ_ID_KEY = b"MAX_SEQ_ID_KEY"
MAJOR_COMPACTION_KEY = b"MAJOR_COMPACTION_KEY"
TIMERANGE = b"TIMERANGE"
EARLIEST_PUT_TS = b"EARLIEST_PUT_TS"
DATA_BLOCK_ENCODING = b"DATA_BLOCK_ENCODING"  # HFileDataBlockEncoderImpl; absent for NONE
# Written by HFileOutputFormat2 into a file made for a bulk load (HStoreFile's names).
BULKLOAD_TIME_KEY = b"BULKLOAD_TIMESTAMP"
BULKLOAD_TASK_KEY = b"BULKLOAD_SOURCE_TASK"
EXCLUDE_FROM_MINOR_COMPACTION_KEY = b"EXCLUDE_FROM_MINOR_COMPACTION"
# hsim's one addition: the exact KeyValue bytes of the file's cells (sum of serialized_size),
# which HBase does not record but the simulator reports.
KEYVALUE_BYTES = b"hsim.KEYVALUE_BYTES"


def long_bytes(value: int) -> bytes:
    """Bytes.toBytes(long)."""
    return _LONG.pack(value)


def int_bytes(value: int) -> bytes:
    """Bytes.toBytes(int)."""
    return _INT.pack(value)


def get_long(info: dict, key: bytes, default: int) -> int:
    """The long recorded under `key` (Bytes.toLong), or `default` when the file has none."""
    return _LONG.unpack(info[key])[0] if key in info else default


def get_int(info: dict, key: bytes, default: int) -> int:
    """The int recorded under `key` (Bytes.toInt), or `default` when the file has none."""
    return _INT.unpack(info[key])[0] if key in info else default


def bulk_load_seq_id(name: str) -> int | None:
    """The sequence id a bulk load gave a file, from its name `<name>_SeqId_<id>_` (the last
    one: HStoreFile.open), or None when the name carries none."""
    start = name.rfind("SeqId_")
    if start < 0:
        return None
    digits = name[start + 6:].split("_", 1)[0]
    return int(digits) if digits.isdigit() else None
