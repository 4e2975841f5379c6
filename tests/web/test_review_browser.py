"""The review of a finished game in a real headless Chromium against a real
``quiddler serve``: a short game played through the page, then "Review the
game" for the player's own seat and for the computer's, checked against the
library's review of the downloaded record.  Screenshots at desktop and phone
widths go where the other browser tests put theirs."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from quiddler.game.reviews import review

from . import browsertools
from .browsertools import PHONE, Tab, create_table, game_over, play_now, play_to_the_end, screenshot

# The browser tests' fixtures: a real server, Chromium, and a tab that fails the test on any script error.
server, browser, open_tab = browsertools.server, browsertools.browser, browsertools.open_tab


def shown_review(page: Any) -> dict[str, Any]:
    """What the page shows of the review on show."""
    page.locator("#review-decisions").wait_for()
    return {
        "title": page.inner_text("#review-title"),
        "summary": page.inner_text("#review-summary"),
        "decisions": page.locator("#review-decisions > li").count(),
        "worst": page.locator("#review-decisions > li.rv-worst").count(),
        "bars": page.locator("#review-chart rect").count(),
        "labels": page.eval_on_selector_all("#review-decisions .rv-label", "spans => spans.map(s => s.textContent)"),
    }


def test_review_the_game_shows_each_seats_decisions(server: str, open_tab: Callable[..., Tab]) -> None:
    tab = open_tab()
    page = tab.page
    create_table(page, server, name="Ann", seats=["human", "easy"], sizes="3,4")
    page.locator("#turn-line").wait_for()
    play_to_the_end([page])
    assert game_over(page)
    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())

    page.click("#review-button")
    mine = shown_review(page)
    expected = review(record, 0).to_dict()
    assert mine["title"] == "Review of Ann's game"
    assert f"Accuracy {expected['accuracy']:.0f} of 100" in mine["summary"]
    assert mine["decisions"] == len(expected["decisions"]) and mine["bars"] == len(expected["rounds"]) == 2
    assert mine["labels"] == [d["label"] for d in expected["decisions"]]
    assert mine["worst"] == len(expected["worst"])  # the hinted moves are the expert's: none, as a rule
    # Each decision opens on the position the player saw, the move made beside the best.
    first = page.locator("#review-decisions > li").first
    first.locator("summary").click()
    text = first.inner_text()
    hand = expected["decisions"][0]["position"]["hand"]
    assert "Move made" in text and "Best move" in text and "Hand" in text
    assert all(face in text for face in hand)

    # Every card is public once the game is over: the computer's seat is reviewed too.
    page.select_option("#review-seat", "1")
    page.click("#review-button")
    page.locator("#review-title").filter(has_not_text="Ann").wait_for()
    theirs = shown_review(page)
    expected = review(record, 1).to_dict()
    assert theirs["decisions"] == len(expected["decisions"])
    assert theirs["labels"] == [d["label"] for d in expected["decisions"]]
    assert theirs["worst"] == len(expected["worst"])
    # The costliest decisions are listed first, each linking to its decision, which is marked and open.
    for rank, index in enumerate(expected["worst"]):
        item = page.locator(f"#review-decision-{index}")
        assert "rv-worst" in (item.get_attribute("class") or "")
        assert item.locator("details").get_attribute("open") is not None
        link = page.locator("#review-worst li a").nth(rank)
        assert link.get_attribute("href") == f"#review-decision-{index}"
    screenshot(page, "review", full_page=True)

    # On a phone the review fits the width (nothing scrolls sideways).
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "review-phone", full_page=True)


def test_the_review_of_a_player_called_you_says_your_game(server: str, open_tab: Callable[..., Tab]) -> None:
    """"Play now" names the player "You": their review is of "your game", and the seat
    is offered as "You", never "You (you)" or "You's game"."""
    page = open_tab().page
    play_now(page, server, level="easy", rounds=1)
    page.locator("#turn-line").wait_for()
    play_to_the_end([page])
    assert game_over(page)
    assert page.eval_on_selector_all("#review-seat option", "os => os.map(o => o.textContent)")[0] == "You"
    page.click("#review-button")
    page.locator("#review-decisions").wait_for()
    assert page.inner_text("#review-title") == "Review of your game"
    assert "on what you could see at that moment" in page.inner_text("#review")
