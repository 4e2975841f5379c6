"""What the person types at each prompt: every command form parses to its
value, and each mistake is explained in words."""

from __future__ import annotations

import re

import pytest

from quiddler.cards import Card
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
        ("out ax d e", "end", GoOutWith(("ax",), Card("e"), command_word="out")),
        ("quiet ax discard z", "final", LayDownWords(("quiet", "ax"), Card("z"))),
        ("lay auto", "final", LayDownWords(("auto",))),
        ("go ax", "final", LayDownWords(("ax",), command_word="go")),
        ("out discard e", "final", LayDownWords((), Card("e"), command_word="out")),
        ("out", "final", LayDownWords((), command_word="out")),
        ("lay", "final", LayDownWords((), command_word="lay")),
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
