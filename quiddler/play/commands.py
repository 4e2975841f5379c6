"""What a person types at a prompt, parsed into commands.

Parsing knows the kind of prompt (drawing, ending an ordinary turn, a final
turn) but not the game: whether a card is held or a word can be spelled is
the session's to check.  Every mistake raises :class:`InputProblem` whose
message says what to type instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..cards import Card
from ..errors import InvalidCardError, shown

__all__ = [
    "Auto",
    "Command",
    "DiscardCard",
    "DrawCard",
    "GoOutWith",
    "Help",
    "HintRequest",
    "InputProblem",
    "LayDownWords",
    "Prompt",
    "Quit",
    "Score",
    "Table",
    "parse",
]

#: The prompts of a turn: before drawing, after drawing, after drawing on a final turn.
Prompt = Literal["draw", "end", "final"]


class InputProblem(ValueError):
    """Input that is not a command at this prompt; the message explains."""


@dataclass(frozen=True, slots=True)
class HintRequest:
    """``hint``: show the recommended move, the ranked options and the reason
    (``hint all``: every option, not just the best few)."""

    all: bool = False


@dataclass(frozen=True, slots=True)
class Auto:
    """``auto``: play the recommended move (``auto round``: every move to the round's end)."""

    round: bool = False


@dataclass(frozen=True, slots=True)
class Help:
    """``help`` or ``?``."""


@dataclass(frozen=True, slots=True)
class Score:
    """``score``: the score sheet so far."""


@dataclass(frozen=True, slots=True)
class Table:
    """``table`` (or ``look``): show the table again."""


@dataclass(frozen=True, slots=True)
class Quit:
    """``quit`` (or ``exit``): stop, offering to save."""


@dataclass(frozen=True, slots=True)
class DrawCard:
    source: Literal["pile", "discard"]


@dataclass(frozen=True, slots=True)
class DiscardCard:
    card: Card


@dataclass(frozen=True, slots=True)
class GoOutWith:
    """``go WORD... [discard CARD]``: the discard may be left for the words to fix.

    ``command_word``: the first word typed, taken as the command, when it is
    also a word (``out``): the person may have meant it as the first of the
    words, which only the hand can tell (see the session)."""

    words: tuple[str, ...]
    discard: Card | None = None
    command_word: str | None = None


@dataclass(frozen=True, slots=True)
class LayDownWords:
    """A final turn's ``WORD... [discard CARD]`` (no words: lay nothing down).

    ``command_word``: as for :class:`GoOutWith` (``go``, ``out``, and ``lay``
    with no words after it: ``out discard e`` may mean the word out)."""

    words: tuple[str, ...]
    discard: Card | None = None
    command_word: str | None = None


Command = HintRequest | Auto | Help | Score | Table | Quit | DrawCard | DiscardCard | GoOutWith | LayDownWords

_META: dict[str, Command] = {
    "hint": HintRequest(), "auto": Auto(), "help": Help(), "?": Help(), "score": Score(), "scores": Score(),
    "table": Table(), "look": Table(), "quit": Quit(), "exit": Quit(),
}  # fmt: skip
_PILE = {"pile", "p", "draw"}
_TAKE = {"discard", "d", "take", "t"}
_DISCARD = {"discard", "d"}
_GO = {"go", "out", "go-out"}
_LAY = {"lay", "go", "out"}
_DRAWN = {"pile", "draw", "take"}  # drawing words typed after the draw


def _card(token: str) -> Card:
    try:
        return Card.parse(token)
    except InvalidCardError:
        raise InputProblem(f"{shown(token)} is not a card (cards are a to z and er, in, qu, th, cl)") from None


def _words_and_discard(tokens: list[str]) -> tuple[tuple[str, ...], Card | None]:
    """``WORD... [discard CARD]``; words may be separated by commas too."""
    discard = None
    if len(tokens) >= 2 and tokens[-2] in _DISCARD:
        discard = _card(tokens[-1])
        tokens = tokens[:-2]
    elif tokens and tokens[-1] in _DISCARD:
        raise InputProblem("discard which card? put it after the word: discard CARD")
    return tuple(tokens), discard


def parse(line: str, prompt: Prompt) -> Command:
    """The command ``line`` means at ``prompt``; raises :class:`InputProblem`."""
    tokens = line.replace(",", " ").lower().split()
    if not tokens:
        raise InputProblem("type a move, or help")
    head, rest = tokens[0], tokens[1:]
    if head == "auto" and rest in (["round"], ["rest"]):
        return Auto(round=True)
    if head == "hint" and rest == ["all"]:
        return HintRequest(all=True)
    if head in _META and not rest:
        return _META[head]
    if prompt == "draw":
        return _parse_draw(head, rest)
    if prompt == "end":
        return _parse_end(head, rest)
    return _parse_final(head, rest)


def _parse_draw(head: str, rest: list[str]) -> Command:
    if not rest and head in _PILE:
        return DrawCard("pile")
    if not rest and head in _TAKE:
        return DrawCard("discard")
    if head in _DISCARD | _GO:
        raise InputProblem("draw a card first: pile (p) or discard (d)")
    raise InputProblem(f"{shown(' '.join([head, *rest]))}: draw from the pile (p) or take the discard (d)")


def _parse_end(head: str, rest: list[str]) -> Command:
    if head in _GO:
        words, discard = _words_and_discard(rest)
        if not words:
            raise InputProblem("go out with which words? for example: go quiet ax")
        return GoOutWith(words, discard, command_word=head if head == "out" else None)
    if head in _DISCARD and len(rest) == 1:
        return DiscardCard(_card(rest[0]))
    if not rest:
        if head in _DRAWN:
            raise InputProblem("you have drawn already: discard a card, or go out with go WORD...")
        if head == "discard":
            raise InputProblem("discard which card? for example: discard x")
        return DiscardCard(_card(head))  # a card alone: discard it
    if head in _DISCARD:
        raise InputProblem("discard one card, for example: discard x")
    typed = " ".join([head, *rest])
    raise InputProblem(f"to go out, type go and the words: go {typed if len(typed) <= 60 else 'WORD...'}")


def _parse_final(head: str, rest: list[str]) -> Command:
    if head in _LAY:
        words, discard = _words_and_discard(rest)
        if head == "lay" and words:
            return LayDownWords(words, discard)  # the way to lay down a word that is a command: lay auto
        return LayDownWords(words, discard, command_word=head)
    if head in _DRAWN:
        raise InputProblem("you have drawn already: type the words to lay down, then discard CARD")
    if not rest and len(head) == 1:
        return LayDownWords((), _card(head))  # a lone letter: lay nothing down, discard it
    words, discard = _words_and_discard([head, *rest])
    if words in ((), ("none",), ("nothing",)) and discard is None:
        raise InputProblem("discard which card? for example: discard x (or: WORD... discard x)")
    if words in (("none",), ("nothing",)):
        words = ()
    return LayDownWords(words, discard)
