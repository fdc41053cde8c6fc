"""Run easybase's own test suite (tests/test_api.py of its published source distribution,
unchanged) against hsim's Thrift2 gateway: in-process (hsim.thrift2) and over
`hsim serve --thrift2`.

    python tools/easybase_suite.py [--version 2.0.1] [--mode inprocess|serve|both]

The sdist is downloaded with pip at run time into a temporary directory (tools/suite_harness.py);
nothing of it is kept in this repository. test_api imports `nose.tools`; nose does not run on
the Pythons hsim supports, so the harness's conftest provides a `nose.tools` module with the
same names built from unittest's assertions (as nose builds them). In-process, the conftest also
patches easybase with hsim.thrift2.patch() before test_api imports it. Over serve,
`hsim serve --thrift2` listens on 9090, test_api's default (EASYBASE_PORT would reach thriftpy2
as a str, which it rejects). Exit status 0 when every mode passed, 3 when the sdist could not be
downloaded. tests/thrift2/test_easybase_suite.py runs this in every run of the test suite.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import suite_harness as h  # noqa: E402

NOSE_CONFTEST = '''import re
import sys
import types
import unittest

_case = unittest.TestCase("__init__")
_case.maxDiff = None
tools = types.ModuleType("nose.tools")
for _name in dir(_case):
    if _name.startswith("assert") and "_" not in _name:  # nose.tools' pep8 names
        setattr(tools, re.sub("([A-Z])", lambda m: "_" + m.group(1).lower(), _name),
                getattr(_case, _name))


def nottest(f):
    f.__test__ = False
    return f


tools.nottest = nottest
nose = types.ModuleType("nose")
nose.tools = tools
sys.modules.update({"nose": nose, "nose.tools": tools})
'''
SUITE = h.Suite("EASYBASE_", NOSE_CONFTEST,
                "\nimport hsim.thrift2\n\nhsim.thrift2.patch().__enter__()\n",
                serve_args=("serve", "--thrift2"))


if __name__ == "__main__":
    sys.exit(h.main("easybase", "2.0.1", SUITE, __doc__.split("\n\n")[0]))
