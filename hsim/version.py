"""hsim's version, single-sourced from pyproject.toml.

An installed hsim (pip, editable or not) reads it from its package metadata; a source tree that
was never installed reads pyproject.toml itself, so the number lives in one place only.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path


def _version() -> str:
    try:
        return metadata.version("hsim")
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        m = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(), re.M)
    except OSError:
        m = None
    return m.group(1) if m else "0+unknown"


__version__ = _version()
