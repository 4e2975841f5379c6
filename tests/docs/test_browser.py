"""Every page of the built site, loaded in headless Chromium at a desktop
and a phone width: nothing scrolls sideways, nothing is fetched from beyond
the site, no image is missing, and no picture sits on a white slab in dark
mode.

The phone is in dark mode, the desktop in light, so both colour schemes
load every page.  Chromium is required: without it the test fails (set
QUIDDLER_CHROMIUM to another binary).  QUIDDLER_DOCS_SCREENSHOTS=FOLDER
saves a screenshot of each page at each width there, to look at.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("QUIDDLER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
#: (width, colour scheme): a desktop and a phone.
SCREENS = [(1280, "light"), (390, "dark")]
#: A table of short cells (numbers, names) may scroll inside its own frame
#: on a phone, as a data table does; a table with a cell longer than this
#: holds prose and must fit the screen.
SHORT_CELL = 40

#: What a loaded page shows that it should not, as lists of descriptions.
PAGE_CHECK = """(shortCell) => {
  const width = document.documentElement.clientWidth;
  const found = {sideways: [], tables: [], images: []};
  if (document.documentElement.scrollWidth > width + 1) {
    found.sideways.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  }
  for (const el of document.querySelectorAll(".md-content *")) {
    if (el.closest("pre, .highlight, .md-typeset__scrollwrap, .md-typeset__table")) continue;
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1) {
      found.sideways.push(`<${el.tagName.toLowerCase()}> "${el.textContent.trim().slice(0, 50)}" ends at ${Math.round(box.right)}px`);
    }
  }
  for (const wrap of document.querySelectorAll(".md-typeset__scrollwrap")) {
    if (wrap.scrollWidth <= wrap.clientWidth + 1) continue;
    const longest = Math.max(...[...wrap.querySelectorAll("td, th")].map(c => c.textContent.trim().length));
    if (longest > shortCell) {
      found.tables.push(`a table of prose is ${wrap.scrollWidth}px wide in ${wrap.clientWidth}px: `
                        + `"${wrap.textContent.trim().slice(0, 50)}"`);
    }
  }
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) found.images.push(img.getAttribute("src"));
    // The pictures are drawn on white: dark mode must not show them as bright slabs.
    const dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    if (dark && img.closest(".md-content") && getComputedStyle(img).filter === "none") {
      found.images.push(`${img.getAttribute("src")} is shown on white in dark mode`);
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """The built site on a local HTTP server; yields its base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_chromium_is_there() -> None:
    """The browser test needs Chromium; a machine without it fails here
    (and in the test below), never skips."""
    assert Path(CHROMIUM).is_file(), f"no Chromium at {CHROMIUM} (set QUIDDLER_CHROMIUM)"


def test_every_page_at_desktop_and_phone_width(site: Path, server: str) -> None:
    from playwright.sync_api import Route, sync_playwright

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"no Chromium at {CHROMIUM} (set QUIDDLER_CHROMIUM): the site cannot be checked")
    # 404.html is served for any missing path, so it links to the site by
    # absolute paths under site_url; it is checked by the build, not here.
    pages = sorted(str(p.relative_to(site)) for p in site.rglob("*.html") if p.name != "404.html")
    assert len(pages) > 20, pages
    shots = os.environ.get("QUIDDLER_DOCS_SCREENSHOTS")
    problems: list[str] = []
    outside: set[str] = set()
    failed: set[str] = set()

    def route(route: Route) -> None:
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.add(route.request.url)
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for width, scheme in SCREENS:
                context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
                context.route("**/*", route)
                page = context.new_page()
                page.on("response", lambda r: failed.add(f"{r.status} {r.url}") if r.status >= 400 else None)
                # (a request cut short by moving on to the next page is not a failure;
                # a missing file is a 404 response, caught above)
                page.on("requestfailed", lambda r: r.url.startswith(server) and r.failure != "net::ERR_ABORTED"
                        and failed.add(f"{r.failure} {r.url}"))  # fmt: skip
                for name in pages:
                    page.goto(server + name, wait_until="load")
                    found = page.evaluate(PAGE_CHECK, SHORT_CELL)
                    for kind, items in found.items():
                        problems += [f"{name} at {width}px: {kind}: {item}" for item in items]
                    if shots:
                        Path(shots).mkdir(parents=True, exist_ok=True)
                        page.screenshot(
                            path=str(Path(shots) / f"{name.replace('/', '_')}-{width}-{scheme}.png")
                        )
                context.close()
        finally:
            browser.close()
    assert not outside, f"requests beyond the site: {sorted(outside)}"
    assert not failed, f"requests that failed: {sorted(failed)}"
    assert not problems, "\n".join(problems)
