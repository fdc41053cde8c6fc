""""Did you mean": the nearest known names to a misspelt one (difflib), for the CLI's commands
and options, scenario names and the shell's commands.

`SuggestingParser` is argparse with a hint on unrecognized options (Python 3.11's argparse has
none); a subclass's `error()` still decides how the message is shown.
"""

from __future__ import annotations

import argparse
import difflib
from typing import Iterable


def close_matches(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The known names nearest to `word`, best first (empty when none is close)."""
    return difflib.get_close_matches(word, list(choices), n=n, cutoff=0.6)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """" (did you mean 'x'?)" or " (did you mean 'x' or 'y'?)", or "" when nothing is close."""
    matches = close_matches(word, choices)
    if not matches:
        return ""
    return " (did you mean " + " or ".join(repr(m) for m in matches) + "?)"


class SuggestingParser(argparse.ArgumentParser):
    """argparse.ArgumentParser whose "unrecognized arguments" names the nearest options."""

    def parse_args(self, args=None, namespace=None):
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            options = [o for a in self._actions for o in a.option_strings]
            hints = "".join(did_you_mean(x.split("=", 1)[0], options)
                            for x in extras if x.startswith("-"))
            self.error(f"unrecognized arguments: {' '.join(extras)}{hints}")
        return ns
