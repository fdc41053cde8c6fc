"""Run happybase's own test suite (tests/test_api.py of its published source distribution,
unchanged) against hsim: in-process (hsim.happybase) and over `hsim serve`, each on its
default clock (a TickingClock in-process, wall time that never repeats a millisecond over serve).

    python tools/happybase_suite.py [--version 1.3.0] [--mode inprocess|serve|both]

The sdist is downloaded with pip at run time into a temporary directory (tools/suite_harness.py);
nothing of it is kept in this repository. In-process, a conftest written beside the copy patches
happybase with hsim.happybase.patch() before test_api imports it. Over serve, `hsim serve`
listens on 9090 and HAPPYBASE_HOST is set while HAPPYBASE_PORT is left unset (test_api passes
the variable on as a str, which thriftpy2 rejects). Exit status 0 when every mode passed, 3 when
the sdist could not be downloaded. tests/happybase/test_upstream_suite.py runs this in every run
of the test suite.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import suite_harness as h  # noqa: E402

# test_api.py of the 1.3.0 sdist calls nose's `assert_raises` without importing it (upstream
# ran it under nose, which its sdist no longer names); pytest.raises is the same context manager.
SHIM_CONFTEST = "import builtins\n\nimport pytest\n\nbuiltins.assert_raises = pytest.raises\n"
SUITE = h.Suite("HAPPYBASE_", SHIM_CONFTEST,
                "\nimport hsim.happybase\n\nhsim.happybase.patch().__enter__()\n",
                serve_env={"HAPPYBASE_HOST": "127.0.0.1"})


if __name__ == "__main__":
    sys.exit(h.main("happybase", "1.3.0", SUITE, __doc__.split("\n\n")[0]))
