"""The claims of the seed texts that numbers can show, numbered 1..93: the index a scenario's
`claim(covers=...)` and docs/seed-coverage.md refer to. Each has a short quote, the seed
documents that make it (hsim.scenario.seeds numbers; the first is the one cited) and the section
of the first. The table is data: a number never changes meaning once given."""

from __future__ import annotations

from dataclasses import dataclass

from hsim.scenario.seeds import seed_document


@dataclass(frozen=True)
class SeedClaim:
    number: int
    quote: str
    seeds: tuple  # seed document numbers, the cited one first
    section: str

    @property
    def source(self) -> str:
        """'title, section' of the cited seed, plus the other seeds' titles."""
        first, *rest = self.seeds
        text = f"{seed_document(first)[0]}, {self.section}"
        return text + "".join(f"; {seed_document(s)[0]}" for s in rest)


_CFS = "On the number of column families"
_HOT = "Rowkey Design > Hotspotting"
_MONO = "Monotonically Increasing Row Keys/Timeseries Data"
_SIZES = "Try to minimize row and column sizes"
_SPLITS = "Relationship Between RowKeys and Region Splits"
_TTL = "Time To Live (TTL)"
_KDC = "Keeping Deleted Cells"
_LOG = "Case Study - Log Data and Timeseries Data"
_SMACK = "Tall/Wide/Middle Schema Design Smackdown"
_LIST = "Case Study - List Data"
_OPS = "Row Key, Column Family, Column Qualifier, Timestamp, Value"
_LAZY = "Keep it Stupidly Simple > Help HBase be Lazy"
_LOCAL = "Keep it Stupidly Simple > Row Locality and Compression"
_BAD = "Row Locality > adjacency is bad"
_WEB = "Web Logs: Rows-As-Columns"
_READS = "Design for Reads"
_EVEN = "Modeling for even distribution of data and load"

# (number, seeds, section, short quote)
_TABLE = (
    (1, "000 003", _CFS, 'HBase "does not do well with anything above two or three column '
     'families": adjacent families are flushed too'),
    (2, "003 000", "Number of Column Families", 'many families cause "needless i/o loading", '
     "which per-family flushing fixes"),
    (3, "000 003 004", _CFS, 'add a family only when "data access is usually column scoped"'),
    (4, "000", "Cardinality of ColumnFamilies", 'a small family "spread across many, many '
     'regions" makes "mass scans" of it less efficient'),
    (5, "000", "Schema Updates", 'family and table changes "take effect the next time there is '
     'a major compaction"'),
    (6, "000", f"{_HOT} > Salting", 'salting gives "four times the throughput when writing"'),
    (7, "000", f"{_HOT} > Salting", 'salting "has a cost during reads"'),
    (8, "000 003", f"{_HOT} > Hashing", 'with a one-way hash you can "reconstruct the complete '
     'rowkey and use a Get"'),
    (9, "000", f"{_HOT} > Hashing", 'hashing keeps "certain pairs of keys ... always in the '
     'same region"'),
    (10, "000", f"{_HOT} > Reversing the Key", 'reversing the key "randomizes row keys, but '
     'sacrifices row ordering properties"'),
    (11, "000", _MONO, 'monotonic keys pound one region "then moving onto the next region"'),
    (12, "000", _MONO, 'the pile-up "can be mitigated by randomizing the input records"'),
    (13, "000 002", _MONO, "OpenTSDB's [metric][timestamp]: \"Puts are distributed across "
     'various points of regions" ("swap your first two key levels")'),
    (14, "004", _EVEN, 'with the timestamp first you are "always appending to the bottom of '
     'the table"'),
    (15, "002", _BAD, 'managed splitting "won\'t help for timestamp keys"'),
    (16, "002", _BAD, 'a low-cardinality shard prefix, read back with "a batch request against '
     'each prefix"'),
    (17, "000 003 004", _SIZES, 'values are "always freighted with their coordinates"'),
    (18, "000", _SIZES, 'HBASE-3551: store file indices "occupying large chunks of the HBase '
     'allotted RAM"'),
    (19, "000 003 002", _SIZES, '"upping the block size so entries in the store file index '
     'happen at a larger interval": doubling the block size halves the index'),
    (20, "000", _SIZES, '"Compression will also make for larger indices"'),
    (21, "003", "Compression", 'compression is "not going to eliminate the problem of '
     'over-sized keys"'),
    (22, "000 003 002 004", f"{_SIZES} > Column Families", 'keep family names short: one '
     'character ("d")'),
    (23, "000 003", f"{_SIZES} > Attributes", 'short attribute names ("via")'),
    (24, "000 003", f"{_SIZES} > Rowkey Length", 'rowkeys "as short as is reasonable such '
     'that they can still be useful for required data access (e.g. Get vs. Scan)"'),
    (25, "004", "Target data access", 'more in the rowkey means a "bigger block index"'),
    (26, "000", f"{_SIZES} > Byte Patterns", 'a long stored as a String takes "nearly 3x the '
     'bytes"'),
    (27, "000 002", f"{_SIZES} > Byte Patterns", "an MD5 digest is 16 bytes raw, 26 as a "
     "string; a packed SHA beats hex beats the URL itself"),
    (28, "000", f"{_SIZES} > Byte Patterns", "binary values are unreadable in the shell "
     "(an incremented counter shows as \\x00...\\x01)"),
    (29, "000 002 004", "Reverse Timestamps", "with a reverse timestamp the first row a scan "
     "returns is the newest"),
    (30, "000", "Reverse Timestamps > Reverse Scan API", "the reverse scan API reduces the "
     "need for reversed keys"),
    (31, "000", "Reverse Timestamps", 'reverse-timestamp rows instead of versions "to hold '
     'onto all versions forever"; Rows vs. Versions: "Preference: Rows"'),
    (32, "000", "Rowkeys and ColumnFamilies", "rowkeys are scoped to column families; rowkeys "
     "are immutable"),
    (33, "000", _SPLITS, "Bytes.split gives the book's split table"),
    (34, "000", _SPLITS, 'with those splits data "pile up in the first 2 regions and the last '
     'region"'),
    (35, "000", _SPLITS, "custom (getHexSplits) split points make every region reachable"),
    (36, "003 002", "Pre-Split Regions to Avoid Region Hotspots", 'pre-split "to avoid region '
     'hotspots", spread evenly over the region servers'),
    (37, "002", _BAD, "skewed keys (Benford's law, the /product namespace): managed splitting "
     "helps"),
    (38, "000", "Number of Versions > Maximum Number of Versions", 'excess versions are '
     '"removed during major compactions"'),
    (39, "000", "Number of Versions > Maximum Number of Versions", 'a very high VERSIONS "will '
     'greatly increase StoreFile size"'),
    (40, "000", "Number of Versions > Minimum Number of Versions", 'MIN_VERSIONS: "keep at '
     'least M versions around"'),
    (41, "000", _TTL, 'TTL "applies to all versions of a row - even the current one"'),
    (42, "000", _TTL, "store files holding only expired rows are deleted on minor compaction; "
     "MIN_VERSIONS disables it"),
    (43, "000", _TTL, "hbase.store.delete.expired.storefile=false disables that deletion"),
    (44, "000", _TTL, 'a cell TTL is in ms and "cannot extend the effective lifetime of a cell '
     'beyond a ColumnFamily level TTL"'),
    (45, "000", _KDC, 'delete markers "extend back to the beginning of time"'),
    (46, "000", _KDC, "KEEP_DELETED_CELLS allows point-in-time queries"),
    (47, "000", _KDC, 'deleted cells are "subject to TTL" and never more than max versions of '
     "them are kept"),
    (48, "000", _KDC, "a raw scan returns the delete markers"),
    (49, "000 002", "Supported Datatypes > Counters", "counters are atomic: increments are "
     "synchronised on the RegionServer"),
    (50, "000", "Secondary Indexes and Alternate Query Paths", 'secondary indexes "require '
     'additional cluster space and processing" (dual-write, periodic, summary tables)'),
    (51, "000", "Secondary Indexes and Alternate Query Paths > Filter Query",
     '"don\'t try a full-scan on a large table"'),
    (52, "000", "Constraints", 'constraints "dramatically decrease the write throughput"'),
    (53, "000", f"{_LOG} > Timestamp In The Rowkey Lead Position", "[ts][host][event] keys "
     "hotspot one region"),
    (54, "000", f"{_LOG} > Timestamp In The Rowkey Lead Position", 'buckets: "100 Scans to '
     'obtain data for a single timestamp"'),
    (55, "000", f"{_LOG} > Host In The Rowkey Lead Position", "[host][event][ts] spreads the "
     "writes when there are many hosts"),
    (56, "000", f"{_LOG} > Variangle Length or Fixed Length Rowkeys?", "fixed-length "
     "substitution: MD5 hashes (16+16+8 bytes) or counter-assigned numeric ids (8+8+8)"),
    (57, "000", f"{_LOG} on Steroids", "OpenTSDB rewrites rows into a column per time offset "
     "in a time-range row"),
    (58, "000", "Case Study - Customer/Order", "[customer][order] keys, MD5 vs numeric: one "
     "scan per customer"),
    (59, "000", "Case Study - Customer/Order > Order Object Design", "order object: normalized "
     '(Get + Scan + Scans) vs record types vs denormalized vs BLOB ("a single HBase Get per '
     'Order")'),
    (60, "000 002", f"{_SMACK} > Rows vs. Columns", 'one row with a million attributes vs a '
     'million rows: "Preference: Rows"'),
    (61, "000", f"{_SMACK} > Rows as Columns", 'rows as columns is "I/O efficient"'),
    (62, "000 004", _LIST, "list data: tall and wide take the same disk space"),
    (63, "000", _LIST, "list data: scan 30 rows vs get a page of columns; wide "
     "\"shouldn't be fundamentally worse\" with column slices"),
    (64, "000 004", _LIST, "the tall design gives up per-user atomicity"),
    (65, "002", _OPS, '"one read per customer request": about 1 ms from cache, 10 ms from disk'),
    (66, "002", _OPS, "HBase's operations in order of efficiency: single-cell get ... full "
     "scan"),
    (67, "002", "Keep it Stupidly Simple", 'autocomplete: the whole answer in one cell, '
     '"single row, single value"'),
    (68, "002 003", _LAZY, 'bloom filters make misses ("hdaoop") cheap'),
    (69, "003", "Bloom Filters", "a ROWCOL bloom adds row+column to the filter"),
    (70, "002", _LOCAL, "row locality: adjacent rows are hot in cache together; hot records "
     "together mean fewer hot blocks"),
    (71, "002", _LOCAL, "locality gives compression a great ratio, but whole blocks must be "
     "decompressed to read one cell"),
    (72, "002", "Range Lookup", "IP range lookup: the range's upper bound as the key, a scan "
     "limited to one row costs a Get"),
    (73, "002", "Geographic Data", "geo: quadkeys keep nearby places together; rollups under "
     "truncated keys"),
    (74, "002", "Simple Table > Airport Metadata", "airport fields: one family per field vs "
     "one family vs one serialized record"),
    (75, "002", "Simple Table > Airport Timezone", "timezone history as versions, read with "
     "max timestamp = the event's time"),
    (76, "002", "Wikipedia: Corpus and Graph > Graph Data", 'graph: an edge list with a bloom '
     'for "are these two nodes connected"; adjacency lists; shard celebrity rows'),
    (77, "002", _WEB, "web logs as rows-as-columns: cookie-timebucket rows, a family per kind"),
    (78, "002", f"{_WEB} > Column Families > External Referer", "reverse-domain URLs sort an "
     "organisation's hosts together"),
    (79, "002", f"{_WEB} > Most-Frequent URLs", "most-frequent URL with timestamp = count; "
     "the most recent five with VERSIONS 5"),
    (80, "004 002", "Target data access", "timestamps in a Get let it skip store files older "
     "than the range"),
    (81, "002", _READS, 'lexicographic "derp sort" (1, 119, 12, 2, 7); zero-pad; \'+\' sorts '
     "before '-'"),
    (82, "002", _READS, '"Avoid having more than a few million columns per row"'),
    (83, "003", "Table Region Size", "per-table region size (MAX_FILESIZE); 1 TB over 4 GB "
     "regions arithmetic"),
    (84, "003", "Column Family Block Size", '"Larger cell values require larger block sizes"'),
    (85, "003", "In-Memory Column Families", "IN_MEMORY families get block-cache priority, "
     "with no guarantee the whole family stays cached"),
    (86, "003", "Column Scanning", "column scanning is slower than row scanning (ip= tag "
     "columns read with a column filter)"),
    (87, "004", "Schema", "a store may hold many HFiles, ideally one after compaction"),
    (88, "004", "Target data access", "wider rows cost more to access; qualifier and timestamp "
     'in the key let a read "skip to the right column"'),
    (89, "004", _EVEN, "a single narrow row in the BlockCache is the fastest read"),
    (90, "004", _EVEN, "MD5(userid1)MD5(userid2) fixed-length keys: predictable performance, "
     "ids unrecoverable"),
    (91, "004", "De-normalization", "de-normalization (a stream per user) optimises reads, "
     "normalization writes; a popular user is a read hot spot"),
    (92, "004", "Defining requirements: more work up front always pays", "a counter column "
     "makes the client code complicated without transactions"),
    (93, "004 003", "Fitering Data", "filters push predicates down to the region servers"),
)

SEED_CLAIMS = {n: SeedClaim(n, quote, tuple(seeds.split()), section)
               for n, seeds, section, quote in _TABLE}
