"""Key encoding: how the bytes chosen for a row key change its size, its sort order and which
rows sit together. Numbers as 8-byte longs vs decimal strings; a URL key as the URL itself, a
hex SHA-1, a packed SHA-1 or a packed MD5; log-event keys with the host and event names in the
key vs MD5 substitution vs counter-assigned numeric ids; decimal strings vs zero-padded vs
null-padded numbers under numeric range scans; hostnames first vs reversed domains for an
organisation's pages.

Seed claims: 000 "Try to minimize row and column sizes > Byte Patterns" and "Case Study - Log
Data and Timeseries Data > Variangle Length or Fixed Length Rowkeys?"; 002 "Design for Reads"
(keys space-efficient, the "derp sort") and "Web Logs: Rows-As-Columns > Column Families >
External Referer"; 004 "Modeling for even distribution of data and load".

Sizes are read back from the cluster: key bytes from the rows a scan returns, store bytes from
the store files after a flush and a major compaction, regions touched from the regions' read
request counts. Every variant of a test stores the same records.
"""

import hashlib

from hsim.scenario import Scenario
from hsim.scenario.criteria import each, metric
from hsim.scenario.parts import by_test
from hsim.scenario.readers import record_time_per_op
from hsim.scenario.setup import create_table, settle
from hsim.scenario.tallies import region_reads, table_bytes

scenario = Scenario(
    "key_encoding",
    "numbers as longs vs strings, digests raw vs hex vs the URL, fixed-length substitution, "
    "the derp sort and padding, reversed domains: key bytes, scan order, regions per query",
    sizes={"small": 1500, "default": 8000, "sweep": 3000},
    servers=1,
    scale=1 / 256,
    params={"regions": 8, "hosts_per_org": 4},
    sweep={"regions": [4, 16], "hosts_per_org": [2, 8]},
    ops_meaning="records stored per variant",
)

# numbers
scenario.variant("long_binary", "ids as Bytes.toBytes(long): 8 bytes", test="numbers",
                 encode=lambda n: n.to_bytes(8, "big"))
scenario.variant("long_string", "ids as decimal strings, a byte per digit", test="numbers",
                 encode=lambda n: b"%d" % n)
# digests of URLs
scenario.variant("url_key", "the URL itself as the row key", test="digest",
                 encode=lambda url: url)
scenario.variant("sha1_hex", "SHA-1 of the URL, hex-encoded (40 bytes)", test="digest",
                 encode=lambda url: hashlib.sha1(url).hexdigest().encode())
scenario.variant("sha1_raw", "SHA-1 of the URL, binary-packed (20 bytes)", test="digest",
                 encode=lambda url: hashlib.sha1(url).digest())
scenario.variant("md5_raw", "MD5 of the URL, binary-packed (16 bytes)", test="digest",
                 encode=lambda url: hashlib.md5(url).digest())
# log events: [host][event type][timestamp]
scenario.variant("names_in_key", "[hostname][event type][ts:8]: variable length",
                 test="substitution", kind="names")
scenario.variant("md5_substitution", "[MD5(host):16][MD5(event):16][ts:8]",
                 test="substitution", kind="md5")
scenario.variant("numeric_substitution", "[host id:8][event id:8][ts:8], ids assigned by an "
                 "increment on a LOG_TYPES lookup table", test="substitution", kind="numeric")
# sort order of numbers 0..60,000
scenario.variant("decimal_strings", "b'%d': 69 -> '69'", test="order",
                 encode=lambda n: b"%d" % n)
scenario.variant("zero_padded", "b'%05d': 69 padded with zeros to 5 digits (5 bytes)",
                 test="order", encode=lambda n: b"%05d" % n)
scenario.variant("null_padded", "2-byte big-endian: 69 -> 00 45", test="order",
                 encode=lambda n: n.to_bytes(2, "big"))
# an organisation's pages
scenario.variant("hostname_first", "hbase.apache.org/page: one prefix scan per known host",
                 test="domain", reverse=False)
scenario.variant("reversed_domain", "org.apache.hbase/page: one prefix scan per organisation",
                 test="domain", reverse=True)

BOOK_NUMBER = 1234567890
MAX_LONG = 2 ** 64 - 1  # 18,446,744,073,709,551,615: the largest unsigned 8-byte number
DIGITS = (4, 7, 10, 13, 16, 20)
VALUE = b"v" * 20


def _store(ctx, name, rows):
    """Write rows {key: value}, then flush and major compact: the store holds them once."""
    table = create_table(ctx, name, ["d"], split_enabled=False)
    ctx.expect(len(rows))
    for key, value in rows.items():
        table.put(key, {b"d:v": value})
        ctx.tick()
    settle(ctx, name)
    return table


def _sizes(ctx, name, table, n):
    """Key bytes per row (from the rows a scan returns) and store bytes per row."""
    keys = [cells[0].row for cells in table.scan(caching=1000)]
    store = table_bytes(ctx, name)
    ctx.record("key_bytes_per_row", sum(map(len, keys)) / len(keys), "row key bytes per row",
               "B")
    ctx.record("store_bytes_per_row", store / n, "store file bytes per row", "B")
    ctx.record("key_length_spread", max(map(len, keys)) - min(map(len, keys)),
               "longest key - shortest key", "B")
    return keys


def _numbers(ctx, variant, p):
    """Ids of 4 to 20 digits (the last group up to the largest unsigned long), plus the book's
    1234567890, stored as row keys."""
    rng = ctx.shared_rng()
    per = max(1, ctx.ops // len(DIGITS))
    ids = {BOOK_NUMBER}
    for d in DIGITS:
        while len(ids) < 1 + per * (DIGITS.index(d) + 1):
            ids.add(rng.randrange(10 ** (d - 1), min(10 ** d, MAX_LONG + 1)))
    ids.add(MAX_LONG)
    encode = variant["encode"]
    table = _store(ctx, "ids", {encode(n): VALUE for n in sorted(ids)})
    keys = _sizes(ctx, "ids", table, len(ids))
    decode = (lambda k: int(k)) if variant.name == "long_string" else \
        (lambda k: int.from_bytes(k, "big"))
    by_digits: dict = {}
    for k in keys:
        by_digits.setdefault(len(str(decode(k))), []).append(len(k))
    for d in sorted(by_digits):
        ctx.point("key_bytes", d, sum(by_digits[d]) / len(by_digits[d]))
    ctx.record("book_number_key_bytes", len(table.get(encode(BOOK_NUMBER))[0].row),
               "key bytes of the book's 1,234,567,890", "B")
    ctx.record("max_long_key_bytes", len(table.get(encode(MAX_LONG))[0].row),
               "key bytes of 18,446,744,073,709,551,615", "B")


def _urls(ctx, p):
    """URLs of `hosts_per_org` hosts of 40 organisations, the same for every variant."""
    rng = ctx.shared_rng()
    tlds = (b"com", b"org", b"net", b"io")
    orgs = [(b"org%02d" % i, tlds[i % 4]) for i in range(40)]
    hosts = {org: [b"%s.%s.%s" % (h, org[0], org[1])
                   for h in (b"www", b"mail", b"api", b"docs", b"blog", b"shop", b"cdn",
                             b"dev")[:p["hosts_per_org"]]] for org in orgs}
    urls = {}
    while len(urls) < ctx.ops:
        org = orgs[rng.randrange(len(orgs))]
        host = hosts[org][rng.randrange(len(hosts[org]))]
        url = b"%s/articles/%d/section-%d.html" % (host, rng.randrange(10 ** 6),
                                                  rng.randrange(100))
        urls[url] = (org, host)
    return urls, hosts


def _digest(ctx, variant, p):
    urls, _ = _urls(ctx, p)
    table = _store(ctx, "urls", {variant["encode"](u): u for u in urls})
    _sizes(ctx, "urls", table, len(urls))
    if variant.name != "md5_raw":
        return
    digest = hashlib.md5(b"%d" % BOOK_NUMBER).digest()
    # new String(digest) decodes with the platform charset (windows-1252 in the book's run),
    # Bytes.toBytes encodes it as UTF-8
    ctx.record("md5_digest_bytes", len(digest), "MD5 of the book's number: raw bytes", "B")
    ctx.record("md5_as_string_bytes", len(digest.decode("cp1252", "replace").encode()),
               "MD5 of the book's number as a String", "B")


def _substitution(ctx, variant, p):
    """Log events of 50 hosts and 20 event types with the book's long names."""
    rng = ctx.shared_rng()
    hosts = [b"myserver%d.mycompany.com" % i for i in range(50)]
    events = [b"com.package1.subpackage2.subsubpackage3.ImportantService%d" % i
              for i in range(20)]
    records = [(hosts[rng.randrange(50)], events[rng.randrange(20)], 1_700_000_000_000 + i)
               for i in range(ctx.ops)]
    kind = variant["kind"]
    before = ctx.loads()
    if kind == "numeric":
        types = create_table(ctx, "log_types", ["d"], split_enabled=False)
        assigned: dict = {}  # the writer's cache of ids it looked up or assigned

        def code(tag, name):
            if (tag, name) not in assigned:
                row = tag + name
                got = types.get(row, columns=[b"d:id"])
                if not got:  # a new name: take the next id from the counter row
                    n = types.increment(b"\x00counter", b"d:next")
                    types.put(row, {b"d:id": n.to_bytes(8, "big")})
                    got = types.get(row, columns=[b"d:id"])
                assigned[tag, name] = got[0].value
            return assigned[tag, name]
        rows = {code(b"h", h) + code(b"e", e) + ts.to_bytes(8, "big"): VALUE
                for h, e, ts in records}
    elif kind == "md5":
        rows = {hashlib.md5(h).digest() + hashlib.md5(e).digest() + ts.to_bytes(8, "big"):
                VALUE for h, e, ts in records}
    else:
        rows = {h + e + ts.to_bytes(8, "big"): VALUE for h, e, ts in records}
    lookups = ctx.io(since=before)
    table = _store(ctx, "log_data", rows)
    keys = _sizes(ctx, "log_data", table, len(rows))
    ctx.record("lookup_requests_per_event", (lookups["read_requests"]
                                             + lookups["write_requests"]) / len(records),
               "LOG_TYPES requests per event written")
    ctx.record("host_readable_from_key", sum(k.startswith(b"myserver") for k in keys)
               / len(keys), "keys whose host name reads back from the key", "%")


def _order(ctx, variant, p):
    """Numbers from 0 to 60,000 as keys; range scans [a, b) ask for the numbers between."""
    rng = ctx.shared_rng()
    numbers = sorted(set(rng.randrange(60_001) for _ in range(ctx.ops)) | {1, 2, 7, 12, 119})
    encode = variant["encode"]
    table = _store(ctx, "numbers", {encode(n): b"%d" % n for n in numbers})
    _sizes(ctx, "numbers", table, len(numbers))
    scanned = [int(cells[0].value) for cells in table.scan(caching=1000)]
    ctx.record("scan_in_numeric_order", sum(a < b for a, b in zip(scanned, scanned[1:]))
               / (len(scanned) - 1), "adjacent rows a scan returns in numeric order", "%")
    book = [int(c[0].value) for c in table.scan(caching=1000)
            if int(c[0].value) in (1, 2, 7, 12, 119)]
    ctx.note("the book's keys 1, 2, 7, 12, 119 come back as " + ", ".join(map(str, book)))
    ctx.record("book_example_in_order", int(book == sorted(book)),
               "1, 2, 7, 12, 119 scanned in numeric order")
    wrong = asked = 0
    for _ in range(50):
        a = rng.randrange(1, 59_000)
        b = a + rng.randrange(10, 1000)
        got = [int(c[0].value) for c in table.scan(start_row=encode(a), stop_row=encode(b))]
        asked += 1
        wrong += sum(not a <= n < b for n in got) + sum(1 for n in numbers if a <= n < b) \
            - sum(a <= n < b for n in got)
    ctx.record("wrong_rows_per_range_scan", wrong / asked,
               "rows a numeric range scan got wrong (extra or missing)")


def _domain(ctx, variant, p):
    """Every page of each organisation, read back by the fewest prefix scans the design
    allows, on a table pre-split at the quantiles of its own keys."""
    urls, hosts = _urls(ctx, p)

    def key(url):
        host, _, path = url.partition(b"/")
        if variant["reverse"]:
            host = b".".join(reversed(host.split(b".")))
        return host + b"/" + path
    keys = sorted(key(u) for u in urls)
    step = len(keys) / p["regions"]
    splits = sorted({keys[int(step * i)] for i in range(1, p["regions"])})
    table = create_table(ctx, "pages", ["d"], split_keys=splits, split_enabled=False)
    ctx.expect(len(urls))
    for u in urls:
        table.put(key(u), {b"d:v": VALUE})
        ctx.tick()
    ctx.admin.flush("pages")
    regions_touched = scans = rows = 0
    before = ctx.loads()
    for org, org_hosts in sorted(hosts.items()):
        reads = region_reads(ctx, "pages")
        if variant["reverse"]:
            prefixes = [org[1] + b"." + org[0] + b"."]
        else:
            prefixes = [h + b"/" for h in org_hosts]
        for prefix in prefixes:
            rows += sum(1 for _ in table.scan(row_prefix=prefix, caching=1000))
            scans += 1
        after = region_reads(ctx, "pages")
        regions_touched += sum(b > a for a, b in zip(reads, after))
    n = len(hosts)
    io = ctx.io(since=before)
    ctx.record("rows_per_org", rows / n, "rows an organisation's read returned")
    ctx.record("scans_per_org", scans / n, "scans per organisation")
    ctx.record("regions_per_org", regions_touched / n, "regions an organisation's read touched")
    ctx.record("rpcs_per_org", io["read_requests"] / n, "read RPCs per organisation")
    record_time_per_op(ctx, "ms_per_org", before, n, "makespan per organisation read")


scenario.run(by_test({"numbers": _numbers, "digest": _digest, "substitution": _substitution,
                      "order": _order, "domain": _domain}))


scenario.claim(
    "a long as a string takes nearly 3x the bytes of the 8-byte long",
    seed="000", section="Try to minimize row and column sizes > Byte Patterns",
    quote="A long is 8 bytes. You can store an unsigned number up to "
          "18,446,744,073,709,551,615 in those eight bytes. If you stored this number as a "
          "String -- presuming a byte per character -- you need nearly 3x the bytes.",
    proposition="If you stored this number as a String -- presuming a byte per character -- "
                "you need nearly 3x the bytes.",
    # "nearly 3x": more than twice and less than three times (the 20 digits of the largest
    # unsigned long over 8 bytes is 2.5x), and the store files bigger per row with strings
    criterion=(metric("long_string", "max_long_key_bytes")
               > 2 * metric("long_binary", "max_long_key_bytes"))
              & (metric("long_string", "max_long_key_bytes")
                 < 3 * metric("long_binary", "max_long_key_bytes"))
              & (metric("long_binary", "book_number_key_bytes") == 8)
              & (metric("long_string", "book_number_key_bytes") == 10)
              & (metric("long_string", "store_bytes_per_row")
                 > metric("long_binary", "store_bytes_per_row")),
    covers=(26,))

scenario.claim(
    "a packed digest beats its hex form, which beats the URL itself",
    seed="002", section="Design for Reads",
    quote="a binary-packed SHA digest of a URL is more efficient than its hex-encoded "
          "representation, which is likely more efficient than the URL itself.",
    criterion=(metric("sha1_raw", "store_bytes_per_row")
               < metric("sha1_hex", "store_bytes_per_row"))
              & (metric("sha1_hex", "store_bytes_per_row")
                 < metric("url_key", "store_bytes_per_row"))
              & (metric("md5_raw", "md5_digest_bytes") == 16)
              & (metric("md5_raw", "md5_as_string_bytes") == 26),
    covers=(27,))

scenario.claim(
    "substituting fixed-length hashes or numeric ids shrinks long names in the key",
    seed="000", section="Case Study - Log Data and Timeseries Data > Variangle Length or "
                        "Fixed Length Rowkeys?",
    quote="It is critical to remember that rowkeys are stamped on every column in HBase. ... "
          "It might make sense to use some substitution in the rowkey. There are at least two "
          "approaches: hashed and numeric.",
    criterion=(metric("md5_substitution", "key_bytes_per_row") == 40)
              & (metric("numeric_substitution", "key_bytes_per_row") == 24)
              & (metric("numeric_substitution", "store_bytes_per_row")
                 < metric("md5_substitution", "store_bytes_per_row"))
              & (metric("md5_substitution", "store_bytes_per_row")
                 < metric("names_in_key", "store_bytes_per_row"))
              & (metric("numeric_substitution", "lookup_requests_per_event") > 0),
    covers=(56,))

scenario.claim(
    "MD5(a)MD5(b) keys are all one length, and the ids cannot be read back from them",
    seed="004", section="Modeling for even distribution of data and load",
    quote="First, your rowkeys are all of consistent length, giving you more predictability in "
          "terms of read and write performance ... By storing MD5s of the user IDs in the "
          "rowkey, you can’t get back the user IDs when you read back",
    criterion=(metric("md5_substitution", "key_length_spread") == 0)
              & (metric("names_in_key", "key_length_spread") > 0)
              & (metric("md5_substitution", "host_readable_from_key") == 0)
              & (metric("names_in_key", "host_readable_from_key") == 1),
    covers=(90,))

scenario.claim(
    "decimal strings sort lexicographically (the derp sort); zero or null padding sorts "
    "numerically, null padding in fewer bytes",
    seed="002", section="Design for Reads",
    quote="Given row keys 1, 2, 7, 12, and 119, HBase stores them in the order 1, 119, 12, 2, "
          "7: it sorts by the most significant (leftmost) byte first. - zero-pad decimal "
          "numbers, and null-pad binary packet numbers.",
    criterion=(metric("decimal_strings", "book_example_in_order") == 0)
              & (metric("decimal_strings", "wrong_rows_per_range_scan") > 0)
              & (each(("zero_padded", "null_padded"), "wrong_rows_per_range_scan") == 0)
              & (metric("zero_padded", "scan_in_numeric_order") == 1)
              & (metric("null_padded", "key_bytes_per_row")
                 < metric("zero_padded", "key_bytes_per_row")),
    covers=(81,))

scenario.claim(
    "reversed domains keep an organisation's hosts together: one scan, fewer regions",
    seed="002", section="Web Logs: Rows-As-Columns > Column Families > External Referer",
    quote="This means that pages served from different hosts within the same organization "
          "(\"org.apache.hbase\" and \"org.apache.kafka\" and so forth) are ordered adjacently.",
    criterion=(metric("reversed_domain", "rows_per_org") == metric("hostname_first",
                                                                    "rows_per_org"))
              & (metric("reversed_domain", "scans_per_org") == 1)
              & (metric("reversed_domain", "regions_per_org")
                 < metric("hostname_first", "regions_per_org"))
              & (metric("reversed_domain", "rpcs_per_org")
                 < metric("hostname_first", "rpcs_per_org")),
    covers=(78,))

scenario.line_chart("key_bytes", "row key bytes by the number's digits", "key_bytes",
                    xlabel="decimal digits of the id", ylabel="key bytes")
scenario.bar_chart("store_bytes", "store file bytes per row", ["store_bytes_per_row"],
                   unit="B")
scenario.bar_chart("org_read", "reading one organisation's pages",
                   ["regions_per_org", "rpcs_per_org"])
