"""Matching typed words to the cards in hand: the spelling the hand holds,
spellings worth different points offered best first, going out needs the
spelling that leaves one card, and words that cannot be laid down are
explained."""

from __future__ import annotations

import re

import pytest

from quiddler.cards import Card
from quiddler.play.spelling import WordProblem, distinct_choices, match_words

from .helpers import (
    WORDS,
    cards,
)


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
        ("queen", "qu,e,n,x,a", {}, "it needs two e's (you have one)"),
        ("queen", "q,u,e,e,n,x", {"discard": Card("q")},
         "it needs a q (the q you discard cannot be in a word too)"),
        ("by bay", "b,y,a,y,x", {}, "your cards cannot spell 'by' and 'bay' at once: together they need two b's (you have one)"),
        ("zit tau", "z,i,t,a,u,u", {"discard": Card("u")},
         "your cards cannot spell 'zit' and 'tau' at once: together they need two t's (you have one)"),
        ("zit tau", "z,i,t,a,u,x", {"discard": Card("u")},
         "you cannot spell 'tau' with your cards: it needs a u (the u you discard cannot be in a word too)"),
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


def test_more_words_than_the_cards_can_hold_are_refused_before_any_search() -> None:
    hand = cards("a,x,t,e,th,e,r")
    with pytest.raises(WordProblem, match="3,000 words need at least 6,000 cards, and you have 7"):
        match_words(["ax"] * 3000, hand, WORDS, mode="lay-down")
    with pytest.raises(WordProblem, match="4 words need at least 8 cards, and you have 6 besides the discard"):
        match_words(["ax", "ta", "eh", "re"], hand, WORDS, discard=Card("r"))


def test_words_that_fit_alone_but_not_together_are_explained_quickly() -> None:
    # Ten words with two spellings each (th or t+h): the explanation looks at a bounded number of combinations.
    hand = cards("t,h,e,th,e,t,h,e,th,e,t,h,e,th,e,t,h,e,th,e")
    with pytest.raises(WordProblem, match="at once: together they need"):
        match_words(["the"] * 10, hand, WORDS, mode="lay-down")
