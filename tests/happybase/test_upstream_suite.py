"""happybase's own test suite (tests/test_api.py of the 1.3.0 sdist, unchanged), in-process and
over `hsim serve`, in every run of README's test command: the sdist is downloaded with pip from
PyPI (which CI reaches) at test time, never kept in the repository; without a reachable
registry the test is skipped with pip's reason."""

import pytest


@pytest.mark.slow  # a whole suite in a subprocess, over `hsim serve` too
@pytest.mark.parametrize("mode", ["inprocess", "serve"])
def test_happybase_test_api_passes_whole(mode, upstream_suite):
    assert f"{mode}: 25 passed" in upstream_suite("happybase_suite.py", mode)
