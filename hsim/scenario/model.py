"""What a scenario file declares: a `Scenario` with its variants, the function that runs one
variant, the seed claims it checks and any extra charts. The runner does the rest.

    scenario = Scenario("mine", "what it compares", sizes={"small": 1000, "default": 20000})
    scenario.variant("a", "the first design", config={"compaction_ratio": 1.2}, keys="ts")

    @scenario.run
    def run(ctx, variant): ...           # ctx: hsim.scenario.context.Run

    scenario.claim("design a spreads writes", seed="000", section="...", quote="...",
                   criterion=metric("a", "hotspot") < 1.5)   # metric: what ctx.record stored
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable

from hsim.config import Config
from hsim.scenario.criteria import Criterion
from hsim.scenario.errors import ScenarioError
from hsim.scenario.seeds import seed_document

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what the annotations name; not imported at run time
    from collections.abc import Iterable
    from typing import Any

_CONFIG_FIELDS = {f.name for f in dataclasses.fields(Config)}


@dataclass(frozen=True)
class Variant:
    """One design under comparison: Config overrides for its cluster and free parameters."""

    name: str
    description: str = ""
    config: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)

    def __getitem__(self, key):
        try:
            return self.params[key]
        except KeyError:
            raise ScenarioError(f"variant {self.name!r} has no parameter {key!r}") from None


@dataclass(frozen=True)
class SeedQuote:
    """The passage of a seed document a claim tests, quoted and located."""

    document: str  # "000" .. "004"
    section: str
    quote: str

    @property
    def title(self) -> str:
        return seed_document(self.document)[0]

    @property
    def link(self) -> str:
        return seed_document(self.document)[1]


KINDS = ("measured", "arithmetic")


@dataclass(frozen=True)
class Claim:
    """A scenario's claim, declared before its run: the seed passage it tests and the criterion
    that decides its verdict."""

    title: str
    seed: SeedQuote
    criterion: Criterion  # declared before the run; the verdict is it, evaluated
    needs: tuple  # variants it reads; the claim is skipped when one was not run
    covers: tuple = ()  # numbers of the seed claims (docs/seed-coverage.md) it shows
    proposition: str = ""  # the seed's own proposition the criterion tests, quoted
    extras: Criterion | None = None  # further conditions, reported, never in the verdict
    gap: str | None = None  # the mechanism hsim lacks to judge it: "not shown by hsim"
    kind: str = "measured"  # or "arithmetic": priced, or arithmetic of the key design


@dataclass(frozen=True)
class Chart:
    """An extra plot: "bar" draws recorded metrics per variant, "line" draws ctx.point series."""

    kind: str
    name: str
    title: str
    metrics: tuple = ()
    series: str = ""
    xlabel: str = ""
    ylabel: str = ""
    unit: str = ""


class Scenario:
    """A named comparison. `sizes` maps size names to --ops values ("small" for tests and a
    "default" that runs in under a minute); `params` are the scenario's own --param options
    with their defaults; `sweep` maps the key ones to the values a sensitivity sweep re-runs
    the scenario with; `derive(params, ops)` fills in parameters whose default depends on the
    run's size, so reports show the values used, never a placeholder."""

    def __init__(self, name: str, description: str, *, sizes: dict, servers: int = 3,
                 scale: float = 1 / 256, seed: int = 1, ms_per_op: int = 1,
                 config: dict | None = None, params: dict | None = None,
                 ops_meaning: str = "operations per variant", sweep: dict | None = None,
                 derive: Callable | None = None):
        if not name or not description:
            raise ScenarioError("a scenario needs a name and a one-line description")
        if "default" not in sizes or "small" not in sizes:
            raise ScenarioError(f"scenario {name!r}: sizes must name 'small' and 'default'")
        self.name = name
        self.description = description
        self.sizes = dict(sizes)
        self.servers = servers
        self.scale = scale
        self.seed = seed
        self.ms_per_op = ms_per_op
        self.config = _check_config(name, config or {})
        self.params = dict(params or {})
        self.ops_meaning = ops_meaning
        self.sweep = dict(sweep or {})  # key parameter -> values the sensitivity sweep tries
        self.derive = derive  # (params, ops) -> the parameters whose default depends on --ops
        unknown = sorted(set(self.sweep) - set(self.params))
        if unknown:
            raise ScenarioError(f"scenario {name!r}: sweep names unknown parameter(s) "
                                f"{', '.join(unknown)}")
        self.variants: list[Variant] = []
        self.claims: list[Claim] = []
        self.charts: list[Chart] = []
        self.run_fn: Callable | None = None
        self.plot_label: Callable | None = None  # variant result -> its name on the plots
        self.path: str | None = None  # the file it was loaded from

    def __repr__(self) -> str:
        return f"Scenario({self.name!r}, {len(self.variants)} variants)"

    def variant(self, name: str, description: str = "", *, config: dict | None = None,
                **params: Any) -> Variant:
        """Declare a variant: its Config overrides and free parameters."""
        if any(v.name == name for v in self.variants):
            raise ScenarioError(f"scenario {self.name!r}: two variants named {name!r}")
        v = Variant(name, description, _check_config(self.name, config or {}), params)
        self.variants.append(v)
        return v

    def run(self, fn: Callable) -> Callable:
        """Decorator: fn(ctx, variant) runs one variant on ctx's fresh cluster."""
        self.run_fn = fn
        return fn

    def claim(self, title: str, *, seed: str, section: str, quote: str,
              criterion: Criterion, covers: tuple = (), proposition: str | None = None,
              extras: Criterion | None = None, gap: str | None = None,
              kind: str = "measured") -> Claim:
        """A seed claim and its pre-registered criterion (hsim.scenario.criteria): the metrics,
        comparisons and thresholds that decide it, fixed before any run. `proposition`: the
        words of the quote the criterion tests (default: the whole quote); `extras`: further
        conditions the report shows but the verdict ignores (the seed does not state them);
        `gap`: the mechanism hsim does not model that the claim needs, which makes its verdict
        "not shown by hsim"; `kind`: "measured" (it rests on counts the engine made: files,
        blocks, bytes, requests, rows) or "arithmetic" (only priced by the cost model, or
        arithmetic of the key design). `covers` numbers the claims of the seed-coverage
        table this one shows."""
        src = SeedQuote(seed, section, quote)
        src.title  # noqa: B018 -- an unknown document number fails at declaration
        for what, c in (("criterion", criterion), ("extras", extras)):
            if not isinstance(c, Criterion) and not (what == "extras" and c is None):
                raise ScenarioError(f"claim {title!r}: {what} must be built with "
                                    "hsim.scenario.criteria (metric(...) >= ...)")
        proposition = quote if proposition is None else proposition
        if not all(part.strip() in quote for part in proposition.split("...")):
            raise ScenarioError(f"claim {title!r}: the proposition must be words of its quote")
        if kind not in KINDS:
            raise ScenarioError(f"claim {title!r}: kind must be one of {', '.join(KINDS)}")
        needs = criterion.variants() | (extras.variants() if extras is not None else set())
        c = Claim(title, src, criterion, tuple(sorted(needs)),
                  tuple(int(n) for n in covers), proposition, extras, gap or None, kind)
        self.claims.append(c)
        return c

    def bar_chart(self, name: str, title: str, metrics: Iterable[str], unit: str = "") -> None:
        """A grouped bar chart of recorded metrics, one group per variant, one panel per unit
        (each metric's recorded unit): metrics of different units never share an axis.
        `unit` names the unit of the metrics recorded without one (e.g. "blocks"), so they
        share a panel; without it each such metric gets its own, labelled by its label."""
        self.charts.append(Chart("bar", name, title, metrics=tuple(metrics), unit=unit))

    def line_chart(self, name: str, title: str, series: str, xlabel: str = "",
                   ylabel: str = "", unit: str = "") -> None:
        """One line per variant of the points ctx.point(series, x, y) recorded; `unit` "%"
        when the y values are fractions, drawn as percent."""
        self.charts.append(Chart("line", name, title, series=series, xlabel=xlabel,
                                 ylabel=ylabel, unit=unit))

    def plot_labels(self, fn: Callable) -> Callable:
        """Decorator: fn(variant result) -> the name the plots show for a variant, where its
        name says what it stands for (region_1g) and the plots should say what it is."""
        self.plot_label = fn
        return fn

    def validate(self) -> None:
        """Check the scenario is complete (a run function, variants) before it runs."""
        if self.run_fn is None:
            raise ScenarioError(f"scenario {self.name!r} has no @scenario.run function")
        if not self.variants:
            raise ScenarioError(f"scenario {self.name!r} declares no variants")


def _check_config(scenario: str, config: dict) -> dict:
    unknown = sorted(set(config) - _CONFIG_FIELDS)
    if unknown:
        raise ScenarioError(f"scenario {scenario!r}: unknown Config field(s) {', '.join(unknown)}")
    return dict(config)
