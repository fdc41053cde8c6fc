"""Run happybase's own test suite (tests/test_api.py of its published source distribution,
unchanged) against hsim: in-process (hsim.happybase) and over `hsim serve`, each on its
default clock (a TickingClock in-process, wall time that never repeats a millisecond over serve).

    python tools/happybase_suite.py [--version 1.3.0] [--mode inprocess|serve|both]

The sdist is downloaded with pip at run time into a temporary directory; nothing of it is kept
in this repository. In-process, a conftest written beside the copy patches happybase with
hsim.happybase.patch() before test_api imports it. Over serve, `hsim serve` listens on 9090 and
HAPPYBASE_HOST is set while HAPPYBASE_PORT is left unset (test_api passes the variable on as a
str, which thriftpy2 rejects). Exit status 0 when every mode passed. The opt-in test
tests/happybase/test_upstream_suite.py runs this in every run of the test suite.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

# test_api.py of the 1.3.0 sdist calls nose's `assert_raises` without importing it (upstream
# ran it under nose, which its sdist no longer names); pytest.raises is the same context manager.
SHIM_CONFTEST = "import builtins\n\nimport pytest\n\nbuiltins.assert_raises = pytest.raises\n"
PATCH_CONFTEST = SHIM_CONFTEST + "\nimport hsim.happybase\n\nhsim.happybase.patch().__enter__()\n"


def fetch(version: str, into: Path) -> Path:
    """Download and unpack happybase's sdist; returns its tests/ directory."""
    subprocess.run([sys.executable, "-m", "pip", "download", f"happybase=={version}",
                    "--no-binary", ":all:", "--no-deps", "-q", "-d", str(into)], check=True)
    archive = next(into.glob(f"happybase-{version}.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / f"happybase-{version}" / "tests"


def _pytest(tests: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-p", "no:hsim", str(tests / "test_api.py")],
                          cwd=tests, env=env, capture_output=True, text=True)


def _copy(tests: Path, name: str, conftest: str) -> Path:
    """test_api.py unchanged, in a directory of its own with the harness's conftest."""
    work = tests.parent / name
    work.mkdir(exist_ok=True)
    (work / "test_api.py").write_bytes((tests / "test_api.py").read_bytes())
    (work / "conftest.py").write_text(conftest)
    return work


def run_inprocess(tests: Path) -> subprocess.CompletedProcess:
    work = _copy(tests, "tests-inprocess", PATCH_CONFTEST)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAPPYBASE_")}
    return _pytest(work, env)


def _wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"hsim serve did not listen on {port}")


def run_serve(tests: Path, port: int = 9090) -> subprocess.CompletedProcess:
    server = subprocess.Popen([sys.executable, "-m", "hsim", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for_port(port)
        env = {k: v for k, v in os.environ.items() if not k.startswith("HAPPYBASE_")}
        env["HAPPYBASE_HOST"] = "127.0.0.1"
        return _pytest(_copy(tests, "tests-serve", SHIM_CONFTEST), env)
    finally:
        server.terminate()
        server.wait(10)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--version", default="1.3.0")
    ap.add_argument("--mode", choices=("inprocess", "serve", "both"), default="both")
    args = ap.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory(prefix="hsim-happybase-") as tmp:
        tests = fetch(args.version, Path(tmp))
        modes = ("inprocess", "serve") if args.mode == "both" else (args.mode,)
        for mode in modes:
            result = run_inprocess(tests) if mode == "inprocess" else run_serve(tests)
            summary = (result.stdout.strip().splitlines() or ["(no output)"])[-1]
            print(f"happybase {args.version} tests/test_api.py, {mode}: {summary}")
            if result.returncode != 0:
                ok = False
                print(result.stdout[-4000:], result.stderr[-2000:], sep="\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
