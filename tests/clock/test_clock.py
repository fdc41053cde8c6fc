"""Time that moves like a cluster's: the default TickingClock, one tick per request, clocks that
never go backwards by accident, and the frozen ManualClock's within-one-millisecond rule."""

import io
import json
import subprocess
import sys
import textwrap

import pytest

import hsim
import hsim.happybase
from hsim.clock import DEFAULT_START_MS
from hsim.shell import Shell

T0 = DEFAULT_START_MS  # 2026-01-01T00:00:00Z


def _table(cluster, **family):
    cluster.admin.create_table("t", {"f": hsim.ColumnFamily(**family)})
    return cluster.table("t")


# --- the clocks themselves -------------------------------------------------------------------
def test_ticking_clock_starts_at_a_realistic_instant_and_moves_per_request():
    c = hsim.TickingClock()
    assert c.now() == T0 == 1_767_225_600_000
    assert [c.tick(), c.tick(), c.tick()] == [T0, T0 + 1, T0 + 2]
    assert c.now() == T0 + 2  # reading the time moves nothing
    assert c.advance(60_000) == T0 + 60_002
    assert c.tick() == T0 + 60_002  # the next request gets exactly the advanced time
    assert c.tick() == T0 + 60_003
    c.set(T0 + 100_000)
    assert c.tick() == T0 + 100_000
    assert hsim.TickingClock(5, step_ms=10).tick() == 5
    stepped = hsim.TickingClock(0, step_ms=10)
    assert [stepped.tick() for _ in range(3)] == [0, 10, 20]


def test_manual_clock_stands_still():
    c = hsim.ManualClock(7)
    assert [c.tick(), c.tick()] == [7, 7]
    assert c.advance(3) == 10 and c.tick() == 10


def test_system_clock_never_repeats_a_millisecond():
    c = hsim.SystemClock()
    ticks = [c.tick() for _ in range(2_000)]
    assert all(b > a for a, b in zip(ticks, ticks[1:]))
    assert ticks[0] > 1_600_000_000_000
    c.advance(3_600_000)
    assert c.tick() >= ticks[-1] + 3_600_000


@pytest.mark.parametrize("make", [lambda: hsim.TickingClock(), lambda: hsim.ManualClock(1_000),
                                  hsim.SystemClock], ids=["tick", "manual", "system"])
def test_no_clock_goes_backwards_unless_told_on_purpose(make):
    c = make()
    before = c.now()
    with pytest.raises(hsim.InvalidArgumentError, match="backwards"):
        c.advance(-500)
    with pytest.raises(hsim.InvalidArgumentError, match="backwards"):
        c.set(before - 500)
    assert c.now() >= before  # nothing moved
    with pytest.raises(hsim.InvalidArgumentError):
        c.advance(1.5)
    assert c.set(before - 500, backwards=True) <= before - 500 + 5  # on purpose
    if not isinstance(c, hsim.SystemClock):
        assert c.now() == before - 500


def test_a_backwards_set_hides_later_writes_behind_newer_versions():
    cluster = hsim.Cluster()
    t = _table(cluster)
    t.put(b"r", {b"f:q": b"first"})  # at T0
    cluster.clock.set(T0 - 10_000, backwards=True)
    t.put(b"r", {b"f:q": b"second"})  # at T0 - 10 s: older than what is stored
    assert t.get(b"r")[0].value == b"first"


# --- the default clock, natively ---------------------------------------------------------------
def test_default_clock_is_ticking_everywhere(hsim_cluster, hsim_clock):
    assert isinstance(hsim.Cluster().clock, hsim.TickingClock)
    assert isinstance(hsim_clock, hsim.TickingClock) and hsim_cluster.clock is hsim_clock
    hsim.happybase.reset()
    try:
        assert isinstance(hsim.happybase.cluster().clock, hsim.TickingClock)
    finally:
        hsim.happybase.reset()
    assert isinstance(Shell(out=io.StringIO()).clock, hsim.TickingClock)


def test_put_delete_put_keeps_the_second_put_natively():
    cluster = hsim.Cluster()
    t = _table(cluster)
    t.put(b"r", {b"f:q": b"1"})
    t.delete_row(b"r")
    t.put(b"r", {b"f:q": b"2"})
    assert [c.value for c in t.get(b"r")] == [b"2"]
    t.delete_columns(b"r", b"f:q")
    t.put(b"r", {b"f:q": b"3"})
    assert [c.value for c in t.get(b"r")] == [b"3"]
    t.delete_family(b"r", "f")
    t.put(b"r", {b"f:q": b"4"})
    assert [c.value for c in t.get(b"r")] == [b"4"]


def test_consecutive_puts_become_versions_with_increasing_timestamps():
    cluster = hsim.Cluster()
    t = _table(cluster, max_versions=3)
    for v in (b"a", b"b", b"c"):
        t.put(b"r", {b"f:q": v})
    cells = t.get(b"r", max_versions=3)
    assert [c.value for c in cells] == [b"c", b"b", b"a"]
    assert [c.timestamp for c in cells] == [T0 + 2, T0 + 1, T0]


def test_one_requests_cells_share_a_timestamp():
    cluster = hsim.Cluster()
    t = _table(cluster)
    t.put(b"r1", {b"f:a": b"1", b"f:b": b"2", b"f:c": b"3"})
    with t.batch() as b:  # one batch is one request
        b.put(b"r2", {b"f:a": b"1"})
        b.put(b"r3", {b"f:a": b"1"})
    stamps = {c.timestamp for row in t.scan() for c in row}
    assert stamps == {T0, T0 + 1}
    assert {c.timestamp for c in t.get(b"r1")} == {T0}


def test_reads_and_scan_batches_are_requests_too():
    cluster = hsim.Cluster()
    t = _table(cluster)
    for i in range(10):
        t.put(b"r%d" % i, {b"f:q": b"v"})  # T0 .. T0+9
    t.get(b"r0")  # T0+10
    assert cluster.clock.now() == T0 + 10
    assert len(list(t.scan(caching=3))) == 10  # batches of 3, 3, 3, 1
    assert cluster.clock.now() == T0 + 14


def test_increments_and_appends_move_on_from_the_stored_timestamp():
    cluster = hsim.Cluster()
    t = _table(cluster)
    t.put(b"r", {b"f:c": (5).to_bytes(8, "big")}, timestamp=T0 + 1_000)  # in the future
    assert t.increment(b"r", b"f:c", 1) == 6
    assert t.get(b"r")[0].timestamp == T0 + 1_001  # max(now, old + 1)
    t.put(b"r", {b"f:s": b"x"})
    t.append(b"r", {b"f:s": b"y"})
    cell = t.get(b"r", columns=[b"f:s"])[0]
    assert cell.value == b"xy" and cell.timestamp == cluster.clock.now() - 1


def test_ttl_expires_as_the_clock_is_advanced():
    cluster = hsim.Cluster()
    t = _table(cluster, ttl=60)
    t.put(b"r", {b"f:q": b"v"})
    cluster.clock.advance(60_000)  # exactly the TTL: still there (ts >= now - ttl)
    assert t.get(b"r")
    cluster.clock.advance(1)
    assert t.get(b"r") == []


def test_frozen_manual_clock_keeps_hbase_within_one_millisecond_rules():
    cluster = hsim.Cluster(clock=hsim.ManualClock(T0))
    t = _table(cluster, max_versions=3)
    t.put(b"r", {b"f:q": b"1"})
    t.put(b"r", {b"f:q": b"2"})  # same timestamp: the later put wins, no second version
    assert [c.value for c in t.get(b"r", max_versions=3)] == [b"2"]
    t.delete_row(b"r")
    t.put(b"r", {b"f:q": b"3"})  # same millisecond as the delete: masked
    assert t.get(b"r") == []


# --- through happybase, the pytest fixtures and the shell ---------------------------------------
def test_put_delete_put_through_the_pytest_fixtures(hsim_connection, hsim_cluster):
    hsim_connection.create_table("t", {"f": {"max_versions": 3}})
    table = hsim_connection.table("t")
    table.put(b"r", {b"f:q": b"1"})
    table.delete(b"r")
    table.put(b"r", {b"f:q": b"2"})
    assert table.row(b"r") == {b"f:q": b"2"}
    table.delete(b"r", columns=[b"f:q"])
    table.put(b"r", {b"f:q": b"3"})
    table.delete(b"r", columns=[b"f"])
    table.put(b"r", {b"f:q": b"4"})
    table.put(b"r", {b"f:q": b"5"})
    assert table.cells(b"r", b"f:q", versions=3) == [b"5", b"4"]
    assert hsim_cluster.table("t").get(b"r")[0].value == b"5"


def test_put_delete_put_in_process_happybase():
    hsim.happybase.reset()
    try:
        conn = hsim.happybase.Connection("put-delete-put")
        conn.create_table("t", {"f": {}})
        table = conn.table("t")
        table.put(b"r", {b"f:q": b"1"})
        table.delete(b"r")
        table.put(b"r", {b"f:q": b"2"})
        assert table.row(b"r") == {b"f:q": b"2"}
        # one Thrift call is one request: its cells share a timestamp
        table.put(b"r2", {b"f:a": b"1", b"f:b": b"2"})
        stamps = {ts for _, ts in table.row(b"r2", include_timestamp=True).values()}
        assert len(stamps) == 1
    finally:
        hsim.happybase.reset()


@pytest.mark.hsim(clock="manual")
def test_the_marker_freezes_time_for_one_test(hsim_clock, hsim_connection):
    assert isinstance(hsim_clock, hsim.ManualClock)
    hsim_connection.create_table("t", {"f": {}})
    table = hsim_connection.table("t")
    table.put(b"r", {b"f:q": b"1"})
    table.delete(b"r")
    table.put(b"r", {b"f:q": b"2"})
    assert table.row(b"r") == {}  # the delete masks the put of its own millisecond


def test_put_delete_put_in_the_shell():
    out = io.StringIO()
    sh = Shell(out=out, width=0, timer=lambda: 0.0)
    sh.run_script(textwrap.dedent("""\
        create 't', 'f'
        put 't', 'r', 'f:q', '1'
        deleteall 't', 'r'
        put 't', 'r', 'f:q', '2'
        get 't', 'r'
        """))
    text = out.getvalue()
    assert "f:q timestamp=2026-01-01T00:00:00.002, value=2" in text
    assert "1 row(s)" in text


def test_the_shell_clock_flag():
    from hsim.shell.main import _parser

    assert _parser().parse_args([]).clock == "tick"
    assert _parser().parse_args(["--clock", "manual"]).clock == "manual"
    sh = Shell(out=io.StringIO(), clock="manual")
    assert isinstance(sh.clock, hsim.ManualClock) and sh.clock.now() == T0
    with pytest.raises(ValueError):
        Shell(out=io.StringIO(), clock="sundial")


def test_the_serve_clock_flag():
    from hsim.thrift.serve import _parser

    assert _parser().parse_args([]).clock == "system"
    assert _parser().parse_args(["--clock", "tick"]).clock == "tick"


# --- determinism across processes ------------------------------------------------------------
_RUN = """
import json, hsim
c = hsim.Cluster()
c.admin.create_table("t", {"f": hsim.ColumnFamily(max_versions=5)}, split_keys=[b"m"])
t = c.table("t")
for i in range(50):
    t.put(b"%s%d" % (b"az"[i % 2:i % 2 + 1], i), {b"f:q": b"v", b"f:p": b"w"})
    if i % 7 == 0:
        t.delete_row(b"a%d" % i)
    if i % 11 == 0:
        t.increment(b"ctr", b"f:n", i)
c.admin.flush("t")
print(json.dumps([[c.row.decode(), c.timestamp, int(c.type)] for r in t.scan(raw=True)
                  for c in r]))
"""


def test_two_processes_give_identical_timestamps():
    runs = [subprocess.run([sys.executable, "-c", _RUN], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    cells = json.loads(runs[0])
    # a0's put (T0) was masked by the DeleteFamily of the next request and flushed away
    assert len(cells) > 50 and cells[0] == ["a0", T0 + 1, int(hsim.CellType.DELETE_FAMILY)]
