"""hbase:meta through happybase, in-process and over Thrift: readable, never writable."""

import pytest

from hsim.regions.meta import parse_region_info
from hsim.thrift.idl import ttypes


def test_meta_rows_scans_and_refusals(env):
    env.conn.create_table("t", {"cf": {}})
    meta = env.conn.table("hbase:meta")
    rows = dict(meta.scan())
    names = [r.name.encode() for r in env.cluster.admin.regions("t")]
    assert list(rows) == names
    info = rows[names[0]]
    assert info[b"info:state"] == b"OPEN"
    assert parse_region_info(info[b"info:regioninfo"])[3] == b""
    assert meta.row(names[0], columns=[b"info:sn"]) == {b"info:sn": info[b"info:sn"]}
    assert [k for k, _ in meta.scan(row_prefix=b"t,")] == names
    assert [k for k, _ in meta.scan(filter=b"PrefixFilter('nope')")] == []
    assert b"hbase:meta" not in env.conn.tables()
    with pytest.raises(ttypes.IOError) as e:
        meta.put(names[0], {b"info:state": b"CLOSED"})
    assert "Can't modify catalog tables" in str(e.value)
    with pytest.raises(ttypes.IOError):
        meta.delete(names[0])
    assert dict(meta.scan()) == rows
