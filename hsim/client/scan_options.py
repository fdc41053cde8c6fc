"""Scan.setBatch and the per-family limits (Scan/Get.setMaxResultsPerColumnFamily,
setRowOffsetPerColumnFamily): how a row's kept cells are cut before they reach the user.
Their argument checks are hsim.client.validation's (check_batch, check_per_family)."""

from __future__ import annotations


def limits(max_results, offset) -> tuple | None:
    """The per-family (max results, offset) a request sends to the stores, or None for
    neither (hsim.filters.apply.store_limits applies them there, as StoreScanner does)."""
    if max_results is None and not offset:
        return None
    return max_results, offset or 0


def split_row(cells: list, batch) -> list:
    """Scan.setBatch: a row as consecutive parts of at most `batch` cells."""
    if batch is None or len(cells) <= batch:
        return [cells]
    return [cells[i : i + batch] for i in range(0, len(cells), batch)]
