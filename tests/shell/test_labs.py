"""Each lab runs as `hsim shell labs/NAME.hb` and prints exactly its checked-in transcript
(labs/NAME.out), `Took` lines normalised. HSIM_REGEN_LABS=1 rewrites the transcripts."""

import os
import re
from pathlib import Path

import pytest

from hsim.shell.main import main

LABS = Path(__file__).resolve().parents[2] / "labs"
TOOK = re.compile(r"^Took \d+\.\d{4} seconds$", re.M)


def normalise(text: str) -> str:
    return TOOK.sub("Took 0.0000 seconds", text)


@pytest.mark.parametrize("lab", sorted(p.stem for p in LABS.glob("*.hb")))
def test_lab_transcript(lab, capsys):
    assert main([str(LABS / f"{lab}.hb")]) == 0
    out = normalise(capsys.readouterr().out)
    expected = LABS / f"{lab}.out"
    if os.environ.get("HSIM_REGEN_LABS"):
        expected.write_text(out)
    assert out == expected.read_text()
    assert "ERROR:" not in out and "SyntaxError" not in out and "NameError" not in out


def test_there_are_labs_with_texts():
    labs = sorted(p.stem for p in LABS.glob("*.hb"))
    assert {"salting", "hex_presplit", "versions_kdc", "bloom_explain",
            "flush_compaction"} <= set(labs)
    for lab in labs:
        assert (LABS / f"{lab}.md").read_text().startswith("# Lab: ")


def test_the_labs_show_what_their_texts_claim(capsys):
    """A few of the numbers the lab texts quote, read off the transcripts."""
    hexlab = (LABS / "hex_presplit.out").read_text()
    table = hexlab.split("regions 'bytes_split'\n")[1].split("hbase:")[0]
    writes = [int(line.split()[-1]) for line in table.splitlines()[2:12]]
    assert writes == [0, 11, 9, 0, 0, 0, 0, 0, 4, 0]  # the book's "lumpy" regions
    table = hexlab.split("regions 'hex_split'\n")[1].split("hbase:")[0]
    writes = [int(line.split()[-1]) for line in table.splitlines()[2:12]]
    assert sum(writes) == 24 and sum(1 for w in writes if w) == 9
    salting = (LABS / "salting.out").read_text()
    events = salting.split("regions 'events'\n")[1].split("hbase:")[0].splitlines()[2:9]
    assert [int(line.split()[-1]) for line in events] == [0, 0, 0, 0, 0, 4, 0]
    salted = salting.split("regions 'salted'\n")[1].split("hbase:")[0].splitlines()[2:9]
    servers = {line.split()[4] for line in salted if int(line.split()[-1])}
    assert len(servers) == 4


def test_the_durability_lab_loses_only_what_it_says():
    out = (LABS / "durability.out").read_text()
    assert "lost 2 SKIP_WAL and 3 unsynced ASYNC_WAL cell(s)" in out
    counts = [int(x) for x in re.findall(r"^=> (\d+)$", out, re.M)]
    assert counts == [2, 1, 0]
