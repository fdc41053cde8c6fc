"""ScanDeleteTracker alone: what each tracked marker masks (DeleteTracker.DeleteResult).
Puts are asked about in HBase order, after the markers that sort before them."""

from hsim.cell import DELETE, DELETE_COLUMN, DELETE_FAMILY, DELETE_FAMILY_VERSION
from hsim.engine.delete_tracker import (COLUMN_DELETED, FAMILY_DELETED, FAMILY_VERSION_DELETED,
                                        NOT_DELETED, VERSION_DELETED, ScanDeleteTracker)


def tracker(*markers):
    t = ScanDeleteTracker()
    for code, q, ts in markers:
        t.add(code, q, ts)
    return t


def test_delete_masks_exactly_its_version():
    t = tracker((DELETE, b"a", 5))
    assert t.is_deleted(b"a", 5) == VERSION_DELETED
    assert t.is_deleted(b"a", 4) == NOT_DELETED


def test_delete_column_masks_its_version_and_older():
    t = tracker((DELETE_COLUMN, b"a", 5))
    assert t.is_deleted(b"a", 5) == COLUMN_DELETED
    assert t.is_deleted(b"a", 1) == COLUMN_DELETED


def test_a_column_marker_is_forgotten_at_the_next_column():
    t = tracker((DELETE_COLUMN, b"a", 5))
    assert t.is_deleted(b"b", 1) == NOT_DELETED


def test_delete_family_masks_every_column_at_or_below_it():
    t = tracker((DELETE_FAMILY, b"", 5))
    assert t.is_deleted(b"x", 5) == FAMILY_DELETED
    assert t.is_deleted(b"y", 2) == FAMILY_DELETED
    assert t.is_deleted(b"y", 6) == NOT_DELETED


def test_delete_family_version_masks_one_timestamp_in_every_column():
    t = tracker((DELETE_FAMILY_VERSION, b"", 5))
    assert t.is_deleted(b"x", 5) == FAMILY_VERSION_DELETED
    assert t.is_deleted(b"y", 5) == FAMILY_VERSION_DELETED
    assert t.is_deleted(b"y", 4) == NOT_DELETED
