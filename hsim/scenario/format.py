"""The one number format of every report: the terminal table, report.md, the docs' generated
blocks, the plots' axes and any HTML view call these functions, so a figure reads the same
everywhere. An HTML writer formats a metric with `format_value(value, unit)` (the unit the
scenario recorded it with), the header's options with `format_scale` and `format_params`,
and escapes the text it gets back.

The rules: integers with thousands separators (1,234,567, never 1234567 or 1.2M); other
numbers to three significant figures with their trailing zeros (0.765 ms, 9.00 ms, 11.1 ms),
and from 100 up as whole numbers with separators (1,161 ops/s); a fraction recorded with unit
"%" as a percentage (40.5%); bytes in binary units (64.0 KiB, 1.5 MiB); a ratio (unit "x")
as 2.13x. A value that is missing prints "-", never a placeholder.

    format_value(1234567)          -> '1,234,567'
    format_value(8.9999, "ms")     -> '9.00 ms'
    format_value(0.405, "%")       -> '40.5%'
    format_value(1572864, "B")     -> '1.50 MiB'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

MISSING = "-"


def format_number(value: float | int) -> str:
    """A number without a unit: see the module's rules."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if math.isnan(value):
        return MISSING
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:#.3g}".rstrip(".")


def human_bytes(n: float) -> str:
    """A byte count in binary units: 512 B, 64.0 KiB, 1.50 MiB, 2.00 GiB."""
    n = float(n)
    for unit in ("B", "KiB", "MiB"):
        if abs(n) < 1024:
            return f"{n:,.0f} B" if unit == "B" else f"{format_number(n)} {unit}"
        n /= 1024
    return f"{format_number(n)} GiB"


def format_value(value: Any, unit: str = "") -> str:
    """A recorded value with its unit, as every report prints it ("-" when there is none)."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return format_number(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(v, unit) for v in value)
    if not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return format_number(value)
    if unit == "%":
        return f"{value * 100:,.1f}%"
    if unit == "B":
        return human_bytes(value)
    text = format_number(value)
    if unit == "x":
        return f"{text}x"
    return f"{text} {unit}" if unit else text


def format_scale(scale: float) -> str:
    """--scale as the user would type it: 1/1024 rather than 0.000976562."""
    f = Fraction(scale).limit_denominator(1 << 20)
    if f.numerator == 1 and f.denominator > 1 and float(f) == scale:
        return f"1/{f.denominator}"
    return format_number(int(scale) if scale == int(scale) else scale)


def format_params(params: dict) -> str:
    """A run's --param values: key=value, numbers formatted like every other figure."""
    return ", ".join(f"{k}={format_value(v) if isinstance(v, (int, float)) else v}"
                     for k, v in params.items())
