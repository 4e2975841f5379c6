"""Cards, the official deck, and parsing hands from text.

A card shows one letter or one of the five two-letter combinations
(``er``, ``in``, ``qu``, ``th``, ``cl``).  There are 31 faces; :data:`FACES`
lists them in the order of the rules' deck table, which is also the order
cards sort in.  ``Card`` instances are interned: ``Card("qu") is Card("qu")``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Self

from .errors import InvalidCardError, shown

if TYPE_CHECKING:
    import random

__all__ = ["DECK_SIZE", "FACES", "Card", "Deck", "format_hand", "full_deck", "parse_hand"]

#: face -> (copies in the official deck, points)
_DECK_TABLE: dict[str, tuple[int, int]] = {
    "a": (10, 2), "b": (2, 8), "c": (2, 8), "d": (4, 5), "e": (12, 2),
    "f": (2, 6), "g": (4, 6), "h": (2, 7), "i": (8, 2), "j": (2, 13),
    "k": (2, 8), "l": (4, 3), "m": (2, 5), "n": (6, 5), "o": (8, 2),
    "p": (2, 6), "q": (2, 15), "r": (6, 5), "s": (4, 3), "t": (6, 3),
    "u": (6, 4), "v": (2, 11), "w": (2, 10), "x": (2, 12), "y": (4, 4),
    "z": (2, 14), "er": (2, 7), "in": (2, 7), "qu": (2, 9), "th": (2, 9),
    "cl": (2, 10),
}  # fmt: skip

#: Every face, in deck-table order (single letters a-z, then er, in, qu, th, cl).
FACES: tuple[str, ...] = tuple(_DECK_TABLE)

#: Number of cards in the official deck: 118.
DECK_SIZE: int = sum(copies for copies, _ in _DECK_TABLE.values())

_ORDER = {face: i for i, face in enumerate(FACES)}
_SEPARATORS = re.compile(r"\s*,\s*|\s+")


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One Quiddler card, identified by its face (``"a"``, ``"qu"``...).

    ``str(card)`` is the face; ``repr(card)`` evaluates back to the card.
    Cards order by the deck table (a..z, er, in, qu, th, cl).  There is one
    instance per face (construction, copying and unpickling all return it),
    so equality and hashing are by identity, which keeps dict lookups of
    cards fast.

    :ivar face: The face, lowercase: one of :data:`FACES`.
    :raises InvalidCardError: ``face`` is not one of :data:`FACES` (use
        :meth:`parse` for text as a user types it).
    """

    face: str
    _interned: ClassVar[dict[str, Self]] = {}

    def __new__(cls, face: str) -> Self:
        card = cls._interned.get(face)
        if card is not None:
            return card
        if not isinstance(face, str) or face not in _DECK_TABLE:
            raise InvalidCardError(f"unknown card: {shown(face)}")
        card = object.__new__(cls)
        cls._interned[face] = card
        return card

    def __getnewargs__(self) -> tuple[str]:
        return (self.face,)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card, ignoring case and surrounding blanks: ``Card.parse(" QU ")``.

        :param text: The face as typed.
        :returns: The card.
        :raises InvalidCardError: ``text`` is not a string, is blank or is
            not a face.
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"not a card: {shown(text)} ({type(text).__name__}, not str)")
        token = text.strip().lower()
        if not token:
            raise InvalidCardError(f"empty card: {text!r}")
        if token not in _DECK_TABLE:
            raise InvalidCardError(f"unknown card: {shown(token)}")
        return cls(token)

    @property
    def points(self) -> int:
        """Face value of the card."""
        return _DECK_TABLE[self.face][1]

    @property
    def copies(self) -> int:
        """How many copies of this card the official deck holds."""
        return _DECK_TABLE[self.face][0]

    @property
    def letters(self) -> int:
        """Number of letters on the card (2 for er, in, qu, th, cl)."""
        return len(self.face)

    @property
    def index(self) -> int:
        """Position of the face in :data:`FACES`."""
        return _ORDER[self.face]

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return _ORDER[self.face] < _ORDER[other.face]

    def __str__(self) -> str:
        return self.face

    def __repr__(self) -> str:
        return f"Card({self.face!r})"


for _face in FACES:
    Card(_face)


def parse_hand(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse a hand such as ``"qu,i,th,er"`` into cards, keeping their order.

    Cards are separated by commas and/or blanks; case and surrounding blanks
    are ignored.  ``in`` is the two-letter card, ``i,n`` two cards.  An
    iterable of card strings (or cards) is accepted too.

    >>> parse_hand("Qu, i th,er")
    (Card('qu'), Card('i'), Card('th'), Card('er'))
    >>> parse_hand("qu,,i")
    Traceback (most recent call last):
    ...
    quiddler.errors.InvalidCardError: empty card between separators in 'qu,,i'

    :param text: The faces in one string, or an iterable of faces or cards.
    :returns: The cards, in the order given.
    :raises InvalidCardError: A card cannot be read, or the hand is empty.
    :raises TypeError: ``text`` is neither a string nor an iterable.
    """
    if isinstance(text, str):
        stripped = text.strip()
        if not stripped:
            raise InvalidCardError("empty hand")
        tokens = _SEPARATORS.split(stripped)
        if any(not token for token in tokens):
            raise InvalidCardError(f"empty card between separators in {shown(text)}")
        return tuple(Card.parse(token) for token in tokens)
    if isinstance(text, Card):
        return (text,)
    try:
        items = tuple(text)
    except TypeError:
        raise TypeError(f"cards must be a str or an iterable of cards, not {type(text).__name__}") from None
    cards = tuple(item if isinstance(item, Card) else Card.parse(item) for item in items)
    if not cards:
        raise InvalidCardError("empty hand")
    return cards


def format_hand(cards: Iterable[Card]) -> str:
    """The inverse of :func:`parse_hand`: ``"qu,i,th,er"``.

    :param cards: The cards.
    :returns: Their faces, joined by commas.
    """
    return ",".join(card.face for card in cards)


def full_deck() -> tuple[Card, ...]:
    """The official 118-card deck, in deck-table order.

    :returns: Every card of the deck, each face as many times as it has copies.
    """
    return _FULL_DECK


# Made once: a tuple of interned cards, the same value every call (each game deals from it).
_FULL_DECK = tuple(Card(face) for face, (copies, _) in _DECK_TABLE.items() for _ in range(copies))
#: A card's place in the deck order (:attr:`Card.index`) by dict lookup: as a sort
#: key, cards sort as by their own ``<`` (a Python call per comparison), at C speed.
_CARD_INDEX = {card: _ORDER[card.face] for card in _FULL_DECK}


class Deck:
    """A shuffled pile of cards dealt from the top.

    ``len(deck)`` is the number of cards left.

    >>> import random
    >>> deck = Deck(random.Random(1))
    >>> len(deck)
    118
    >>> len(deck.deal(10)), len(deck)
    (10, 108)

    :param rng: The random generator that shuffles the pile; None: a new,
        unseeded one.
    :param cards: The cards of the pile; None: the :func:`full_deck`.
    """

    def __init__(self, rng: random.Random | None = None, cards: Sequence[Card] | None = None) -> None:
        self._cards = list(full_deck() if cards is None else cards)
        if rng is None:
            import random  # here, not at the top: most programs that need cards never shuffle a deck

            rng = random.Random()
        rng.shuffle(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def deal(self, n: int) -> tuple[Card, ...]:
        """Take ``n`` cards from the top of the deck.

        :param n: How many cards, 0 or more.
        :returns: The cards taken, the top card first.
        :raises TypeError: ``n`` is not an integer.
        :raises ValueError: ``n`` is negative or more than the cards left.
        """
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"the number of cards to deal must be an integer, not {type(n).__name__} {shown(n)}")
        if n < 0:
            raise ValueError(f"cannot deal a negative number of cards: {n}")  # deal(-1) took all but one
        if n > len(self._cards):
            raise ValueError(f"cannot deal {n} cards from a deck of {len(self._cards)}")
        dealt = self._cards[-n:] if n else []
        del self._cards[len(self._cards) - n :]
        return tuple(reversed(dealt))
