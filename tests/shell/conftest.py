import io

import pytest

from hsim.shell import Shell


class Session:
    """A shell on a fresh cluster whose `Took` lines read 0.0000 (a timer that never moves)."""

    def __init__(self, **kw):
        self.out = io.StringIO()
        kw.setdefault("width", 0)
        self.shell = Shell(out=self.out, timer=lambda: 0.0, **kw)

    def __call__(self, text: str, echo: bool = False) -> str:
        start = self.out.tell()
        self.shell.run_script(text, echo=echo)
        return self.out.getvalue()[start:]


@pytest.fixture
def sh():
    return Session()


TOOK = "Took 0.0000 seconds\n"
