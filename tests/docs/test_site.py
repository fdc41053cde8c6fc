"""The documentation site builds strictly: a broken link, a missing page or an API reference
that does not resolve fails the build, and so this test."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a whole mkdocs build
def test_site_builds_strictly(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this tree's hsim, as README's command
    # README's command as documented (no -q: it hid autorefs' warnings), and no wall-clock
    # timeout: the build runs every scenario at the small size, which a loaded machine slows.
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    site = tmp_path / "site"
    cluster = (site / "reference" / "hsim" / "index.html").read_text()
    assert "create_table" in (site / "reference" / "hsim.client.admin" / "index.html").read_text()
    assert "region_servers" in cluster  # Cluster's signature, with its types
    assert "--seed" in (site / "cli" / "run" / "index.html").read_text()
    assert (site / "labs" / "index.html").is_file()
    # an example page shows a small run's report: claims with verdicts, figures, plots
    page = (site / "examples" / "compaction_io" / "index.html").read_text()
    assert "The report of a small run" in page and "<strong>held</strong>" in page
    assert "store files (mean over the run)" in page  # the comparison table
    plots = re.findall(r'<img alt="[^"]*" src="([^"]+\.png)"', page)
    assert plots, "no plot on the example page"
    for src in plots:
        assert (site / "examples" / "compaction_io" / src).resolve().is_file(), src


def test_docs_name_no_files_outside_the_repo():
    """Readers have the repository only: no seed file names or paths, no design notes, no issue
    numbers from the team's tracker. Sources are cited by title and section (docs/sources.md)."""
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "labs").glob("*.md")]
    outside = re.compile(r"seeds/|\b\d{3}_[0-9a-f]{16}\.txt|DESIGN\.md|seed-claims|"
                         r"/work/|\bissue \d+", re.I)
    for page in pages:
        found = outside.search(page.read_text())
        assert found is None, f"{page.relative_to(ROOT)} mentions {found.group()!r}"
