"""``quiddler play``: parsing, word matching, the plain rendering of a known
position, whole scripted games through click's CliRunner, bad input at
every prompt, hints, saving/quitting/resuming, end of input and Ctrl-C.

Deals depend on the engine's shuffles, so the scripts here decide what to
type from the game in front of them (see :class:`Script`) rather than from
hands written down for one seed.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from quiddler import default_wordlist, find_words, parse_hand
from quiddler.cards import FACES, Card
from quiddler.game import Game, Phase, Rules
from quiddler.game.record import replay
from quiddler.game.state import Discard, Draw, GoOut, LayDown
from quiddler.play import render
from quiddler.play.cli import play
from quiddler.play.commands import (
    Auto,
    DiscardCard,
    DrawCard,
    GoOutWith,
    Help,
    HintRequest,
    InputProblem,
    LayDownWords,
    Quit,
    Score,
    Table,
    parse,
)
from quiddler.play.saves import HUMAN, SaveError, check_save_target, load_game, save_game
from quiddler.play.screen import Screen
from quiddler.play.session import Session, decision_seed
from quiddler.play.spelling import WordProblem, distinct_choices, match_words
from quiddler.solver.types import Word

WORDS = default_wordlist()
SHORT = ["--rounds", "2"]


def cards(text: str) -> tuple[Card, ...]:
    return parse_hand(text)


# -- parsing what is typed ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "prompt", "expected"),
    [
        ("pile", "draw", DrawCard("pile")),
        ("P", "draw", DrawCard("pile")),
        ("  discard ", "draw", DrawCard("discard")),
        ("d", "draw", DrawCard("discard")),
        ("take", "draw", DrawCard("discard")),
        ("hint", "draw", HintRequest()),
        ("auto", "end", Auto()),
        ("auto round", "final", Auto(round=True)),
        ("?", "end", Help()),
        ("score", "draw", Score()),
        ("look", "final", Table()),
        ("quit", "end", Quit()),
        ("discard x", "end", DiscardCard(Card("x"))),
        ("d QU", "end", DiscardCard(Card("qu"))),
        ("th", "end", DiscardCard(Card("th"))),
        ("d", "end", DiscardCard(Card("d"))),
        ("go clingers by an do", "end", GoOutWith(("clingers", "by", "an", "do"))),
        ("go quiet, ax discard e", "end", GoOutWith(("quiet", "ax"), Card("e"))),
        ("out ax d e", "end", GoOutWith(("ax",), Card("e"))),
        ("quiet ax discard z", "final", LayDownWords(("quiet", "ax"), Card("z"))),
        ("lay auto", "final", LayDownWords(("auto",))),
        ("go ax", "final", LayDownWords(("ax",))),
        ("discard z", "final", LayDownWords((), Card("z"))),
        ("z", "final", LayDownWords((), Card("z"))),
        ("none discard z", "final", LayDownWords((), Card("z"))),
        ("quiet", "final", LayDownWords(("quiet",))),
    ],
)
def test_parse(line: str, prompt: str, expected: object) -> None:
    assert parse(line, prompt) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "prompt", "message"),
    [
        ("", "draw", "type a move, or help"),
        ("blah", "draw", "'blah': draw from the pile (p) or take the discard (d)"),
        ("discard x", "draw", "draw a card first"),
        ("go ax", "draw", "draw a card first"),
        ("pile", "end", "you have drawn already"),
        ("discard", "end", "discard which card?"),
        ("discard x y", "end", "discard one card"),
        ("zz", "end", "'zz' is not a card"),
        ("discard 7", "end", "'7' is not a card"),
        ("go", "end", "go out with which words?"),
        ("go ax discard", "end", "discard which card? put it after the word"),
        ("go ax discard zz", "end", "'zz' is not a card"),
        ("quiet ax", "end", "to go out, type go and the words: go quiet ax"),
        ("pile", "final", "you have drawn already"),
        ("quiet discard", "final", "discard which card?"),
        ("none", "final", "discard which card?"),
    ],
)
def test_parse_explains_mistakes(line: str, prompt: str, message: str) -> None:
    with pytest.raises(InputProblem, match=re.escape(message)):
        parse(line, prompt)  # type: ignore[arg-type]


# -- matching typed words to the hand -------------------------------------------------------


def spelled(match_words_result: list) -> list[list[tuple[str, ...]]]:  # type: ignore[type-arg]
    return [[tuple(c.face for c in w.cards) for w in m.words] for m in match_words_result]


def test_words_find_the_spelling_the_hand_holds() -> None:
    found = match_words(["queen"], cards("q,u,e,e,n,x"), WORDS)
    assert spelled(found) == [[("q", "u", "e", "e", "n")]] and found[0].discard == Card("x")
    found = match_words(["queen", "ax"], cards("qu,e,e,n,a,x,b"), WORDS)
    assert spelled(found) == [[("qu", "e", "e", "n"), ("a", "x")]] and found[0].discard == Card("b")
    assert not distinct_choices(found)


def test_spellings_that_differ_in_points_are_offered_best_first() -> None:
    found = match_words(["the"], cards("th,e,t,h,e,a,x"), WORDS, mode="lay-down")
    assert spelled(found) == [[("t", "h", "e")], [("th", "e")]]
    assert [m.points for m in found] == [12, 11] and distinct_choices(found)
    assert found[1].left == cards("a,e,h,t,x")  # what stays in hand; the discard is asked for


def test_going_out_needs_the_one_spelling_that_leaves_one_card() -> None:
    found = match_words(["the"], cards("th,e,t,h"), WORDS)
    assert spelled(found) == [[("t", "h", "e")]] and found[0].discard == Card("th")


@pytest.mark.parametrize(
    ("words", "hand", "options", "message"),
    [
        ("queenz", "a,b", {}, "'queenz' is not in the word list (ENABLE)"),
        ("th3", "a,b", {}, "'th3' is not a word: use the letters a to z only"),
        ("queen", "a,b", {}, "you cannot spell 'queen' with your cards: it needs two e's, an n and a qu"),
        ("queen", "qu,e,n,x,a", {}, "it needs another e"),
        ("queen", "q,u,e,e,n,x", {"discard": Card("q")},
         "it needs a q (the q you discard cannot be in a word too)"),
        ("by bay", "b,y,a,y,x", {}, "your cards cannot spell 'by' and 'bay' at once: together they need another b"),
        ("the", "th,e,t,h,x", {}, "those words leave x and th over: going out lays down every card but one"),
        ("queen", "q,u,e,e,n", {}, "those words use all 5 of your cards: going out keeps one card to discard"),
        ("ax", "a,x,b,c", {"discard": Card("b")}, "those words and the discard b leave c over"),
        ("ax", "a,b", {"discard": Card("x")}, "you hold no x to discard"),
        ("at", "a,t", {"mode": "lay-down"}, "those words use every card you hold: keep one card to discard"),
    ],
)  # fmt: skip
def test_words_that_cannot_be_laid_down_are_explained(words: str, hand: str, options: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(WordProblem, match=re.escape(message)):
        match_words(words.split(), cards(hand), WORDS, **options)


# -- the plain rendering of one known position ------------------------------------------


def known_view() -> object:
    game = Game(2, seed=1)
    view = game.view(0)
    return replace(
        view, round=2, round_size=5, dealer=1, turn=0, phase=Phase.DRAW,
        hand=cards("qu,e,e,n,th"), discard_top=Card("z"), draw_pile_size=87, discard_pile_size=6,
        hand_sizes=(5, 0), totals=(25, 40), went_out=1,
        laid_down=((), (Word("quit", cards("qu,i,t")), Word("ax", cards("a,x")))),
    )  # fmt: skip


def plain(*renderables: object) -> list[str]:
    out = io.StringIO()
    Screen(plain=True, stdout=out).show(*renderables)  # type: ignore[arg-type]
    return out.getvalue().split("\n")


def test_plain_rendering_of_a_known_position_line_by_line() -> None:
    lines = plain(render.turn_table(known_view(), ("You", "Ada")))  # type: ignore[arg-type]
    assert lines == [
        "Round 3 of 8 (5 cards), Ada deals: your turn",
        "player  total  cards  laid down this round",
        "You        25      5",
        "Ada        40      0  quit [qu i t] 14, ax 14 (went out)",
        "Discard pile: z (14)    Draw pile: 87 cards",
        "Ada went out: this is your final turn. Lay down what words you can; the cards left in your hand "
        "count against you.",
        "Your hand  qu  e  e  n  th",
        "            9  2  2  5   9",
        "",
    ]


def test_plain_rendering_has_no_escape_codes_and_colour_rendering_has() -> None:
    view = known_view()
    colour = io.StringIO()
    Screen(plain=False, stdout=colour).show(render.turn_table(view, ("You", "Ada")))  # type: ignore[arg-type]
    assert "\x1b[" not in "\n".join(plain(render.turn_table(view, ("You", "Ada"))))  # type: ignore[arg-type]


def finished_one_round_game() -> Game:
    """A one-round game with known hands (set directly: test only): You go
    out with qua and discard t; Ada lays down ax and keeps b."""
    game = Game(2, seed=3, rules=Rules(round_sizes=(3,)))
    game._hands = [list(cards("q,u,a")), list(cards("a,x,b"))]
    game.apply(Draw(1, "pile"))  # seat 1 plays first
    game._hands[1] = list(cards("a,x,b,t"))
    game.apply(Discard(1, Card("t")))
    game.apply(Draw(0, "discard"))
    game.apply(GoOut(0, (Word("qua", cards("q,u,a")),), Card("t")))
    game.apply(Draw(1, "pile"))
    game.apply(LayDown(1, (Word("ax", cards("a,x")),), game.hand(1)[-1]))
    assert game.over
    return game


def test_plain_rendering_of_a_round_and_the_score_sheet() -> None:
    game = finished_one_round_game()
    assert plain(render.round_summary(game.history[0], ("You", "Ada"), 0)) == [
        "End of round 1 (3 cards): You went out.",
        "player  words   left in hand  bonus             round  total",
        "You     qua 21  -             longest word +10    +31     31",
        "Ada     ax 14   b -8          -                    +6      6",
        "",
    ]
    assert plain(render.game_over(game.history, ("You", "Ada"), 0, game.totals)) == [
        "Game over. You win with 31 points!",
        "Score sheet",
        "round  cards  You  Ada",
        "1          3  +31   +6",
        "total          31    6",
        "",
    ]
