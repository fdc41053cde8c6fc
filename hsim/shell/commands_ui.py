"""The shell's `ui` command: the web UI on the shell's own cluster."""

from __future__ import annotations

from hsim.shell.args import java_int
from hsim.shell.registry import ShellArgumentError, command


@command("ui", "hsim", """
Serves the web UI (Master status, table and region pages, store files, explain get, /jmx) for
this shell's cluster on loopback, and prints its address. Without a port it picks a free one;
asked again, it prints the address it already serves on. 'stop' stops it.

  hbase> ui
  hbase> ui 16010
  hbase> ui 'stop'
""")
def ui(sh, port=None):
    from hsim.ui import start

    running = getattr(sh, "_ui", None)
    if port == "stop":
        if running:
            running.stop()
            sh._ui = None
        sh.fmt.line("Web UI stopped" if running else "Web UI is not running")
        return
    if running is None:
        p = 0 if port is None else java_int(port)
        if not 0 <= p <= 65535:
            raise ShellArgumentError(f"port must be between 0 and 65535, not {p}")
        sh._ui = running = start(sh.cluster, port=p)
    sh.fmt.line(f"Web UI: {running.url}")
