"""The claims of the seed texts that numbers can show, numbered 1..93: the index a scenario's
`claim(covers=...)` and docs/seed-coverage.md refer to. Each has a short quote, the seed
documents that make it (hsim.scenario.seeds numbers; the first is the one cited) and the section
of the first. The table is data, in seed_claims.json beside this module (one claim a line): a
number never changes meaning once given."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from hsim.scenario.seeds import seed_document


@dataclass(frozen=True)
class SeedClaim:
    """A claim of the seed documents (docs/seed-coverage.md) that scenarios show or leave open."""

    number: int
    quote: str
    seeds: tuple  # seed document numbers, the cited one first
    section: str

    @property
    def source(self) -> str:
        """'title, section' of the cited seed, plus the other seeds' titles."""
        first, *rest = self.seeds
        text = f"{seed_document(first)[0]}, {self.section}"
        return text + "".join(f"; {seed_document(s)[0]}" for s in rest)


def _load() -> dict:
    rows = json.loads(Path(__file__).with_name("seed_claims.json").read_text(encoding="utf-8"))
    return {r["number"]: SeedClaim(r["number"], r["quote"], tuple(r["seeds"]), r["section"])
            for r in rows}


SEED_CLAIMS = _load()
