"""The static site in a real headless Chromium: built once (conftest.py),
served from its folder on loopback by a plain static file server, and
driven by clicking as a person would, with every request that does not go
to that loopback address refused.  The game runs in the page's own Web
Worker on Pyodide; the page is the front end of ``quiddler serve``, so the
tools that play it are the web tests' own (tests/web/browsertools.py).

The browser is required: without Playwright or Chromium these tests fail,
they never skip.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from quiddler.cli import main
from quiddler.game.record import replay

from ..web import browsertools
from ..web.browsertools import (
    Tab,
    game_over,
    hand,
    play_hinted_move,
    play_now,
    play_to_the_end,
    wait_for_move_or_end,
)

# A first visit loads the runtime (about 17 MB, then Python starts): give each test room.
pytestmark = pytest.mark.timeout(600)

# The fixtures: one browser for the module, a fresh tab per test.
browser = browsertools.browser
open_tab = browsertools.open_tab


@pytest.fixture
def site_tab(open_tab: Callable[..., Tab], site_url: str) -> Iterator[Callable[[], tuple[Tab, list[str]]]]:
    """site_tab(): a tab in a fresh browser context whose every request
    beyond the site's loopback address is refused, and the list of those
    refused (a test asserts it stays empty)."""
    refused: list[str] = []

    def make() -> tuple[Tab, list[str]]:
        tab = open_tab()

        def only_the_site(route: Any) -> None:
            url = route.request.url
            if url.startswith((site_url, "blob:", "data:")):
                route.continue_()
            else:
                refused.append(url)
                route.abort()

        tab.page.context.route("**/*", only_the_site)
        return tab, refused

    yield make
    assert not refused, f"the site asked for something beyond itself: {refused}"


def base(site_url: str) -> str:
    return site_url.rstrip("/")


def test_a_whole_game_by_clicking_with_hints_an_offline_reload_that_resumes_and_a_rematch(
        site_tab: Callable[[], tuple[Tab, list[str]]], site_url: str) -> None:  # fmt: skip
    tab, _ = site_tab()
    page = tab.page
    play_now(page, base(site_url), level="easy", rounds=2)
    assert "needs a server" in page.inner_text(".site-note")
    page.locator("#turn-line").wait_for()
    moves = []
    while len(moves) < 3:
        current = wait_for_move_or_end([page])
        assert current is not None, "the game ended within three moves"
        moves.append(play_hinted_move(page))
    wait_for_move_or_end([page])
    before = (hand(page), page.inner_text("#round-line"), page.inner_text("#turn-line"))
    address = page.url

    # Once loaded the site needs no network: the service worker has every file.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.reload()
    page.locator("#hand button.card").first.wait_for()
    wait_for_move_or_end([page])
    assert page.url == address
    assert (hand(page), page.inner_text("#round-line"), page.inner_text("#turn-line")) == before
    page.context.set_offline(False)

    moves += play_to_the_end([page])
    assert game_over(page)
    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["finished"] is True and len(record["rounds"]) == 2
    assert record["players"][1] == "easy"
    game = replay(record)  # the record of the page's game replays with quiddler itself
    totals = page.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => Number(c.textContent))")
    assert list(game.totals) == totals

    # A rematch: the same seats and rules at a new table, a new deal.
    page.click("#rematch")
    page.wait_for_url(lambda url: "?/t/" in url and url != address)
    page.locator("#hand button.card").first.wait_for()
    assert page.inner_text("#round-line").startswith("Round 1 of 2")


HANDS = [("d, cl, o, g, a, b, er, in, n, y, s", False), ("qu i e t er s", True), ("x z q", False),
         ("th,e,cl,a,w,s,i", True)]  # fmt: skip


def test_the_solver_page_answers_as_quiddler_solve(site_tab: Callable[[], tuple[Tab, list[str]]],
                                                   site_url: str) -> None:  # fmt: skip
    tab, _ = site_tab()
    page = tab.page
    page.goto(site_url + "solver.html")
    page.locator("#solve:enabled").wait_for()
    for cards, discard in HANDS:
        page.fill("#hand", cards)
        page.set_checked("#discard", discard)
        page.click("#solve")
        page.wait_for_function("cards => document.getElementById('answer').dataset.cards === cards", arg=cards)
        solved = json.loads(CliRunner().invoke(main, ["solve", cards, "--json", *(["--discard"] if discard else [])]).stdout)
        listed = json.loads(CliRunner().invoke(main, ["words", cards, "--json"]).stdout)["words"]
        best = solved["best"]
        assert page.inner_text("#best-score") == str(best["score"])
        shown = page.eval_on_selector_all("#best-words li", "items => items.map(i => [i.dataset.word, i.dataset.cards])")
        assert shown == [[w["word"], " ".join(w["cards"])] for w in best["words"]]
        rows = page.eval_on_selector_all("#all-words tbody tr", "rows => rows.map(r => r.dataset.word)")
        assert rows == [w["word"] for w in listed]
    page.fill("#hand", "qu, zz")
    page.click("#solve")
    page.locator("#solve-error:has-text(\"unknown card: 'zz'\")").wait_for()
