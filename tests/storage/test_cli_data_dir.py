"""`hsim shell --data-dir` and `hsim serve --data-dir`: tables kept across runs, and a bad
directory refused with one clear line (no traceback), the directory untouched."""

import subprocess
import sys

import hsim
from hsim.shell.main import main as shell_main

from .disk import crash, snapshot


def test_shell_keeps_tables_across_runs(tmp_path, capsys):
    d = str(tmp_path / "hbase")
    script = tmp_path / "a.hb"
    script.write_text("create 't1', 'f'\nput 't1', 'r1', 'f:a', 'v1'\n")
    assert shell_main(["--data-dir", d, str(script)]) == 0
    script.write_text("scan 't1'\n")
    capsys.readouterr()
    assert shell_main(["--data-dir", d, str(script)]) == 0
    out = capsys.readouterr().out
    assert "column=f:a" in out and "value=v1" in out and "1 row(s)" in out


def test_shell_and_serve_refuse_another_version(tmp_path, capsys):
    script = tmp_path / "a.hb"
    script.write_text("list\n")
    d = tmp_path / "hbase"
    d.mkdir()
    (d / "hbase.version").write_text("hsim-data-dir 99\n")
    before = snapshot(d)
    assert shell_main(["--data-dir", str(d), str(script)]) == 1
    err = capsys.readouterr().err
    assert "FileSystemVersionException" in err and "Traceback" not in err
    r = subprocess.run([sys.executable, "-m", "hsim.cli", "serve", "--port", "0", "--data-dir",
                        str(d)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "FileSystemVersionException" in r.stderr and "Traceback" not in r.stderr
    assert snapshot(d) == before


def test_abort_then_crash_then_reopen(tmp_path):
    c = hsim.Cluster(2, config=hsim.Config(memstore_flush_size=16 * 1024), data_dir=tmp_path)
    c.admin.create_table("t", ["f"], split_keys=[b"m"])
    t = c.table("t")
    for i in range(200):
        t.put(b"%c%03d" % (b"am"[i % 2], i), {b"f:q": b"v%d" % i})
    c.abort_region_server(0)
    c.start_region_server()
    c.admin.balance()
    t.put(b"after", {b"f:q": b"x"})
    before = {cells[0].row: cells[0].value for cells in t.scan()}
    assert len(before) == 201
    crash(c)
    c2 = hsim.Cluster(2, data_dir=tmp_path)
    assert {cells[0].row: cells[0].value for cells in c2.table("t").scan()} == before
    # the dead servers' WALs were replayed and archived: only the live servers' remain
    assert {p.name for p in (tmp_path / "WALs").iterdir()} == {s.name for s in c2.region_servers}
    c2.close()
