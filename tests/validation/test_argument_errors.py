"""Type and value errors name the argument (docs/limits.md): the cases a new user met, each
raising before anything changes."""

import pytest

import hsim
from hsim.client.validation import LONG_MAX


@pytest.fixture
def c():
    cluster = hsim.Cluster(clock=hsim.ManualClock(1_000))
    cluster.admin.create_table("t", ["f"])
    cluster.table("t").put(b"r", {b"f:a": b"1"})
    return cluster


def _state(c):
    return ([tuple(x) for row in c.table("t").scan(raw=True, max_versions=10) for x in row],
            c.admin.describe("t"), sorted(c.admin.list_tables()))


@pytest.mark.parametrize("kwargs, exc, named", [
    ({"region_servers": "3"}, TypeError, "region_servers must be an int, not str"),
    ({"region_servers": 0}, hsim.InvalidArgumentError, "region_servers 0 is out of range"),
    ({"config": {"scale": 2}}, TypeError, "config must be an hsim.Config, not dict"),
    ({"clock": 5}, TypeError, "clock must be an hsim clock"),
    ({"data_dir": 3}, TypeError, "data_dir must be a path"),
])
def test_cluster_arguments(kwargs, exc, named):
    with pytest.raises(exc, match=named):
        hsim.Cluster(**kwargs)


@pytest.mark.parametrize("call, exc, named", [
    (lambda t: t.get(b"r", max_versions="3"), TypeError, "max_versions must be an int, not str"),
    (lambda t: t.get(b"r", max_versions=0), hsim.InvalidArgumentError,
     "max_versions must be positive"),
    (lambda t: t.get(b"r", filter=5), TypeError,
     "filter must be a Filter or a filter string, not int"),
    (lambda t: t.get(b"r", columns=7), TypeError, "columns must be a column or a list"),
    (lambda t: list(t.scan(columns=True)), TypeError, "columns must be a column or a list"),
    (lambda t: t.get("\ud800"), hsim.InvalidArgumentError, "row '\\\\ud800' is not UTF-8 text"),
    (lambda t: t.put(b"r", {"f:\udfff": b"v"}), hsim.InvalidArgumentError,
     "is not UTF-8 text: a lone surrogate at index 2"),
    (lambda t: t.get(b"r", filter="ValueFilter(=, 'binary:\ud800')"),
     hsim.InvalidArgumentError, "filter .* is not UTF-8 text"),
    (lambda t: t.increment(b"r", {b"f:a": 1}), TypeError, "column must be bytes or str, not dict"),
    (lambda t: t.check_and_delete(b"r", b"f:a", b"1", columns=True), TypeError,
     "columns must be a column or a list"),
])
def test_table_arguments(c, call, exc, named):
    before = _state(c)
    with pytest.raises(exc, match=named):
        call(c.table("t"))
    assert _state(c) == before


def test_check_and_delete_takes_one_column_as_bytes(c):
    """`columns=b"f:a"` is one column, not a list of its bytes."""
    t = c.table("t")
    t.put(b"r", {b"f:b": b"2"})
    assert t.check_and_delete(b"r", b"f:a", b"1", columns=b"f:a")
    assert [x.qualifier for x in t.get(b"r")] == [b"b"]


def test_alter_family_of_a_non_utf8_name_says_it_does_not_exist(c):
    before = _state(c)
    with pytest.raises(hsim.NoSuchColumnFamilyError, match="Column family '\ufffd' does not"):
        c.admin.alter_family("t", b"\xff", {"max_versions": 2})
    assert _state(c) == before


@pytest.mark.parametrize("name", ["a/b", "a\\b", "a:b", ".a", "a\x01", "recovered.edits"])
def test_family_names_are_checked_alike_at_create_and_alter(c, name):
    """ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName, in create and in add_family."""
    before = _state(c)
    with pytest.raises(hsim.InvalidArgumentError) as at_create:
        c.admin.create_table("u", [name])
    with pytest.raises(hsim.InvalidArgumentError) as at_add:
        c.admin.add_family("t", name)
    assert str(at_create.value) == str(at_add.value)
    assert _state(c) == before and "u" not in c.admin.list_tables()


def test_java_long_bound_is_the_limit_for_timestamps(c):
    with pytest.raises(hsim.InvalidArgumentError, match="does not fit a signed 64-bit long"):
        c.table("t").put(b"r", {b"f:a": b"v"}, timestamp=LONG_MAX + 1)
