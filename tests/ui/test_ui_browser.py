"""The UI in a real browser: Debian's chromium driven by playwright (no `playwright install`:
the browser comes from the system, `apt-get install chromium`, or HSIM_CHROMIUM=path). Every page
loads, the links lead where they say, no JavaScript console errors, a screenshot is saved."""

import os
import shutil

import pytest

import hsim
import hsim.ui

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is not installed (pip install -e '.[dev]')")


def _chromium() -> str | None:
    for path in (os.environ.get("HSIM_CHROMIUM"), "/usr/lib/chromium/chromium",
                 shutil.which("chromium"), shutil.which("chromium-browser"),
                 shutil.which("google-chrome")):
        if path and os.path.exists(path):
            return path
    return None


CHROMIUM = _chromium()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium found: apt-get install chromium, or set HSIM_CHROMIUM")]


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def test_every_page_in_a_browser_links_followed_no_console_errors(browser, tmp_path):
    cluster = hsim.Cluster(region_servers=2)
    cluster.admin.create_table("t", ["cf"], split_keys=[b"g", b"p"])
    t = cluster.table("t")
    with hsim.ui.start(cluster, port=0, sample_every=None) as ui:
        for step in range(6):  # a hotspot: most writes land in the last region
            for i in range(30):
                t.put(f"{'z' if i % 5 else 'a'}{step:02d}{i:03d}".encode(), {b"cf:q": b"v"})
            ui.sample()
        cluster.admin.flush("t")
        page = browser.new_page()
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))

        def visit(click=None, url=None):
            with page.expect_navigation():
                page.click(click) if click else page.goto(url)
            assert page.evaluate("document.readyState") in ("interactive", "complete")

        page.goto(ui.url)
        assert page.title() == "hsim Master"
        visit(click="a[href='/table.jsp?name=t']")
        assert page.title() == "hsim Table t"
        strips = page.locator("div.heat")
        assert strips.count() == 3 and strips.nth(2).locator("span").count() == 6
        page.screenshot(path=str(tmp_path / "table.png"), full_page=True)
        visit(click="tr:nth-child(4) >> a")  # the hot region [p, )
        assert page.title().startswith("hsim Region ")
        visit(click="a[href^='/storeFile.jsp']")
        assert page.title().startswith("hsim Store file ")
        assert page.locator("text=Trailer").count() == 1
        visit(click="nav >> a[href='/explain.jsp']")
        page.fill("input[name=row]", "z00001")
        visit(click="button[type=submit]")
        assert "EXPLAIN get 't', 'z00001'" in page.inner_text("pre")
        visit(click="nav >> a[href='/jmx']")
        assert '"Hadoop:service=HBase,name=RegionServer,sub=Server"' in page.content()
        visit(click=None, url=ui.url + "master-status")
        assert errors == []
    assert (tmp_path / "table.png").stat().st_size > 1000
