"""What every gateway (Thrift-1, Thrift2, REST) shares: the open-scanner registry and its
leases (`scanners`), failure injection (`faults`), how an hsim error reads as HBase's Java
exception and which protocol answer it becomes (`errors`), column specs (`columns`) and
Java's byte order for result maps (`ordering`). The gateways reach the cluster through the
client API (hsim.client) only.
"""
