"""Card counting from what a player may see: the cards whose place is
unknown to it, and the cards it knows an opponent holds.

Everything here reads a :class:`~quiddler.game.state.PlayerView` only (its
hand, the face-up cards, the laid-down words and the round's public log),
so a computer player built on it can never use a hidden card.
"""

from __future__ import annotations

from collections import Counter
from itertools import compress

from ..cards import _CARD_INDEX, Card, full_deck
from .state import Discard, Draw, GoOut, LayDown, PlayerView

__all__ = ["discard_pile", "holdings", "known_holdings", "unseen", "unseen_counts"]

_DECK = Counter(full_deck())


def discard_pile(view: PlayerView) -> list[Card]:
    """The discard pile as the log shows it, bottom first.

    It starts as the up card (``view.seen[0]``); a take pops it, a discard
    pushes, a reshuffle leaves only the top.  A view without a log (a
    position typed in for a hint) counts every seen card as still face up.
    """
    if not view.log:
        return list(view.seen)
    pile = list(view.seen[:1])
    for event in view.log:
        action = event.action
        if isinstance(action, Draw):
            if action.source == "discard":
                if pile:
                    pile.pop()
            elif event.reshuffled:
                pile = pile[-1:]
        elif isinstance(action, (Discard, GoOut, LayDown)):
            pile.append(action.card if isinstance(action, Discard) else action.discard)
    return pile


def known_holdings(view: PlayerView) -> tuple[Counter[Card], ...]:
    """Per seat, the cards it is known to hold: those it took face up from
    the discard pile, less later discards of the same face.  A seat that
    laid down is cleared (its words are public anyway).  The player's own
    entry is its hand."""
    held = holdings(view)
    own: dict[Card, int] = {}
    for card in view.hand:
        own[card] = own.get(card, 0) + 1
    held[view.seat] = own
    return tuple(map(_counter, held))


def holdings(view: PlayerView) -> list[dict[Card, int]]:
    """:func:`known_holdings` as plain dicts, the player's own entry empty:
    what a computer player's decision reads, many thousand times in a
    search (a Counter's Python methods cost more than the counting)."""
    # A count that falls to 0 keeps its place, as in a Counter, and is dropped at the end.
    held: list[dict[Card, int]] = [{} for _ in range(view.players)]
    for event in view.log:
        action = event.action
        if isinstance(action, Draw):
            taken = event.taken
            if taken is not None:
                counts = held[action.player]
                counts[taken] = counts.get(taken, 0) + 1
        elif isinstance(action, Discard):
            counts = held[action.player]
            if counts.get(action.card):
                counts[action.card] -= 1
        else:
            held[action.player] = {}
    held[view.seat] = {}
    return [counts if all(counts.values()) else {card: n for card, n in counts.items() if n > 0} for counts in held]


def unseen(view: PlayerView, held: tuple[Counter[Card], ...] | None = None) -> Counter[Card]:
    """The cards whose place the player does not know, by face: the deck
    less its own hand, the discard pile, every laid-down word and the cards
    known to be in an opponent's hand.  These are the draw pile and the
    rest of the opponents' hands; a blind draw is taken to be any of them
    with equal chance.  ``held``: :func:`known_holdings` of the view, if
    the caller has it already.

    >>> from quiddler.game import Game
    >>> view = Game(2, seed=3).view(1)
    >>> sum(unseen(view).values()) == 118 - len(view.hand) - 1
    True
    """
    out = dict(_DECK)
    for card in view.hand:
        out[card] -= 1
    for card in discard_pile(view):
        out[card] -= 1
    for laid in view.laid_down:
        for word in laid:
            for card in word.cards:
                out[card] -= 1
    for seat, known in enumerate(known_holdings(view) if held is None else held):
        if seat != view.seat:
            for card, n in known.items():
                out[card] -= n
    # counts below zero (an inconsistent typed-in position) are dropped
    return _counter({card: n for card, n in out.items() if n > 0})


def _counter(counts: dict[Card, int]) -> Counter[Card]:
    """``Counter(counts)``, without ``Counter.__init__`` (Python code that
    checks its argument's type: it cost more than the counting here).  A
    Counter is a dict with methods and no state of its own."""
    made: Counter[Card] = Counter.__new__(Counter)
    dict.update(made, counts)
    return made


#: Each card as a one in its face's byte of an int (the face's index picks the byte).
_COUNT_OF = {card: 1 << (8 * index) for card, index in _CARD_INDEX.items()}
#: The faces in the cards' order (a face's index is its place), and how many of each the deck holds.
_FACES = sorted(_DECK, key=_CARD_INDEX.__getitem__)
_DECK_COUNTS = bytes(map(_DECK.__getitem__, _FACES))
#: A guard bit (128) in every face's byte: see :func:`unseen_counts`.
_GUARDS = sum(128 << (8 * i) for i in range(len(_FACES)))
#: The deck's counts, a byte per face, each with its guard bit set.
_DECK_GUARDED = int.from_bytes(_DECK_COUNTS, "little") + _GUARDS


def unseen_counts(view: PlayerView, held: list[dict[Card, int]]) -> tuple[list[Card], bytes]:
    """:func:`unseen` as its faces in the cards' order and their counts
    (``held``: :func:`holdings` of the view), the way a computer player's
    decision reads it.  The seen cards are counted at C speed, a byte per
    face of one int (see ``_COUNT_OF``), and the unseen counts are the
    deck's less those bytes, all faces in one subtraction: each of the
    deck's bytes carries a guard bit (128), so with fewer than 128 cards
    seen no byte borrows from the next, and a byte whose guard bit is
    cleared is a face seen more often than the deck holds it.  A position
    no game can reach (such a face, or 128 cards or more seen) is counted
    by :func:`unseen` itself, which drops the faces below zero."""
    seen = [*view.hand, *discard_pile(view)]
    for laid in view.laid_down:
        for word in laid:
            seen += word.cards
    for seat, known in enumerate(held):
        if seat != view.seat:
            for card, n in known.items():
                seen += [card] * n
    if len(seen) < 128:
        guarded = _DECK_GUARDED - sum(map(_COUNT_OF.__getitem__, seen))
        if guarded & _GUARDS == _GUARDS:
            left = (guarded - _GUARDS).to_bytes(len(_FACES), "little")
            return list(compress(_FACES, left)), left.replace(b"\0", b"")
    pool = unseen(view, tuple(map(_counter, held)))
    faces = sorted(pool, key=_CARD_INDEX.__getitem__)
    return faces, bytes(map(pool.__getitem__, faces))
