"""What the harnesses that run a client library's own test suite against hsim share
(tools/happybase_suite.py, tools/easybase_suite.py): downloading the library's sdist with pip at
run time (nothing of it is kept in this repository), copying its test file unchanged beside a
harness conftest, running pytest on it, and `hsim serve` on the fixed port the suites assume.

The suites hard-code port 9090 (their port variables come from the environment as str, which
thriftpy2 rejects), so the harnesses take turns on it: `serving` holds a lock file while its
server runs. A download that fails (no registry reachable) exits with SKIPPED, which the tests
that run the harnesses turn into a skip with the reason.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

SKIPPED = 3  # exit status: the sdist could not be downloaded
PORT = 9090


class DownloadFailed(Exception):
    pass


def fetch(package: str, version: str, into: Path) -> Path:
    """Download and unpack `package`'s sdist; returns its unpacked directory."""
    result = subprocess.run([sys.executable, "-m", "pip", "download", f"{package}=={version}",
                             "--no-binary", ":all:", "--no-deps", "-q", "-d", str(into)],
                            capture_output=True, text=True)
    archives = list(into.glob(f"{package}-{version}.tar.gz"))
    if result.returncode != 0 or not archives:
        raise DownloadFailed(f"pip download {package}=={version} failed: "
                             f"{(result.stderr or result.stdout).strip()[-500:]}")
    with tarfile.open(archives[0]) as tar:
        tar.extractall(into, filter="data")
    return into / f"{package}-{version}"


def copy(test_file: Path, work: Path, conftest: str) -> Path:
    """The test file unchanged, in a directory of its own with the harness's conftest."""
    work.mkdir(exist_ok=True)
    (work / test_file.name).write_bytes(test_file.read_bytes())
    (work / "conftest.py").write_text(conftest)
    (work / "pytest.ini").write_text("[pytest]\n")  # the rootdir: no sdist setup.cfg read
    return work


def run_pytest(work: Path, test_name: str, env: dict, *extra: str
               ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-p", "no:hsim", test_name, *extra], cwd=work, env=env,
                          capture_output=True, text=True)


def environment(drop_prefix: str, *paths: str, **extra: str) -> dict:
    """This process's environment without the suite's own variables, hsim (and `paths`)
    importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop_prefix)}
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, *paths, env.get("PYTHONPATH")) if p)
    env.update(extra)
    return env


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"hsim serve exited: {proc.stderr.read().decode()[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"hsim serve did not listen on {port}")


@contextlib.contextmanager
def serving(*args: str, port: int = PORT):
    """`hsim ARGS --port PORT` (ARGS: "serve", ... or "rest") while the block runs, holding
    the port's lock file."""
    lock = open(Path(tempfile.gettempdir()) / f"hsim-suite-port-{port}.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
    try:
        server = subprocess.Popen([sys.executable, "-m", "hsim", *args, "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  env=environment("HSIM_SUITE_"))
        try:
            _wait_for_port(port, server)
            yield
        finally:
            server.terminate()
            server.wait(10)
            server.stderr.close()
    finally:
        lock.close()


def report(name: str, mode: str, result: subprocess.CompletedProcess) -> bool:
    """Print the suite's summary line (and its output when it failed); True when it passed."""
    summary = (result.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"{name}, {mode}: {summary}")
    if result.returncode != 0:
        print(result.stdout[-20000:], result.stderr[-2000:], sep="\n")
    return result.returncode == 0


class Suite:
    """One library's test_api.py: the conftest written beside it (`shim`: what the file needs
    to run under pytest; in-process, the shim and `patch`, the lines that make the library's
    connections in-process), the environment prefix it reads, what `hsim serve` needs."""

    test_file = "tests/test_api.py"  # in the unpacked sdist
    paths: tuple = ()  # sdist directories the tests import from (the package under test)
    requirements: tuple = ()  # what the tests import that the sdist does not declare
    deselect: dict = {}  # test id -> why it is left out

    def __init__(self, env_prefix: str, shim: str, patch: str | None, serve_args=("serve",),
                 serve_env=None, port: int = PORT):
        self.env_prefix, self.shim, self.patch = env_prefix, shim, patch
        self.serve_args, self.serve_env = tuple(serve_args), dict(serve_env or {})
        self.port = port
        self._deps: list[str] = []

    def install(self, sdist: Path) -> list[str]:
        """pip-install `requirements` into the temporary directory; their path, if any."""
        if not self.requirements:
            return []
        target = sdist / "deps"
        result = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q",
                                 "--target", str(target), *self.requirements],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise DownloadFailed(f"pip install {' '.join(self.requirements)} failed: "
                                 f"{(result.stderr or result.stdout).strip()[-500:]}")
        return [str(target)]

    def run(self, sdist: Path, mode: str) -> subprocess.CompletedProcess:
        test = sdist / self.test_file
        paths = [str(sdist / p) for p in self.paths] + self._deps
        extra = [a for t in self.deselect for a in ("--deselect", f"{test.name}::{t}")]
        for t, why in self.deselect.items():
            print(f"left out: {t}: {why}")
        if mode == "inprocess":
            work = copy(test, sdist / "tests-inprocess", self.shim + self.patch)
            return run_pytest(work, test.name, environment(self.env_prefix, *paths), *extra)
        work = copy(test, sdist / "tests-serve", self.shim)
        with serving(*self.serve_args, port=self.port):
            return run_pytest(work, test.name,
                              environment(self.env_prefix, *paths, **self.serve_env), *extra)


def main(package: str, version: str, suite: Suite, description: str, argv=None) -> int:
    """The harness's command line: fetch `package`'s sdist and run `suite` in each mode asked
    for. Exit status 0 when every mode passed, SKIPPED when the download failed."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--version", default=version)
    ap.add_argument("--mode", choices=("inprocess", "serve", "both"), default="both")
    args = ap.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory(prefix=f"hsim-{package}-") as tmp:
        try:
            sdist = fetch(package, args.version, Path(tmp))
            suite._deps = suite.install(sdist)
        except DownloadFailed as e:
            print(f"SKIPPED: {e}")
            return SKIPPED
        modes = ("inprocess", "serve") if args.mode == "both" else (args.mode,)
        if suite.patch is None:
            modes = tuple(md for md in modes if md == "serve")  # a protocol with no in-process
        for mode in modes:
            ok &= report(f"{package} {args.version} {suite.test_file}", mode,
                         suite.run(sdist, mode))
    return 0 if ok else 1
