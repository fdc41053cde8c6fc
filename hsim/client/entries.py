"""The entries a mutation hands its region (hsim.cell.Entry: family, qualifier, timestamp,
type code, value, ttl), the type codes as plain ints, which the WAL and the MemStore's tuples
carry."""

from hsim.cell import (DELETE, DELETE_COLUMN, DELETE_FAMILY, DELETE_FAMILY_VERSION, NO_TTL, PUT,
                       Entry)

PUT_CODE, DELETE_CODE, DELETE_COLUMN_CODE, DELETE_FAMILY_CODE, DELETE_FAMILY_VERSION_CODE = map(
    int, (PUT, DELETE, DELETE_COLUMN, DELETE_FAMILY, DELETE_FAMILY_VERSION))


def row_delete(families, ts: int) -> list[Entry]:
    """A whole-row Delete: a DeleteFamily marker in each family (HBase's Delete of a row)."""
    return [Entry(f, b"", ts, DELETE_FAMILY_CODE, b"", NO_TTL) for f in families]
