"""How a recorded value prints in the comparison table, by its unit."""

from __future__ import annotations

import math


def human_bytes(n: float) -> str:
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"  # pragma: no cover


def format_value(value, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(v, unit) for v in value)
    if not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    if unit == "%":
        return f"{value * 100:.1f}%"
    if unit == "B":
        return human_bytes(value)
    if isinstance(value, int):
        text = f"{value:,}"
    elif abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.3g}" if value else "0"
    if unit == "x":
        return f"{text}x"
    return f"{text} {unit}" if unit else text
