"""HBase's Thrift2 IDL (`hbase-thrift/src/main/resources/org/apache/hadoop/hbase/thrift2/
hbase.thrift`, HBase 2.x's THBaseService) as the easybase package ships it.

easybase loads the file through thriftpy2 as the module `HBase_thrift` when it is imported;
the server uses that very module when it is already loaded (so the exceptions an in-process
easybase client tests against are the classes the server raises), and otherwise loads the file
from where the easybase distribution installed it, without running easybase's own code (its
Kerberos transport needs packages the server does not). hsim keeps no copy of the IDL.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from hsim.errors import HsimError

MODULE = "HBase_thrift"


def _load():
    loaded = sys.modules.get(MODULE)
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec("easybase")
    path = None
    if spec is not None and spec.submodule_search_locations:
        path = os.path.join(list(spec.submodule_search_locations)[0], "HBase.thrift")
    if path is None or not os.path.exists(path):
        raise HsimError("the Thrift2 gateway needs HBase's Thrift2 IDL, which hsim loads from "
                        "the easybase package: pip install --no-deps easybase")
    import thriftpy2

    return thriftpy2.load(path, module_name=MODULE)


ttypes = _load()
THBaseService = ttypes.THBaseService
