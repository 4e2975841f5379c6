"""The browser game's words, in real Chromium: the start page's rounds, seats
and levels read as the rest of the page does, and a round's result names
the player who went out once, without a second pair of brackets."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from .webtools import ServerProcess

CHROMIUM = os.environ.get("QUIDDLER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]  # fmt: skip


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    server = ServerProcess(tmp_path_factory.mktemp("wording") / "tables.sqlite3")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(server.url)
            page.wait_for_selector("#rounds option", state="attached")
            yield page
            browser.close()
    finally:
        server.stop()


def test_one_round_is_three_cards_not_three_to_three(page: Any) -> None:
    assert page.locator("#rounds option").all_inner_texts()[:2] == ["1 (3 cards)", "2 (3 to 4 cards)"]


def test_the_seats_are_numbered_once(page: Any) -> None:
    first = page.locator(".seats-setup li").first
    assert first.inner_text() == "Seat 1: you"
    assert first.evaluate("li => getComputedStyle(li).listStyleType") != "decimal"  # no "1." before "Seat 1"


def test_every_computer_level_is_capitalised_alike(page: Any) -> None:
    levels = [text.removeprefix("Computer: ") for text in page.locator("#seat-1 option").all_inner_texts()[1:]]
    assert "master" in " ".join(levels).lower()
    assert all(level[0].isupper() for level in levels), levels


def test_a_result_names_who_went_out_without_a_second_pair_of_brackets(page: Any) -> None:
    heading = page.evaluate("""async () => {
        const { roundResultView } = await import("/static/results.js");
        const score = (went_out) => ({ words: [], unused: [], longest_bonus: 0, most_words_bonus: 0, score: 0, went_out });
        const result = { round: 1, cards: 3, went_out: 1, scores: [score(false), score(true)], totals: [0, 0] };
        const session = { nameOf: (seat) => ["You", "Computer (medium)"][seat] };
        const view = roundResultView(result, [0, 0], {}, session, { open: true, onToggle: () => {} });
        return view.querySelectorAll("tbody th")[1].textContent;
    }""")
    assert heading == "Computer (medium), went out"
