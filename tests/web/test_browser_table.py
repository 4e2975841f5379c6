"""The card table in a real headless Chromium: what a new player met and
what a card table has.

The final turn said before the draw; computer moves shown one at a time
with cards moving (and not under reduced motion); the card drawn named and
marked; totals that never wrap and names that shorten; sentences about
"you", ties and plurals; the hand reordered, sorted and arranged into word
groups by drag (mouse and touch) and by the keyboard, and going out with
the groups; "Play now" with its rules; hint values in their own units; a
hint that always comes, or the page says why (against a server the test
plays itself).  Games are one short round against the computer, on one
server and one browser for the module.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from quiddler.web.local import LocalTable

from . import browsertools
from .browsertools import (
    PHONE,
    SITUATION,
    Tab,
    audit,
    hand,
    my_turn,
    next_round,
    no_sideways_scroll,
    play_now,
    show_hint,
    situation,
    wait_discarded,
)

pytestmark = pytest.mark.timeout(600)

server = browsertools.server
browser = browsertools.browser
open_tab = browsertools.open_tab


def my_draw(page: Any) -> None:
    """Wait for this seat's draw and take the pile."""
    page.wait_for_function("() => document.querySelector('#pile:not([disabled])') || document.getElementById('winner')")
    if page.locator("#pile:not([disabled])").count():
        page.click("#pile")
        page.locator("#hand button.card.fresh").or_(page.locator("#turn-line.mine", has_text="final turn")).first.wait_for()


def discard_first(page: Any) -> None:
    face = page.locator("#hand button.card").first.get_attribute("data-face")
    page.locator("#hand button.card").first.click()
    wait_discarded(page, face or "")


def until_final_draw(page: Any) -> bool:
    """Never go out: draw and discard until the computer has gone out and
    this seat's final turn begins (True), or the round ended first (False)."""
    for _ in range(120):
        page.wait_for_function("() => document.querySelector('#turn-line.mine') || document.getElementById('winner')")
        if page.locator("#winner").count():
            return False
        if page.locator("#final-banner").count() and page.locator("#pile:not([disabled])").count():
            return True
        my_draw(page)
        discard_first(page)
    raise AssertionError("no final turn within 120 turns")


def test_the_final_turn_is_said_before_the_draw(server: str, open_tab: Callable[..., Tab]) -> None:
    """Against a computer that goes out as soon as it can: when it has, the
    banner names who went out and with what, before this seat draws."""
    page = open_tab().page
    for _ in range(6):
        play_now(page, server, level="random-eager", rounds=1)
        if until_final_draw(page):
            break
    else:
        pytest.fail("the computer never went out in six one-round games")
    banner = page.inner_text("#final-banner")
    assert re.fullmatch(r"Computer \(random-eager\) went out with .+: this is your final turn\.", banner), banner
    assert page.inner_text("#turn-line").startswith("Your final turn: draw from the pile")
    audit(page, "final-turn")


def test_computer_moves_are_shown_one_at_a_time_with_the_cards_moving(server: str,
                                                                      open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    """At the normal pace each computer move is on screen a while before the
    next (a pause of 800 ms: at least 600 ms between two log entries), a card
    flies between the seat and the piles; the pace is remembered; "instant"
    shows the moves at once; reduced motion flies no card."""
    tab = open_tab(pace="normal")
    page = tab.page
    play_now(page, server, level="easy", rounds=2)
    page.evaluate("""() => {
        window.__log = [];
        window.__flights = 0;
        new MutationObserver(() => {
            const items = document.querySelectorAll('#log li');
            const last = items.length ? items[items.length - 1].textContent : null;
            if (last && (!window.__log.length || window.__log.at(-1).text !== last)) window.__log.push({ text: last, at: performance.now() });
        }).observe(document.getElementById('main'), { childList: true, subtree: true });
        new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes) if (n.classList && n.classList.contains('flying')) window.__flights += 1;
        }).observe(document.body, { childList: true });
    }""")
    for _ in range(3):  # three of this seat's turns: the computer moves in between
        page.wait_for_function(f"() => ({SITUATION})() !== 'waiting'")
        now = situation(page)
        if now == "result":
            next_round(page)
            continue
        if now == "over":  # the computer went out in both rounds
            break
        my_draw(page)
        discard_first(page)
    # Two computer moves in a row (a draw, then its discard or going out): a move made before the
    # log was watched, or one whose next is still paced, leaves a lone entry.
    page.wait_for_function("() => window.__log.some((e, i) => i > 0 && e.text.startsWith('Computer')"
                           " && window.__log[i - 1].text.startsWith('Computer'))")  # fmt: skip
    entries = page.evaluate("() => window.__log")
    # Consecutive computer moves (a draw, then its discard) are paced apart.
    pairs = [b["at"] - a["at"] for a, b in itertools.pairwise(entries)
             if a["text"].startswith("Computer") and b["text"].startswith("Computer")]
    assert pairs and min(pairs) >= 600, (pairs, entries)
    assert page.evaluate("() => window.__flights") >= 2

    page.select_option("#pace", "slow")
    page.reload()
    page.locator("#pace").wait_for()
    assert page.input_value("#pace") == "slow"

    still = open_tab(pace="normal", reduced_motion="reduce").page
    play_now(still, server, level="easy", rounds=1)
    still.evaluate("""() => {
        window.__flights = 0;
        new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes) if (n.classList && n.classList.contains('flying')) window.__flights += 1;
        }).observe(document.body, { childList: true });
    }""")
    for _ in range(2):
        still.wait_for_function("() => document.querySelector('#turn-line.mine') || document.getElementById('winner')")
        if still.locator("#winner").count():
            break
        my_draw(still)
        discard_first(still)
    still.wait_for_function("() => document.querySelector('#turn-line.mine') || document.getElementById('winner')")
    assert still.locator("#log li", has_text="Computer").count() or still.locator("#winner").count()
    assert still.evaluate("() => window.__flights") == 0


def test_the_card_drawn_is_named_and_marked_and_the_face_up_card_said(server: str,
                                                                     open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    page = open_tab().page
    play_now(page, server, level="easy", rounds=1)
    page.locator("#turn-line.mine").wait_for()
    face_up = page.inner_text("#face-up")
    assert re.fullmatch(r"The face-up card of this round is the \w+\.", face_up)
    first = page.locator("#log li").first
    if first.count() and "from the discard pile" in first.inner_text():
        assert face_up.split()[-1].rstrip(".") == first.inner_text().split("took the ")[1].split()[0]
    # The draw pile shows its count beside it, not where a card shows its points.
    assert page.inner_text("#pile") == ""
    assert re.fullmatch(r"\d+ cards left", page.inner_text("#pile-count"))
    before = hand(page)
    page.click("#pile")
    page.locator("#hand button.card.fresh").wait_for()
    after = hand(page)
    drawn = page.locator("#hand button.card.fresh").get_attribute("data-face")
    assert sorted([*before, drawn]) == sorted(after)
    assert page.locator("#log li", has_text=f"You drew the {drawn} from the pile.").count() == 1
    page.locator("#hand button.card").first.click()
    page.wait_for_function("() => !document.querySelector('#hand .card.fresh') || document.getElementById('winner')")
    # The keyboard was in the hand (the card pressed); when the move comes back (the computer's
    # turn, then this seat's, a final one if it went out) it goes to the pile.
    page.wait_for_function("() => document.querySelector('#turn-line.mine') || document.getElementById('winner')")
    if my_turn(page):  # not when that discard ended a final turn, and the game
        page.wait_for_function("() => document.activeElement.id === 'pile'")


def test_numbers_never_wrap_and_long_names_shorten(server: str, open_tab: Callable[..., Tab]) -> None:
    """A long name beside a total at 320 px: the total on one line, the name
    cut with an ellipsis and whole in its title; the round result a list
    whose headings are never broken."""
    page = open_tab(viewport={"width": 320, "height": 700}).page
    long_name = "Maximiliana Wolkenstein"
    browsertools.create_table(page, server, name=long_name, seats=["human", "easy", "easy"], sizes="3")
    # Read on this seat's move, all in one go: a computer's move shown meanwhile redraws the seats.
    page.locator("#turn-line.mine").wait_for()
    no_sideways_scroll(page)
    shown = page.evaluate("""() => ({
        totals: [...document.querySelectorAll('.seat .total')].map((t) => [
            getComputedStyle(t).whiteSpace, t.getClientRects().length,
            t.getBoundingClientRect().height, parseFloat(getComputedStyle(t).fontSize)]),
        name: ((n) => [n.title, getComputedStyle(n).textOverflow, getComputedStyle(n).whiteSpace])(document.querySelector('#seat-0 .name')),
    })""")
    assert len(shown["totals"]) == 3
    for white_space, lines, height, font_size in shown["totals"]:
        assert (white_space, lines) == ("nowrap", 1)
        assert height < 2 * font_size
    assert shown["name"] == [long_name, "ellipsis", "nowrap"]
    # Play the round out, never going out: its result is a list of players, nothing broken mid-word.
    for _ in range(100):
        page.wait_for_function("() => document.querySelector('#turn-line.mine') || document.getElementById('next-round') || document.getElementById('winner')")
        if page.locator("#winner").count():
            break
        my_draw(page)
        discard_first(page)
    result = page.locator(".over .result")
    assert result.locator("table").count() == 0 and result.locator(".result-row").count() == 3
    for label in result.locator(".num").all():
        assert label.evaluate("n => getComputedStyle(n).whiteSpace") == "nowrap", label.inner_text()
    for label in result.locator(".part-label, .num").all():
        assert label.evaluate("n => n.getClientRects().length") == 1, label.inner_text()
    no_sideways_scroll(page)


SENTENCES = """async () => {
    const { winnerText } = await import('/static/results.js');
    const { t } = await import('/static/messages.js');
    const { describeEvent, turnLine } = await import('/static/table.js');
    const names = ['Ann', 'Ada', 'Bo'];
    const session = (seat) => ({ nameOf: (s) => names[s], isComputer: () => false, isAway: () => false, view: { seat } });
    const view = (totals, seat) => ({ totals, seat });
    return {
        youWin: winnerText(view([294, 10], 0), session(0)),
        theyWin: winnerText(view([294, 10], 1), session(1)),
        tieWithYou: winnerText(view([40, 40, 3], 0), session(0)),
        tie: winnerText(view([40, 40, 40], null), session(null)),
        one: [t('cards', { n: 1 }), t('words', { n: 1 }), t('points', { n: 1 }), t('letters', { n: 1 })],
        many: [t('cards', { n: 2 }), t('words', { n: 0 }), t('points', { n: 115 })],
        youDiscarded: describeEvent({ type: 'discard', player: 0, card: 'q' }, session(0)),
        adaWentOut: describeEvent({ type: 'go_out', player: 1, words: [['c', 'o', 'n']], discard: 'e' }, session(0)),
        twoWords: describeEvent({ type: 'lay_down', player: 2, words: [['c', 'a', 't'], ['qu', 'i', 't']], discard: 'e' }, session(0)),
        finalDraw: turnLine({ phase: 'draw', my_turn: true, went_out: 1, seat: 0, turn: 0, discard_top: 'e' }, session(0)),
    };
}"""


def test_sentences_about_you_ties_and_counts_read_right(server: str, open_tab: Callable[..., Tab]) -> None:
    page = open_tab().page
    page.goto(server + "/")
    said = page.evaluate(SENTENCES)
    assert said["youWin"] == "You win with 294 points."
    assert said["theyWin"] == "Ann wins with 294 points."
    assert said["tieWithYou"] == "You and Ada share the win with 40 points."
    assert said["tie"] == "Ann, Ada, and Bo share the win with 40 points."
    assert said["one"] == ["1 card", "1 word", "1 point", "1 letter"]
    assert said["many"] == ["2 cards", "0 words", "115 points"]
    assert said["youDiscarded"] == "You discarded the q."
    assert said["adaWentOut"] == "Ada went out with con and discarded the e."
    assert said["twoWords"] == "Bo laid down cat and quit and discarded the e."
    assert said["finalDraw"] == "Your final turn: draw from the pile or take the e, then lay down what words you can."


def test_play_now_takes_the_rules_people_change_most(server: str, open_tab: Callable[..., Tab]) -> None:
    page = open_tab().page
    play_now(page, server, level="easy", rounds=1, first_turn=True, hints=False)
    page.locator("#turn-line").wait_for()
    rules = page.locator(".rules-line p").text_content() or ""
    assert rules.startswith("1 round (3 cards)")
    assert "no going out on a first turn" in rules and "no hints" in rules
    page.locator("#turn-line.mine").wait_for()
    assert not page.locator("#hint-button").count()
    page.click("#pile")
    page.locator("#turn-line.mine", has_text="no going out on your first turn").wait_for()


HINT_VALUES = """async () => {
    const { pointsNow, valueText } = await import('/static/table.js');
    const zinc = { action: 'go-out', card: 'e', value: 59, words: [{ word: 'zinc', cards: ['z', 'in', 'c'], points: 29 }, { word: 'ax', cards: ['a', 'x'], points: 14 }] };
    const lay = { action: 'lay-down', card: 'q', value: 3, words: [{ word: 'ax', cards: ['a', 'x'], points: 14 }] };
    return [pointsNow(zinc, []), pointsNow(lay, ['a', 'x', 'q', 'b', 'e']), pointsNow({ action: 'discard', card: 'q', value: 1 }, []),
            valueText(zinc, { unit: 'expected_points' }, []), valueText({ ...zinc, value: 4.25 }, { unit: 'margin', finishes: 200 }, [])];
}"""


def test_hint_values_say_what_they_are(server: str, open_tab: Callable[..., Tab]) -> None:
    """A play's points now beside its expected value; the unit named."""
    page = open_tab().page
    play_now(page, server, level="easy", rounds=1)
    assert page.evaluate(HINT_VALUES) == [
        43, 4, None,  # the lay-down keeps b and e: 14 - 10
        "scores 43 points now; expected 59.0 points, counting bonuses it may keep",
        "scores 43 points now; average margin 4.3 points over 200 simulated finishes",
    ]  # fmt: skip
    page.locator("#turn-line.mine").wait_for()
    page.click("#pile")
    page.locator("#turn-line.mine[data-phase='discard']").wait_for()
    show_hint(page)
    assert page.inner_text("#hint-measure").startswith("Values are the points each move is expected to be worth")
    for option in page.locator("#hint li").all():
        text = option.inner_text()
        if option.get_attribute("data-action") in ("go-out", "lay-down"):  # a lay-down of nothing scores too
            assert re.search(r"\(scores -?\d+ points now; expected -?\d+\.\d points, counting bonuses it may keep\)$", text), text
        else:
            assert re.search(r"\(expected -?\d+\.\d points\)$", text), text


def test_cards_look_like_cards(server: str, open_tab: Callable[..., Tab]) -> None:
    """A large letter and its points in the corners; two-letter cards wider;
    each opponent's hand as card backs with its count; whose turn it is marked."""
    page = open_tab().page
    # No one goes out on a first turn, so both computers, who move first, still hold their three cards.
    browsertools.create_table(page, server, name="Ann", seats=["human", "easy", "easy"], sizes="3", first_turn=True)
    page.locator("#turn-line.mine").wait_for()
    sizes = page.evaluate("""async () => {
        const { cardShown } = await import('/static/table.js');
        const one = cardShown('q'); const two = cardShown('qu');
        document.body.append(one, two);
        const out = [one.getBoundingClientRect().width, two.getBoundingClientRect().width, two.className, one.querySelectorAll('.pts').length];
        one.remove(); two.remove();
        return out;
    }""")
    assert sizes[1] > sizes[0] and "duo" in sizes[2] and sizes[3] == 2
    # Each seat's backs read in one go.
    shown = page.evaluate("""() => [1, 2].map((seat) => {
        const backs = document.querySelector(`#seat-${seat} .backs`);
        return backs && [backs.getAttribute('aria-label'), Number(backs.querySelector('.count').textContent),
                         backs.querySelectorAll('.back').length];
    }).filter(Boolean)""")
    assert shown == [["Computer (easy) 1 holds 3 cards", 3, 3], ["Computer (easy) 2 holds 3 cards", 3, 3]]
    assert page.locator(".seat.turn").count() == 1 and page.locator("#seat-0.turn").count() == 1


def faces_in_order(page: Any) -> list[str]:
    return hand(page)


def drag(page: Any, source: Any, target: Any, *, after: bool = True, touch: bool = False) -> None:
    """Drag one element onto another (its far half when ``after``), with the mouse or a finger,
    once no word group waits for its check (the answer redraws the hand)."""
    page.wait_for_function("() => ![...document.querySelectorAll('#hand .group-label')].some((l) => l.textContent.includes('checking'))")
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    start = (a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    end = (b["x"] + b["width"] * (0.8 if after else 0.2), b["y"] + b["height"] / 2)
    steps = [(start[0] + (end[0] - start[0]) * k / 8, start[1] + (end[1] - start[1]) * k / 8) for k in range(1, 9)]
    if not touch:
        page.mouse.move(*start)
        page.mouse.down()
        for x, y in steps:
            page.mouse.move(x, y)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for x, y in steps:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_the_hand_is_reordered_by_mouse_touch_and_keyboard_and_sorted(server: str,
                                                                      open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    tab = open_tab(viewport=PHONE, has_touch=True)
    page = tab.page
    browsertools.start_listening(page)
    browsertools.create_table(page, server, name="Ann", seats=["human", "easy"], sizes="6")
    # The person's move: the computer waits for it, so the hand holds still while it is rearranged.
    page.locator("#turn-line.mine").wait_for()
    page.wait_for_function("() => document.querySelectorAll('#hand button.card').length >= 6")
    start = faces_in_order(page)
    cards = page.locator("#hand button.card")
    # The mouse: the first card dropped past the third.
    drag(page, cards.nth(0), cards.nth(2))
    moved = faces_in_order(page)
    assert moved == [start[1], start[2], start[0], *start[3:]], (start, moved)
    # A finger: the last card dropped before the first.
    drag(page, cards.nth(5), cards.nth(0), after=False, touch=True)
    touched = faces_in_order(page)
    assert touched == [moved[5], *moved[:5]], (moved, touched)
    # A short press is a press, not a drag: nothing moves.
    box = cards.nth(1).bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + 12, box["y"] + 11)
    page.mouse.up()
    assert faces_in_order(page) == touched
    # The keyboard: Shift+Right moves the focused card on, and it is said.
    cards.nth(0).focus()
    page.keyboard.press("Shift+ArrowRight")
    keyed = faces_in_order(page)
    assert keyed == [touched[1], touched[0], *touched[2:]]
    assert page.evaluate("() => document.activeElement.dataset.pos") == "1"
    assert f"The {touched[0]} is now at position 2 of 6." in browsertools.announced(page)
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.pos") == "2"
    # Sorting.
    page.click("#sort-letter")
    assert faces_in_order(page) == sorted(start)
    page.click("#sort-points")
    points = page.eval_on_selector_all("#hand button.card .corner-start", "s => s.map(x => Number(x.textContent))")
    assert points == sorted(points, reverse=True)
    no_sideways_scroll(page)


def hint_go_out(page: Any) -> list[list[str]] | None:
    """The words of a going-out option of the hint, if the hand has one (a
    hint the page says was refused is asked for again, as in show_hint)."""
    show_hint(page)
    option = page.locator('#hint li[data-action="go-out"]')
    if not option.count():
        return None
    return [w.split(",") for w in (option.first.get_attribute("data-words") or "").split()]


def group_by_keyboard(page: Any, words: list[list[str]]) -> None:
    """Arrange the hand into these word groups with the keyboard alone: G
    starts a group with a loose card, Shift+Left moves the next one into it."""
    for word in words:
        for k, face in enumerate(word):
            pos = page.evaluate("""face => {
                const loose = [...document.querySelectorAll('#hand .loose button.card')];
                return Number(loose.find(c => c.dataset.face === face).dataset.pos);
            }""", face)
            page.locator(f'#hand button.card[data-pos="{pos}"]').focus()
            if k == 0:
                page.keyboard.press("g")
                continue
            first_loose = int(page.locator("#hand .loose button.card").first.get_attribute("data-pos") or 0)
            for _ in range(pos - first_loose + 1):
                page.keyboard.press("Shift+ArrowLeft")


def test_word_groups_show_their_points_and_going_out_uses_them(server: str, open_tab: Callable[..., Tab]) -> None:
    """Groups made with the keyboard and by dragging: one that spells a word
    shows its points, one that does not is marked; the hand's heading counts
    the cards left; "Go out" plays the groups."""
    page = open_tab().page
    for _ in range(20):
        play_now(page, server, level="easy", rounds=1)
        page.locator("#turn-line.mine").wait_for()
        page.click("#pile")
        page.locator("#turn-line.mine[data-phase='discard']").wait_for()
        words = hint_go_out(page)
        if words:
            break
    else:
        pytest.fail("no hand could go out in twenty deals")
    # A group that is not a word first: two cards that spell none, dragged onto the new-group slot.
    from quiddler import default_wordlist

    words_known = default_wordlist()
    faces = hand(page)
    pair = next((i, j) for i in range(len(faces)) for j in range(len(faces))
                if i != j and faces[i] + faces[j] not in words_known)  # fmt: skip
    first, second = (page.locator(f'#hand button.card[data-pos="{k}"]').get_attribute("data-face") for k in pair)
    drag(page, page.locator(f'#hand button.card[data-pos="{pair[0]}"]'), page.locator("#hand .new-group"))
    page.locator("#hand .group").wait_for()
    drag(page, page.locator(f'#hand .loose button.card[data-face="{second}"]').first, page.locator("#hand .group button.card").first)
    group = page.locator("#hand .group").first
    assert group.locator("button.card").evaluate_all("cs => cs.map(c => c.dataset.face)") == [first, second]
    page.wait_for_function("() => !document.querySelector('#hand .group-label').textContent.includes('checking')")
    assert group.locator(".group-label").inner_text() == f"{first}{second}: not a word"
    assert "bad" in (group.get_attribute("class") or "")
    # Back to loose, then the hint's words grouped with the keyboard.
    for _ in range(2):
        page.locator("#hand .group button.card").first.focus()
        page.keyboard.press("u")
    assert not page.locator("#hand .group").count()
    group_by_keyboard(page, words)
    page.wait_for_function("n => document.querySelectorAll('#hand .group.good').length === n", arg=len(words))
    for g, word in zip(page.locator("#hand .group").all(), words):
        assert g.locator(".group-label").inner_text() == f"{''.join(word)}: {sum(int(x) for x in g.locator('.corner-start').all_inner_texts())}"
    summary = page.inner_text("#hand-summary")
    left = page.locator("#hand .loose button.card")
    assert left.count() == 1
    assert summary == f"1 card left, {left.locator('.corner-start').inner_text()} point" + ("" if left.locator(".corner-start").inner_text() == "1" else "s")
    button = page.locator("#go-out-groups")
    assert button.inner_text().startswith("Go out with ")
    assert button.inner_text().endswith(f"discard the {left.get_attribute('data-face')}")
    button.click()
    # Going out ends this seat's turn: the computer's final turn follows, then the round's end.
    page.locator("#winner").wait_for()
    assert page.locator(".over .result-row[data-seat='0'] .laid-word").count() == len(words)


def test_sound_is_off_until_turned_on(server: str, open_tab: Callable[..., Tab]) -> None:
    page = open_tab().page
    play_now(page, server, level="easy", rounds=1)
    page.locator("#sound").wait_for()
    assert not page.is_checked("#sound")
    page.check("#sound")
    page.reload()
    page.locator("#sound").wait_for()
    assert page.is_checked("#sound")
    assert page.evaluate("() => localStorage.getItem('quiddler.sound')") == "on"


# -- a hint always comes, or the page says why -------------------------------------------

#: A table page whose server is this script: ``window.fake.say(message)`` is a
#: message from the server, ``fake.status(status)`` the connection's state,
#: ``fake.sent`` what the page sent.  The table is drawn in #fake-table.
FAKE_SERVER = """async ([welcome, state]) => {
    const { useTransport } = await import('/static/transport.js');
    const { saveSeat } = await import('/static/seats.js');
    const { TableSession } = await import('/static/session.js');
    const fake = { sent: [], open: false };
    const socket = { send: (msg) => fake.open && fake.sent.push(msg) > 0, close: () => {} };
    useTransport({ connect: (table, hello, handlers) => { fake.handlers = handlers; return socket; } });
    fake.say = (msg) => fake.handlers.onMessage(msg);
    fake.status = (status) => { fake.open = status === 'open'; fake.handlers.onStatus(status, { delay: 1000 }); };
    saveSeat(welcome.table, { token: 'token', seat: welcome.seat, name: 'Ann' });
    const main = document.createElement('main');
    main.id = 'fake-table';
    document.body.append(main);
    new TableSession(main, welcome.table, null, { navigate: () => {} });
    fake.status('open');
    fake.say(welcome);
    fake.say(state);
    window.fake = fake;
}"""


def fake_table(page: Any, server: str) -> dict[str, Any]:
    """The page at a table played in-process (quiddler.web.local) whose
    messages the test hands it one by one: seat 0 has drawn and is to
    discard.  Returns the table's answers to a hint and to unplayable words."""
    table = LocalTable.create(json.dumps({"seats": ["human", "easy"], "rules": {"round_sizes": [4]}}), seed=7)

    def send(message: dict[str, Any]) -> list[dict[str, Any]]:
        return table.receive(json.dumps(message))

    welcome, state = send({"type": "hello", "token": table.token})
    while (step := table.computer_step()) is not None:
        state = step
    [state] = send({"type": "action", "action": {"type": "draw", "source": "pile"}})
    assert state["view"]["my_turn"] and state["view"]["phase"] == "discard"
    [hint] = send({"type": "hint"})
    [refusal] = send({"type": "match", "words": ["zzzzz"], "mode": "go_out"})
    assert hint["type"] == "hint" and refusal["code"] == "no_match"
    page.goto(server + "/")
    page.locator("#play-now").wait_for()
    page.evaluate(FAKE_SERVER, [welcome, state])
    page.locator("#fake-table #hint-button").wait_for()
    return {"state": state, "welcome": welcome, "hint": hint, "refusal": refusal}


def sent(page: Any) -> list[str]:
    return [str(x) for x in page.evaluate("() => fake.sent.map((m) => m.type)")]


def test_a_refusal_of_another_request_leaves_the_hint_to_come(server: str, open_tab: Callable[..., Tab]) -> None:
    """Words that cannot be played are sent, then a hint is asked before their
    refusal comes: the refusal is said and the hint still shows when it comes."""
    page = open_tab().page
    said = fake_table(page, server)
    page.fill("#fake-table #words-input", "zzzzz")
    page.click("#fake-table #typed-send")
    page.click("#fake-table #hint-button")
    assert sent(page) == ["match", "hint"]
    page.evaluate("(msg) => fake.say(msg)", said["refusal"])
    assert "zzzzz" in page.inner_text("#fake-table #error")
    page.evaluate("(msg) => fake.say(msg)", said["hint"])
    assert page.locator("#fake-table #hint li").count() == len(said["hint"]["hint"]["options"])


def test_a_refusal_that_names_no_request_says_why_the_hint_did_not_come(server: str,
                                                                        open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    """An error the server sends for a message it could not read may answer the
    hint: the hint is given up, the error said, and the button works again."""
    page = open_tab().page
    fake_table(page, server)
    page.click("#fake-table #hint-button")
    assert page.is_disabled("#fake-table #hint-button")
    page.evaluate("() => fake.say({type: 'error', code: 'rate_limited', message: 'too many messages: slow down', params: {}})")
    assert not page.locator("#fake-table #hint").count()
    assert "slow down" in page.inner_text("#fake-table #error")
    assert page.is_enabled("#fake-table #hint-button")


def test_a_hint_asked_as_the_connection_went_is_asked_again_on_the_next(server: str,
                                                                        open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    """The server answers on the connection a request came by: a hint on its
    way when that one went is asked again once the page is back, and shows;
    typed words on their way are given up, so their button works again."""
    page = open_tab().page
    said = fake_table(page, server)
    page.fill("#fake-table #words-input", "zzzzz")
    page.click("#fake-table #typed-send")
    page.click("#fake-table #hint-button")
    assert page.is_disabled("#fake-table #typed-send") and page.is_disabled("#fake-table #hint-button")
    page.evaluate("() => fake.status('offline')")
    page.evaluate("() => fake.status('connecting')")
    page.evaluate("() => fake.status('open')")
    assert sent(page) == ["match", "hint", "hint"]
    assert page.is_enabled("#fake-table #typed-send")
    page.evaluate("([welcome, state, hint]) => [welcome, state, hint].forEach((msg) => fake.say(msg))",
                  [said["welcome"], said["state"], said["hint"]])  # fmt: skip
    assert page.locator("#fake-table #hint li").count() == len(said["hint"]["hint"]["options"])


def group_label(page: Any) -> str:
    return str(page.inner_text("#fake-table #hand .group .group-label"))


def test_a_refused_word_check_is_asked_again_and_its_answer_shown(server: str,
                                                                  open_tab: Callable[..., Tab]) -> None:  # fmt: skip
    """A word check the server refuses (here it could not answer it) is asked
    again after a wait rather than left "checking" for good, and so is one
    on its way when the connection went; its answer then shows."""
    page = open_tab().page
    said = fake_table(page, server)
    pair = said["state"]["view"]["hand"][:2]
    asked = "() => fake.sent.filter((m) => m.type === 'check' && m.words[0].length === 2).length"
    group_by_keyboard(page, [pair])  # a group of the first card is checked too, on the way
    page.wait_for_function(f"() => ({asked})() === 1")
    assert group_label(page) == f"{''.join(pair)}: checking…"
    page.evaluate("() => fake.say({type: 'error', code: 'server_error', request: 'check', params: {},"
                  " message: 'the server could not answer that message'})")  # fmt: skip
    assert page.evaluate(asked) == 1  # not at once: a busy server would refuse it again
    page.wait_for_function(f"() => ({asked})() === 2", timeout=5000)
    page.evaluate("() => fake.status('offline')")
    page.evaluate("() => fake.status('connecting')")
    page.evaluate("() => fake.status('open')")
    page.evaluate("([welcome, state]) => [welcome, state].forEach((msg) => fake.say(msg))",
                  [said["welcome"], said["state"]])  # fmt: skip
    page.wait_for_function(f"() => ({asked})() === 3", timeout=5000)
    assert page.evaluate("() => fake.sent.filter((m) => m.type === 'check').at(-1).words") == [pair]
    assert group_label(page) == f"{''.join(pair)}: checking…"
    answer = {"type": "check", "words": [{"cards": pair, "word": "".join(pair), "valid": False, "points": 0}]}
    page.evaluate("(msg) => fake.say(msg)", answer)
    assert group_label(page) == f"{''.join(pair)}: not a word"
