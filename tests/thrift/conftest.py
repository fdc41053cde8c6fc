import contextlib
import re
import signal
import subprocess
import sys

import pytest


@contextlib.contextmanager
def _serve(*args):
    """`hsim serve --port 0 ARGS` in a subprocess; yields (process, port)."""
    proc = subprocess.Popen([sys.executable, "-m", "hsim.cli", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"listening on [^ ]+:(\d+) ", line)
        if m is None:
            proc.kill()
            raise AssertionError(f"hsim serve did not start: {line!r} {proc.stderr.read()!r}")
        yield proc, int(m.group(1))
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        proc.stdout.close()
        proc.stderr.close()


@pytest.fixture
def hsim_serve():
    """`with hsim_serve("--transport", "framed") as (process, port):` a running hsim serve."""
    return _serve
