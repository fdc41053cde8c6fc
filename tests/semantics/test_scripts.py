"""Runs every case of tests/semantics/scripts/*.txt (see hbase_script.py for the language) in
each of its placements and compares hsim's answers with the expected ones written beside them.
Every case cites the HBase test (or reference-guide section) it is ported from."""

from pathlib import Path

import pytest

from hbase_script import Runner, parse

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.txt"))


def _cases():
    for path in SCRIPTS:
        for case in parse(path):
            for placement in case.placements:
                yield pytest.param(case, placement, id=f"{path.stem}::{case.name}::{placement}")


@pytest.mark.parametrize("case,placement", list(_cases()))
def test_script(case, placement):
    mismatches = Runner(placement).run(case)
    if mismatches:
        report = []
        for step, expected, actual in mismatches:
            report.append(f"{case.path.name}:{step.line}: {step.command}\n"
                          f"  expected: {expected}\n  actual:   {actual}")
        pytest.fail("\n".join(report))


def test_every_script_has_cases():
    assert SCRIPTS, "no scripts found"
    for path in SCRIPTS:
        cases = parse(path)
        assert cases, path
        names = [c.name for c in cases]
        assert len(names) == len(set(names)), f"duplicate case names in {path}"
