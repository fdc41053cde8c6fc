"""The row driver (hsim.filters.apply): each ReturnCode honoured as a region scanner does,
the version cap after the filter, the order of the row-level calls, scan_rows and fresh."""

from hsim.filters import (
    Filter,
    PageFilter,
    ReturnCode,
    apply_to_row,
    fresh,
    next_row,
    parse_filter,
    scan_rows,
)
from hsim.filters.base import first_on_row_col

from ._rows import cell, show, table

RC = ReturnCode


class Scripted(Filter):
    """Answers filter_cell from a {"f:q@ts": code} script (default INCLUDE) and logs calls."""

    def __init__(self, script=None, hint=None, row_cells=None, has_row=False, drop_row=False):
        self.script = script or {}
        self.hint = hint
        self.row_cells = row_cells
        self.has_row = has_row
        self.drop_row = drop_row
        self.calls = []

    def reset(self):
        self.calls.append("reset")

    def filter_row_key(self, row):
        self.calls.append("row_key")
        return False

    def filter_cell(self, c):
        key = f"{c.family.decode()}:{c.qualifier.decode()}@{c.timestamp}"
        self.calls.append(key)
        return self.script.get(key, RC.INCLUDE)

    def get_next_cell_hint(self, c):
        return self.hint(c) if self.hint else None

    def filter_row_cells(self, cells):
        self.calls.append("row_cells")
        return cells if self.row_cells is None else self.row_cells(cells)

    def has_filter_row(self):
        return self.has_row

    def filter_row(self):
        self.calls.append("filter_row")
        return self.drop_row


ROW = table({
    "r": [("f1:a", 3, "a3"), ("f1:a", 2, "a2"), ("f1:a", 1, "a1"),
          ("f1:b", 1, "b1"), ("f1:c", 1, "c1"),
          ("f2:a", 2, "A2"), ("f2:a", 1, "A1"), ("f2:d", 1, "D1")],
})[0]


def run(filt, max_versions=None):
    return show(apply_to_row(filt, ROW[0], ROW[1], max_versions) or [])


def test_include_everything_without_cap():
    assert run(Scripted()) == ["f1:a@3=a3", "f1:a@2=a2", "f1:a@1=a1", "f1:b@1=b1",
                               "f1:c@1=c1", "f2:a@2=A2", "f2:a@1=A1", "f2:d@1=D1"]


def test_skip_drops_one_cell():
    assert "f1:a@2=a2" not in run(Scripted({"f1:a@2": RC.SKIP}))
    assert "f1:a@1=a1" in run(Scripted({"f1:a@2": RC.SKIP}))


def test_next_col_skips_older_versions_of_that_column_only():
    f = Scripted({"f1:a@3": RC.NEXT_COL})
    assert run(f)[:2] == ["f1:b@1=b1", "f1:c@1=c1"]
    assert "f1:a@2" not in f.calls  # the older versions were never offered


def test_include_and_next_col_keeps_the_newest_version_only():
    assert run(Scripted({"f1:a@3": RC.INCLUDE_AND_NEXT_COL}))[:2] == ["f1:a@3=a3", "f1:b@1=b1"]


def test_next_row_leaves_the_family_not_the_row():
    # HBASE-18368: NEXT_ROW seeks one store (family); the other families still come.
    f = Scripted({"f1:a@2": RC.NEXT_ROW})
    assert run(f) == ["f1:a@3=a3", "f2:a@2=A2", "f2:a@1=A1", "f2:d@1=D1"]
    assert "f1:b@1" not in f.calls


def test_include_and_seek_next_row_keeps_the_cell_then_leaves_the_family():
    assert run(Scripted({"f1:b@1": RC.INCLUDE_AND_SEEK_NEXT_ROW})) == [
        "f1:a@3=a3", "f1:a@2=a2", "f1:a@1=a1", "f1:b@1=b1", "f2:a@2=A2", "f2:a@1=A1",
        "f2:d@1=D1"]


def test_seek_hint_skips_to_the_hint_within_the_family():
    f = Scripted({"f1:a@3": RC.SEEK_NEXT_USING_HINT}, hint=lambda c: first_on_row_col(c, b"c"))
    assert run(f)[:1] == ["f1:c@1=c1"]
    assert "f1:b@1" not in f.calls


def test_seek_hint_past_the_family_ends_the_family_only():
    f = Scripted({"f1:a@3": RC.SEEK_NEXT_USING_HINT}, hint=lambda c: first_on_row_col(c, b"zz"))
    assert run(f) == ["f2:a@2=A2", "f2:a@1=A1", "f2:d@1=D1"]


def test_missing_or_backward_hint_steps_one_cell():
    f = Scripted({"f1:a@3": RC.SEEK_NEXT_USING_HINT})  # no hint
    assert run(f)[0] == "f1:a@2=a2"
    back = Scripted({"f1:b@1": RC.SEEK_NEXT_USING_HINT}, hint=lambda c: first_on_row_col(c, b"a"))
    assert run(back)[3] == "f1:c@1=c1"


def test_version_cap_applies_after_the_filter():
    # FromClientSideTest5.testReadWithFilter: the filter sees up to the family's VERSIONS; a
    # request for 1 version returns the newest version the filter *kept*.
    f = Scripted({"f1:a@3": RC.SKIP})
    assert run(f, max_versions=1) == ["f1:a@2=a2", "f1:b@1=b1", "f1:c@1=c1", "f2:a@2=A2",
                                      "f2:d@1=D1"]


def test_the_cell_past_the_cap_is_offered_then_the_column_skipped():
    f = Scripted()
    run(f, max_versions=1)
    assert "f1:a@2" in f.calls and "f1:a@1" not in f.calls


def test_transform_applies_to_included_cells():
    class Upper(Scripted):
        def transform_cell(self, c):
            return c._replace(value=c.value.upper())

    assert run(Upper({"f1:a@3": RC.INCLUDE_AND_NEXT_COL}), 1)[0] == "f1:a@3=A3"


def test_row_level_calls_in_hbase_order():
    f = Scripted(has_row=True)
    run(f)
    assert f.calls[:2] == ["reset", "row_key"]
    assert f.calls[-2:] == ["row_cells", "filter_row"]


def test_filter_row_cells_edits_the_row_and_filter_row_vetoes_it():
    assert run(Scripted(has_row=True, row_cells=lambda cells: cells[:1])) == ["f1:a@3=a3"]
    assert apply_to_row(Scripted(has_row=True, drop_row=True), *ROW) is None
    assert apply_to_row(Scripted(drop_row=True), *ROW) is None  # without has_filter_row too


def test_emptied_row_is_dropped_and_filter_row_not_called():
    everything_skipped = {k: RC.NEXT_ROW for k in ("f1:a@3", "f2:a@2")}
    f = Scripted(everything_skipped, has_row=True)
    assert apply_to_row(f, *ROW) is None
    assert "row_cells" in f.calls and "filter_row" not in f.calls
    g = Scripted(has_row=True, row_cells=lambda cells: [])
    assert apply_to_row(g, *ROW) is None and "filter_row" not in g.calls


def test_row_key_filter_drops_the_row_unread():
    class DropKey(Scripted):
        def filter_row_key(self, row):
            self.calls.append("row_key")
            return True

    f = DropKey()
    assert apply_to_row(f, *ROW) is None
    assert f.calls == ["reset", "row_key"]


def test_filter_all_remaining_mid_row_stops_the_row_and_the_scan():
    class StopAfter(Scripted):
        def filter_all_remaining(self):
            return len([c for c in self.calls if "@" in c]) >= 2

    kept, more = next_row(StopAfter(), *ROW)
    assert show(kept) == ["f1:a@3=a3", "f1:a@2=a2"] and more is False


def test_scan_rows_stops_pulling_rows_when_the_filter_is_done():
    rows = table({f"r{i}": [("f:a", 1, str(i))] for i in range(10)})
    pulled = []

    def source():
        for r in rows:
            pulled.append(r[0])
            yield r

    out = list(scan_rows(lambda: PageFilter(3), source()))
    assert [r for r, _ in out] == [b"r0", b"r1", b"r2"]
    assert len(pulled) == 3  # the region stops reading at once


def test_fresh_copies_have_independent_state():
    page = PageFilter(1)
    a, b = fresh(page), fresh(page)
    apply_to_row(a, b"r", [cell("r", "f:a", 1, "x")])
    assert a.filter_all_remaining() and not b.filter_all_remaining()
    assert not page.filter_all_remaining()


def test_fresh_copies_a_used_filter_list_that_remembers_cells():
    f = parse_filter("ColumnPrefixFilter('b') OR ColumnPrefixFilter('c')")
    apply_to_row(f, *ROW)  # the OR list now holds the last cells its sub-filters saw
    copy = fresh(f)
    assert show(apply_to_row(copy, *ROW, 1)) == ["f1:b@1=b1", "f1:c@1=c1"]


def test_fresh_leaves_scan_state_behind_as_hbase_ships_only_arguments():
    rows = table({"a": [("f:x", 1, "1")], "b": [("f:x", 1, "0")], "c": [("f:x", 1, "1")]})
    used = parse_filter("PageFilter(1) AND WHILE ValueFilter(=, 'binary:1')"
                        " AND PrefixFilter('a')")
    assert [r for r, _ in scan_rows(lambda: used, iter(rows))] == [b"a"]
    assert used.filter_all_remaining()
    again = fresh(used)
    assert not again.filter_all_remaining()
    assert [r for r, _ in scan_rows(lambda: again, iter(rows))] == [b"a"]
    page, whl, prefix = again.filters
    assert page.page_size == 1 and prefix.prefix == b"a"
