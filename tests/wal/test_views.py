"""The WAL in metrics, the `wal` view and the shell's `wal` and `abort_server`."""

import io

import hsim
from hsim.inspect import wal
from hsim.shell import Shell


def test_metrics_and_view_show_wal_files():
    c = hsim.Cluster(2, config=hsim.Config(wal_block_size=400), clock=hsim.ManualClock(1))
    c.admin.create_table("t", ["f"], split_keys=[b"m"])
    t = c.table("t")
    for i in range(5):
        t.put(b"a%d" % i, {b"f:q": b"x" * 50})
    m = c.metrics().servers[0]
    assert m.wal_rolls >= 1 and m.wal_syncs == 5 and m.wal_bytes_written > 250
    assert m.wal_files == m.wal_rolls + 1 - m.wal_archived
    view = wal(c)
    assert len(view.files) == m.wal_files + 1  # server 2's one empty file
    text = str(view)
    assert "rs1.hsim%2C16020%2C1." in text and "current" in text and "rolled" in text
    assert f"{m.wal_syncs} syncs, {m.wal_rolls} rolls" in text


def test_shell_abort_server_and_wal():
    out = io.StringIO()
    sh = Shell(out=out, timer=lambda: 0.0, width=0, servers=2)
    sh.run_script("create 't', 'f', SPLITS => ['m']\nput 't', 'a', 'f:q', 'v'\n"
                  "put 't', 'z', 'f:q', 'v'\nwal\nabort_server 0\nscan 't'\n")
    text = out.getvalue()
    assert "WALs of 2 live server(s)" in text
    assert "Aborted rs1.hsim" in text and "Replayed 1 cell(s); lost 0 SKIP_WAL" in text
    assert "2 row(s)" in text
