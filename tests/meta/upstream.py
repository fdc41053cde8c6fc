"""Running one of HBase's shell test cases typed into `hsim shell`."""

import io
import re

from hsim.shell import Shell


def run_case(setup: str, script: str, expect: list, fails: bool = False) -> str:
    """Run `setup` (which must not fail), then `script`; check each pattern of `expect` (a
    leading ! means it must not match) and that an ERROR line appears only when `fails`."""
    out = io.StringIO()
    sh = Shell(out=out, timer=lambda: 0.0, width=0)
    sh.run_script(setup)
    assert sh.failures == 0, out.getvalue()
    start = out.tell()
    sh.run_script(script)
    text = out.getvalue()[start:]
    assert ("ERROR" in text) == fails, text
    assert "Traceback" not in text and "NameError" not in text, text
    for pattern in expect:
        if pattern.startswith("!"):  # must not appear
            assert not re.search(pattern[1:], text, re.M), (pattern, text)
        else:
            assert re.search(pattern, text, re.M), (pattern, text)
    return text
