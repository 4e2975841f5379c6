"""The browser game in each of its languages, in a real headless Chromium
against a real ``quiddler serve`` (one server and one browser for the module).

The language comes from the browser's preferred languages; each language's
home page and table are checked at 1280 and 390 px (``lang`` and ``dir``,
no sideways scroll, axe-core clean, the numbers in the language's digits,
nothing in Latin letters outside the isolated cards, words and names where
the language has its own script).  A whole game is played in Persian, right
to left; the switch changes a table in place and is kept across a reload;
two players at one table each see their own language.  The hint's and the
errors' sentences are rendered from the server's structure as the server's
English says them.

With QUIDDLER_WEB_SCREENSHOTS=1 the table's pictures replace the
documentation's docs/images/languages/table-TAG-{desktop,phone}.png.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import pytest

from . import browsertools
from .browsertools import (
    DESKTOP,
    IMAGES,
    PHONE,
    SHOTS,
    Tab,
    axe_violations,
    create_table,
    game_over,
    no_sideways_scroll,
    play_now,
    play_to_the_end,
    shrink,
)
from .test_catalogs import LANGUAGES, OWN_SCRIPT, catalog

pytestmark = pytest.mark.timeout(600)

server = browsertools.server
browser = browsertools.browser
open_tab = browsertools.open_tab

#: Each language's digits, as Intl.NumberFormat writes them.
DIGITS = {"fa": "۰-۹", "bn": "০-৯"}

#: The page's text with what is meant to be Latin taken out: elements marked
#: left to right (card faces, words), names, isolated placeholders (FSI ...
#: PDI), and the words on the table wherever a sentence names them.
OWN_TEXT = """() => {
    const words = [...document.querySelectorAll('.cards-row')].map(row => row.textContent.replace(/[^a-z]/g, ''));
    const copy = document.body.cloneNode(true);
    copy.querySelectorAll('[dir="ltr"], .name, script, style, #announce, .visually-hidden').forEach(n => n.remove());
    const text = copy.textContent.replace(/\\u2068[^\\u2069]*\\u2069/g, ' ');
    return text.split(/([A-Za-z]+)/).filter(part => !words.includes(part)).join(' ');
}"""
CARDS = {"er", "in", "qu", "th", "cl"}


def settle(page: Any) -> None:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check_screen(page: Any, tag: str, screen: str) -> None:
    """lang and dir, then at each width no sideways scroll and no serious axe-core finding."""
    direction = LANGUAGES[tag][1]
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [tag, direction]
    try:
        for label, size in {"desktop": DESKTOP, "phone": PHONE}.items():
            page.set_viewport_size(size)
            settle(page)
            no_sideways_scroll(page)
            violations = axe_violations(page)
            assert not violations, f"{tag} {screen} at {size['width']} px: {violations}"
            if screen == "table":
                picture(page, f"table-{tag}-{label}")
    finally:
        page.set_viewport_size(DESKTOP)


def picture(page: Any, name: str) -> None:
    """A screenshot; into the documentation only when asked for (every deal differs)."""
    folder = IMAGES / "languages" if os.environ.get("QUIDDLER_WEB_SCREENSHOTS") == "1" else SHOTS / "languages"
    folder.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => !document.querySelector('.flying')")
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    if folder.is_relative_to(IMAGES):
        shrink(folder / f"{name}.png")


def latin_words_left(page: Any, tag: str) -> set[str]:
    """Latin words on screen outside cards, words and names that the language's catalog does not write itself."""
    own = set(re.findall(r"[A-Za-z]+", " ".join(str(v) for v in catalog(tag).values())))
    return set(re.findall(r"[A-Za-z]{2,}", page.evaluate(OWN_TEXT))) - own - CARDS


@pytest.mark.parametrize("tag", list(LANGUAGES))
def test_each_language_from_the_browser_s_preference(server: str, open_tab: Callable[..., Tab], tag: str) -> None:
    page = open_tab(locale={"fa": "fa-IR", "bn": "bn-BD", "hi": "hi-IN", "sk": "sk-SK", "vi": "vi-VN"}.get(tag, "en-GB")).page
    page.goto(server + "/")
    page.locator("#play-now").wait_for()
    assert page.input_value("#language") == tag
    check_screen(page, tag, "home")
    if tag in OWN_SCRIPT:
        assert not latin_words_left(page, tag)

    play_now(page, server, level="easy", rounds=2)
    page.locator("#turn-line").wait_for()
    assert page.title() == catalog(tag)["tableTitle"]
    points = page.locator("#hand .corner-start").all_inner_texts()
    assert points and all(re.fullmatch(f"[{DIGITS.get(tag, '0-9')}]+", p) for p in points), points
    assert page.locator("#hand .face").first.get_attribute("dir") == "ltr"
    check_screen(page, tag, "table")
    if tag in OWN_SCRIPT:
        assert not latin_words_left(page, tag)


def test_the_switch_names_each_language_in_itself(server: str, open_tab: Callable[..., Tab]) -> None:
    page = open_tab().page
    page.goto(server + "/")
    page.locator("#language option").nth(len(LANGUAGES) - 1).wait_for(state="attached")  # the switch fills itself in
    options = page.eval_on_selector_all("#language option", "os => os.map(o => [o.value, o.lang, o.textContent])")
    assert options == [[tag, tag, name] for tag, (_, _, name) in LANGUAGES.items()]
    categories = page.evaluate("tags => tags.map(t => new Intl.PluralRules(t).resolvedOptions().pluralCategories)", list(LANGUAGES))
    assert [set(c) for c in categories] == [plurals for plurals, _, _ in LANGUAGES.values()]


def test_the_switch_redraws_a_table_in_place_and_is_kept_across_a_reload(server: str, open_tab: Callable[..., Tab]) -> None:
    page = open_tab(locale="en-US").page
    play_now(page, server, level="easy", rounds=1)
    page.locator("#turn-line").wait_for()
    cards = page.eval_on_selector_all("#hand button.card", "cs => cs.map(c => c.dataset.face)")
    english = page.inner_text("#turn-line")
    page.select_option("#language", "fa")
    page.locator("html[lang='fa'][dir='rtl']").wait_for()
    assert page.inner_text("#turn-line") != english and page.title() == catalog("fa")["tableTitle"]
    assert page.eval_on_selector_all("#hand button.card", "cs => cs.map(c => c.dataset.face)") == cards  # the same table
    page.reload()
    page.locator("#turn-line").wait_for()
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
    assert page.input_value("#language") == "fa"
    page.select_option("#language", "sk")
    page.locator("html[lang='sk'][dir='ltr']").wait_for()
    page.goto(server + "/")
    assert page.locator("h1").inner_text() == catalog("sk")["home.title"]


def test_the_switch_on_the_home_page_keeps_what_was_typed_and_chosen(server: str, open_tab: Callable[..., Tab]) -> None:
    page = open_tab(locale="en-US").page
    page.goto(server + "/")
    page.fill("#my-name", "Ann")
    page.select_option("#seat-count", "3")
    page.select_option("#seat-2", "hard")
    page.fill("#sizes", "3,5")
    page.check("#first-turn")
    page.select_option("#quick-rounds", "2")
    page.select_option("#language", "vi")
    page.locator("html[lang='vi']").wait_for()
    page.locator("h1", has_text=catalog("vi")["home.title"]).wait_for()
    kept = page.evaluate("""() => [document.getElementById('my-name').value, document.getElementById('seat-count').value,
        document.getElementById('seat-2').value, document.getElementById('sizes').value,
        document.getElementById('first-turn').checked, document.getElementById('quick-rounds').value]""")
    assert kept == ["Ann", "3", "hard", "3,5", True, "2"]


def test_each_player_at_a_table_reads_their_own_language(server: str, open_tab: Callable[..., Tab]) -> None:
    ann, bo = open_tab(locale="fa-IR").page, open_tab(locale="vi-VN").page
    create_table(ann, server, name="Ann", seats=["human", "human"], sizes="3")
    link = ann.input_value("#invite-link")
    bo.goto(link)
    bo.fill("#join-name", "Bo")
    bo.click("#take-seat")
    for page, tag in ((ann, "fa"), (bo, "vi")):
        page.locator("#turn-line").wait_for()
        assert page.evaluate("document.documentElement.lang") == tag
        assert page.inner_text("#hand-title").startswith(catalog(tag)["yourHand"])


def test_a_whole_game_in_persian_reads_right_to_left(server: str, open_tab: Callable[..., Tab]) -> None:
    page = open_tab(locale="fa-IR").page
    play_now(page, server, level="easy", rounds=2)
    page.locator("#turn-line").wait_for()
    # The table mirrors: the page's name at the right, the hand's loose cards from the right;
    # a word's cards still read left to right.
    brand, switch = page.locator(".brand").bounding_box(), page.locator("#language").bounding_box()
    assert brand["x"] > switch["x"]
    loose = page.eval_on_selector_all("#hand .loose button.card", "cs => cs.map(c => c.getBoundingClientRect().x)")  # in one go
    assert len(loose) > 1 and loose == sorted(loose, reverse=True)
    # A card itself is not mirrored: its points' corner at the top left, as in a word group;
    # the lower corner upright (Persian digits upside down read as others).
    corners = page.eval_on_selector_all("#hand button.card", """cs => cs.map((c) => {
        const box = c.getBoundingClientRect(), start = c.querySelector('.corner-start').getBoundingClientRect();
        return [start.x < box.x + box.width / 2, getComputedStyle(c.querySelector('.corner-end')).transform];
    })""")
    assert corners and all(left and transform == "none" for left, transform in corners), corners
    actions = play_to_the_end([page])
    assert game_over(page) and actions
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
    winner = page.inner_text("#winner")
    assert re.search(r"[\u0600-\u06FF]", winner) and not re.search(r"[A-Za-z]", winner), winner
    rows = page.eval_on_selector_all(".over .cards-row", "rows => rows.map(r => [...r.children].map(c => c.getBoundingClientRect().x))")
    assert rows and all(xs == sorted(xs) for xs in rows), "a word's cards read left to right"
    # The players' results are a list that shows no numbers, in Persian as in English.
    assert page.eval_on_selector_all(".over .result-rows", "ls => ls.map(l => getComputedStyle(l).listStyleType)") == ["none"]
    assert not latin_words_left(page, "fa")


#: The server's explanations of a hint (docs/protocol.md), and the English it says for each.
EXPLANATIONS = [
    ({"kind": "take_discard", "card": "qu",
      "take": {"kind": "go_out_now", "value": 14, "terms": [{"kind": "going_out", "value": 2.0}], "total": 16.0},
      "pile": {"kind": "blind_draw", "value": 7.3, "terms": [{"kind": "out_chance", "value": 0.9, "percent": 22}], "total": 8.2}},
     ("Take the qu: with it you can go out now for 14 points, +2.0 for going out (16.0 in all); "
     "a blind draw averages 7.3 points, +0.9 for its 22% chance to go out (8.2 in all).")),
    ({"kind": "go_out",
      "value": {"kind": "play", "words": ["quiet", "dog"], "card": "x", "value": 25,
                "terms": [{"kind": "longest_kept", "value": 6.1, "others": 1}, {"kind": "gift", "value": -0.6, "card": "x"}],
                "total": 30.5},
      "waiting": {"card": "d", "value": 21.4}},
     ("Go out with quiet, dog and discard the x: 25 points, +6.1 for the longest-word bonus it should keep, "
     "-0.6 for what the x is worth to the next player (30.5 in all); waiting (discard the d) is worth 21.4.")),
    ({"kind": "simulated", "action": "discard", "card": "z", "last_round": False, "samples": 32,
      "candidates": [{"kind": "waiting_with", "card": "z", "value": 4, "samples": 32},
                     {"kind": "going_out_now", "card": "e", "words": ["quiet"], "value": 2, "samples": 32},
                     {"kind": "going_out_with", "card": "t", "words": ["quie"], "value": -3, "samples": 16}]},
     ("Wait: discard the z and keep your hand: waiting with the z averages 4 over 32 simulated finishes of the round "
     "(your round score less the best other player's), going out now 2, going out with quie (discarding the t) -3 (over 16).")),
    ({"kind": "only_draw", "source": "discard"}, "The only draw allowed: the discard top."),
]  # fmt: skip

RENDER = """async ([explanations, errors, tag]) => {
    const { chooseLanguage } = await import('/static/messages.js');
    const { explanationText } = await import('/static/hints.js');
    const { errorText } = await import('/static/errors.js');
    await chooseLanguage(tag);
    return [explanations.map((e) => explanationText(e, 'the English reason')),
            errors.map((e) => errorText(e, (seat) => ['Ann', 'Bo'][seat]))];
}"""

#: Refusals by code, reason and params, and the English the catalog says for each.
ERRORS = [
    ({"code": "illegal", "reason": "not_a_word", "params": {"word": "qzx"}}, "Not in the word list: qzx"),
    ({"code": "not_your_turn", "reason": "wrong_player", "params": {"turn": 1, "player": 0}}, "It is Bo's turn, not yours."),
    ({"code": "illegal", "reason": "cards_left", "params": {"count": 1}},
     "Going out lays down every card but the discard: 1 card is left over."),
    ({"code": "no_match", "reason": "cannot_spell", "params": {
        "word": "quiz", "missing": [{"card": "z", "needed": 1, "have": 0}, {"card": "i", "needed": 2, "have": 1}],
        "discard_in_word": "z"}},
     "You cannot spell quiz with your cards: it needs a z and 2 × i (you have 1) (the z you discard cannot be in a word too)."),
    ({"code": "no_hints", "params": {}}, "This table plays without hints."),
]  # fmt: skip
#: As the server sends them, with its English message: the English page says the message
#: (the exact reason `quiddler play` gives); so does any page for a code no catalog has.
MESSAGES = [
    {"code": "no_match", "reason": "not_a_word", "params": {"word": "zzz", "wordlist": "ENABLE"},
     "message": "'zzz' is not in the word list (ENABLE)"},
    {"code": "something_new", "params": {}, "message": "a refusal this page does not know"},
]


def test_hints_and_refusals_are_said_from_their_structure(server: str, open_tab: Callable[..., Tab]) -> None:
    """English from the structure is the server's English; Persian has no English left outside the cards and words."""
    page = open_tab().page
    page.goto(server + "/")
    page.locator("#play-now").wait_for()
    structures = [[e for e, _ in EXPLANATIONS], [e for e, _ in ERRORS] + MESSAGES]
    hints, errors = page.evaluate(RENDER, [*structures, "en"])
    assert hints == [english for _, english in EXPLANATIONS]
    assert errors == [english for _, english in ERRORS] + [m["message"] for m in MESSAGES]
    hints, errors = page.evaluate(RENDER, [*structures, "fa"])
    for text in [*hints, *errors[:-1]]:
        outside = re.sub("\u2068[^\u2069]*\u2069", "", text)
        assert re.search(r"[\u0600-\u06FF]", outside) and not re.search(r"[A-Za-z]{2,}", outside), text
    assert errors[-1] == "a refusal this page does not know"  # a code no catalog has: the server's words
    # A signed Persian number carries a left-to-right mark: isolated, it leaves the sentence's order alone.
    numbers = page.evaluate("async () => { const m = await import('/static/messages.js'); return [m.signed(13), m.num(13)]; }")
    assert numbers == ["\u2068\u200e+۱۳\u2069", "۱۳"]
