"""Command-line flags the gateway servers share (`hsim thrift`, `hsim rest`): a bounded int,
refused by argparse with its usage line (exit 2), never a traceback."""

from __future__ import annotations

import argparse


def int_in(lo: int, hi: int | None = None):
    """An argparse type: an int in [lo, hi]; anything else exits 2 with the usage line."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"must be {bound}, not {value}")
        return value
    return parse
