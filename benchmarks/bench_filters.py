"""Filter benchmarks: the region-side row driver over many rows with a
SingleColumnValueFilter and with a FilterList, in cells examined per second.

    pytest benchmarks/bench_filters.py --benchmark-only

Each round filters ROWS rows of 2 families x 5 qualifiers x 2 versions (20 cells a row) as a
full-table scan hands them to the filter (after version and delete processing), with the
request's max_versions = 1. "cells/s" in extra_info is cells offered to the filter per
second, whether the filter keeps them or not.
"""

import pytest

from hsim.cell import Cell
from hsim.filters import fresh, parse_filter, regex_budget, scan_rows

ROWS = 2000


def _rows():
    rows = []
    for r in range(ROWS):
        row = b"row%06d" % r
        cells = []
        for family in (b"d", b"m"):
            for q in range(5):
                for ts in (2, 1):
                    value = b"active" if (r + q + ts) % 3 == 0 else b"value-%d" % q
                    cells.append(Cell.make(row, family, b"q%d" % q, ts, 4, value))
        rows.append((row, sorted(cells)))
    return rows


ROW_DATA = _rows()
CELLS = sum(len(c) for _, c in ROW_DATA)

FILTERS = {
    "scvf": "SingleColumnValueFilter('m', 'q2', =, 'binary:active', true, true)",
    "filterlist": "PrefixFilter('row0') AND (ValueFilter(=, 'substring:ACTIVE') "
                  "OR QualifierFilter(>=, 'binary:q3'))",
    # every cell's value through RegexStringComparator, within a request's regex budget
    "regex": "ValueFilter(=, 'regexstring:^value-[0-9]+$')",
}


@pytest.mark.parametrize("name", list(FILTERS))
def test_scan_with_filter(benchmark, name):
    filt = parse_filter(FILTERS[name])

    def run():
        with regex_budget.scope(10 ** 9):  # a budget that never runs out, on the timed path
            return sum(1 for _ in scan_rows(lambda: fresh(filt), iter(ROW_DATA), 1))

    kept = benchmark(run)
    assert kept > 0
    benchmark.extra_info["cells"] = CELLS
    benchmark.extra_info["rows_kept"] = kept
    benchmark.extra_info["cells/s"] = round(CELLS / benchmark.stats.stats.mean)


# RegexStringComparator: Python's `re` where it reads the Java pattern the same way, `regex`
# (VERSION1) where the pattern uses set operations. BENCHMARKS.md, "Java regular expressions".
REGEXES = {"re": r"^row-[0-9]+5$", "regex_sets": r"^row-[0-9&&[^7]]+5$"}


@pytest.mark.parametrize("engine", list(REGEXES))
def test_regex_comparator(benchmark, engine):
    from hsim.filters import RegexStringComparator

    cmp = RegexStringComparator(REGEXES[engine])
    data = [b"row-%06d" % i for i in range(1000)]
    found = benchmark(lambda: sum(cmp.compare_to(d) == 0 for d in data))
    assert found > 0
    benchmark.extra_info["ns/compare"] = round(benchmark.stats.stats.mean / len(data) * 1e9)
