"""The Thrift-1 IDL (`Hbase.thrift`) as the happybase package ships and loads it.

happybase loads its IDL through thriftpy2 as the module `Hbase_thrift` when it is imported; the
server must use that very module so that the exception classes it raises are the ones
happybase's client and thriftpy2's processor test against. hsim keeps no copy of the IDL.
"""

from __future__ import annotations

import sys

import happybase  # noqa: F401  (importing it loads Hbase.thrift as the module Hbase_thrift)

ttypes = sys.modules["Hbase_thrift"]
Hbase = ttypes.Hbase

# HConstants.LATEST_TIMESTAMP: the timestamp the non-Ts methods pass, meaning "the server's now".
LATEST_TIMESTAMP = (1 << 63) - 1
