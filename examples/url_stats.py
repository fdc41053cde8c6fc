"""A small happybase application: per-visitor URL statistics, after "HBase Data Model" in
Big Data for Chimps (the "most frequent URL" trick).

- `cookie_url`: one row per visitor cookie, one counter column `u:<url>` per URL.
- `cookie_stats`: family `c` (VERSIONS 1) holds the visitor's most frequent URL. Each view
  increments the URL's counter, then writes the URL into `c:top` *with the counter value as its
  timestamp*. HBase returns the version with the highest timestamp, which is the URL with the
  highest count; the lower-count writes are ignored by reads and dropped by flushes and
  compactions. Family `r` (VERSIONS 5) keeps the five most recent URLs at real timestamps.

The code knows nothing of hsim: it is plain happybase (see test_url_stats.py for how it is
tested offline).
"""

import struct

import happybase

URLS = b"cookie_url"
STATS = b"cookie_stats"


def connect(host="localhost", port=9090):
    return happybase.Connection(host, port)


def create_tables(conn):
    conn.create_table(URLS, {"u": {"max_versions": 1}})
    conn.create_table(STATS, {"c": {"max_versions": 1}, "r": {"max_versions": 5}})


def record_view(conn, cookie, url):
    """Count one view of `url` by `cookie`; returns the URL's new count."""
    count = conn.table(URLS).counter_inc(cookie, b"u:" + url)
    stats = conn.table(STATS)
    stats.put(cookie, {b"c:top": url}, timestamp=count)
    stats.put(cookie, {b"r:url": url})
    return count


def most_frequent_url(conn, cookie):
    return conn.table(STATS).row(cookie, columns=[b"c:top"]).get(b"c:top")


def recent_urls(conn, cookie, n=5):
    """The visitor's last `n` views, newest first."""
    return conn.table(STATS).cells(cookie, b"r:url", versions=n)


def url_counts(conn, cookie):
    row = conn.table(URLS).row(cookie)
    return {col[2:]: struct.unpack(">q", value)[0] for col, value in row.items()}
