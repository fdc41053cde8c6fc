"""A scenario in parts: several small tests side by side, each variant naming the one it runs
(`scenario.variant(..., test="cache")`). One run function picks the variant's test, so each
test is a plain function of (ctx, variant, params) that reads as its own idea.
"""

from __future__ import annotations

from collections.abc import Callable

from hsim.scenario.errors import ScenarioError


def by_test(tests: dict) -> Callable:
    """The run function of a scenario in parts: `scenario.run(by_test({"cache": _cache,
    ...}))`, below the test functions (test name -> function of (ctx, variant, params))."""

    def run(ctx, variant):
        try:
            test = tests[variant["test"]]
        except KeyError:
            raise ScenarioError(f"variant {variant.name!r} names no test of "
                                f"{', '.join(sorted(tests))} (test=...)") from None
        return test(ctx, variant, ctx.params)

    return run
