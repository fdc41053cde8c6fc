"""completebulkload in the shell, and `hsim bulkload DIR TABLE` on a data directory."""

from __future__ import annotations

import io

import hsim
from hsim import bulk
from hsim.bulkload_cli import main
from hsim.shell import Shell


def _shell() -> tuple[Shell, io.StringIO]:
    out = io.StringIO()
    return Shell(out=out, timer=lambda: 0.0, width=0), out


def test_shell_completebulkload_loads_and_refuses_in_one_line(tmp_path):
    sh, out = _shell()
    sh.run_script("create 't', 'f', SPLITS => ['m']")
    bulk.write_hfiles([], {b"a": {b"f:q": b"1"}, b"z": {b"f:q": b"2"}}, tmp_path / "load",
                      families=["f"], now=1)
    sh.run_script(f"completebulkload '{tmp_path / 'load'}', 't'")
    assert "Loaded 2 HFiles into t" in out.getvalue()  # the one file, split at 'm'
    sh.run_script("count 't'")
    assert "2 row(s)" in out.getvalue()
    (tmp_path / "bad" / "f").mkdir(parents=True)
    (tmp_path / "bad" / "f" / "x").write_bytes(b"not an hfile")
    start = out.tell()
    sh.run_script(f"completebulkload '{tmp_path / 'bad'}', 't'")
    text = out.getvalue()[start:]
    assert "ERROR:" in text and "Problem reading HFile" in text and "Traceback" not in text


def test_cli_bulkload_on_a_data_directory(tmp_path, capsys):
    data = tmp_path / "data"
    c = hsim.Cluster(data_dir=data)
    c.admin.create_table("t", {"f": {}}, split_keys=[b"m"])
    bulk.write_hfiles(c.table("t"), {b"a": {b"f:q": b"1"}, b"z": {b"f:q": b"2"}},
                      tmp_path / "load")
    c.close()
    assert main([str(tmp_path / "load"), "t", "--data-dir", str(data)]) == 0
    assert "Loaded 2 HFiles into t" in capsys.readouterr().out
    c = hsim.Cluster(data_dir=data)
    assert [r[0].value for r in c.table("t").scan()] == [b"1", b"2"]
    c.close()
    assert main([str(tmp_path / "nowhere"), "t", "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err
    assert main([str(tmp_path / "load"), "t", "--data-dir", str(tmp_path / "none")]) == 1
    assert "no data directory" in capsys.readouterr().err and not (tmp_path / "none").exists()
