"""A read-only web UI over a live cluster, after HBase's Master and RegionServer status pages.

`hsim.ui.start(cluster, port=0)` serves it on loopback in a daemon thread and returns a handle
with `.port`, `.url` and `.stop()`. It sits beside the shell and Thrift server: it reads the
cluster's public objects under `cluster.lock` and changes nothing.
"""

from hsim.ui.server import UIServer, start

__all__ = ["UIServer", "start"]
