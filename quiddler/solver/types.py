"""Value types the solver returns: words, plays and solutions.

All are frozen, slotted dataclasses holding tuples; everything derivable
(points, score, whether a play goes out) is a property, so a value can never
disagree with itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from itertools import chain
from operator import attrgetter
from typing import Any

from ..cards import Card, full_deck
from ..drafts import draft_class

__all__ = ["Play", "Solution", "Word", "make_play", "make_solution", "make_word"]


# Card.points is a property (a Python call per card): a lookup at C speed instead,
# for the sums a game reads many times a turn.
_CARD_POINTS = {card: card.points for card in full_deck()}.__getitem__


@dataclass(frozen=True, slots=True)
class Word:
    """A word laid down with particular cards: ``Word("queen", (qu, e, e, n))``.

    ``str(word)`` is its text.

    :ivar text: The word as spelled, lowercase: ``"queen"``.
    :ivar cards: The cards that spell it, in order (``qu`` is one card).
    """

    text: str
    cards: tuple[Card, ...]

    @property
    def points(self) -> int:
        """Sum of the card points."""
        return sum(map(_CARD_POINTS, self.cards))

    @property
    def letters(self) -> int:
        """Length in letters (``th`` counts two), as the longest-word bonus counts."""
        return len(self.text)

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a word (see [JSON shapes](../json.md#word)).

        :returns: ``{"word", "cards", "points"}``.
        """
        return {"word": self.text, "cards": [c.face for c in self.cards], "points": self.points}


_CARDS: Callable[[Word], tuple[Card, ...]] = attrgetter("cards")
_TEXT: Callable[[Word], str] = attrgetter("text")


@dataclass(frozen=True, slots=True)
class Play:
    """One way to play a hand: words laid down, cards left over, the discard.

    ``bonus`` is what bonus targets given to the solver add (0 otherwise);
    ``score`` includes it.

    :ivar words: The words laid down, best first.
    :ivar unused: The cards left over, which count against the score.
    :ivar discard: The card discarded (a solve with ``discard=True``), or None.
    :ivar bonus: What the bonus targets the play meets add to its score.
    """

    words: tuple[Word, ...]
    unused: tuple[Card, ...] = ()
    discard: Card | None = None
    bonus: int = 0

    @property
    def score(self) -> int:
        """Points of cards in words, minus points of cards left over, plus ``bonus``."""
        return self.card_score + self.bonus

    @property
    def card_score(self) -> int:
        """The score without bonuses."""
        # Every card of the words at once, at C speed (Word.points would be a Python call a word).
        in_words = sum(map(_CARD_POINTS, chain.from_iterable(map(_CARDS, self.words))))
        return in_words - sum(map(_CARD_POINTS, self.unused))

    @property
    def goes_out(self) -> bool:
        """Every card (but the discard) is in a word."""
        return not self.unused

    @property
    def longest_word(self) -> int:
        """Letters in the longest word, 0 if there is none."""
        # Each word's letters are its text's length (Word.letters), read at C
        # speed: a computer player asks this of many plays a turn.
        return max(map(len, map(_TEXT, self.words))) if self.words else 0  # (max's default= costs more)

    @property
    def word_count(self) -> int:
        """The number of words."""
        return len(self.words)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card the play accounts for: words, leftovers, then the discard."""
        used = tuple(card for word in self.words for card in word.cards)
        return used + self.unused + ((self.discard,) if self.discard is not None else ())

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a play (see [JSON shapes](../json.md#play)).

        :returns: The play's fields and properties, cards as faces.
        """
        return {
            "score": self.score,
            "goes_out": self.goes_out,
            "discard": None if self.discard is None else self.discard.face,
            "words": [w.to_dict() for w in self.words],
            "unused": [c.face for c in self.unused],
            "longest_word": self.longest_word,
            "word_count": self.word_count,
            "bonus": self.bonus,
        }


@dataclass(frozen=True, slots=True)
class Solution:
    """The solver's answer for one hand.

    ``plays`` holds the ``top`` best distinct plays, best first (ordered by
    score, then going out, then the longest word, then the number of words).

    :ivar cards: The hand solved, in the order given.
    :ivar discard_required: Whether the solve discarded a card (``discard=True``).
    :ivar plays: The best distinct plays, best first: one unless the solve
        asked for ``top`` more.
    :ivar best_go_out: The best play that goes out, or None if none does;
        it may score less than :attr:`best`.
    """

    cards: tuple[Card, ...]
    discard_required: bool
    plays: tuple[Play, ...]
    best_go_out: Play | None

    @property
    def best(self) -> Play:
        """The highest-scoring play."""
        return self.plays[0]

    @property
    def can_go_out(self) -> bool:
        """Whether some play leaves no card over."""
        return self.best_go_out is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a solved hand (see [JSON shapes](../json.md#solution)).

        :returns: The solution's fields and properties, plays as :meth:`Play.to_dict` gives them.
        """
        return {
            "cards": [c.face for c in self.cards],
            "discard_required": self.discard_required,
            "can_go_out": self.can_go_out,
            "best": self.best.to_dict(),
            "best_go_out": None if self.best_go_out is None else self.best_go_out.to_dict(),
            "plays": [p.to_dict() for p in self.plays],
        }


# -- building values after a kernel call ------------------------------------------------
#
# The solver builds its values as drafts (see :mod:`quiddler.drafts`): a play
# and a solution are made on every solve, and their dataclass ``__init__``
# would cost more than the rest of the wrapping.


_WordDraft = draft_class(Word)
_PlayDraft = draft_class(Play)
_SolutionDraft = draft_class(Solution)
assert [f.name for f in fields(Word)] == ["text", "cards"]
assert [f.name for f in fields(Play)] == ["words", "unused", "discard", "bonus"]
assert [f.name for f in fields(Solution)] == ["cards", "discard_required", "plays", "best_go_out"]


def make_word(text: str, cards: tuple[Card, ...]) -> Word:
    """``Word(text, cards)``, as a draft (see :mod:`quiddler.drafts`): the solver names each
    word it meets once, and a fresh process names several a hand."""
    word = _WordDraft()
    word.text = text
    word.cards = cards
    word.__class__ = Word
    return word  # type: ignore[no-any-return]


def make_play(words: tuple[Word, ...], unused: tuple[Card, ...], discard: Card | None, bonus: int) -> Play:
    """``Play(words, unused, discard, bonus)``, as a draft (see :mod:`quiddler.drafts`)."""
    play = _PlayDraft()
    play.words = words
    play.unused = unused
    play.discard = discard
    play.bonus = bonus
    play.__class__ = Play
    return play  # type: ignore[no-any-return]


def make_solution(cards: tuple[Card, ...], discard_required: bool, plays: tuple[Play, ...],
                  best_go_out: Play | None) -> Solution:  # fmt: skip
    """``Solution(cards, discard_required, plays, best_go_out)``, as a draft (see :mod:`quiddler.drafts`)."""
    solution = _SolutionDraft()
    solution.cards = cards
    solution.discard_required = discard_required
    solution.plays = plays
    solution.best_go_out = best_go_out
    solution.__class__ = Solution
    return solution  # type: ignore[no-any-return]
