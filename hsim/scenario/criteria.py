"""Pre-registered criteria: what a claim compares, declared with the claim before any run.

    from hsim.scenario.criteria import metric, option
    hot = metric("timestamp_lead", "max_server_write_share")
    criterion = (hot >= 0.9) & (metric("timestamp_lead", "regions_written") == 1)

A criterion is one or more comparisons of recorded metrics (or run options) with each other or
with a threshold, joined by `&`; its text is the same before the run (in the report's
`criterion`) and after it (with the values, in the claim's detail). The verdict is the
criterion evaluated, so no claim can word its own result.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable

from hsim.scenario.errors import ScenarioError
from hsim.scenario.format import format_number

_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


class Expr:
    """A value a criterion reads: a metric, a run option, a constant, or arithmetic of them."""

    __hash__ = None

    def value(self, results) -> float:
        raise NotImplementedError

    def variants(self) -> set:
        return set()

    def leaves(self) -> list:
        """The metrics and options it reads."""
        return [self]

    def _arith(self, op, other, swap=False):
        a, b = (lift(other), self) if swap else (self, lift(other))
        return Arith(op, a, b)

    def __add__(self, o): return self._arith("+", o)
    def __sub__(self, o): return self._arith("-", o)
    def __mul__(self, o): return self._arith("*", o)
    def __truediv__(self, o): return self._arith("/", o)
    def __radd__(self, o): return self._arith("+", o, True)
    def __rsub__(self, o): return self._arith("-", o, True)
    def __rmul__(self, o): return self._arith("*", o, True)
    def __rtruediv__(self, o): return self._arith("/", o, True)

    def __lt__(self, o): return Compare("<", self, lift(o))
    def __le__(self, o): return Compare("<=", self, lift(o))
    def __gt__(self, o): return Compare(">", self, lift(o))
    def __ge__(self, o): return Compare(">=", self, lift(o))
    def __eq__(self, o): return Compare("==", self, lift(o))  # type: ignore[override]
    def __ne__(self, o): return Compare("!=", self, lift(o))  # type: ignore[override]


class Metric(Expr):
    """One variant's measured figure in a criterion."""
    def __init__(self, variant: str, key: str):
        self.variant, self.key = variant, key

    def value(self, results):
        return results[self.variant][self.key]

    def variants(self):
        return {self.variant}

    def __str__(self):
        return f"{self.variant}.{self.key}"


class Option(Expr):
    """A run option (ops, seed, servers) or, failing that, a scenario parameter."""

    def __init__(self, key: str):
        self.key = key

    def value(self, results):
        opts = results.options
        if self.key in opts:
            return opts[self.key]
        return opts.get("params", {})[self.key]

    def __str__(self):
        return self.key


class Const(Expr):
    """A number written in a criterion."""
    def __init__(self, v):
        self.v = v

    def value(self, results):
        return self.v

    def __str__(self):
        return _const(self.v)


class Arith(Expr):
    """Arithmetic of two expressions in a criterion; a division by zero gives inf or nan, so a
    verdict reads it rather than crash."""
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b

    def value(self, results):
        a, b = self.a.value(results), self.b.value(results)
        if self.op == "/" and not b:
            return math.inf if a else math.nan
        return _ARITH[self.op](a, b)

    def variants(self):
        return self.a.variants() | self.b.variants()

    def leaves(self):
        return self.a.leaves() + self.b.leaves()

    def __str__(self):
        return f"{_group(self.a)} {self.op} {_group(self.b)}"


class Criterion:
    """Comparisons that must all hold."""

    def __init__(self, parts):
        self.parts = tuple(parts)

    def __and__(self, other: "Criterion") -> "Criterion":
        return Criterion(self.parts + other.parts)

    def variants(self) -> set:
        out = set()
        for p in self.parts:
            out |= p.variants()
        return out

    def metrics(self) -> list[tuple[str, str]]:
        """(variant, key) of every metric it reads, in order."""
        return list(dict.fromkeys((x.variant, x.key) for p in self.parts
                                  for x in p.a.leaves() + p.b.leaves() if isinstance(x, Metric)))

    def options(self) -> set:
        """The run options and scenario parameters it reads."""
        return {x.key for p in self.parts for x in p.a.leaves() + p.b.leaves()
                if isinstance(x, Option)}

    def judge(self, results) -> tuple[bool, str]:
        """(held, detail): each comparison with the values the run gave."""
        held, said = True, []
        for p in self.parts:
            ok, text = p.judge(results)
            held = held and ok
            said.append(text)
        return held, "; ".join(said)

    def __str__(self):
        return " and ".join(str(p) for p in self.parts)

    def __bool__(self):
        raise ScenarioError("a criterion is judged by the runner, not with `if` or `and`; "
                            "join comparisons with &")


class Compare(Criterion):
    """A comparison of two expressions: the criterion a claim's verdict is."""
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b
        super().__init__((self,))

    def variants(self):
        return self.a.variants() | self.b.variants()

    def judge(self, results):
        a, b = self.a.value(results), self.b.value(results)
        if a is None or b is None or (isinstance(a, float) and math.isnan(a)) or \
                (isinstance(b, float) and math.isnan(b)):
            return False, f"{self} ({_num(a)} vs {_num(b)}: no value)"
        ok = bool(_COMPARE[self.op](a, b))
        return ok, f"{_said(self.a, a)} {self.op if ok else 'not ' + self.op} {_said(self.b, b)}"

    def __str__(self):
        return f"{self.a} {self.op} {self.b}"


def metric(variant: str, key: str) -> Metric:
    """A metric the variant recorded with ctx.record."""
    return Metric(variant, key)


class Each:
    """One metric of several variants, compared alike: a claim that every listed design shows
    the same thing. `each(("a", "b"), "lost") == 0` is `(metric("a", "lost") == 0) &
    (metric("b", "lost") == 0)`, in that order, and reads the same in the report."""

    __hash__ = None

    def __init__(self, variants: Iterable[str], key: str):
        self.metrics = [Metric(v, key) for v in variants]

    def _all(self, compare) -> Criterion:
        return Criterion(part for m in self.metrics for part in compare(m).parts)

    def __lt__(self, o): return self._all(lambda m: m < o)
    def __le__(self, o): return self._all(lambda m: m <= o)
    def __gt__(self, o): return self._all(lambda m: m > o)
    def __ge__(self, o): return self._all(lambda m: m >= o)
    def __eq__(self, o): return self._all(lambda m: m == o)  # type: ignore[override]
    def __ne__(self, o): return self._all(lambda m: m != o)  # type: ignore[override]


def each(variants: Iterable[str], key: str) -> Each:
    """The same metric of each of `variants`, for a comparison that must hold for all."""
    return Each(variants, key)


def option(key: str) -> Option:
    """A run option (servers, ops, seed) or a scenario parameter."""
    return Option(key)


def lift(x) -> Expr:
    return x if isinstance(x, Expr) else Const(x)


def _group(e: Expr) -> str:
    return f"({e})" if isinstance(e, Arith) else str(e)


def _said(e: Expr, v) -> str:
    return _const(v) if isinstance(e, Const) else f"{e} = {_num(v)}"


def _const(v) -> str:
    """A threshold as declared: 0.5, 1.5, 4, 1,000."""
    if isinstance(v, float) and not math.isinf(v) and v == int(v):
        return format_number(int(v))
    return f"{v:g}" if isinstance(v, float) else _num(v)


def _num(v) -> str:
    """A measured value, in the reports' number format."""
    return format_number(v) if isinstance(v, (int, float)) else str(v)
