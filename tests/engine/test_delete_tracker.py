"""ScanDeleteTracker alone: what each tracked marker masks (DeleteTracker.DeleteResult).
Puts are asked about in HBase order, after the markers that sort before them."""

import pytest

from hsim.cell import DELETE, DELETE_COLUMN, DELETE_FAMILY, DELETE_FAMILY_VERSION
from hsim.engine.delete_tracker import (COLUMN_DELETED, FAMILY_DELETED, FAMILY_VERSION_DELETED,
                                        NOT_DELETED, VERSION_DELETED, ScanDeleteTracker)

# (marker, the puts asked about in order, each one's answer)
CASES = {
    "Delete masks exactly its version": (
        (DELETE, b"a", 5), [(b"a", 5, VERSION_DELETED), (b"a", 4, NOT_DELETED)]),
    "DeleteColumn masks its version and older": (
        (DELETE_COLUMN, b"a", 5), [(b"a", 5, COLUMN_DELETED), (b"a", 1, COLUMN_DELETED)]),
    "a column marker is forgotten at the next column": (
        (DELETE_COLUMN, b"a", 5), [(b"b", 1, NOT_DELETED)]),
    "DeleteFamily masks every column at or below it": (
        (DELETE_FAMILY, b"", 5),
        [(b"x", 5, FAMILY_DELETED), (b"y", 6, NOT_DELETED), (b"y", 2, FAMILY_DELETED)]),
    "DeleteFamilyVersion masks one timestamp in every column": (
        (DELETE_FAMILY_VERSION, b"", 5),
        [(b"x", 5, FAMILY_VERSION_DELETED), (b"y", 5, FAMILY_VERSION_DELETED),
         (b"y", 4, NOT_DELETED)]),
}


@pytest.mark.parametrize("name", CASES)
def test_what_a_marker_masks(name):
    marker, asks = CASES[name]
    t = ScanDeleteTracker()
    t.add(*marker)
    assert [t.is_deleted(q, ts) for q, ts, _ in asks] == [want for _, _, want in asks]


def test_a_marker_below_the_family_stamp_adds_nothing():
    t = ScanDeleteTracker()
    t.add(DELETE_FAMILY, b"", 5)
    t.add(DELETE, b"a", 7)  # above the stamp: held
    t.add(DELETE_COLUMN, b"b", 3)  # below it: the DeleteFamily already masks all it would
    assert t.qualifier == b"a" and t.type == DELETE
