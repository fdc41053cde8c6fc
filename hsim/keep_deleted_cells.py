"""KeepDeletedCells (org.apache.hadoop.hbase.KeepDeletedCells): whether a family's reads with a
time range in the past, and its compactions, still see cells that a delete marker masks."""

from __future__ import annotations

import enum


class KeepDeletedCells(enum.Enum):
    """FALSE: deleted cells and their markers go at the next major compaction. TRUE: both stay
    until versions or TTL remove them, and time-range reads before a delete still see the
    cells. TTL: as TRUE, but only until the cells' TTL expires."""

    FALSE = "FALSE"
    TRUE = "TRUE"
    TTL = "TTL"

    @classmethod
    def of(cls, value: KeepDeletedCells | bool | str) -> KeepDeletedCells | None:
        """The member for an API spelling (the enum itself, a bool, or FALSE/TRUE/TTL in any
        case, as the shell, happybase and older hsim code pass it); None if there is none."""
        if isinstance(value, cls):
            return value
        if isinstance(value, bool):
            return cls.TRUE if value else cls.FALSE
        if isinstance(value, str):
            return cls.__members__.get(value.upper())
        return None

    def __str__(self) -> str:
        return self.value
