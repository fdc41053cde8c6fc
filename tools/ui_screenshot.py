"""Regenerate docs/images/ui-table-hotspotting.png: the table page while `hsim run hotspotting
--ui` writes with the timestamp-led key (every write lands in the last region).

    python tools/ui_screenshot.py [OUT.png]      # needs playwright and a system chromium
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request

CHROMIUM = os.environ.get("HSIM_CHROMIUM", "/usr/lib/chromium/chromium")


def main(out: str = "docs/images/ui-table-hotspotting.png") -> int:
    from playwright.sync_api import sync_playwright

    run = subprocess.Popen([sys.executable, "-m", "hsim", "run", "hotspotting", "--ui", "0",
                            "--variants", "timestamp_lead", "--ops", "2000000", "--no-progress",
                            "--sensitivity", "off", "--no-plots", "--out", "/tmp/hsim-ui-shot"],
                           stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, text=True)
    line = run.stderr.readline()
    url = line[line.index("http://"):].split()[0] + "table.jsp?name=ts"
    shots = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 420})
        while run.poll() is None and shots < 15:  # 15 samples of the heat strip, 2 s apart
            time.sleep(2)
            try:
                urllib.request.urlopen(url, timeout=5).read()
            except OSError:
                continue  # the table is not created yet
            page.goto(url)
            page.screenshot(path=out, full_page=True)
            shots += 1
        browser.close()
    run.kill()
    run.wait()
    print(f"{out}: {shots} refreshes")
    return 0 if shots else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
