"""The meta_split lab's transcript shows what its text claims (the transcript itself is
checked line for line by tests/shell/test_labs.py)."""

import re
from pathlib import Path

OUT = (Path(__file__).resolve().parents[2] / "labs" / "meta_split.out").read_text()


def _section(n: int) -> str:
    return OUT.split(f"# {n}. ")[1].split(f"# {n + 1}. ")[0]


def test_the_split_replaces_the_parent_row_with_two_daughters():
    before, after = _section(1), _section(3)
    parent = re.search(r" (users,,\d+\.[0-9a-f]{32}\.) column=info:regioninfo", before).group(1)
    assert parent not in after
    assert "STARTKEY => '', ENDKEY => 'bob'}" in after
    assert "STARTKEY => 'bob', ENDKEY => 'm'}" in after
    assert "STARTKEY => 'm', ENDKEY => ''}" in after and "\n3 row(s)" in after


def test_converter_move_disable_and_locate():
    assert "column=f:age, timestamp=2026-01-01T00:00:00.001, value=41" in _section(2)
    moved = _section(4)
    assert "users,bob," in moved and "value=rs3.hsim,16020," in moved
    assert _section(5).count("value=CLOSED") == 3
    locate = _section(6)
    assert "\n1 row(s)" in locate and "STARTKEY => 'bob', ENDKEY => 'm'" in locate
    assert "value=rs3.hsim:16020" in locate
    assert "ERROR" not in OUT
