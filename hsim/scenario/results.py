"""What a scenario run produced: per-variant results, claim verdicts, and the report as JSON.

report.json is the same bytes for the same seed and options; the only lines that differ
between runs are the ones holding "elapsed_s" (wall-clock time).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from hsim.bytes import to_string_binary
from hsim.scenario.errors import ScenarioError

HELD, NOT_HELD, NOT_RUN = "held", "did not hold", "not run"
NOT_SHOWN = "not shown by hsim"  # the claim needs a mechanism hsim lacks (its `gap`)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")  # object reprs vary between runs


@dataclass
class VariantResult:
    """One variant's run: its settings, its measured figures and series, as the reports show them.
    """

    name: str
    description: str
    config: dict
    params: dict
    metrics: dict
    labels: dict
    units: dict
    series: dict = field(default_factory=dict)
    timeline: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    cluster: dict | None = None
    elapsed_s: float = 0.0
    priced: dict = field(default_factory=dict)  # key -> the counts a cost metric priced
    params_read: list = field(default_factory=list)  # the scenario parameters it read


@dataclass
class ClaimResult:
    """One claim's verdict with its source, criterion and the values that decided it, as the
    reports show them."""

    title: str
    document: str
    link: str
    source_title: str
    section: str
    quote: str
    criterion: str  # pre-registered: what decides the verdict
    held: bool | None  # None: a variant it needs was not run
    detail: str  # the criterion with the run's values
    sensitivity: list = field(default_factory=list)  # {vary, value, verdict}
    robust: bool = False  # held at the run and at every variation
    robustness: str = "no sensitivity sweep"  # the one-line summary
    proposition: str = ""  # the seed's words the criterion tests
    extras: list = field(default_factory=list)  # {condition, held, detail}: never the verdict
    gap: str | None = None  # the mechanism hsim lacks: the verdict is "not shown by hsim"
    kind: str = "measured"  # or "arithmetic"
    measures: dict = field(default_factory=dict)  # {"counted": [...], "priced": [...]}
    reads: list = field(default_factory=list)  # scenario parameters its variants read

    def lines(self) -> list[str]:
        """What the reports print beside the criterion: the proposition judged (when it is not
        the whole quote), the kind when arithmetic, the gap, and each extra with its numbers."""
        out = []
        if self.proposition and self.proposition != self.quote:
            out.append(f"proposition judged: \"{self.proposition}\"")
        if self.kind == "arithmetic":
            out.append("kind: arithmetic (the cost model's prices or the key design's "
                       "arithmetic, no count of the engine's)")
        if self.gap:
            out.append(f"not shown by hsim: it needs {self.gap}")
        out += [f"extra (reported, not in the verdict): {e['detail']}" for e in self.extras]
        return out

    @property
    def verdict(self) -> str:
        if self.gap and self.held is not None:
            return NOT_SHOWN
        return NOT_RUN if self.held is None else (HELD if self.held else NOT_HELD)


class Metrics(dict):
    """One variant's recorded metrics; a missing one is a clear error, not a KeyError."""

    variant = ""

    def __missing__(self, key):
        raise ScenarioError(f"variant {self.variant!r} recorded no metric {key!r} "
                            f"(it has: {', '.join(self) or 'none'})")


class Results(dict):
    """variant name -> Metrics: what claim functions and tests read; `options` are the run's
    options (ops, seed, scale, servers, params)."""

    options: dict = {}

    def __missing__(self, key):
        raise ScenarioError(f"no variant {key!r} in this run (ran: {', '.join(self)})")


@dataclass
class Report:
    """A scenario run's results: every variant's metrics, the claims' verdicts, the plots;
    `to_json()` is report.json."""

    scenario: str
    description: str
    ops_meaning: str
    options: dict
    variants: list
    claims: list
    elapsed_s: float = 0.0
    plots: list = field(default_factory=list)
    out: str | None = None

    @property
    def results(self) -> Results:
        """What claims read: `results["variant"]["metric"]`, plus the run's options."""
        out = Results()
        out.options = self.options
        for v in self.variants:
            m = Metrics(v.metrics)
            m.variant = v.name
            out[v.name] = m
        return out

    def variant(self, name: str) -> VariantResult:
        """One variant's results by name."""
        for v in self.variants:
            if v.name == name:
                return v
        raise ScenarioError(f"no variant {name!r} in this run")

    def to_dict(self) -> dict:
        """JSON-ready (see `jsonable`): what report.json holds."""
        return jsonable({
            "scenario": self.scenario,
            "description": self.description,
            "options": self.options,
            "ops_meaning": self.ops_meaning,
            "claims": [{
                "title": c.title,
                "proposition": c.proposition,
                "criterion": c.criterion,
                "verdict": c.verdict,
                "detail": c.detail,
                "extras": c.extras,
                "gap": c.gap,
                "kind": c.kind,
                "measures": c.measures,
                "reads": c.reads,
                "robust": c.robust,
                "robustness": c.robustness,
                "sensitivity": c.sensitivity,
                "seed": {"title": c.source_title, "section": c.section, "link": c.link,
                         "quote": c.quote},
            } for c in self.claims],
            "variants": [{
                "name": v.name,
                "description": v.description,
                "config": v.config,
                "params": v.params,
                "metrics": v.metrics,
                "units": v.units,
                "notes": v.notes,
                "series": v.series,
                "timeline": v.timeline,
                "cluster": v.cluster,
                "params_read": v.params_read,
                "elapsed_s": round(v.elapsed_s, 3),
            } for v in self.variants],
            "plots": self.plots,
            "elapsed_s": round(self.elapsed_s, 3),
        })

    def to_json(self) -> str:
        """report.json's text."""
        return json.dumps(self.to_dict(), indent=2) + "\n"


def jsonable(x):
    """Plain JSON values: bytes as HBase's toStringBinary, floats to 12 significant digits,
    inf and nan as null, tuples as lists."""
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return None
        return float(f"{x:.12g}")
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, (bytes, bytearray)):
        return to_string_binary(bytes(x))
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if callable(x) and hasattr(x, "__qualname__"):
        return x.__qualname__  # a function's name, never its address
    return _ADDRESS.sub("", str(x))
