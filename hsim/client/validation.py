"""The API boundary's checks, one function per kind of argument, shared by Table, Admin, the
Thrift handler and the shell. Each raises before anything is applied: TypeError naming the
argument and the type it wants, or the hsim error standing for HBase's own exception.

HBase's rules and where they live: Mutation.checkRow (row length), ConnectionUtils.validatePut
(hbase.client.keyvalue.maxsize), Mutation/TimeRange (signed 64-bit timestamps), Increment
(a Java long amount; the sum wraps as Java long arithmetic does), TableName (names and
namespaces), TableDescriptorChecker (table attributes)."""

from __future__ import annotations

from hsim.bytes import utf8
from hsim.cell import LATEST_TIMESTAMP, NO_TTL, check_row, to_bytes_arg
from hsim.errors import (ConstraintError, DoNotRetryError, IncompatibleFilterError,
                         InvalidArgumentError, NamespaceNotFoundError, NoSuchColumnFamilyError,
                         TableExistsError)

LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
DEFAULT_CACHING = 1000  # rows per scan request when caching is unset or <= 0
DEFAULT_NAMESPACE, SYSTEM_NAMESPACE = "default", "hbase"
_BYTES_LIKE = (bytes, str, bytearray, memoryview)


def type_error(arg: str, wanted: str, value) -> TypeError:
    return TypeError(f"{arg} must be {wanted}, not {type(value).__name__}")


def to_bytes(value, arg: str) -> bytes:
    if type(value) is bytes:
        return value
    if isinstance(value, str):
        return utf8(value, arg)
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise type_error(arg, "bytes or str", value)


def row(value, arg: str = "row") -> bytes:
    """Mutation.checkRow: 'Row length is 0' / 'Row length N is > 32767'."""
    r = to_bytes(value, arg)
    check_row(r)
    return r


def integer(value, arg: str, lo: int = LONG_MIN, hi: int = LONG_MAX) -> int:
    """An int (not a bool) in [lo, hi]: Java's long by default."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise type_error(arg, "an int", value)
    if not lo <= value <= hi:
        raise InvalidArgumentError(f"{arg} {value} is out of range [{lo}, {hi}]")
    return value


def timestamp(value, arg: str = "timestamp") -> int | None:
    """A cell timestamp: a signed 64-bit long, never negative (None: the server's now)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise type_error(arg, "an int", value)
    if value < 0:
        raise InvalidArgumentError(f"Timestamp cannot be negative. ts={value}")
    if value > LONG_MAX:
        raise InvalidArgumentError(f"Timestamp {value} does not fit a signed 64-bit long")
    return value


_timestamp = timestamp  # for time_range, whose argument has the name


def ttl_ms(value) -> int:
    """Mutation.setTTL(long): a cell TTL in ms (None: no TTL tag)."""
    if value is None:
        return NO_TTL
    if not isinstance(value, int) or isinstance(value, bool):
        raise type_error("ttl_ms", "an int", value)
    if value < 0:
        raise InvalidArgumentError("TTL must be non-negative")
    if value > LONG_MAX:
        raise InvalidArgumentError(f"TTL {value} does not fit a signed 64-bit long")
    return value


def increment_amount(value) -> int:
    """Increment.addColumn(family, qualifier, long amount)."""
    return integer(value, "increment amount")


#: a KeyValue's serialized size beyond its row, family, qualifier and value: key length and
#: value length (4 + 4), row length (2), family length (1), timestamp (8), type (1)
KV_OVERHEAD = 4 + 4 + 2 + 1 + 8 + 1


def cell_size(row_: bytes, family: bytes, qualifier: bytes, value: bytes, max_size: int) -> None:
    """ConnectionUtils.validatePut: a cell's KeyValue serialized size must not exceed
    hbase.client.keyvalue.maxsize (0 or less: no limit)."""
    if max_size <= 0:
        return
    size = KV_OVERHEAD + len(row_) + len(family) + len(qualifier) + len(value)
    if size > max_size:
        raise InvalidArgumentError(f"KeyValue size too large: {size} > {max_size} "
                                   "(hbase.client.keyvalue.maxsize)")


def mapping(value, arg: str) -> dict:
    if not isinstance(value, dict):
        raise type_error(arg, "a dict", value)
    return value


def caching(value) -> int:
    """Scan.setCaching: a value <= 0 (or None) means the client's default, as ClientScanner
    falls back to hbase.client.scanner.caching."""
    if value is None:
        return DEFAULT_CACHING
    integer(value, "caching")
    return value if value > 0 else DEFAULT_CACHING


def limit(value) -> int | None:
    if value is None:
        return None
    if integer(value, "limit") <= 0:
        raise InvalidArgumentError("limit must be positive")
    return value


def boolean(value, arg: str) -> bool:
    if not isinstance(value, bool):
        raise type_error(arg, "a bool", value)
    return value


# --- reads: Get and Scan (each check once per request) -----------------------------------------
def b(x) -> bytes:
    """bytes or str (UTF-8); any other type: InvalidArgumentError (the contract of the
    mutation paths and the tools that call them), where `to_bytes` raises TypeError."""
    try:
        return to_bytes_arg(x)
    except TypeError as e:
        raise InvalidArgumentError(str(e)) from None


def split_column(col, require_qualifier: bool = True) -> tuple[bytes, bytes | None]:
    """b"f:q" -> (b"f", b"q"); b"f" -> (b"f", None) when a whole family is allowed."""
    col = b(col)
    fam, sep, q = col.partition(b":")
    if not fam:
        raise InvalidArgumentError("Family cannot be null")
    if not sep:
        if require_qualifier:
            raise InvalidArgumentError(f"column {col!r} must be family:qualifier")
        return fam, None
    return fam, q


def column_list(columns) -> list:
    """A request's `columns`: one column, or a list, tuple or set of them (None: none)."""
    if columns is None:
        return []
    if isinstance(columns, (bytes, str, bytearray)):
        return [columns]
    if isinstance(columns, (list, tuple, set, frozenset)):
        return list(columns)
    raise TypeError(f"columns must be a column or a list of columns, not "
                    f"{type(columns).__name__}")


def read_columns(columns) -> list[tuple[bytes, bytes | None]]:
    """A Get's or Scan's columns, each (family, qualifier), qualifier None for a family."""
    return [split_column(col, require_qualifier=False) for col in column_list(columns)]


def time_range(time_range=None, timestamp=None) -> tuple[int, int]:
    """TimeRange checks: non-negative bounds, max >= min; a timestamp t is [t, t+1)."""
    if timestamp is not None:
        _timestamp(timestamp)
        return (timestamp, timestamp + 1)
    if time_range is None:
        return (0, LATEST_TIMESTAMP)
    if not isinstance(time_range, (tuple, list)) or len(time_range) != 2:
        raise type_error("time_range", "a (min, max) pair", time_range)
    lo, hi = (integer(x, "time_range bound") for x in time_range)
    if lo < 0 or hi < 0:
        raise InvalidArgumentError(
            f"Timestamp cannot be negative. minStamp:{lo}, maxStamp:{hi}")
    if hi < lo:
        raise InvalidArgumentError("maxStamp is smaller than minStamp")
    return (int(lo), int(hi))


def read_options(max_versions, cache_blocks) -> int:
    """Get/Scan.setCacheBlocks (a bool) and readVersions (positive; None: 1)."""
    if type(cache_blocks) is not bool:
        raise InvalidArgumentError(f"cache_blocks must be a bool, not {cache_blocks!r}")
    if max_versions is None:
        return 1
    if not isinstance(max_versions, int) or isinstance(max_versions, bool):
        raise TypeError(f"max_versions must be an int, not {type(max_versions).__name__}")
    if max_versions <= 0:
        raise InvalidArgumentError(f"max_versions must be positive, not {max_versions}")
    return max_versions


def raw_columns(raw: bool, columns) -> None:
    """A raw read takes no columns."""
    if raw and columns:
        raise DoNotRetryError("Cannot specify any column for a raw scan")


def query(columns, max_versions, raw: bool, cache_blocks) -> tuple[list, int]:
    """A Scan's read checks in its order: the options, raw with columns, then the columns;
    returns (read_columns, max_versions)."""
    max_versions = read_options(max_versions, cache_blocks)
    raw_columns(raw, columns)
    return read_columns(columns), max_versions


def known_family(families, fam: bytes) -> None:
    """A family the request names must be the table's."""
    if fam not in families:
        raise NoSuchColumnFamilyError(
            f"Column family {fam.decode('utf-8', 'replace')} does not exist")


def check_batch(batch, filt) -> None:
    """Scan.setBatch: a positive cell count, refused with a filter that must see whole rows
    (Filter.hasFilterRow), as HBase refuses it."""
    if batch is None:
        return
    if isinstance(batch, bool) or not isinstance(batch, int) or batch <= 0:
        raise InvalidArgumentError(f"batch must be a positive int, got {batch!r}")
    if filt is not None and filt.has_filter_row():
        raise IncompatibleFilterError(
            "Cannot set batch on a scan using a filter that returns true for "
            "filter.hasFilterRow")


def check_per_family(max_results, offset) -> None:
    """Get/Scan.setMaxResultsPerColumnFamily and setRowOffsetPerColumnFamily."""
    if max_results is not None and (isinstance(max_results, bool)
                                    or not isinstance(max_results, int) or max_results < 0):
        raise InvalidArgumentError(
            f"max_results_per_family must be a non-negative int, got {max_results!r}")
    if offset is not None and (isinstance(offset, bool) or not isinstance(offset, int)
                               or offset < 0):
        raise InvalidArgumentError(
            f"row_offset_per_family must be a non-negative int, got {offset!r}")


# --- names -----------------------------------------------------------------------------------
def namespace_name(name) -> str:
    """TableName.isLegalNamespaceName: letters, digits and '_'."""
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    if not isinstance(name, str):
        raise type_error("namespace", "str or bytes", name)
    if not name:
        raise InvalidArgumentError("Namespace name must not be empty")
    for i, ch in enumerate(name):
        if not (ch.isalnum() or ch == "_"):
            raise InvalidArgumentError(
                f"Illegal character <{ch}> at {i}. Namespaces may only contain 'alphanumeric "
                f"characters' from any language and digits: {name}")
    return name


def table_name(name) -> str:
    """The table's canonical name: 'default:t' is 't' (TableName.valueOf drops the default
    namespace); other namespaces keep their prefix."""
    from hsim.schema import validate_table_name

    if isinstance(name, (bytes, bytearray)):
        name = bytes(name).decode("utf-8", "replace")
    if not isinstance(name, str):
        raise type_error("table name", "str or bytes", name)
    ns, sep, qualifier = name.partition(":")
    if not sep:
        return validate_table_name(name)
    namespace_name(ns)
    validate_table_name(qualifier)
    return qualifier if ns == DEFAULT_NAMESPACE else name


def namespace_of(name: str) -> str:
    return name.partition(":")[0] if ":" in name else DEFAULT_NAMESPACE


def creatable_table(name: str, namespaces) -> str:
    """A user table may be created only in an existing namespace other than `hbase`."""
    ns = namespace_of(name)
    if ns == SYSTEM_NAMESPACE:
        if name in ("hbase:meta", "hbase:namespace"):
            raise TableExistsError(name)
        raise ConstraintError(f"Namespace {SYSTEM_NAMESPACE} is reserved for system tables: "
                              f"cannot create {name}")
    if ns not in namespaces:
        raise NamespaceNotFoundError(ns)
    return name


def unique_families(names: list) -> None:
    """TableDescriptorBuilder.setColumnFamily refuses a family added twice."""
    seen = set()
    for n in names:
        if n in seen:
            raise InvalidArgumentError(
                f"Column family '{n.decode('utf-8', 'replace')}' already exists so cannot be added")
        seen.add(n)


# --- table attributes (TableDescriptorChecker) --------------------------------------------------
TABLE_ATTRIBUTES = ("durability", "max_filesize", "memstore_flush_size", "split_policy",
                    "split_enabled", "key_prefix_length", "key_prefix_delimiter", "values",
                    "configuration")


def table_attributes(attrs: dict) -> dict:
    """Check table attributes as TableDescriptorChecker.sanityCheck does; returns them with the
    delimiter as bytes."""
    from hsim.regions.split_policy import POLICIES

    out = {}
    for k, v in attrs.items():
        if k not in TABLE_ATTRIBUTES:
            raise InvalidArgumentError(f"unknown table attribute {k!r}")
        if k == "durability":
            from hsim.durability import parse as parse_durability

            out[k] = parse_durability(v)  # None: USE_DEFAULT
        elif v is None:
            out[k] = None
        elif k in ("max_filesize", "memstore_flush_size", "key_prefix_length"):
            if integer(v, k) <= 0:
                raise DoNotRetryError(f"{k.upper()} for table descriptor ({v}) must be positive")
            out[k] = v
        elif k == "split_policy":
            if not isinstance(v, str):
                raise type_error(k, "a str", v)
            if v.rsplit(".", 1)[-1] not in POLICIES:
                raise DoNotRetryError(f"Split policy {v!r} is not a known RegionSplitPolicy; "
                                      f"one of {sorted(POLICIES)}")
            out[k] = v
        elif k == "split_enabled":
            out[k] = boolean(v, k)
        elif k == "values":
            if not isinstance(v, dict) or not all(isinstance(x, str) for kv in v.items()
                                                  for x in kv):
                raise type_error(k, "a dict of str to str", v)
            out[k] = dict(v)
        elif k == "configuration":
            from hsim.configuration_keys import TABLE, validate

            out[k] = validate(v, TABLE)
        else:
            out[k] = to_bytes(v, k)
    return out

