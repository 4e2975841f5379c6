"""The browser game in a real headless Chromium against a real server.

Each test drives Debian's Chromium through Playwright against a
``quiddler serve --port 0`` process on loopback, and plays by clicking (or
by the keyboard alone) as a person would: the page's own buttons, never
its WebSocket.  Moves are chosen with the page's hint button, whose best
option the test then plays by hand.  The screenshots in docs/images/web-*.png
are taken here: ``QUIDDLER_WEB_SCREENSHOTS=1 pytest tests/web/test_browser.py``
takes them afresh.

The browser is required: without Playwright or Chromium these tests fail
(CI installs both), they never skip.
"""

from __future__ import annotations

import json
import os
import re
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

# Every test here starts a server process and a browser: give them room.
pytestmark = pytest.mark.timeout(600)


# -- the server and the browser ----------------------------------------------------------


def start_server(folder: Path, port: int = 0) -> tuple[subprocess.Popen[bytes], str]:
    """``quiddler serve`` on loopback over the database in ``folder``; the
    process and the address its first line announces."""
    out, err = folder / f"stdout-{time.monotonic_ns()}.txt", folder / "stderr.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with out.open("w") as stdout, err.open("a") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "quiddler.cli", "serve", "--port", str(port), "--db", str(folder / "tables.sqlite3")],
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


@pytest.fixture
def open_tab(browser: Any) -> Iterator[Callable[..., Tab]]:
    """open_tab(viewport=..., context=None): a new tab, in a fresh browser
    context (its own localStorage: another person) unless one is given."""
    contexts: list[Any] = []
    tabs: list[Tab] = []

    def make(viewport: dict[str, int] = DESKTOP, context: Any = None) -> Tab:
        if context is None:
            context = browser.new_context(viewport=viewport, accept_downloads=True)
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
                 hints: bool = True) -> None:  # fmt: skip
    """Fill in and send the "table with friends" form; seats[0] is the creator's."""
    page.goto(base + "/")
    page.fill("#my-name", name)
    page.select_option("#seat-count", str(len(seats)))
    for i, kind in enumerate(seats[1:], start=1):
        page.select_option(f"#seat-{i}", kind)
    page.fill("#sizes", sizes)
    page.fill("#turn-limit", str(turn_limit))
    if not hints:
        page.uncheck("#hints")
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))


def hand(page: Any) -> list[str]:
    """The faces of the cards in the hand, in order."""
    return [str(x) for x in page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.querySelector('.face').textContent)")]


def my_turn(page: Any) -> bool:
    return bool(page.locator("#turn-line.mine").count())


def game_over(page: Any) -> bool:
    return bool(page.locator("#winner").count())


def play_hinted_move(page: Any) -> str:
    """Ask the page for a hint and play its best option by clicking: the
    pile, the discard, a card; or build the words card by card and go out
    (or lay down).  Returns the option's action."""
    page.click("#hint-button")
    best = page.locator("#hint li").first
    best.wait_for()
    action = best.get_attribute("data-action") or ""
    card = best.get_attribute("data-card") or ""
    words = [w.split(",") for w in (best.get_attribute("data-words") or "").split()]
    if action == "draw-pile":
        page.click("#pile")
    elif action == "take-discard":
        page.click("button.discard-top")
    elif action == "discard" or (action == "lay-down" and not words):
        page.locator(f'#hand button[data-face="{card}"]').first.click()
    else:
        page.click("#build-words")
        for word in words:
            for face in word:
                page.locator(f'#hand button[data-face="{face}"]').first.click()
            page.click("#finish-word")
        if action == "go-out":
            page.click("#go-out-send")
        else:
            page.locator(f'button[data-focus="lay-{card}"]').click()
    # The hint belongs to one move: it goes once the server's next state has come.
    page.locator("#hint").wait_for(state="detached")
    assert not page.locator("#error").count(), page.inner_text("#error")
    return action


def wait_for_move_or_end(pages: list[Any]) -> Any | None:
    """The page whose turn it is, or None once every page shows the game over."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if all(game_over(p) for p in pages):
            return None
        for p in pages:
            if my_turn(p):
                return p
        pages[0].wait_for_timeout(50)
    raise AssertionError("nobody's turn and no game over: " + " | ".join(p.inner_text("#turn-line") for p in pages))


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
    the round) a new round has begun."""
    page.wait_for_function(
        """face => [...document.querySelectorAll('#log li')].some(li => li.textContent === `You discarded ${face}.`)
                  || !document.getElementById('round-line').textContent.startsWith('Round 1 ')""",
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
    page.screenshot(path=str(folder / f"web-{name}.png"), full_page=full_page)


# -- the tests ---------------------------------------------------------------------------


def test_a_whole_game_against_the_computer_by_clicking(server: str, open_tab: Callable[..., Tab]) -> None:
    """Two short rounds against a computer: every move clicked, the round
    results and score sheet shown, the record downloaded at the end."""
    tab = open_tab()
    page = tab.page
    create_table(page, server, name="Ann", seats=["human", "easy"], sizes="3,4")
    page.locator("#turn-line").wait_for()
    assert page.inner_text("#round-line").startswith("Round 1 of 2")
    shot_taken = False
    actions = []
    for _ in range(300):
        current = wait_for_move_or_end([page])
        if current is None:
            break
        if not shot_taken and page.locator("#turn-line").inner_text().startswith("Your turn: discard"):
            page.click("#hint-button")
            page.locator("#hint li").first.wait_for()
            screenshot(page, "desktop", full_page=True)
            shot_taken = True
        actions.append(play_hinted_move(page))
    assert game_over(page), "the game did not end"
    assert shot_taken
    assert {"draw-pile", "take-discard"} & set(actions) and {"discard", "go-out", "lay-down"} & set(actions)

    # The end: the winner, both rounds on the score sheet, the last round explained.
    totals = page.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => Number(c.textContent))")
    assert len(totals) == 2
    winner = page.inner_text("#winner")
    best = max(totals)
    assert str(best) in winner
    assert page.locator("#score-sheet tbody tr").count() == 3  # two rounds and the totals
    result = page.locator("details.result").first
    text = result.inner_text()
    assert "Round 2 result" in text
    assert "longest-word bonus" in text.lower() and "most-words bonus" in text.lower()
    screenshot(page, "result", full_page=True)

    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["players"][0] == "Ann" and record["finished"] is True
    assert record["final_scores"] == totals
    assert [len(r["actions"]) > 0 for r in record["rounds"]] == [True, True]


def test_two_browsers_at_one_table_play_each_other_to_the_end(server: str, open_tab: Callable[..., Tab]) -> None:
    ann, bo = open_tab().page, open_tab().page
    create_table(ann, server, name="Ann", seats=["human", "human"], sizes="3")
    ann.locator("#lobby-seats").wait_for()
    assert "waiting for a friend" in ann.inner_text("#lobby-seats")
    link = ann.input_value("#invite-link")
    assert re.fullmatch(re.escape(server) + r"/t/[A-Za-z0-9_-]+#invite=\S+", link), link
    screenshot(ann, "lobby")

    bo.goto(link)
    bo.fill("#join-name", "Bo")
    bo.click("#take-seat")
    for page in (ann, bo):
        page.locator("#turn-line").wait_for()
    # The invite has done its job: it leaves Bo's address bar; no token is ever in a URL.
    assert "#invite" not in bo.url
    for page, me, other in ((ann, "Ann", "Bo"), (bo, "Bo", "Ann")):
        players = page.inner_text("ul.players")
        assert me in players and other in players
    # Someone with the table's address but no invite watches: the public view, no hand, no controls.
    watcher = open_tab().page
    watcher.goto(link.partition("#")[0])
    watcher.locator("#watching").wait_for()
    assert not watcher.locator("#hand").count() and not watcher.locator("#hint-button").count()
    assert "Ann" in watcher.inner_text("ul.players") and "Bo" in watcher.inner_text("ul.players")
    actions = play_to_the_end([ann, bo])
    assert ann.inner_text("#winner") == bo.inner_text("#winner")
    watcher.locator("#winner").wait_for()
    assert watcher.inner_text("#winner") == ann.inner_text("#winner")
    ann_totals = ann.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => c.textContent)")
    bo_totals = bo.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => c.textContent)")
    assert ann_totals == bo_totals
    with bo.expect_download() as download:
        bo.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["players"] == ["Ann", "Bo"]
    # A round someone went out of gave the other a final turn, laid down by clicking.
    if record["rounds"][0]["result"]["went_out"] is not None:
        assert "go-out" in actions and "lay-down" in actions, actions


def test_a_reload_or_a_closed_tab_comes_back_to_the_same_seat_and_move(server: str,
                                                                       open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    tab = open_tab()
    page = tab.page
    page.goto(server + "/")
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    address = page.url
    assert wait_for_move_or_end([page]) is page
    page.click("#pile")
    page.locator("#turn-line", has_text="discard").wait_for()
    before = hand(page)
    log_before = page.inner_text("#log")

    page.reload()
    page.locator("#turn-line.mine", has_text="discard").wait_for()
    assert hand(page) == before
    assert page.inner_text("#log") == log_before
    assert page.url == address

    # A closed tab: the same browser opens the table again and is still in the seat.
    context = page.context
    page.close()
    again = open_tab(context=context).page
    again.goto(address)
    again.locator("#turn-line.mine", has_text="discard").wait_for()
    assert hand(again) == before
    tokens = again.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('quiddler.seat.'))")
    assert tokens, "the seat's token is kept in localStorage"
    token = json.loads(again.evaluate(f"() => localStorage.getItem({json.dumps(tokens[0])})"))["token"]
    assert token not in again.url
    again.locator(f'#hand button[data-face="{before[0]}"]').first.click()
    wait_discarded(again, before[0])


def test_typed_words_that_cannot_be_laid_down_get_the_exact_reason(server: str, open_tab: Callable[..., Tab]) -> None:
    """The words box: a word the hand cannot spell, and a word not in the
    list, are answered with the reasons `quiddler play` gives."""
    from quiddler import default_wordlist
    from quiddler.cards import Card
    from quiddler.play.spelling import WordProblem, match_words

    page = open_tab().page
    create_table(page, server, name="Ann", seats=["human", "easy"], sizes="5", hints=False)
    assert wait_for_move_or_end([page]) is page
    assert not page.locator("#hint-button").count(), "a table without hints shows no hint button"
    page.click("#pile")
    page.locator("#words-input").wait_for()
    cards = tuple(Card(f) for f in hand(page))
    for typed in ("zzzzz", "quiz"):
        try:
            match_words([typed], cards, default_wordlist())
        except WordProblem as exc:
            expected = str(exc)
        else:  # the hand happens to go out with it: not a refusal to check
            continue
        page.fill("#words-input", typed)
        page.press("#words-input", "Enter")
        page.locator("#error", has_text=expected).wait_for()
        assert page.inner_text("#error") == expected
    assert page.locator("#turn-line.mine", has_text="discard").count()


def test_a_phone_width_screen_shows_everything_without_sideways_scrolling(server: str,
                                                                          open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    page = open_tab(viewport=PHONE).page
    page.goto(server + "/")
    page.locator("#play-now").wait_for()
    no_sideways_scroll(page)
    inside_viewport(page, "#play-now")
    screenshot(page, "phone-home")
    # The last round's ten cards (eleven after the draw): too many for one line, so they must wrap.
    create_table(page, server, name="Ann", seats=["human", "medium"], sizes="10")
    assert wait_for_move_or_end([page]) is page
    no_sideways_scroll(page)
    for control in ("#pile", "#hint-button", "#turn-line"):
        inside_viewport(page, control)
    page.click("#pile")
    page.locator("#turn-line", has_text="discard").wait_for()
    page.click("#hint-button")
    page.locator("#hint li").first.wait_for()
    no_sideways_scroll(page)
    for control in ("#hand button.card", "#build-words", "#words-input", "#typed-send"):
        inside_viewport(page, control)
    cards = page.locator("#hand button.card")
    assert cards.count() == 11
    rows = {round(cards.nth(i).bounding_box()["y"]) for i in range(cards.count())}
    assert len(rows) > 1, "the hand is on one line wider than the phone"
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "phone", full_page=True)


def test_a_turn_with_the_keyboard_alone(server: str, open_tab: Callable[..., Tab]) -> None:
    """Tab to "Play now", Enter; Tab to the pile, Enter; the focus moves to
    the hand, Enter discards; next turn the focus is on the pile, and the
    word builder is reached, used and left with the keyboard."""
    page = open_tab().page
    page.goto(server + "/")
    page.locator("#play-now").wait_for()
    screenshot(page, "home")

    def tab_to(test: str, limit: int = 40) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(f"() => {{ const a = document.activeElement; return Boolean(a && ({test})); }}"):
                return
        raise AssertionError(f"Tab never reached {test}")

    tab_to("a.id === 'play-now'")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    assert wait_for_move_or_end([page]) is page
    tab_to("a.dataset.focus === 'pile'")
    # The focus ring is drawn: a keyboard user sees where they are.
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")
    page.keyboard.press("Enter")
    page.locator("#turn-line", has_text="discard").wait_for()
    # The pile is done with: the keyboard is on the first card of the hand.
    page.wait_for_function("() => (document.activeElement.dataset.focus || '').startsWith('hand-')")
    face = page.evaluate("() => document.activeElement.dataset.face")
    page.keyboard.press("Enter")
    wait_discarded(page, face)
    # The announcement region tells a screen reader what happened.
    page.wait_for_function("() => document.getElementById('announce').textContent.length > 0")

    # The next turn: the keyboard is put on the pile when the move comes back.
    page.locator("#turn-line.mine").wait_for()
    page.wait_for_function("() => document.activeElement.dataset.focus === 'pile'")
    page.keyboard.press("Space")
    page.locator("#turn-line.mine", has_text="discard").wait_for()
    tab_to("a.id === 'build-words'")
    page.keyboard.press("Enter")
    page.locator("#finish-word").wait_for()
    page.wait_for_function("() => (document.activeElement.dataset.focus || '').startsWith('hand-')")
    page.keyboard.press("Enter")  # the focused card goes into the word ...
    assert page.locator(".builder .current .card").count() == 1
    page.keyboard.press("Escape")  # ... and Esc leaves the builder, every card back in the hand
    page.locator("#finish-word").wait_for(state="detached")
    assert len(hand(page)) == page.locator("#hand button.card").count() > 0


def test_a_server_killed_mid_game_and_started_again_puts_the_player_back(browser: Any, tmp_path: Path,
                                                                          open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    """SIGKILL the server between a draw and a discard, start it again on
    the same port and database: the open page reconnects by itself and
    shows the same hand at the same move, which then plays on."""
    process, url = start_server(tmp_path)
    try:
        tab = open_tab()
        tab.server_stopped = True
        page = tab.page
        page.goto(url + "/")
        page.click("#play-now")
        assert wait_for_move_or_end([page]) is page
        page.click("#pile")
        page.locator("#turn-line.mine", has_text="discard").wait_for()
        before = hand(page)
        process.kill()
        process.wait(20)
        page.locator("#connection", has_text="Connection lost").wait_for()
        process, again = start_server(tmp_path, port=int(url.rpartition(":")[2]))
        assert again == url
        page.wait_for_function("() => document.getElementById('connection').textContent === ''")
        page.locator("#turn-line.mine", has_text="discard").wait_for()
        assert hand(page) == before
        page.locator(f'#hand button[data-face="{before[-1]}"]').first.click()
        wait_discarded(page, before[-1])
    finally:
        stop_server(process)


def test_names_show_as_text_and_refusals_say_why(server: str, open_tab: Callable[..., Tab]) -> None:
    """A name that looks like HTML is shown as those characters and never
    runs; a rules value the server refuses is shown with its reason."""
    tab = open_tab()
    tab.allowed.append(re.compile(r"status of 400 \(Bad Request\)"))
    page = tab.page
    page.goto(server + "/")
    page.fill("#my-name", "Ann")
    page.select_option("#seat-1", "easy")
    page.fill("#sizes", "1")
    page.click("#create-table")
    error = page.locator("p.error", has_text="Could not start the table")
    error.wait_for()
    assert "at least 2 cards, not 1" in error.inner_text()

    hostile = "<img src=x onerror=f()>"
    page.evaluate("() => { window.ran = false; window.f = () => { window.ran = true; }; }")
    page.fill("#my-name", hostile)
    page.fill("#sizes", "3")
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.locator("ul.players").wait_for()
    assert hostile in page.inner_text("ul.players")
    assert page.locator("main img").count() == 0
    assert page.evaluate("() => window.ran") is not True


def test_a_table_that_does_not_exist_says_so(server: str, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab()
    tab.allowed.append(re.compile(r"status of 404 \(Not Found\)"))  # the invite page asks for the table's facts
    page = tab.page
    page.goto(server + "/t/nosuchtable")
    page.locator("p.error", has_text="There is no such table").wait_for()
    assert not page.locator("#watch").count()
    page.goto(server + "/t/nosuchtable#invite=abc")
    page.locator("p.error", has_text="There is no such table").wait_for()


def test_a_stored_token_the_server_refuses_is_dropped(server: str, open_tab: Callable[..., Tab]) -> None:
    """A seat token this browser kept that no longer opens the seat (say,
    the database was replaced): the page says so, forgets it, and offers to watch."""
    import urllib.request

    request = urllib.request.Request(server + "/api/tables", data=json.dumps({"seats": ["human", "easy"]}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as response:
        table = json.load(response)["table"]
    page = open_tab().page
    page.goto(server + "/")
    key = f"quiddler.seat.{table}"
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps({"token": "not-a-token", "seat": 0})])
    page.goto(f"{server}/t/{table}")
    page.locator("p.error", has_text="not valid any more").wait_for()
    assert page.evaluate("k => localStorage.getItem(k)", key) is None
    page.click("#watch")
    page.locator("#watching").wait_for()
