"""The Thrift-1 server on a TCP socket: HBase's ThriftServer in its thread-per-connection form,
with the buffered or framed transport and the binary or compact protocol.

A connection that sends garbage, a truncated frame, an oversized frame or message, or that goes
away mid-call is closed; the server and every other connection carry on. Limits are HBase's:
a frame may hold at most hbase.regionserver.thrift.framed.max_frame_size_in_mb (2 MB), and a
message at most libthrift's TConfiguration.DEFAULT_MAX_MESSAGE_SIZE (100 MB). Idle connections
are dropped after hbase.thrift.server.socket.read.timeout (60 s). Each request is read whole
and its declared sizes checked before it is decoded (hsim.thrift.wire), so no request can make
the server walk more than the bytes it sent.
"""

from __future__ import annotations

import errno
import logging
import socket
import threading

from thriftpy2.protocol import TBinaryProtocol, TCompactProtocol
from thriftpy2.protocol.exc import TProtocolException
from thriftpy2.thrift import TProcessor
from thriftpy2.transport import (TCyBufferedTransport, TCyFramedTransport, TCyMemoryBuffer,
                                 TSocket, TTransportException)

from hsim.thrift.handler import HbaseHandler
from hsim.thrift.idl import Hbase
from hsim.gateway.scanners import MAX_SCANNERS, MAX_SCANNERS_PER_CONNECTION
from hsim.thrift.wire import RequestReader

log = logging.getLogger("hsim.thrift")

TRANSPORTS = {"buffered": TCyBufferedTransport, "framed": TCyFramedTransport}
PROTOCOLS = {"binary": TBinaryProtocol, "compact": TCompactProtocol}
MAX_FRAME_SIZE = 2 * 1024 * 1024
MAX_MESSAGE_SIZE = 100 * 1024 * 1024
READ_TIMEOUT_MS = 60_000
MAX_CONNECTIONS = 1000  # hbase.thrift.maxWorkerThreads' default
ACCEPT_BACKOFF_S = (0.01, 1.0)  # first and longest pause when accept() runs out of descriptors


class ThriftServer:
    """Serve `cluster` over Thrift-1. `port=0` binds a free port (see `.port` after `bind()`).

        server = ThriftServer(cluster, port=0).start()   # a background thread
        ...
        server.stop()

    A subclass serves another Thrift service over the same transports by naming its
    `service` and `handler_class` (hsim.thrift2_server.Thrift2Server).
    """

    service = Hbase
    handler_class = HbaseHandler

    def __init__(self, cluster, host: str = "127.0.0.1", port: int = 9090,
                 transport: str = "buffered", protocol: str = "binary",
                 max_message_size: int = MAX_MESSAGE_SIZE, max_frame_size: int = MAX_FRAME_SIZE,
                 read_timeout_ms: int | None = READ_TIMEOUT_MS,
                 max_connections: int = MAX_CONNECTIONS, max_scanners: int = MAX_SCANNERS,
                 max_scanners_per_connection: int = MAX_SCANNERS_PER_CONNECTION):
        if transport not in TRANSPORTS:
            raise ValueError(f"transport must be one of {', '.join(TRANSPORTS)}")
        if protocol not in PROTOCOLS:
            raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}")
        self.cluster = cluster
        self.handler = self.handler_class(cluster, max_scanners, max_scanners_per_connection)
        self.processor = TProcessor(self.service, self.handler)
        self.host, self.port = host, port
        self.transport, self.protocol = transport, protocol
        self.max_message_size, self.max_frame_size = max_message_size, max_frame_size
        self.read_timeout = None if not read_timeout_ms else read_timeout_ms / 1000
        self._listener: socket.socket | None = None
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._clients: dict[socket.socket, threading.Thread] = {}
        self._thread: threading.Thread | None = None
        self.max_connections = max_connections
        self.connections_served = 0
        self.connections_refused = 0

    # --- lifecycle ------------------------------------------------------------------------------
    def bind(self) -> "ThriftServer":
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
            sock.listen(128)
        except OSError:
            sock.close()
            raise
        self._listener = sock
        self.port = sock.getsockname()[1]
        return self

    def serve_forever(self) -> None:
        """Accept connections until stop(); one thread per connection."""
        if self._listener is None:
            self.bind()
        listener = self._listener
        pause = ACCEPT_BACKOFF_S[0]
        while not self._stopped.is_set():
            try:
                sock, _addr = listener.accept()
            except OSError as e:
                if self._stopped.is_set():
                    break
                if e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    # out of descriptors: wait for connections to close instead of spinning
                    log.warning("accept: %s; pausing %.2f s", e.strerror, pause)
                    self._stopped.wait(pause)
                    pause = min(pause * 2, ACCEPT_BACKOFF_S[1])
                continue
            pause = ACCEPT_BACKOFF_S[0]
            if self.active_connections >= self.max_connections:
                self._refuse(sock)
                continue
            t = threading.Thread(target=self._serve_client, args=(sock,), daemon=True,
                                 name=f"hsim-thrift-{self.connections_served}")
            with self._lock:
                if self._stopped.is_set():
                    sock.close()
                    break
                self._clients[sock] = t
                self.connections_served += 1
                t.start()

    def _refuse(self, sock: socket.socket) -> None:
        """Over the cap: close at once, as a full TThreadPoolServer rejects the task."""
        self.connections_refused += 1
        log.info("refusing a connection: %d connections open (max %d)",
                 self.active_connections, self.max_connections)
        try:
            sock.close()
        except OSError:
            pass

    def start(self) -> "ThriftServer":
        """bind() and serve from a background thread; returns self."""
        if self._listener is None:
            self.bind()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True,
                                        name="hsim-thrift-accept")
        self._thread.start()
        return self

    def stop_accepting(self) -> None:
        """Stop the accept loop (safe from a signal handler)."""
        self._stopped.set()
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)  # wakes a blocked accept()
            except OSError:
                pass
            self._listener.close()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop accepting, close every connection and wait for their threads."""
        self.stop_accepting()
        with self._lock:
            clients = list(self._clients.items())
        for sock, _t in clients:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for _sock, t in clients:
            t.join(timeout)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def active_connections(self) -> int:
        with self._lock:
            return len(self._clients)

    def __enter__(self) -> "ThriftServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- one connection -------------------------------------------------------------------------
    def _serve_client(self, sock: socket.socket) -> None:
        sock.settimeout(self.read_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = RequestReader(sock, self.transport == "framed", self.protocol == "compact",
                               self.max_message_size, self.max_frame_size)
        protocol = PROTOCOLS[self.protocol]
        oprot = protocol(TRANSPORTS[self.transport](TSocket(sock=sock)))  # replies
        try:
            with self.handler.connection():
                while not self._stopped.is_set():
                    request = protocol(TCyMemoryBuffer(reader.next()))
                    self.processor.process(request, oprot)
        except TTransportException as e:
            if e.type != TTransportException.END_OF_FILE:
                log.info("closing a connection: %s", e.message)
        except TProtocolException as e:  # refused by RequestReader before decoding
            log.info("closing a connection: %s", e.message)
        except OSError:
            pass  # reset by the peer, timed out, or shut down by stop()
        except Exception as e:  # garbage on the wire: a protocol error
            log.info("closing a connection: %s: %s", type(e).__name__, e)
        finally:
            with self._lock:
                self._clients.pop(sock, None)
            try:
                sock.close()
            except OSError:
                pass
