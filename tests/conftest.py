"""Hypothesis runs derandomized, so CI and every machine see the same examples (the project's
determinism rule); set HYPOTHESIS_PROFILE=explore to search afresh."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def upstream_suite():
    """`upstream_suite("easybase_suite.py", mode)`: run a harness of tools/ that runs a client
    library's own test suite against hsim; returns its output, and skips the test with pip's
    reason when the library's sdist cannot be downloaded (no registry reachable)."""

    def run(tool: str, mode: str) -> str:
        result = subprocess.run([sys.executable, str(ROOT / "tools" / tool), "--mode", mode],
                                capture_output=True, text=True)
        if result.returncode == 3:
            pytest.skip(result.stdout.strip().splitlines()[-1])
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    return run


@pytest.fixture
def raw_exchange():
    """`raw_exchange(port, data)`: send bytes on a fresh loopback connection, half-close it,
    and return everything the server answers before it closes (for malformed requests)."""

    def exchange(port: int, data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            out = b""
            while chunk := s.recv(65536):
                out += chunk
            return out

    return exchange
