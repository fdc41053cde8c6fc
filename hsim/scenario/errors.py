"""Errors a scenario run reports as one line (the CLI prints them without a traceback)."""


class ScenarioError(Exception):
    """A bad scenario file, a bad option or a claim that reads a metric nobody recorded."""


class ScenarioFailed(ScenarioError):
    """The scenario's own code raised: names the variant, keeps the original for --debug."""

    def __init__(self, scenario: str, where: str, error: BaseException):
        self.error = error
        text = str(error).splitlines()[0] if str(error) else ""
        super().__init__(f"scenario {scenario!r} failed in {where}: "
                         f"{type(error).__name__}{': ' + text if text else ''}")

    def __reduce__(self):  # from a --jobs worker process: the message and the original
        return _failed, (self.args[0], self.error)


def _failed(message: str, error: BaseException) -> ScenarioFailed:
    e = ScenarioFailed.__new__(ScenarioFailed)
    Exception.__init__(e, message)
    e.error = error
    return e


class UsageError(ScenarioError):
    """A bad command line: an unknown option, scenario or variant, or an option's bad value.
    Every `hsim` command exits 2 on one (as argparse and the shell do); other failures exit 1."""
