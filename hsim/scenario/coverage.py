"""docs/seed-coverage.md: where hsim shows each of the seed claims (hsim.scenario.seed_claims).

Generated, never hand-edited: the scenarios' claims name the seed claims they show
(`claim(covers=...)`), their verdicts come from the generated blocks of docs/scenarios.md,
labs are declared below, and a claim nothing shows carries a plain reason. `hsim docs
--coverage --check` fails when the page is stale, when a `covers=` number is not a seed claim,
or when a claim is shown nowhere and has no reason."""

from __future__ import annotations

import re
from pathlib import Path

from hsim.scenario.errors import ScenarioError
from hsim.scenario.seed_claims import SEED_CLAIMS

PAGE = "docs/seed-coverage.md"

# lab (labs/NAME.hb and labs/NAME.md) -> the seed claims its steps show
LABS = {
    "salting": (6, 7),
    "hex_presplit": (33, 34, 35),
    "versions_kdc": (38, 45, 46, 48),
    "flush_compaction": (38, 87),
    "ttl_clock": (40, 41, 42, 44),
    "bloom_explain": (69, 80),
}

# claims no scenario or lab shows, and why, plainly
REASONS = {
    28: "a display property, not a number: `hsim shell` prints an incremented counter as "
        "`\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01` exactly as HBase's shell does (docs/shell.md)",
    91: "not shown yet: no scenario models a follower stream; order_object weighs normalized "
        "against denormalized records for orders",
}

# claims a scenario that is being written (or whose claims do not yet say `covers=`) will show
PLANNED = {
    5: "compaction_io", 80: "compaction_io", 87: "compaction_io",
    65: "ycsb", 70: "ycsb", 89: "ycsb",
    26: "key_encoding", 27: "key_encoding", 56: "key_encoding", 78: "key_encoding",
    81: "key_encoding", 90: "key_encoding",
    50: "secondary_index", 51: "secondary_index", 93: "secondary_index",
    58: "order_object", 59: "order_object", 64: "order_object",
    57: "time_series_columns", 77: "time_series_columns", 82: "time_series_columns",
    61: "time_series_columns",
}

_BLOCK = re.compile(r"<!-- hsim:scenario (?P<name>[\w.-]+) -->\n(?P<body>.*?)"
                    r"<!-- /hsim:scenario -->", re.S)


def scenario_covers() -> dict[int, list[tuple[str, str]]]:
    """seed claim -> [(scenario, claim title)] from every scenario's `covers=`; an unknown
    number is a ScenarioError."""
    from hsim.scenario.loader import load_scenario, scenario_files

    shown: dict[int, list] = {}
    for path in scenario_files():
        scenario = load_scenario(path)
        for claim in scenario.claims:
            for n in claim.covers:
                if n not in SEED_CLAIMS:
                    raise ScenarioError(f"scenario {scenario.name!r}, claim {claim.title!r}: "
                                        f"covers={n}, but the seed claims are numbered 1.."
                                        f"{len(SEED_CLAIMS)}")
                shown.setdefault(n, []).append((scenario.name, claim.title))
    return shown


def verdicts(scenarios_md: str) -> dict[tuple[str, str], str]:
    """(scenario, claim title) -> verdict, read from the generated blocks of docs/scenarios.md."""
    out = {}
    for m in _BLOCK.finditer(scenarios_md):
        for line in m["body"].splitlines():
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if len(cells) == 3 and cells[0] not in ("claim", "---"):
                out[(m["name"], cells[0].replace("\\|", "|"))] = cells[1]
    return out


def render(root: Path) -> str:
    """The page, from the seed claims, the scenarios' covers, the labs and the reasons."""
    shown = scenario_covers()
    judged = verdicts((root / "docs" / "scenarios.md").read_text())
    labs: dict[int, list] = {}
    for lab, numbers in LABS.items():
        if not (root / "labs" / f"{lab}.hb").is_file():
            raise ScenarioError(f"seed coverage names lab {lab!r}, which labs/ does not hold")
        for n in numbers:
            labs.setdefault(n, []).append(lab)
    rows, counts = [], {"scenario": 0, "lab": 0, "planned": 0, "reason": 0}
    for n, c in SEED_CLAIMS.items():
        where = [f"`{s}`: {t} (**{judged.get((s, t), 'verdict not generated')}**)"
                 for s, t in shown.get(n, [])]
        where += [f"lab `{lab}`" for lab in labs.get(n, [])]
        if shown.get(n):
            counts["scenario"] += 1
        elif labs.get(n):
            counts["lab"] += 1
        elif n in PLANNED:
            counts["planned"] += 1
            where.append(f"not yet: the `{PLANNED[n]}` scenario is to show it")
        elif n in REASONS:
            counts["reason"] += 1
            where.append(f"not shown: {REASONS[n]}")
        else:
            raise ScenarioError(f"seed claim {n} is shown by no scenario or lab and has no "
                                "reason (hsim/scenario/coverage.py REASONS)")
        rows.append(f"| {n} | {_cell(c.quote)} | {_cell(c.source)} | "
                    f"{'<br>'.join(_cell(w) for w in where)} |")
    head = [
        "# Seed claims: where hsim shows each", "",
        "<!-- generated by `hsim docs --coverage --write`; do not edit by hand -->", "",
        f"The seed texts make {len(SEED_CLAIMS)} claims that numbers can show. Each row gives a "
        "claim, the seed that makes it (title and section, then any other seed saying the same) "
        "and where hsim shows it: a scenario's claim (`hsim run NAME`, its verdict at the "
        "default size as [docs/scenarios.md](scenarios.md) records it), a teaching lab "
        "(`hsim shell labs/NAME.hb`), or why nothing shows it.", "",
        f"Shown by a scenario: {counts['scenario']}; by a lab only: {counts['lab']}; "
        f"scenario still to come: {counts['planned']}; not shown, with the reason: "
        f"{counts['reason']}.", "",
        "| # | claim | seed | where hsim shows it |", "| --- | --- | --- | --- |"]
    return "\n".join(head + rows) + "\n"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def sync(root: Path, write: bool) -> bool:
    """Regenerate the page; True when it was stale (and, with write, rewritten)."""
    path = root / PAGE
    new = render(root)
    old = path.read_text() if path.is_file() else ""
    if write and new != old:
        path.write_text(new)
    return new != old
