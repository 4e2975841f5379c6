"""The browser game in a real headless Chromium against a real server.

Each test drives Debian's Chromium through Playwright against a
``quiddler serve --port 0`` process on loopback, and plays by clicking (or
by the keyboard alone) as a person would: the page's own buttons, never
its WebSocket.  Moves are chosen with the page's hint button, whose best
option the test then plays by hand.  Every screen is audited with
axe-core at desktop and phone widths on the way (browsertools.audit), and
the screenshots in docs/images/web-*.png are taken here:
``QUIDDLER_WEB_SCREENSHOTS=1 pytest tests/web/test_browser*.py`` takes them afresh.

The browser is required: without Playwright or Chromium these tests fail
(CI installs both), they never skip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from . import browsertools
from .browsertools import (
    PHONE,
    Tab,
    announced,
    audit,
    create_table,
    game_over,
    hand,
    inside_viewport,
    my_turn,
    no_sideways_scroll,
    play_hinted_move,
    play_to_the_end,
    show_hint,
    start_listening,
    start_server,
    stop_server,
    wait_discarded,
    wait_for_move_or_end,
)

# Every test here starts a server process and a browser: give them room.
pytestmark = pytest.mark.timeout(600)

# The fixtures: one server and one browser for the module, a fresh tab per test.
server = browsertools.server
browser = browsertools.browser
open_tab = browsertools.open_tab


# -- the tests ---------------------------------------------------------------------------


def test_a_whole_game_against_the_computer_by_clicking(server: str, open_tab: Callable[..., Tab]) -> None:
    """Two short rounds against a computer: every move clicked; the table
    in each phase, the round's result and the game's end audited; the
    record downloaded at the end."""
    tab = open_tab()
    page = tab.page
    page.goto(server + "/")
    page.locator("#play-now").wait_for()
    audit(page, "home")
    create_table(page, server, name="Ann", seats=["human", "easy"], sizes="3,4")
    page.locator("#turn-line").wait_for()
    assert page.inner_text("#round-line").startswith("Round 1 of 2")
    seen: set[str] = set()
    actions = []

    def round_result(page: Any) -> None:
        # The round's result, over the table: each player's words as rows of cards.
        assert page.locator("#round-result .result-row").count() == 2
        assert "Round 1 result" in page.inner_text("#round-result")
        assert "longest-word bonus" in page.inner_text("#round-result").lower()
        audit(page, "round-result")
        seen.add("round-result")

    for _ in range(300):
        current = wait_for_move_or_end([page], round_result)
        if current is None:
            break
        line = page.inner_text("#turn-line")
        phase = "table-final" if "final turn" in line else "table-draw" if "draw" in line else "table-discard"
        if phase not in seen:
            if phase == "table-discard":
                show_hint(page)
            audit(page, phase, shots=phase != "table-final")  # the final turn's pictures come from its own test
            seen.add(phase)
        actions.append(play_hinted_move(page))
    assert game_over(page), "the game did not end"
    assert {"table-draw", "table-discard", "round-result"} <= seen, seen
    assert {"draw-pile", "take-discard"} & set(actions) and {"discard", "go-out", "lay-down"} & set(actions)

    # The end: the winner, both rounds on the score sheet, the last round explained, room for a review.
    totals = page.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => Number(c.textContent))")
    assert len(totals) == 2
    winner = page.inner_text("#winner")
    assert str(max(totals)) in winner
    assert page.locator("#score-sheet tbody tr").count() == 3  # two rounds and the totals
    text = page.inner_text(".over .result")
    assert "longest-word bonus" in text.lower() and "most-words bonus" in text.lower()
    assert page.locator("#review-button").count() == 1 and page.locator("#rematch").is_enabled()
    audit(page, "game-over")

    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["players"][0] == "Ann" and record["finished"] is True
    assert record["final_scores"] == totals
    assert [len(r["actions"]) > 0 for r in record["rounds"]] == [True, True]


def test_two_browsers_at_one_table_play_each_other_to_the_end(server: str, open_tab: Callable[..., Tab]) -> None:
    """Ann's table, Bo's invite, a spectator, a full table's invite page,
    and at the end a rematch that Ann asks for and Bo is asked to join."""
    ann, bo = open_tab().page, open_tab().page
    create_table(ann, server, name="Ann", seats=["human", "human"], sizes="3")
    ann.locator("#lobby-seats").wait_for()
    assert "waiting for a friend" in ann.inner_text("#lobby-seats")
    link = ann.input_value("#invite-link")
    assert re.fullmatch(re.escape(server) + r"/t/[A-Za-z0-9_-]+#invite=\S+", link), link
    audit(ann, "lobby")

    bo.goto(link)
    bo.locator("#take-seat").wait_for()
    bo.locator(".lobby-seats").wait_for()
    assert bo.inner_text("#connection") == ""  # the invite page opens no connection: none is said to be coming
    audit(bo, "invite")
    bo.fill("#join-name", "Bo")
    bo.click("#take-seat")
    for page in (ann, bo):
        page.locator("#turn-line").wait_for()
    # The invite has done its job: it leaves Bo's address bar; no token is ever in a URL.
    assert "#invite" not in bo.url
    for page, me, other in ((ann, "Ann", "Bo"), (bo, "Bo", "Ann")):
        seats = page.inner_text(".felt")
        assert me in seats and other in seats
    # The invite of a full table: no active "Take a seat", watching offered.
    late = open_tab().page
    late.goto(link)
    late.locator("p.error", has_text="Every seat at this table is taken").wait_for()
    assert late.locator("#take-seat").is_disabled()
    # Someone with the table's address but no invite watches: the public view, no hand, no controls.
    watcher = open_tab().page
    watcher.goto(link.partition("#")[0])
    watcher.locator("#watching").wait_for()
    assert not watcher.locator("#hand").count() and not watcher.locator("#hint-button").count()
    assert "Ann" in watcher.inner_text(".felt") and "Bo" in watcher.inner_text(".felt")
    audit(watcher, "spectator")
    actions = play_to_the_end([ann, bo])
    # Each says it in their own words ("You win", "Ann wins"), with the same points.
    watcher.locator("#winner").wait_for()
    said = {p.inner_text("#winner") for p in (ann, bo, watcher)}
    assert len({re.sub(r"\D", "", text) for text in said}) == 1, said
    assert any(text.startswith("You ") for text in said) and watcher.inner_text("#winner") in said
    ann_totals = ann.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => c.textContent)")
    bo_totals = bo.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => c.textContent)")
    assert ann_totals == bo_totals
    with bo.expect_download() as download:
        bo.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["players"] == ["Ann", "Bo"]
    # A round someone went out of gave the other a final turn.
    if record["rounds"][0]["result"]["went_out"] is not None:
        assert "go-out" in actions, actions

    # The rematch: Ann asks, Bo is asked; both sit in the same seats at a new table, a new deal.
    old = ann.url
    ann.click("#rematch")
    ann.wait_for_url(lambda url: url != old)
    bo.locator("#rematch-offer", has_text="Ann asks for a rematch").wait_for()
    assert bo.inner_text("#rematch") == "Join the rematch"
    bo.click("#rematch")
    bo.wait_for_url(ann.url)
    for page in (ann, bo):
        page.locator("#turn-line").wait_for()
        assert page.inner_text("#round-line").startswith("Round 1 of 1")
    assert ann.inner_text("#seat-0 .name") == bo.inner_text("#seat-0 .name") == "Ann"
    assert ann.inner_text("#seat-1 .name") == bo.inner_text("#seat-1 .name") == "Bo"
    assert wait_for_move_or_end([ann, bo]) is not None  # the rematch plays


def test_a_reload_or_a_closed_tab_comes_back_to_the_same_seat_and_move(server: str,
                                                                       open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    tab = open_tab()
    page = tab.page
    page.goto(server + "/")
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    address = page.url
    assert wait_for_move_or_end([page]) is page
    dealt = len(hand(page))
    page.click("#pile")
    # The draw has come back when the hand holds one card more (the draw's own turn line
    # names the discard pile too, so it cannot tell).
    page.wait_for_function("n => document.querySelectorAll('#hand button.card').length === n + 1", arg=dealt)
    before = hand(page)
    log_before = page.inner_text("#log")

    page.reload()
    page.locator("#turn-line.mine[data-phase='discard']").wait_for()
    assert hand(page) == before
    assert page.inner_text("#log") == log_before
    assert page.url == address

    # A closed tab: the same browser opens the table again and is still in the seat.
    context = page.context
    page.close()
    again = open_tab(context=context).page
    again.goto(address)
    again.locator("#turn-line.mine[data-phase='discard']").wait_for()
    assert hand(again) == before
    tokens = again.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('quiddler.seat.'))")
    assert tokens, "the seat's token is kept in localStorage"
    token = json.loads(again.evaluate(f"() => localStorage.getItem({json.dumps(tokens[0])})"))["token"]
    assert token not in again.url
    again.locator(f'#hand button[data-face="{before[0]}"]').first.click()
    wait_discarded(again, before[0])


def test_typed_words_that_cannot_be_laid_down_get_the_exact_reason(server: str, open_tab: Callable[..., Tab]) -> None:
    """The words box: a word the hand cannot spell, and a word not in the
    list, are answered with the reasons `quiddler play` gives.

    The computer moves first and may go out, so the person's turn may be a
    final one: the reasons are those of the mode the words box is in (on a
    final turn, words that leave cards over are no refusal but a choice of
    discard)."""
    from quiddler import default_wordlist
    from quiddler.cards import Card
    from quiddler.play.spelling import WordProblem, match_words

    page = open_tab().page
    create_table(page, server, name="Ann", seats=["human", "easy"], sizes="5", hints=False)
    assert wait_for_move_or_end([page]) is page
    assert not page.locator("#hint-button").count(), "a table without hints shows no hint button"
    page.click("#pile")
    page.locator("#turn-line.mine[data-phase='discard']").wait_for()
    page.locator("#words-input").wait_for()
    final = page.get_attribute("#words-input", "placeholder") == "quiet ax discard z"
    assert final == page.inner_text("#turn-line").startswith("Your final turn")
    cards = tuple(Card(f) for f in hand(page))
    for typed in ("zzzzz", "quiz"):
        try:
            match_words([typed], cards, default_wordlist(), mode="lay-down" if final else "go-out")
        except WordProblem as exc:
            expected = str(exc)
        else:  # the words fit: not a refusal to check
            continue
        page.fill("#words-input", typed)
        page.press("#words-input", "Enter")
        page.locator("#error", has_text=expected).wait_for()
        assert page.inner_text("#error") == expected
    assert page.locator("#turn-line.mine[data-phase='discard']").count()


def test_a_phone_width_screen_shows_everything_without_sideways_scrolling(server: str,
                                                                          open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    page = open_tab(viewport=PHONE).page
    page.goto(server + "/")
    page.locator("#play-now").wait_for()
    no_sideways_scroll(page)
    inside_viewport(page, "#play-now")
    # The last round's ten cards (eleven after the draw): too many for one line, so they must wrap.
    create_table(page, server, name="Ann", seats=["human", "medium"], sizes="10")
    assert wait_for_move_or_end([page]) is page
    no_sideways_scroll(page)
    for control in ("#pile", "#hint-button", "#turn-line"):
        inside_viewport(page, control)
    page.click("#pile")
    page.locator("#turn-line.mine[data-phase='discard']").wait_for()
    show_hint(page)
    no_sideways_scroll(page)
    for control in ("#hand button.card", "#words-input", "#typed-send", "#sort-letter"):
        inside_viewport(page, control)
    cards = page.locator("#hand button.card")
    assert cards.count() == 11
    rows = {round(cards.nth(i).bounding_box()["y"]) for i in range(cards.count())}
    assert len(rows) > 1, "the hand is on one line wider than the phone"
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box and box["x"] + box["width"] <= PHONE["width"]


def wait_for_focus(page: Any, prefix: str) -> None:
    """Wait for the keyboard to be on the control whose data-focus starts with
    ``prefix``; if it never comes, fail naming where the keyboard is instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"() => (document.activeElement.dataset.focus || '').startsWith({prefix!r})", timeout=60_000)
    except PlaywrightTimeout:
        where = page.evaluate("() => [document.activeElement.outerHTML.slice(0, 160), document.getElementById('turn-line')?.textContent]")
        raise AssertionError(f"the keyboard never came to {prefix!r}: it is on {where[0]} ({where[1]})") from None


def test_a_whole_game_with_the_keyboard_alone_and_every_move_announced(server: str,
                                                                     open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    """Choose the rules and "Play now" with Tab and Enter; each turn the
    keyboard is put on the pile, then on the hand, and Enter plays; the
    round's end and the game's end are reached the same way.  Every move,
    the computer's and the player's own, is said in the live region."""
    page = open_tab().page
    start_listening(page)
    page.goto(server + "/")
    page.locator("#play-now").wait_for()

    def tab_to(test: str, limit: int = 40) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(f"() => {{ const a = document.activeElement; return Boolean(a && ({test})); }}"):
                return
        raise AssertionError(f"Tab never reached {test}")

    tab_to("a.id === 'quick-rounds'")
    page.keyboard.press("Home")  # one round
    assert page.input_value("#quick-rounds") == "1"
    tab_to("a.id === 'play-now'")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.locator("#turn-line").wait_for()
    said_moves: list[str] = []
    for turn in range(200):
        if game_over(page):
            break
        if not my_turn(page):
            page.wait_for_function("() => document.querySelector('#turn-line.mine') || document.getElementById('winner')")
            continue
        said_moves += page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")
        if "draw" in page.inner_text("#turn-line").split(":")[1]:
            wait_for_focus(page, "pile")
            if turn == 0:  # the focus ring is drawn: a keyboard user sees where they are
                assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") not in ("", "none")
            page.keyboard.press("Enter" if turn % 2 else "Space")
            page.locator("#turn-line.mine[data-phase='discard']").wait_for()
        else:
            wait_for_focus(page, "hand-")
            face = page.evaluate("() => document.activeElement.dataset.face")
            page.keyboard.press("Enter")
            wait_discarded(page, face)
    assert game_over(page), "the game did not end"
    # At the end the keyboard is on the rematch, and the winner was said.
    page.wait_for_function("() => document.activeElement.id === 'rematch'")
    said = " ".join(announced(page))
    assert said_moves and not [move for move in said_moves if move not in said], ([m for m in said_moves if m not in said], said)
    assert "You drew the " in said and "Round 1 is over." in said


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
        page.locator("#turn-line.mine[data-phase='discard']").wait_for()
        before = hand(page)
        process.kill()
        process.wait(20)
        page.locator("#connection", has_text="Connection lost").wait_for()
        process, again = start_server(tmp_path, port=int(url.rpartition(":")[2]))
        assert again == url
        page.wait_for_function("() => document.getElementById('connection').textContent === ''")
        page.locator("#turn-line.mine[data-phase='discard']").wait_for()
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
    page.locator(".felt").wait_for()
    assert hostile in page.inner_text(".felt")
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
