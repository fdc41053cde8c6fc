"""The offline test suite of url_stats.py, through hsim's pytest plugin: the application's own
`happybase.Connection(...)` runs against an in-process cluster whose clock the test controls.

Run it with `pytest examples/` (hsim installed, nothing else running)."""

import pytest

import url_stats

COOKIE = b"cookie-42"


@pytest.fixture
def conn(hsim_happybase):
    """What the application itself connects to (happybase is patched for the test)."""
    conn = url_stats.connect("hbase.example.com")
    url_stats.create_tables(conn)
    return conn


def test_counts_and_most_frequent_url(conn):
    views = [b"/home", b"/about", b"/home", b"/blog", b"/home", b"/blog"]
    assert [url_stats.record_view(conn, COOKIE, u) for u in views] == [1, 1, 2, 1, 3, 2]
    assert url_stats.url_counts(conn, COOKIE) == {b"/about": 1, b"/blog": 2, b"/home": 3}
    assert url_stats.most_frequent_url(conn, COOKIE) == b"/home"
    assert url_stats.most_frequent_url(conn, b"nobody") is None


def test_a_tie_goes_to_the_url_that_reached_the_count_last(conn):
    for u in (b"/a", b"/b", b"/b", b"/a"):
        url_stats.record_view(conn, COOKIE, u)
    # both reached 2; same timestamp, and the later write wins
    assert url_stats.most_frequent_url(conn, COOKIE) == b"/a"


def test_lower_count_writes_are_ignored_and_flushed_away(conn, hsim_happybase):
    for u in (b"/x", b"/x", b"/y", b"/x"):
        url_stats.record_view(conn, COOKIE, u)
    cluster = hsim_happybase.cluster("hbase.example.com")
    stats = cluster.table("cookie_stats")

    def stored_top():  # a raw read: every version the store still holds
        cells = stats.get(COOKIE, max_versions=10, raw=True)
        return [(c.value, c.timestamp) for c in cells if c.family == b"c"]

    # before a flush the store still holds one version per count (the later write of a
    # count replaces the earlier: /y reached 1 after /x did) ...
    assert stored_top() == [(b"/x", 3), (b"/x", 2), (b"/y", 1)]
    assert url_stats.most_frequent_url(conn, COOKIE) == b"/x"  # ... but reads see one
    cluster.admin.flush("cookie_stats")
    assert stored_top() == [(b"/x", 3)]


def test_recent_urls(conn, hsim_clock):
    # the test's clock moves 1 ms per request, as a cluster's does between calls
    for u in (b"/1", b"/2", b"/3", b"/4", b"/5", b"/6"):
        url_stats.record_view(conn, COOKIE, u)
    assert url_stats.recent_urls(conn, COOKIE) == [b"/6", b"/5", b"/4", b"/3", b"/2"]
    assert url_stats.recent_urls(conn, COOKIE, n=2) == [b"/6", b"/5"]
    hsim_clock.advance(60_000)  # a minute later
    url_stats.record_view(conn, COOKIE, b"/7")
    assert url_stats.recent_urls(conn, COOKIE, n=2) == [b"/7", b"/6"]


@pytest.mark.hsim(clock="manual")
def test_views_within_one_millisecond_collapse_as_in_hbase(conn):
    # a manual clock stands still: both puts get the same timestamp, the later one wins
    url_stats.record_view(conn, COOKIE, b"/first")
    url_stats.record_view(conn, COOKIE, b"/second")
    assert url_stats.recent_urls(conn, COOKIE) == [b"/second"]


def test_with_the_plain_connection_fixture(hsim_connection):
    url_stats.create_tables(hsim_connection)
    assert url_stats.record_view(hsim_connection, COOKIE, b"/") == 1
    assert hsim_connection.tables() == [b"cookie_stats", b"cookie_url"]
