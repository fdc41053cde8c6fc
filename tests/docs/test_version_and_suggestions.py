"""`hsim --version`, `hsim.__version__` and "did you mean" for commands, options, scenario names
and shell commands."""

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hsim
from hsim import cli
from hsim.shell import Shell
from hsim.suggest import did_you_mean

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_pyprojects():
    declared = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert hsim.__version__ == declared.group(1)


def test_version_flag(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"hsim {hsim.__version__}\n"


def test_version_flag_from_a_shell():
    out = subprocess.run([sys.executable, "-m", "hsim", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == f"hsim {hsim.__version__}"


def test_did_you_mean_wording():
    assert did_you_mean("rnu", ["run", "list"]) == " (did you mean 'run'?)"
    assert did_you_mean("zzz", ["run", "list"]) == ""


def test_misspelt_command(capsys):
    assert cli.main(["serv"]) == 2
    assert "unknown command 'serv' (did you mean 'serve'?)" in capsys.readouterr().err


def test_misspelt_scenario(capsys):
    assert cli.main(["run", "hotspoting"]) == 2  # a usage error
    assert "no scenario named 'hotspoting' (did you mean 'hotspotting'?)" in capsys.readouterr().err


def test_misspelt_run_option(capsys):
    assert cli.main(["run", "hotspotting", "--sed", "3"]) == 2  # a usage error
    assert "unrecognized arguments: --sed 3 (did you mean '--seed'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["shell", "serve"])
def test_misspelt_option_of_argparse_commands(command, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main([command, "--servres", "2"])
    assert e.value.code == 2
    assert "(did you mean '--servers'?)" in capsys.readouterr().err


def test_misspelt_shell_command():
    out = io.StringIO()
    sh = Shell(out=out)
    sh.feed("scna 't'")
    sh.feed("zzzzzz")
    assert out.getvalue() == (
        "NoMethodError (undefined method `scna' for main:Object\n"  # a call with arguments
        "Did you mean?  scan)\n"
        "NameError (undefined local variable or method `zzzzzz' for main:Object)\n")


def test_version_without_package_metadata_reads_pyproject(monkeypatch):
    from importlib import metadata

    from hsim import version

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert version._version() == hsim.__version__
