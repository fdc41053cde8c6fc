"""Bad inputs, table-driven, through the native Table and Admin APIs: each case asserts the
error's type and message, that the cluster's contents, schema and metrics are unchanged, and
that the table still works after it (put, get, flush, major compaction, disable)."""

import re

import pytest

import hsim
from hsim import errors as E

BIG = 1 << 63  # one past Long.MAX_VALUE
TOO_LONG_ROW = b"r" * 32768
HUGE = b"x" * (10 * 1024 * 1024)  # the value alone reaches hbase.client.keyvalue.maxsize


def make_cluster():
    c = hsim.Cluster(clock=hsim.ManualClock(1_000_000))
    c.admin.create_table("t", {"f": None, "g": {"VERSIONS": 3}})
    t = c.table("t")
    t.put(b"r1", {b"f:a": b"1", b"g:b": b"2"})
    t.put(b"r2", {b"f:a": b"\x00" * 8})
    c.admin.flush("t")
    t.put(b"r3", {b"f:c": b"3"})
    return c


def snapshot(c):
    t = c.table("t")
    return (
        [tuple(cell) for row in t.scan(raw=True, max_versions=10) for cell in row],
        sorted(c.admin.list_tables()), c.admin.list_namespaces(), c.admin.describe("t"),
    )


def still_works(c):
    t = c.table("t")
    t.put(b"after", {b"f:z": b"ok"})
    assert t.get(b"after")[0].value == b"ok"
    c.admin.flush("t")
    c.admin.major_compact("t")
    assert t.get(b"after")[0].value == b"ok"
    c.admin.disable_table("t")
    assert c.admin.is_table_disabled("t")


T = "table"
A = "admin"
IA, DNR, NSF = E.InvalidArgumentError, E.DoNotRetryError, E.NoSuchColumnFamilyError

# (id, target, call, error type, message regex)
CASES = [
    # --- rows ---
    ("put-empty-row", T, lambda t: t.put(b"", {b"f:a": b"v"}), IA, "Row length is 0"),
    ("put-long-row", T, lambda t: t.put(TOO_LONG_ROW, {b"f:a": b"v"}), IA,
     "Row length 32768 is > 32767"),
    ("get-empty-row", T, lambda t: t.get(b""), IA, "Row length is 0"),
    ("get-long-row", T, lambda t: t.get(TOO_LONG_ROW), IA, "Row length 32768"),
    ("delete-empty-row", T, lambda t: t.delete_row(b""), IA, "Row length is 0"),
    ("delete-long-row", T, lambda t: t.delete_row(TOO_LONG_ROW), IA, "Row length 32768"),
    ("increment-empty-row", T, lambda t: t.increment(b"", b"f:n"), IA, "Row length is 0"),
    ("append-empty-row", T, lambda t: t.append(b"", {b"f:a": b"x"}), IA, "Row length is 0"),
    ("cap-empty-row", T, lambda t: t.check_and_put(b"", b"f:a", None, {b"f:a": b"v"}), IA,
     "Row length is 0"),
    ("cad-empty-row", T, lambda t: t.check_and_delete(b"", b"f:a", None), IA,
     "Row length is 0"),
    ("delcol-long-row", T, lambda t: t.delete_column(TOO_LONG_ROW, b"f:a"), IA,
     "Row length 32768"),
    ("delfam-empty-row", T, lambda t: t.delete_family(b"", b"f"), IA, "Row length is 0"),
    # --- row types ---
    ("put-row-int", T, lambda t: t.put(5, {b"f:a": b"v"}), TypeError,
     "row must be bytes or str, not int"),
    ("put-row-none", T, lambda t: t.put(None, {b"f:a": b"v"}), TypeError,
     "row must be bytes or str, not NoneType"),
    ("get-row-float", T, lambda t: t.get(1.5), TypeError, "row must be bytes or str, not float"),
    ("get-row-list", T, lambda t: t.get([b"r1"]), TypeError, "row must be bytes or str, not list"),
    ("delete-row-dict", T, lambda t: t.delete_row({}), TypeError, "row must be bytes or str"),
    ("increment-row-int", T, lambda t: t.increment(7, b"f:n"), TypeError, "row must be bytes"),
    ("append-row-none", T, lambda t: t.append(None, {b"f:a": b"x"}), TypeError,
     "row must be bytes"),
    ("cap-row-int", T, lambda t: t.check_and_put(3, b"f:a", None, {b"f:a": b"v"}), TypeError,
     "row must be bytes"),
    # --- data / values ---
    ("put-data-none", T, lambda t: t.put(b"r", None), TypeError, "data must be a dict"),
    ("put-data-list", T, lambda t: t.put(b"r", [b"f:a"]), TypeError, "data must be a dict"),
    ("put-data-str", T, lambda t: t.put(b"r", "f:a"), TypeError, "data must be a dict"),
    ("put-no-columns", T, lambda t: t.put(b"r", {}), IA, "No columns to put"),
    ("put-value-int", T, lambda t: t.put(b"r", {b"f:a": 5}), TypeError,
     "value must be bytes or str, not int"),
    ("put-value-none", T, lambda t: t.put(b"r", {b"f:a": None}), TypeError,
     "value must be bytes or str, not NoneType"),
    ("put-value-float", T, lambda t: t.put(b"r", {b"f:a": 1.0}), TypeError, "value must be"),
    ("put-second-value-bad", T, lambda t: t.put(b"r", {b"f:a": b"ok", b"f:b": object()}),
     TypeError, "value must be"),
    ("put-huge-value", T, lambda t: t.put(b"r", {b"f:a": HUGE}), IA, "KeyValue size too large"),
    ("append-huge-value", T, lambda t: t.append(b"r1", {b"f:a": HUGE}), IA,
     "KeyValue size too large"),
    ("append-no-columns", T, lambda t: t.append(b"r", {}), IA, "No columns to append"),
    ("append-value-int", T, lambda t: t.append(b"r", {b"f:a": 3}), TypeError, "value must be"),
    ("append-data-list", T, lambda t: t.append(b"r", [b"x"]), TypeError, "data must be a dict"),
    ("cap-huge-value", T, lambda t: t.check_and_put(b"r", b"f:a", None, {b"f:a": HUGE}), IA,
     "KeyValue size too large"),
    # --- columns and families ---
    ("put-col-no-colon", T, lambda t: t.put(b"r", {b"f": b"v"}), IA, "must be family:qualifier"),
    ("put-col-empty-family", T, lambda t: t.put(b"r", {b":a": b"v"}), IA,
     "Family cannot be null"),
    ("put-col-int", T, lambda t: t.put(b"r", {5: b"v"}), TypeError,
     "column must be bytes or str, not int"),
    ("put-col-none", T, lambda t: t.put(b"r", {None: b"v"}), TypeError, "column must be"),
    ("put-unknown-family", T, lambda t: t.put(b"r", {b"x:a": b"v"}), NSF,
     "Column family x does not exist"),
    ("put-unknown-family-second", T, lambda t: t.put(b"r", {b"f:a": b"v", b"x:a": b"v"}), NSF,
     "Column family x does not exist"),
    ("get-unknown-family", T, lambda t: t.get(b"r1", columns=[b"x:a"]), NSF,
     "Column family x does not exist"),
    ("scan-unknown-family", T, lambda t: list(t.scan(columns=[b"x"])), NSF,
     "Column family x does not exist"),
    ("get-col-int", T, lambda t: t.get(b"r1", columns=[5]), IA, "expected bytes or str"),
    ("delcol-no-colon", T, lambda t: t.delete_column(b"r1", b"f"), IA,
     "must be family:qualifier"),
    ("delcols-col-int", T, lambda t: t.delete_columns(b"r1", 5), TypeError, "column must be"),
    ("delfam-unknown", T, lambda t: t.delete_family(b"r1", b"x"), NSF,
     "Column family x does not exist"),
    ("delfam-family-int", T, lambda t: t.delete_family(b"r1", 3), TypeError,
     "family must be bytes or str"),
    ("delfamver-family-none", T, lambda t: t.delete_family_version(b"r1", None, 5), TypeError,
     "family must be bytes or str"),
    ("increment-unknown-family", T, lambda t: t.increment(b"r", b"x:n"), NSF,
     "Column family x does not exist"),
    ("increment-col-no-colon", T, lambda t: t.increment(b"r", b"f"), IA,
     "must be family:qualifier"),
    ("cap-check-col-bad", T, lambda t: t.check_and_put(b"r", b"f", None, {b"f:a": b"v"}), IA,
     "must be family:qualifier"),
    ("cad-columns-bad", T, lambda t: t.check_and_delete(b"r", b"f:a", None, columns=[b"f"]), IA,
     "must be family:qualifier"),
    # --- timestamps ---
    ("put-ts-negative", T, lambda t: t.put(b"r", {b"f:a": b"v"}, timestamp=-1), IA,
     "Timestamp cannot be negative. ts=-1"),
    ("put-ts-2^63", T, lambda t: t.put(b"r", {b"f:a": b"v"}, timestamp=BIG), IA,
     "does not fit a signed 64-bit long"),
    ("put-ts-2^64", T, lambda t: t.put(b"r", {b"f:a": b"v"}, timestamp=1 << 64), IA,
     "does not fit a signed 64-bit long"),
    ("put-ts-str", T, lambda t: t.put(b"r", {b"f:a": b"v"}, timestamp="5"), TypeError,
     "timestamp must be an int, not str"),
    ("put-ts-float", T, lambda t: t.put(b"r", {b"f:a": b"v"}, timestamp=5.0), TypeError,
     "timestamp must be an int, not float"),
    ("put-ts-bool", T, lambda t: t.put(b"r", {b"f:a": b"v"}, timestamp=True), TypeError,
     "timestamp must be an int, not bool"),
    ("delete-ts-2^63", T, lambda t: t.delete_row(b"r1", timestamp=BIG), IA,
     "does not fit a signed 64-bit long"),
    ("delete-ts-negative", T, lambda t: t.delete_row(b"r1", timestamp=-5), IA,
     "Timestamp cannot be negative"),
    ("delcol-ts-2^63", T, lambda t: t.delete_column(b"r1", b"f:a", timestamp=BIG), IA,
     "does not fit"),
    ("delcols-ts-str", T, lambda t: t.delete_columns(b"r1", b"f:a", timestamp="x"), TypeError,
     "timestamp must be an int"),
    ("delfam-ts-negative", T, lambda t: t.delete_family(b"r1", b"f", timestamp=-1), IA,
     "Timestamp cannot be negative"),
    ("delfamver-ts-2^63", T, lambda t: t.delete_family_version(b"r1", b"f", BIG), IA,
     "does not fit"),
    ("cap-ts-2^63", T, lambda t: t.check_and_put(b"r", b"f:a", None, {b"f:a": b"v"},
                                                 timestamp=BIG), IA, "does not fit"),
    ("cad-ts-negative", T, lambda t: t.check_and_delete(b"r1", b"f:a", b"1", timestamp=-1), IA,
     "Timestamp cannot be negative"),
    ("get-ts-negative", T, lambda t: t.get(b"r1", timestamp=-1), IA,
     "Timestamp cannot be negative"),
    ("get-ts-2^63", T, lambda t: t.get(b"r1", timestamp=BIG), IA, "does not fit"),
    ("get-ts-str", T, lambda t: t.get(b"r1", timestamp="1"), TypeError, "timestamp must be"),
    ("get-range-reversed", T, lambda t: t.get(b"r1", time_range=(10, 5)), IA,
     "maxStamp is smaller than minStamp"),
    ("get-range-negative", T, lambda t: t.get(b"r1", time_range=(-1, 5)), IA,
     "Timestamp cannot be negative"),
    ("get-range-not-pair", T, lambda t: t.get(b"r1", time_range=5), TypeError,
     r"time_range must be a \(min, max\) pair"),
    ("get-range-three", T, lambda t: t.get(b"r1", time_range=(1, 2, 3)), TypeError,
     "time_range must be"),
    ("get-range-str", T, lambda t: t.get(b"r1", time_range=("a", "b")), TypeError,
     "time_range bound must be an int"),
    ("scan-range-2^64", T, lambda t: list(t.scan(time_range=(0, 1 << 64))), IA, "out of range"),
    ("scan-ts-negative", T, lambda t: list(t.scan(timestamp=-3)), IA,
     "Timestamp cannot be negative"),
    # --- TTLs ---
    ("put-ttl-negative", T, lambda t: t.put(b"r", {b"f:a": b"v"}, ttl_ms=-1), IA,
     "TTL must be non-negative"),
    ("put-ttl-2^63", T, lambda t: t.put(b"r", {b"f:a": b"v"}, ttl_ms=BIG), IA,
     "TTL .* does not fit"),
    ("put-ttl-str", T, lambda t: t.put(b"r", {b"f:a": b"v"}, ttl_ms="1"), TypeError,
     "ttl_ms must be an int"),
    ("increment-ttl-2^63", T, lambda t: t.increment(b"r", b"f:n", ttl_ms=BIG), IA,
     "does not fit"),
    ("append-ttl-negative", T, lambda t: t.append(b"r", {b"f:a": b"x"}, ttl_ms=-2), IA,
     "TTL must be non-negative"),
    ("cap-ttl-float", T, lambda t: t.check_and_put(b"r", b"f:a", None, {b"f:a": b"v"},
                                                   ttl_ms=1.5), TypeError, "ttl_ms must be"),
    # --- counters ---
    ("increment-2^63", T, lambda t: t.increment(b"r2", b"f:a", BIG), IA,
     r"increment amount 9223372036854775808 is out of range"),
    ("increment-2^64", T, lambda t: t.increment(b"r2", b"f:a", 1 << 64), IA,
     "increment amount .* is out of range"),
    ("increment-below-long", T, lambda t: t.increment(b"r2", b"f:a", -BIG - 1), IA,
     "out of range"),
    ("increment-str", T, lambda t: t.increment(b"r2", b"f:a", "1"), TypeError,
     "increment amount must be an int, not str"),
    ("increment-float", T, lambda t: t.increment(b"r2", b"f:a", 1.5), TypeError,
     "increment amount must be an int, not float"),
    ("increment-none", T, lambda t: t.increment(b"r2", b"f:a", None), TypeError,
     "increment amount must be an int"),
    ("increment-bool", T, lambda t: t.increment(b"r2", b"f:a", True), TypeError,
     "increment amount must be an int, not bool"),
    ("increment-cols-empty", T, lambda t: t.increment_columns(b"r", {}), IA,
     "No columns to increment"),
    ("increment-cols-list", T, lambda t: t.increment_columns(b"r", [b"f:a"]), TypeError,
     "amounts must be a dict"),
    ("increment-cols-second-bad", T,
     lambda t: t.increment_columns(b"r2", {b"f:a": 1, b"f:b": 1 << 70}), IA, "out of range"),
    # --- scans ---
    ("scan-limit-zero", T, lambda t: list(t.scan(limit=0)), IA, "limit must be positive"),
    ("scan-limit-negative", T, lambda t: list(t.scan(limit=-1)), IA, "limit must be positive"),
    ("scan-limit-str", T, lambda t: list(t.scan(limit="3")), TypeError, "limit must be an int"),
    ("scan-caching-str", T, lambda t: list(t.scan(caching="3")), TypeError,
     "caching must be an int"),
    ("scan-caching-float", T, lambda t: list(t.scan(caching=2.5)), TypeError,
     "caching must be an int"),
    ("scan-versions-zero", T, lambda t: list(t.scan(max_versions=0)), IA,
     "versions must be positive"),
    ("scan-versions-str", T, lambda t: list(t.scan(max_versions="2")), TypeError,
     "max_versions must be an int, not str"),
    ("get-versions-negative", T, lambda t: t.get(b"r1", max_versions=-1), IA,
     "versions must be positive"),
    ("scan-start-int", T, lambda t: list(t.scan(start_row=5)), TypeError,
     "start_row must be bytes or str"),
    ("scan-stop-float", T, lambda t: list(t.scan(stop_row=1.0)), TypeError,
     "stop_row must be bytes or str"),
    ("scan-prefix-int", T, lambda t: list(t.scan(row_prefix=5)), TypeError,
     "row_prefix must be bytes or str"),
    ("scan-prefix-and-start", T, lambda t: list(t.scan(row_prefix=b"r", start_row=b"a")), IA,
     "row_prefix cannot be combined"),
    ("scan-raw-columns", T, lambda t: list(t.scan(raw=True, columns=[b"f:a"])), DNR,
     "Cannot specify any column for a raw scan"),
    ("scan-bad-filter", T, lambda t: list(t.scan(filter="NoSuchFilter()")), E.FilterParseError,
     "NoSuchFilter"),
    # --- batches: client-side checks reject the whole batch before anything is sent ---
    ("batch-bad-ts", T, lambda t: _batch(t, lambda b: (b.put(b"n1", {b"f:a": b"1"}),
                                                       b.put(b"n2", {b"f:a": b"2"},
                                                             timestamp=BIG))),
     IA, "does not fit"),
    ("batch-empty-row", T, lambda t: _batch(t, lambda b: (b.put(b"n1", {b"f:a": b"1"}),
                                                          b.delete_row(b""))),
     IA, "Row length is 0"),
    ("batch-bad-value", T, lambda t: _batch(t, lambda b: (b.put(b"n1", {b"f:a": b"1"}),
                                                          b.put(b"n2", {b"f:a": 7}))),
     TypeError, "value must be"),
    ("batch-huge", T, lambda t: _batch(t, lambda b: (b.put(b"n1", {b"f:a": b"1"}),
                                                     b.put(b"n2", {b"f:a": HUGE}))),
     IA, "KeyValue size too large"),
    ("batch-bad-column", T, lambda t: _batch(t, lambda b: (b.put(b"n1", {b"f:a": b"1"}),
                                                           b.delete_column(b"n2", b"f"))),
     IA, "must be family:qualifier"),
    ("batch-row-int", T, lambda t: _batch(t, lambda b: (b.put(b"n1", {b"f:a": b"1"}),
                                                        b.put(3, {b"f:a": b"1"}))),
     TypeError, "row must be"),
    # --- tables by name ---
    ("table-bad-name", T, lambda t: t.cluster.table("bad name").get(b"r1"), IA,
     "Illegal character"),
    ("table-bad-utf8-name", T, lambda t: t.cluster.table(b"\xff"), IA, "Illegal character"),
    ("table-int-name", T, lambda t: t.cluster.table(5), TypeError,
     "table name must be str or bytes"),
    ("table-missing", T, lambda t: t.cluster.table("nope").get(b"r1"), E.TableNotFoundError,
     "nope"),
    ("table-missing-ns", T, lambda t: t.cluster.table("ns:t").put(b"r", {b"f:a": b"v"}),
     E.TableNotFoundError, "ns:t"),
    # --- admin: names and namespaces ---
    ("create-exists", A, lambda a: a.create_table("t", ["f"]), E.TableExistsError, "t"),
    ("create-default-ns-exists", A, lambda a: a.create_table("default:t", ["f"]),
     E.TableExistsError, "t"),
    ("create-unknown-ns", A, lambda a: a.create_table("nons:t2", ["f"]),
     E.NamespaceNotFoundError, "nons"),
    ("create-hbase-meta", A, lambda a: a.create_table("hbase:meta", ["info"]),
     E.TableExistsError, "hbase:meta"),
    ("create-hbase-ns", A, lambda a: a.create_table("hbase:mine", ["f"]), E.ConstraintError,
     "Namespace hbase is reserved"),
    ("create-bad-ns-name", A, lambda a: a.create_table("n-s:t2", ["f"]), IA,
     "Illegal character <-> at 1"),
    ("create-empty-name", A, lambda a: a.create_table("", ["f"]), IA,
     "Table qualifier must not be empty"),
    ("create-dot-name", A, lambda a: a.create_table(".t", ["f"]), IA, "Illegal first character"),
    ("create-space-name", A, lambda a: a.create_table("a b", ["f"]), IA, "Illegal character"),
    ("create-name-int", A, lambda a: a.create_table(5, ["f"]), TypeError,
     "table name must be str or bytes"),
    ("create-ns-empty-qualifier", A, lambda a: a.create_table("default:", ["f"]), IA,
     "Table qualifier must not be empty"),
    ("create-no-families", A, lambda a: a.create_table("t2", []), DNR,
     "at least one column family"),
    ("create-dup-family", A, lambda a: a.create_table("t2", ["f", "f"]), IA,
     "Column family 'f' already exists"),
    ("create-dup-family-bytes-str", A, lambda a: a.create_table("t2", ["f", b"f"]), IA,
     "already exists"),
    ("create-families-int", A, lambda a: a.create_table("t2", 5), TypeError,
     "families must be a list of names or a dict"),
    ("create-family-int", A, lambda a: a.create_table("t2", [5]), TypeError,
     "family must be bytes or str"),
    ("create-family-colon", A, lambda a: a.create_table("t2", ["a:b"]), IA,
     "cannot contain control characters or colons"),
    ("create-family-dot", A, lambda a: a.create_table("t2", [".f"]), IA,
     "cannot start with a period"),
    ("create-family-empty", A, lambda a: a.create_table("t2", [""]), IA, "can not be empty"),
    ("create-family-recovered", A, lambda a: a.create_table("t2", ["recovered.edits"]), IA,
     "recovered.edits"),
    ("create-family-long", A, lambda a: a.create_table("t2", ["f" * 128]), IA,
     "exceeds 127"),
    ("create-family-ctrl", A, lambda a: a.create_table("t2", ["f\x01"]), IA,
     "Illegal character <1>"),
    ("create-family-options-str", A, lambda a: a.create_table("t2", {"f": "VERSIONS"}),
     TypeError, "family options must be a ColumnFamily or a dict"),
    # --- admin: family options (ColumnFamilyDescriptorBuilder, TableDescriptorChecker) ---
    ("cf-versions-zero", A, lambda a: a.create_table("t2", {"f": {"VERSIONS": 0}}), IA,
     "Maximum versions must be positive"),
    ("cf-versions-str", A, lambda a: a.create_table("t2", {"f": {"VERSIONS": "3"}}), IA,
     "VERSIONS must be an int"),
    ("cf-versions-2^31", A, lambda a: a.create_table("t2", {"f": {"VERSIONS": 1 << 31}}), IA,
     "VERSIONS must be an int up to 2147483647"),
    ("cf-min-gt-max", A, lambda a: a.create_table("t2", {"f": {"MIN_VERSIONS": 2}}), IA,
     "Maximum versions must be >= minimum versions"),
    ("cf-min-negative", A, lambda a: a.create_table("t2", {"f": {"MIN_VERSIONS": -1}}), DNR,
     "Min versions for column family must be positive"),
    ("cf-ttl-minus-1", A, lambda a: a.create_table("t2", {"f": {"TTL": -1}}), DNR,
     "TTL for column family must be positive"),
    ("cf-ttl-zero", A, lambda a: a.create_table("t2", {"f": {"TTL": 0}}), DNR,
     "TTL for column family must be positive"),
    ("cf-ttl-2^63", A, lambda a: a.create_table("t2", {"f": {"TTL": BIG}}), IA,
     "TTL must be an int up to"),
    ("cf-ttl-str", A, lambda a: a.create_table("t2", {"f": {"TTL": "x"}}), IA,
     "TTL must be an int"),
    ("cf-in-memory-yes", A, lambda a: a.create_table("t2", {"f": {"IN_MEMORY": "yes"}}), IA,
     "IN_MEMORY must be true or false"),
    ("cf-blockcache-int", A, lambda a: a.create_table("t2", {"f": {"BLOCKCACHE": 1}}), IA,
     "BLOCKCACHE must be true or false"),
    ("cf-blocksize-small", A, lambda a: a.create_table("t2", {"f": {"BLOCKSIZE": 10}}), DNR,
     "between 1K and 16MB"),
    ("cf-blocksize-str", A, lambda a: a.create_table("t2", {"f": {"BLOCKSIZE": "64K"}}), IA,
     "BLOCKSIZE must be an int"),
    ("cf-bloom-bogus", A, lambda a: a.create_table("t2", {"f": {"BLOOMFILTER": "X"}}), IA,
     "BLOOMFILTER must be one of"),
    ("cf-compression-bogus", A, lambda a: a.create_table("t2", {"f": {"COMPRESSION": "X"}}), IA,
     "COMPRESSION must be one of"),
    ("cf-keep-deleted-bogus", A,
     lambda a: a.create_table("t2", {"f": {"KEEP_DELETED_CELLS": "maybe"}}), IA,
     "KEEP_DELETED_CELLS must be"),
    ("cf-unknown-option", A, lambda a: a.create_table("t2", {"f": {"COLOUR": 1}}), IA,
     "unknown column family option"),
    ("alter-family-ttl-minus-1", A, lambda a: a.alter_family("t", "f", ttl=-1), DNR,
     "TTL for column family must be positive"),
    ("alter-family-in-memory-yes", A, lambda a: a.alter_family("t", "f", IN_MEMORY="yes"), IA,
     "IN_MEMORY must be true or false"),
    ("alter-family-versions-str", A, lambda a: a.alter_family("t", "g", VERSIONS="x"), IA,
     "VERSIONS must be an int"),
    ("alter-family-unknown", A, lambda a: a.alter_family("t", "x", VERSIONS=2), NSF,
     "'x' does not exist"),
    ("alter-family-options-int", A, lambda a: a.alter_family("t", "f", 5), TypeError,
     "family options must be"),
    ("add-family-bad-name", A, lambda a: a.add_family("t", "a:b"), IA, "colons"),
    ("add-family-exists", A, lambda a: a.add_family("t", "f"), IA, "f"),
    # --- admin: table attributes at create and alter ---
    ("alter-flush-size-str", A, lambda a: a.alter_table("t", memstore_flush_size="x"),
     TypeError, "memstore_flush_size must be an int"),
    ("alter-max-filesize-negative", A, lambda a: a.alter_table("t", max_filesize=-5), DNR,
     r"MAX_FILESIZE for table descriptor \(-5\) must be positive"),
    ("alter-flush-size-zero", A, lambda a: a.alter_table("t", memstore_flush_size=0), DNR,
     "MEMSTORE_FLUSH_SIZE"),
    ("alter-split-policy-bogus", A, lambda a: a.alter_table("t", split_policy="Bogus"), DNR,
     "Split policy 'Bogus' is not a known RegionSplitPolicy"),
    ("alter-split-policy-int", A, lambda a: a.alter_table("t", split_policy=3), TypeError,
     "split_policy must be a str"),
    ("alter-split-enabled-str", A, lambda a: a.alter_table("t", split_enabled="no"), TypeError,
     "split_enabled must be a bool"),
    ("alter-unknown-attribute", A, lambda a: a.alter_table("t", colour="red"), IA,
     "unknown table attribute 'colour'"),
    ("alter-one-bad-of-two", A,
     lambda a: a.alter_table("t", max_filesize=1 << 30, split_policy="Bogus"), DNR,
     "Split policy"),
    ("alter-missing-table", A, lambda a: a.alter_table("nope", max_filesize=1 << 30),
     E.TableNotFoundError, "nope"),
    ("create-max-filesize-negative", A, lambda a: a.create_table("t2", ["f"], max_filesize=-1),
     DNR, "MAX_FILESIZE"),
    ("create-split-policy-bogus", A,
     lambda a: a.create_table("t2", ["f"], split_policy="Nope"), DNR, "Split policy"),
    ("create-prefix-length-str", A,
     lambda a: a.create_table("t2", ["f"], key_prefix_length="3"), TypeError,
     "key_prefix_length must be an int"),
    ("create-split-keys-str", A, lambda a: a.create_table("t2", ["f"], split_keys="abc"),
     TypeError, "split_keys must be a list of row keys"),
    ("create-split-key-int", A, lambda a: a.create_table("t2", ["f"], split_keys=[1, 2]),
     TypeError, "split key must be bytes or str"),
    ("create-split-keys-dup", A, lambda a: a.create_table("t2", ["f"], split_keys=[b"a", b"a"]),
     IA, ""),
    ("create-presplit-unknown", A, lambda a: a.create_table("t2", ["f"], presplit=("Nope", 4)),
     IA, "unknown split algorithm"),
    ("create-presplit-zero", A,
     lambda a: a.create_table("t2", ["f"], presplit=("HexStringSplit", 0)), IA,
     "num_regions >= 1"),
    # --- admin: table lifecycle ---
    ("delete-enabled", A, lambda a: a.delete_table("t"), E.TableNotDisabledError, "t"),
    ("delete-missing", A, lambda a: a.delete_table("nope"), E.TableNotFoundError, "nope"),
    ("enable-enabled", A, lambda a: a.enable_table("t"), E.TableNotDisabledError, "t"),
    ("disable-missing", A, lambda a: a.disable_table("nope"), E.TableNotFoundError, "nope"),
    ("describe-missing", A, lambda a: a.describe("nope"), E.TableNotFoundError, "nope"),
    ("describe-bad-name", A, lambda a: a.describe("a b"), IA, "Illegal character"),
    ("truncate-enabled", A, lambda a: a.truncate_table("t"), E.TableNotDisabledError, "t"),
    ("flush-missing", A, lambda a: a.flush("nope"), E.UnknownRegionError, "nope"),
    ("compact-family-int", A, lambda a: a.major_compact("t", family=3), TypeError,
     "family must be bytes or str"),
    ("split-point-empty", A, lambda a: a.split("t", b""), IA, "Row length is 0"),
    ("split-point-int", A, lambda a: a.split("t", 5), TypeError, "split_point must be"),
    ("flush-target-int", A, lambda a: a.flush(5), TypeError, "table or region name must be"),
    # --- admin: namespaces ---
    ("ns-create-exists", A, lambda a: a.create_namespace("default"), E.NamespaceExistError,
     "default"),
    ("ns-create-hbase", A, lambda a: a.create_namespace("hbase"), E.NamespaceExistError,
     "hbase"),
    ("ns-create-bad-name", A, lambda a: a.create_namespace("a-b"), IA, "Illegal character"),
    ("ns-create-empty", A, lambda a: a.create_namespace(""), IA, "must not be empty"),
    ("ns-create-int", A, lambda a: a.create_namespace(5), TypeError,
     "namespace must be str or bytes"),
    ("ns-drop-default", A, lambda a: a.drop_namespace("default"), E.ConstraintError,
     "Reserved namespace default cannot be removed"),
    ("ns-drop-hbase", A, lambda a: a.drop_namespace("hbase"), E.ConstraintError,
     "Reserved namespace hbase"),
    ("ns-drop-missing", A, lambda a: a.drop_namespace("nons"), E.NamespaceNotFoundError,
     "nons"),
]


def _batch(t, fill):
    b = t.batch()
    fill(b)
    b.send()


@pytest.mark.parametrize("target,call,exc,message", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_input_changes_nothing(target, call, exc, message):
    c = make_cluster()
    before = snapshot(c)
    metrics = c.metrics()  # taken after the snapshot's own reads
    with pytest.raises(exc) as info:
        call(c.table("t") if target == T else c.admin)
    assert re.search(message, str(info.value)), str(info.value)
    if isinstance(info.value, E.HsimError):
        assert info.value.hbase_exception in str(info.value)  # names the HBase exception
    assert c.metrics() == metrics
    assert snapshot(c) == before
    still_works(c)


def test_the_suite_is_big_enough():
    assert len(CASES) >= 120
    assert len({c[0] for c in CASES}) == len(CASES)


CLIENT_SIDE = [c for c in CASES if c[1] == T and c[3] in (TypeError, IA)
               and not c[0].startswith(("table-", "scan-bad-filter"))]


@pytest.mark.parametrize("call,exc", [(c[2], c[3]) for c in CLIENT_SIDE],
                         ids=[c[0] for c in CLIENT_SIDE])
def test_client_side_rejections_send_no_request(call, exc):
    """A request the client refuses never reaches a region server: the cluster's clock, which
    moves once per request, stands where it was."""
    c = hsim.Cluster(clock=hsim.TickingClock(1_000))
    c.admin.create_table("t", {"f": None, "g": None})
    c.table("t").put(b"r2", {b"f:a": b"\x00" * 8})
    before = c.clock.now()
    with pytest.raises(exc):
        call(c.table("t"))
    assert c.clock.now() == before
