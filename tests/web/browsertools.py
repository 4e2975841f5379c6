"""What the browser tests share: a real ``quiddler serve`` on loopback, Debian's
Chromium under Playwright, a tab that fails the test on any script error,
playing through the page as a person does, screenshots for the docs, and
axe-core's accessibility audit.

axe-core comes from the npm registry at a pinned version, installed once
into ``~/.cache/quiddler-tests`` (``npm install --no-save``) and run in the
page by Playwright; without npm or the registry the tests that audit fail,
they never skip.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
#: Where screenshots go on an ordinary run.
SHOTS = Path(tempfile.gettempdir()) / "quiddler-web-screenshots"
CHROMIUM = os.environ.get("QUIDDLER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]  # fmt: skip
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: How long a step may wait for the server (a computer move, a first solver compile).
WAIT_MS = 120_000

#: The accessibility checker the tests inject, pinned.
AXE_VERSION = "4.10.2"
AXE_CACHE = Path.home() / ".cache" / "quiddler-tests" / f"axe-core-{AXE_VERSION}"


# -- the server and the browser ----------------------------------------------------------


def start_server(folder: Path, port: int = 0) -> tuple[subprocess.Popen[bytes], str]:
    """``quiddler serve`` on loopback over the database in ``folder``; the
    process and the address its first line announces.  It trusts loopback as
    a proxy, so that each browser context can say who it is (see
    :func:`open_tab`): the server meters tables and connections per person,
    and one test module is many people."""
    out, err = folder / f"stdout-{time.monotonic_ns()}.txt", folder / "stderr.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with out.open("w") as stdout, err.open("a") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "quiddler.cli", "serve", "--port", str(port), "--db", str(folder / "tables.sqlite3"),
             "--trusted-proxy", "127.0.0.1"],
            stdout=stdout, stderr=stderr, cwd=folder, env=env,
        )  # fmt: skip
    try:
        return process, _first_line_url(process, out, err)
    except BaseException:
        stop_server(process)
        raise


def _first_line_url(process: subprocess.Popen[bytes], out: Path, err: Path) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        text = out.read_text()
        if "\n" in text:
            line = text.splitlines()[0]
            match = re.fullmatch(r"Serving on (http://127\.0\.0\.1:\d+)", line.strip())
            assert match, f"the first line is not 'Serving on http://HOST:PORT': {line!r}"
            return match.group(1)
        if process.poll() is not None:
            pytest.fail(f"quiddler serve exited with {process.returncode}: {err.read_text()[-2000:]}", pytrace=False)
        time.sleep(0.05)
    pytest.fail(f"quiddler serve printed no address within 60 s: {err.read_text()[-2000:]}", pytrace=False)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(20)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``quiddler serve`` on a free loopback port; yields its base URL."""
    process, url = start_server(tmp_path_factory.mktemp("serve"))
    try:
        yield url
    finally:
        stop_server(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright; a missing one fails the test."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - CI installs it
        pytest.fail(f"the browser tests need playwright ({exc}): pip install playwright", pytrace=False)
    if not Path(CHROMIUM).is_file():  # pragma: no cover - CI installs it
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: apt-get install -y chromium", pytrace=False)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Tab:
    """A page and every script error or CSP refusal it reported (a test fails on any)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []
        self.server_stopped = False
        #: Console messages a test expects (a request it makes the server refuse).
        self.allowed: list[re.Pattern[str]] = []
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("console", lambda msg: msg.type == "error" and self.problems.append(f"console: {msg.text}"))
        page.set_default_timeout(WAIT_MS)

    #: What Chromium logs while the server is away (a test that stops it on purpose allows these).
    NETWORK = re.compile(r"WebSocket connection to .* failed|Failed to load resource: net::ERR_CONNECTION_REFUSED")

    def check(self, *, server_stopped: bool = False) -> None:
        problems = [p for p in self.problems
                    if not (server_stopped and self.NETWORK.search(p)) and not any(a.search(p) for a in self.allowed)]
        assert not problems, problems


#: Each browser context's number: the client address it names to the server.
PEOPLE = itertools.count()


@pytest.fixture
def open_tab(browser: Any) -> Iterator[Callable[..., Tab]]:
    """open_tab(viewport=..., context=None): a new tab, in a fresh browser
    context (its own localStorage: another person) unless one is given."""
    contexts: list[Any] = []
    tabs: list[Tab] = []

    def make(viewport: dict[str, int] = DESKTOP, context: Any = None, *, pace: str = "instant", **options: Any) -> Tab:
        if context is None:
            person = next(PEOPLE)
            headers = {"X-Forwarded-For": f"127.1.{person // 250}.{person % 250 + 1}"}  # another person each
            context = browser.new_context(viewport=viewport, accept_downloads=True, extra_http_headers=headers,
                                          **options)  # fmt: skip
            # Computer moves at once unless a test watches the pace: the games go faster.
            context.add_init_script(f"localStorage.getItem('quiddler.pace') || localStorage.setItem('quiddler.pace', {json.dumps(pace)})")
            contexts.append(context)
        tab = Tab(context.new_page())
        tabs.append(tab)
        return tab

    yield make
    try:
        for tab in tabs:
            tab.check(server_stopped=tab.server_stopped)
    finally:
        for context in contexts:
            context.close()



# -- playing through the page ------------------------------------------------------------


def create_table(page: Any, base: str, *, name: str, seats: list[str], sizes: str, turn_limit: int = 12,
                 hints: bool = True, first_turn: bool = False) -> None:  # fmt: skip
    """Fill in and send the "table with friends" form; seats[0] is the creator's.
    ``first_turn`` is the rule that no one goes out on a first turn."""
    page.goto(base + "/")
    page.fill("#my-name", name)
    page.select_option("#seat-count", str(len(seats)))
    for i, kind in enumerate(seats[1:], start=1):
        page.select_option(f"#seat-{i}", kind)
    page.fill("#sizes", sizes)
    page.fill("#turn-limit", str(turn_limit))
    if not hints:
        page.uncheck("#hints")
    page.set_checked("#first-turn", first_turn)
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))


def play_now(page: Any, base: str, *, level: str = "easy", rounds: int = 1, first_turn: bool = False,
             hints: bool = True) -> None:  # fmt: skip
    """The home page's "Play now", with its level and rules."""
    page.goto(base + "/")
    page.select_option("#quick-level", level)
    page.select_option("#quick-rounds", str(rounds))
    page.set_checked("#quick-first-turn", first_turn)
    page.set_checked("#quick-hints", hints)
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))


def hand(page: Any) -> list[str]:
    """The faces of the cards in the hand, in the order shown."""
    return [str(x) for x in page.eval_on_selector_all("#hand button.card", "cards => cards.map(c => c.dataset.face)")]


#: What shows the game over, a round's result up, and this seat's move.
GAME_OVER, ROUND_RESULT, MY_MOVE = "#winner", "#next-round", "#turn-line.mine"


def my_turn(page: Any) -> bool:
    return bool(page.locator(MY_MOVE).count())


def game_over(page: Any) -> bool:
    return bool(page.locator(GAME_OVER).count())


def next_round(page: Any, on_result: Callable[[Any], None] | None = None) -> bool:
    """Go on from a round's result when it is up (after ``on_result(page)``, to look at it); whether it was."""
    button = page.locator(ROUND_RESULT)
    if button.count():
        if on_result is not None:
            on_result(page)
        button.click()
        return True
    return False


def show_hint(page: Any) -> Any:
    """Ask the page for a hint; its best option once shown.  A hint the page
    says was refused is asked for again, as a person would: a loaded server
    answers ``busy`` when a hint takes too long.  After WAIT_MS the test fails,
    with the page's last word on it."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        page.click("#hint-button")
        answered = page.wait_for_function(
            "() => document.querySelector('#hint li') || (!document.getElementById('hint') && document.getElementById('error'))",
            timeout=max(1.0, deadline - time.monotonic()) * 1000,
        )  # fmt: skip
        if answered.evaluate("node => node.tagName") == "LI":
            return page.locator("#hint li").first
        refused = page.inner_text("#error")
        if time.monotonic() > deadline:
            raise AssertionError(f"no hint within {WAIT_MS // 1000} s: the page says {refused!r}")
        page.wait_for_timeout(1000)


def play_hinted_move(page: Any) -> str:
    """Ask the page for a hint and play its best option by clicking: the
    pile, the discard, a card; or type the words with the discard to go out
    (or lay down).  Returns the option's action."""
    best = show_hint(page)
    action = best.get_attribute("data-action") or ""
    card = best.get_attribute("data-card") or ""
    words = [w.split(",") for w in (best.get_attribute("data-words") or "").split()]
    if action == "draw-pile":
        page.click("#pile")
    elif action == "take-discard":
        page.click("#discard")
    elif action == "discard" or (action == "lay-down" and not words):
        page.locator(f'#hand button[data-face="{card}"]').first.click()
    else:
        page.fill("#words-input", " ".join("".join(w) for w in words) + f" discard {card}")
        page.click("#typed-send")
    # The hint belongs to one move: it goes once the server's next state has come.
    page.locator("#hint").wait_for(state="detached")
    assert not page.locator("#error").count(), page.inner_text("#error")
    return action


#: What a page shows now, read in one go: "over", "result" (a round's result
#: is up), "mine" (this seat's move) or "waiting".  Read in two steps, the page
#: could draw in between: the state that ends a round can start this seat's
#: turn under the result, and a click then meets the result, not the table.
SITUATION = f"""() => document.querySelector('{GAME_OVER}') ? 'over'
    : document.querySelector('{ROUND_RESULT}') ? 'result'
    : document.querySelector('{MY_MOVE}') ? 'mine' : 'waiting'"""


def situation(page: Any) -> str:
    return str(page.evaluate(SITUATION))


def wait_for_move_or_end(pages: list[Any], on_result: Callable[[Any], None] | None = None) -> Any | None:
    """The page whose turn it is, or None once every page shows the game
    over; a round's result on the way is gone on from (see next_round)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        seen = [situation(p) for p in pages]
        if all(s == "over" for s in seen):
            return None
        for p, s in zip(pages, seen, strict=True):
            if s == "result":
                next_round(p, on_result)
            elif s == "mine":
                return p
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn and no game over: " + " | ".join(p.inner_text("main") for p in pages))


def play_to_the_end(pages: list[Any], *, max_moves: int = 400) -> list[str]:
    actions = []
    for _ in range(max_moves):
        page = wait_for_move_or_end(pages)
        if page is None:
            return actions
        actions.append(play_hinted_move(page))
    raise AssertionError(f"the game did not end within {max_moves} moves")


def wait_discarded(page: Any, face: str) -> None:
    """The discard of ``face`` is shown in the round's log, or (when it ended
    the round) the round's result or the game's end is up."""
    page.wait_for_function(
        """face => [...document.querySelectorAll('#log li')].some(li => li.textContent === `You discarded the ${face}.`)
                  || document.getElementById('next-round') || document.getElementById('winner')""",
        arg=face,
    )


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width[0]} px of content in {width[1]} px"


def inside_viewport(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    viewport = page.viewport_size
    assert box is not None, f"{selector} is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], f"{selector} sticks out: {box}"


def screenshot(page: Any, name: str, *, full_page: bool = False) -> None:
    """Take a screenshot; with QUIDDLER_WEB_SCREENSHOTS=1 it replaces the
    documentation's docs/images/web-NAME.png (every deal differs, so an
    ordinary test run leaves the committed pictures alone)."""
    folder = IMAGES if os.environ.get("QUIDDLER_WEB_SCREENSHOTS") == "1" else SHOTS
    folder.mkdir(parents=True, exist_ok=True)
    # A card still flying is caught half-way: wait for it to land.
    page.wait_for_function("() => !document.querySelector('.flying')")
    path = folder / f"web-{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    if folder == IMAGES:
        shrink(path)


def shrink(path: Path) -> None:
    """A documentation picture in 256 colours: a quarter of the bytes, the same to the eye."""
    from PIL import Image

    with Image.open(path) as picture:
        small = picture.convert("RGB").quantize(256)
    small.save(path, optimize=True)


# -- accessibility -----------------------------------------------------------------------


def axe_script() -> Path:
    """axe-core's script, installed from the npm registry into the cache the first time."""
    script = AXE_CACHE / "node_modules" / "axe-core" / "axe.min.js"
    if script.is_file():
        return script
    npm = shutil.which("npm")
    if npm is None:  # pragma: no cover - CI has node
        pytest.fail("the accessibility tests need npm (apt-get install -y npm) to fetch axe-core", pytrace=False)
    AXE_CACHE.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(AXE_CACHE),
                           f"axe-core@{AXE_VERSION}"], check=False, capture_output=True, text=True, timeout=300)  # fmt: skip
    if done.returncode != 0 or not script.is_file():  # pragma: no cover - a registry that does not answer
        pytest.fail(f"npm could not install axe-core@{AXE_VERSION}: {done.stderr[-2000:]}", pytrace=False)
    return script


def axe_violations(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds in the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Run through the DevTools protocol, which the page's CSP does not govern
        # (a script tag would be refused, as it should be).
        page.evaluate(axe_script().read_text() + "\n;undefined")
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations.filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map(n => n.target.join(" ")).join("; ")}`);
    }""")
    return [str(v) for v in found]


#: The widths every screen is checked at: a desktop, a phone; and the narrowest phone for sideways scrolling.
WIDTHS = {"desktop": DESKTOP, "phone": PHONE}
NARROWEST = {"width": 320, "height": 700}


def audit(page: Any, screen: str, *, shots: bool = True) -> None:
    """A screen at both widths: no serious or critical axe-core violation,
    a screenshot of each (docs/images/web-SCREEN-desktop.png, -phone.png),
    and no sideways scroll at 320 px.  The page is left at desktop width."""
    try:
        for label, size in WIDTHS.items():
            page.set_viewport_size(size)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            violations = axe_violations(page)
            assert not violations, f"{screen} at {size['width']} px: {violations}"
            if shots:
                screenshot(page, f"{screen}-{label}", full_page=True)
        page.set_viewport_size(NARROWEST)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        no_sideways_scroll(page)
    finally:
        page.set_viewport_size(DESKTOP)


def announced(page: Any) -> list[str]:
    """Everything the page put into its screen reader region since it loaded (see start_listening)."""
    return [str(x) for x in page.evaluate("() => window.__said || []")]


LISTEN = """
window.__said = [];
document.addEventListener('DOMContentLoaded', () => {
    const region = document.getElementById('announce');
    new MutationObserver(() => window.__said.push(region.textContent))
        .observe(region, { childList: true, characterData: true, subtree: true });
});
"""


def start_listening(page: Any) -> None:
    """Record every text the live region (#announce) is given, from the next page load on."""
    page.add_init_script(LISTEN)
