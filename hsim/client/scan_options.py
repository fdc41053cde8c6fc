"""Scan.setBatch and the per-family limits (Scan/Get.setMaxResultsPerColumnFamily,
setRowOffsetPerColumnFamily): how a row's kept cells are cut before they reach the user."""

from __future__ import annotations

from hsim.errors import IncompatibleFilterError, InvalidArgumentError


def check_batch(batch, filt) -> None:
    """Scan.setBatch: a positive cell count, refused with a filter that must see whole rows
    (Filter.hasFilterRow), as HBase refuses it."""
    if batch is None:
        return
    if isinstance(batch, bool) or not isinstance(batch, int) or batch <= 0:
        raise InvalidArgumentError(f"batch must be a positive int, got {batch!r}")
    if filt is not None and filt.has_filter_row():
        raise IncompatibleFilterError(
            "Cannot set batch on a scan using a filter that returns true for "
            "filter.hasFilterRow")


def check_per_family(max_results, offset) -> None:
    if max_results is not None and (isinstance(max_results, bool)
                                    or not isinstance(max_results, int) or max_results < 0):
        raise InvalidArgumentError(
            f"max_results_per_family must be a non-negative int, got {max_results!r}")
    if offset is not None and (isinstance(offset, bool) or not isinstance(offset, int)
                               or offset < 0):
        raise InvalidArgumentError(
            f"row_offset_per_family must be a non-negative int, got {offset!r}")


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
