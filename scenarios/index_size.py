"""Index size: how row keys, family names, qualifiers, number encoding, BLOCKSIZE and compression
change an HFile's data, block index and bloom filter.

Seed claims: 000 "Try to minimize row and column sizes" (HBASE-3551, column families,
attributes, byte patterns, compression), 003 "Column Family Block Size" and "Compression", 004
"Target data access" (the keys are the only bits in the index).

Each variant writes the same records (two small cells per row, ids drawn from the seed) into
one HFile twice with hsim's HFile writer: once as HBase 2 writes it, each data block indexed by
the shortest key between the previous block's last cell and its first cell
(HFileWriterImpl.getMidpoint), and once indexed by full first keys, as the HFile v1 of the seeds'
era did. Sizes are measured from the bytes written: data blocks on disk, the block index
(uncompressed, as HBase reports storefileIndexSize) and the ROW bloom.
"""


from hsim.cell import Cell
from hsim.engine.hfile import HFileReader, HFileWriter
from hsim.scenario import Scenario, ScenarioError
from hsim.scenario.criteria import metric
from hsim.filters import SingleColumnValueFilter
from hsim.filters.comparators import BinaryComparator
from hsim.scenario.measure import evict_table_blocks, store_file_readers
from hsim.scenario.readers import record_time_per_op
from hsim.scenario.setup import create_table, settle
from hsim.schema import ColumnFamily

scenario = Scenario(
    "index_size",
    "row key, family and qualifier length, long vs string, BLOCKSIZE, compression: data, "
    "index and bloom bytes, with HBase 2's shortened index keys and with full first keys",
    sizes={"small": 10000, "default": 100000, "large": 500000, "sweep": 100000},
    servers=1,
    scale=1,
    params={"value_bytes": 16, "id_digits": 19, "queries": 10},
    sweep={"id_digits": [10, 15]},  # the book's 1234567890 has 10
    ops_meaning="rows per HFile (two cells each)",
)

HOST = b"myserver1.mycompany.com/com.package1.subpackage2.subsubpackage3.ImportantService/"
SHORT_QUALIFIERS = (b"via", b"who")
LONG_QUALIFIERS = (b"myVeryImportantAttribute", b"myOtherImportantAttribute")
LONG_FAMILY = b"myVeryImportantColumnFamily"


def _row_long(i: int) -> bytes:
    return i.to_bytes(8, "big")


def _row_string(i: int) -> bytes:
    return str(i).encode()


def _row_verbose(i: int) -> bytes:
    return HOST + str(i).encode()


def _v(name, description, rows=_row_long, family=b"d", qualifiers=SHORT_QUALIFIERS,
       block_size=65536, compression="NONE", encoding="NONE"):
    scenario.variant(name, description, rows=rows, family=family, qualifiers=qualifiers,
                     block_size=block_size, compression=compression, encoding=encoding)


_v("baseline", "row: the id as an 8-byte long; family 'd'; qualifiers 'via', 'who'; 64 KiB")
_v("id_as_string", "row: the same id as a decimal string (id_digits digits)",
   rows=_row_string)
_v("long_row", "row: host and event names then the id (~100 bytes, long common prefix)",
   rows=_row_verbose)
_v("long_family", f"family '{LONG_FAMILY.decode()}'", family=LONG_FAMILY)
_v("long_qualifier", "qualifiers 'myVeryImportantAttribute', 'myOtherImportantAttribute'",
   qualifiers=LONG_QUALIFIERS)
_v("verbose", "long row, long family and long qualifiers (HBASE-3551's case)",
   rows=_row_verbose, family=LONG_FAMILY, qualifiers=LONG_QUALIFIERS)
_v("block_8k", "baseline with BLOCKSIZE 8 KiB", block_size=8192)
_v("block_256k", "baseline with BLOCKSIZE 256 KiB", block_size=262144)
_v("gz", "baseline with COMPRESSION GZ", compression="GZ")
_v("fast_diff", "baseline with DATA_BLOCK_ENCODING FAST_DIFF", encoding="FAST_DIFF")
_v("long_family_fast_diff", "long family, FAST_DIFF", family=LONG_FAMILY, encoding="FAST_DIFF")
_v("verbose_fast_diff", "long row, family and qualifiers, FAST_DIFF", rows=_row_verbose,
   family=LONG_FAMILY, qualifiers=LONG_QUALIFIERS, encoding="FAST_DIFF")
scenario.variant("short_key", "events keyed by an 8-byte sequence number; user and time in "
                 "cells: one user's events need a filtered full scan", access="short")
scenario.variant("user_time_key", "events keyed [user:8][time:8]: one user's events are a "
                 "prefix scan", access="composite")


@scenario.run
def run(ctx, variant):
    if "access" in variant.params:
        return _access(ctx, variant["access"] == "composite")
    rng = ctx.shared_rng()  # the same ids for every variant
    digits = ctx.param("id_digits")
    if not 4 <= digits <= 19:  # the largest long has 19 digits
        raise ScenarioError(f"--param id_digits must be between 4 and 19: {digits}")
    ids = sorted(rng.sample(range(10 ** (digits - 1), 10**digits), ctx.ops))
    family = ColumnFamily(block_size=variant["block_size"], compression=variant["compression"],
                          bloom_filter="ROW", data_block_encoding=variant["encoding"])
    fam, quals = variant["family"], variant["qualifiers"]
    make_row = variant["rows"]
    ts = ctx.clock.now()
    size = ctx.params["value_bytes"]
    values = [rng.randbytes(size) for _ in range(256)]
    cells = []
    for n, i in enumerate(ids):
        row = make_row(i)
        for q in quals:
            cells.append(Cell.make(row, fam, q, ts, 4, values[(n + len(q)) & 255], 1))
        if n % 1000 == 999:
            ctx.tick(1000)
    cells.sort()
    hbase2 = _write(cells, family, ctx.config, full_first_keys=False)
    full = _write(cells, family, ctx.config, full_first_keys=True)
    kv_bytes = sum(c.serialized_size for c in cells)
    ctx.record("row_key_bytes", sum(len(make_row(i)) for i in ids) / len(ids),
               "row key length (mean)", "B")
    ctx.record("keyvalue_bytes", kv_bytes, "KeyValue bytes", "B")
    ctx.record("data_bytes", hbase2.data_size, "data blocks on disk", "B")
    ctx.record("data_blocks", hbase2.data_block_count, "data blocks")
    ctx.record("cache_bytes", hbase2.uncompressed_data_size,
               "data blocks as the block cache holds them (uncompressed, encoded)", "B")
    ctx.record("index_bytes", hbase2.index_size, "block index, HBase 2 keys", "B")
    ctx.record("index_bytes_full_keys", full.index_size, "block index, full first keys", "B")
    ctx.record("index_share", hbase2.index_size / hbase2.data_size,
               "index / data on disk, HBase 2 keys", "%")
    ctx.record("index_share_full_keys", full.index_size / full.data_size,
               "index / data on disk, full first keys", "%")
    ctx.record("bloom_bytes", hbase2.bloom_size, "ROW bloom", "B")
    ctx.record("file_bytes", hbase2.size, "HFile size", "B")


def _access(ctx, composite: bool):
    """A short key that is useless for the question vs a longer one that answers it: the same
    events (a tenth of --ops, 200 users) in a table, then `queries` users' events read cold."""
    table = create_table(ctx, "events", ["d"], split_enabled=False)
    rng = ctx.shared_rng()
    users, n = 200, max(1000, ctx.ops // 10)
    for seq in range(n):
        user, ts = rng.randrange(users), ctx.clock.now()
        u = user.to_bytes(8, "big")
        if composite:
            table.put(u + ts.to_bytes(8, "big"), {b"d:v": b"e" * 16})
        else:
            table.put(seq.to_bytes(8, "big"), {b"d:v": b"e" * 16, b"d:u": u,
                                               b"d:t": ts.to_bytes(8, "big")})
        ctx.tick()
    settle(ctx, "events")
    readers = store_file_readers(ctx.cluster, "events")
    ctx.record("row_key_bytes", 16 if composite else 8, "row key length (mean)", "B")
    ctx.record("index_bytes", sum(r.index_size for r in readers), "block index, HBase 2 keys",
               "B")
    ctx.record("data_bytes", sum(r.data_size for r in readers), "data blocks on disk", "B")
    queries = [rng.randrange(users) for _ in range(ctx.param("queries"))]
    before = ctx.loads()
    found = 0
    for user in queries:
        evict_table_blocks(ctx.cluster, "events")
        u = user.to_bytes(8, "big")
        if composite:
            rows = table.scan(row_prefix=u, caching=100)
        else:
            rows = table.scan(filter=SingleColumnValueFilter(b"d", b"u", "=", BinaryComparator(u),
                                                             filter_if_missing=True),
                              caching=100)
        found += sum(1 for _ in rows)
    io = ctx.io(since=before)
    ctx.record("query_rows", found, "one user's events: rows found (all queries)")
    ctx.record("query_disk_blocks", io["blocks_read_from_disk"] / len(queries),
               "one user's events: blocks from disk per query")
    record_time_per_op(ctx, "query_ms", before, len(queries),
                       "one user's events: makespan per query")


def _write(cells, family, config, full_first_keys):
    w = HFileWriter(family, config, full_first_keys=full_first_keys)
    w.append_all(cells)
    data = w.finish(max_seq_id=1, major_compaction=True, create_time=0)
    return HFileReader(data, "index_size", family, config)


scenario.bar_chart("index_sizes", "block index size per design", ["index_bytes",
                   "index_bytes_full_keys"], unit="B")
scenario.bar_chart("data_sizes", "data on disk and HFile size per design",
                   ["data_bytes", "file_bytes"], unit="B")


scenario.claim(
    "doubling BLOCKSIZE roughly halves the index",
    seed="003", section="Column Family Block Size",
    quote="the larger the block size, the smaller the store file indexes. For example, if the "
          "blocksize is doubled then the resulting indexes should be roughly halved.",
    criterion=(metric("block_8k", "index_bytes") / metric("baseline", "index_bytes") >= 1.6 ** 3)
              & (metric("block_8k", "index_bytes") / metric("baseline", "index_bytes") <= 2.4 ** 3)
              & (metric("baseline", "index_bytes") / metric("block_256k", "index_bytes")
                 >= 1.6 ** 2)
              & (metric("baseline", "index_bytes") / metric("block_256k", "index_bytes")
                 <= 2.4 ** 2),
    covers=(19,))


scenario.claim(
    "a longer row key makes a bigger block index",
    seed="004", section="Target data access",
    quote="The downside to putting more in the rowkey is a **bigger block index**, given that "
          "the keys are the only bits that go into the index",
    criterion=(metric("long_row", "index_bytes") > 1.5 * metric("baseline", "index_bytes"))
              & (metric("long_row", "index_bytes_full_keys")
                 > 1.5 * metric("baseline", "index_bytes_full_keys")),
    covers=(25,))


scenario.claim(
    "a short key useless for the reads is not better than a longer key they can use",
    seed="000", section="Try to minimize row and column sizes > Rowkey Length",
    quote="Keep them as short as is reasonable such that they can still be useful for required "
          "data access (e.g., Get vs. Scan). A short key that is useless for data access is not "
          "better than a longer key with better get/scan properties.",
    # not better: once the user and time are stored somewhere (cells, for the short key) the
    # longer key costs no more space, and the reads it serves cost a fraction
    criterion=(metric("user_time_key", "data_bytes") <= 1.1 * metric("short_key", "data_bytes"))
              & (metric("user_time_key", "query_rows") == metric("short_key", "query_rows"))
              & (metric("user_time_key", "query_ms") < 0.2 * metric("short_key", "query_ms")),
    covers=(24,))


def _entry_growth(key: str):
    """Each index entry (index bytes per data block) of the long-name variants is over 1.3x
    the baseline's: a bigger file has more blocks, so the total grows anyway; the entry size
    is what the keys carry."""
    base = metric("baseline", key) / metric("baseline", "data_blocks")
    long_family, long_qualifier = (metric(v, key) / metric(v, "data_blocks") > 1.3 * base
                                   for v in ("long_family", "long_qualifier"))
    return long_family & long_qualifier


_COORDINATES = ("Therein, the indices that are kept on HBase storefiles (<<hfile,hfile>>) to "
                "facilitate random access may end up occupyng large chunks of the HBase allotted "
                "RAM because the cell value coordinates are large.")


scenario.claim(
    "index entries carry the coordinates: long family and qualifier names grow each entry "
    "(full first keys)",
    seed="000", section="Try to minimize row and column sizes", quote=_COORDINATES,
    criterion=_entry_growth("index_bytes_full_keys"),
    covers=(17, 22, 23))


scenario.claim(
    "index entries carry the coordinates: long family and qualifier names grow each entry "
    "(HBase 2's shortened keys)",
    seed="000", section="Try to minimize row and column sizes", quote=_COORDINATES,
    criterion=_entry_growth("index_bytes"),
    covers=(17, 22, 23))


scenario.claim(
    "long names make bigger files whatever the index does",
    seed="000", section="Try to minimize row and column sizes",
    quote="In HBase, values are always freighted with their coordinates; as a cell value "
          "passes through the system, it'll be accompanied by its row, column name, and "
          "timestamp - always.",
    criterion=(metric("long_row", "data_bytes") > 1.2 * metric("baseline", "data_bytes"))
              & (metric("long_family", "data_bytes") > 1.2 * metric("baseline", "data_bytes"))
              & (metric("long_qualifier", "data_bytes") > 1.2 * metric("baseline", "data_bytes")),
    covers=(17, 22, 23))


scenario.claim(
    "a number as a string takes nearly 3x the bytes of a long",
    seed="000", section="Try to minimize row and column sizes > Byte Patterns",
    quote="If you stored this number as a String -- presuming a byte per character -- you need "
          "nearly 3x the bytes.",
    criterion=(metric("id_as_string", "row_key_bytes") >= 2 * metric("baseline", "row_key_bytes"))
              & (metric("id_as_string", "data_bytes") > metric("baseline", "data_bytes")),
    covers=(26,))


scenario.claim(
    "large rows and column names blow the index up (HBASE-3551), with full first keys",
    seed="000", section="Try to minimize row and column sizes",
    quote="If your rows and column names are large, especially compared to the size of the "
          "cell value, then you may run up against some interesting scenarios.",
    criterion=metric("verbose", "index_bytes_full_keys")
                     >= 3 * metric("baseline", "index_bytes_full_keys"),
    covers=(18,))


scenario.claim(
    "compression makes for larger indices",
    seed="000", section="Try to minimize row and column sizes",
    quote="Compression will also make for larger indices.",
    criterion=metric("gz", "index_bytes") > metric("baseline", "index_bytes"),
    covers=(20,))


scenario.claim(
    "compression shrinks the data but not the cost of over-sized keys in the index",
    seed="003", section="Compression",
    quote="So while using column-family compression is a best practice it's not going to "
          "eliminate the problem of over-sized keys, over-sized column family names, or "
          "over-sized column names.",
    criterion=(metric("gz", "data_bytes") < 0.9 * metric("baseline", "data_bytes"))
              & (metric("gz", "index_bytes") >= 0.95 * metric("baseline", "index_bytes")),
    covers=(21,))


scenario.claim(
    "values are always freighted with their coordinates, FAST_DIFF-encoded too: long names "
    "make bigger files",
    seed="000", section="Try to minimize row and column sizes",
    quote="In HBase, values are always freighted with their coordinates; as a cell value "
          "passes through the system, it'll be accompanied by its row, column name, and "
          "timestamp - always.",
    # FastDiffDeltaEncoder writes the family once a block and each key's common prefix with
    # the previous key once: the criterion asks whether long names still cost 20% more bytes
    criterion=(metric("verbose_fast_diff", "data_bytes") > 1.2 * metric("fast_diff", "data_bytes"))
              & (metric("long_family_fast_diff", "data_bytes")
                 > 1.2 * metric("fast_diff", "data_bytes")),
    covers=(17,))


scenario.claim(
    "a data block encoding shrinks the data and the cached blocks, not the index: index keys "
    "keep their coordinates",
    seed="000", section="Try to minimize row and column sizes", quote=_COORDINATES,
    criterion=(metric("verbose_fast_diff", "data_bytes") < 0.6 * metric("verbose", "data_bytes"))
              & (metric("verbose_fast_diff", "cache_bytes")
                 < 0.6 * metric("verbose", "cache_bytes"))
              & (metric("verbose_fast_diff", "index_bytes")
                 >= 0.95 * metric("verbose", "index_bytes")),
    covers=(18,))
