"""Players: the :class:`Player` protocol, the ``random`` and ``greedy``
players, and the registry of player names.

A player only ever sees a :class:`~quiddler.game.state.PlayerView` and
answers with an action for its own seat, so any player (a computer player, a
human at a prompt, a network client) plugs into the same loop.  Players
are made by name with :func:`make_player` (the computer players of
:mod:`.ai` register themselves when it is imported);
:func:`register_player` adds more.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import NamedTuple, Protocol, runtime_checkable

from ..cards import _CARD_INDEX, Card
from ..errors import ArgumentTypeError, shown
from ..solver import Play, Solution, Solver
from ..wordlist import WordList
from .errors import UnknownPlayerError
from .finals import FinalSearch
from .state import Discard, Draw, GoOut, LayDown, PlayerView

_CARD_ORDER = _CARD_INDEX.__getitem__  # cards' own order, as a sort key at C speed

__all__ = [
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "best_final_play",
    "clear_solve_cache",
    "make_player",
    "player_names",
    "register_player",
    "solve_cards",
    "solve_hand",
]


@runtime_checkable
class Player(Protocol):
    """A seat's decision maker.  Each method gets the player's own view
    when it is that player's move and returns an action for ``view.seat``.

    Any object with these methods and a ``name`` is a player (it need not
    subclass this); :func:`register_player` makes one available by name.

    :ivar name: The name the player is registered under, shown in results.
    """

    name: str

    def choose_draw(self, view: PlayerView) -> Draw:
        """Start of a turn: draw from the pile or take the discard top.

        :param view: What the player sees; it is this player's move.
        :returns: A :class:`Draw` for ``view.seat``.
        """
        ...

    def choose_end(self, view: PlayerView) -> Discard | GoOut:
        """An ordinary turn after drawing: discard a card, or go out.

        :param view: What the player sees; it is this player's move.
        :returns: A :class:`Discard` or a :class:`GoOut` for ``view.seat``.
        """
        ...

    def choose_lay_down(self, view: PlayerView) -> LayDown:
        """A final turn after drawing (someone went out): lay down words and discard.

        :param view: What the player sees; it is this player's move.
        :returns: A :class:`LayDown` for ``view.seat``.
        """
        ...


@lru_cache(maxsize=8192)
def _solve(hand: tuple[Card, ...], discard: bool, wordlist: WordList, beat_longest: int | None = None,
           beat_words: int | None = None, bonus: int = 10) -> Solution:  # fmt: skip
    return _solver_for(wordlist).solve(hand, discard=discard, beat_longest=beat_longest, beat_words=beat_words,
                                       bonus=bonus)  # fmt: skip


@lru_cache(maxsize=16)
def _solver_for(wordlist: WordList) -> Solver:
    """The players' one Solver per word list (the rules' list, the levels' vocabularies)."""
    return Solver(wordlist)


@lru_cache(maxsize=4096)
def _even(hand: tuple[Card, ...], wordlist: WordList, beat_longest: int | None, beat_words: int | None,
          bonus: int) -> tuple[int, frozenset[Card]] | None:  # fmt: skip
    return _solver_for(wordlist)._even_discards(hand, beat_longest, beat_words, bonus)


@lru_cache(maxsize=4096)
def _classes(hand: tuple[Card, ...], wordlist: WordList, beat_longest: int,
             beat_words: int) -> tuple[int | None, ...] | None:  # fmt: skip
    return _solver_for(wordlist)._class_scores(hand, beat_longest, beat_words)


def class_scores(cards: tuple[Card, ...] | list[Card], wordlist: WordList, beat_longest: int,
                 beat_words: int) -> tuple[int | None, ...] | None:  # fmt: skip
    """The best card score of each class of plays of a final turn's hand, a
    card discarded, by their longest word and word count against those to
    beat (order-free, cached; see ``Solver._class_scores``), or None where
    one search cannot tell them."""
    return _classes(tuple(sorted(cards, key=_CARD_ORDER)), wordlist, beat_longest, beat_words)


def clear_solve_cache() -> None:
    """Forget the players' cached solutions (benchmarks measure cold games with it)."""
    _solve.cache_clear()
    _even.cache_clear()
    _classes.cache_clear()


def solve_hand(cards: tuple[Card, ...] | list[Card], view: PlayerView, *, discard: bool = True,
               beat_longest: int | None = None, beat_words: int | None = None, bonus: int = 10) -> Solution:  # fmt: skip
    """The solver on a hand (order-free, cached), with the view's word list."""
    return solve_cards(cards, view.rules.words, discard=discard, beat_longest=beat_longest, beat_words=beat_words,
                       bonus=bonus)  # fmt: skip


def solve_cards(cards: tuple[Card, ...] | list[Card], wordlist: WordList, *, discard: bool = True,
                beat_longest: int | None = None, beat_words: int | None = None, bonus: int = 10) -> Solution:  # fmt: skip
    """The solver on a hand (order-free, cached) with any word list (a computer player's vocabulary)."""
    return _solve(tuple(sorted(cards, key=_CARD_ORDER)), discard, wordlist, beat_longest, beat_words, bonus)


class _Bonuses(NamedTuple):
    """A final turn's bonuses as a view sets them, read once per decision."""

    longest_bonus: int  #: the longest-word bonus, 0 if not played
    most_bonus: int  #: the most-words bonus, 0 if not played
    beat_longest: int  #: the letters of the longest word to beat
    beat_words: int  #: the words to beat
    any_play: bool  #: whether a play that does not go out may win one

    @classmethod
    def of(cls, view: PlayerView) -> _Bonuses:
        """The bonuses of ``view``'s final turn."""
        longest_bonus, most_bonus = view.rules.bonuses(view.players)
        longest, count = view.others_best()
        return cls(longest_bonus, most_bonus, longest, count, not view.rules.bonus_requires_going_out)

    def ceiling(self, card_score: int, letters: int, words: int) -> int:
        """The most a play of this card score, longest word and word count can be worth."""
        return (card_score + (self.longest_bonus if letters > self.beat_longest else 0)
                + (self.most_bonus if words > self.beat_words else 0))  # fmt: skip


def _final_valuer(view: PlayerView) -> Callable[[Play], int]:
    """A final-turn play's value in ``view``: its card score plus the bonuses
    it takes from what the others laid down (the view read once)."""
    return _valuer(_Bonuses.of(view))


def _valuer(bonuses: _Bonuses) -> Callable[[Play], int]:
    """:func:`_final_valuer` of the bonuses read from a view."""
    longest_bonus, most_bonus, longest, count, any_play = bonuses

    def value(play: Play) -> int:
        score = play.card_score
        if play.words and (any_play or play.goes_out):
            score += longest_bonus if play.longest_word > longest else 0
            score += most_bonus if play.word_count > count else 0
        return score

    return value


#: A bonus too big to pass up: solving with it finds the best play that meets
#: a bonus target (the plays are then compared at their true values).
TARGET_BONUS = 10_000


def best_final_play(cards: tuple[Card, ...] | list[Card], view: PlayerView, *, discard: bool = True) -> Play:
    """The play worth most on a final turn, counting the bonuses it would
    take from what the others have laid down so far.  Exact for differing
    bonus values too: each set of bonuses to aim for is solved with a bonus
    too big to pass up, and the plays are compared at their true values
    (:mod:`.finals` skips the solves that cannot change the answer, and
    stops at the best value where one solve finds it: see :func:`_value_aim`)."""
    bonuses = _Bonuses.of(view)
    aim = _value_aim(bonuses)
    most = None if aim is None else _best_value(cards, view, discard, aim)
    return _final_search(cards, view, discard, bonuses, most).finish()[0]


def _final_search(cards: tuple[Card, ...] | list[Card], view: PlayerView, discard: bool, bonuses: _Bonuses,
                  most: int | None = None) -> FinalSearch:  # fmt: skip
    """:func:`best_final_play`'s solves, to be done as far as they are
    needed (``most``: the best value, where it is known)."""
    longest_bonus, most_bonus, longest, count, _ = bonuses
    targets: list[tuple[int | None, int | None]] = [(None, None)]
    if longest_bonus:
        targets.append((longest, None))
    if most_bonus:
        targets.append((None, count))
    if longest_bonus and most_bonus:
        targets.append((longest, count))

    def solve(beat_longest: int | None, beat_words: int | None) -> Play:
        bonus = 10 if beat_longest is None and beat_words is None else TARGET_BONUS
        return solve_hand(cards, view, discard=discard, beat_longest=beat_longest, beat_words=beat_words,
                          bonus=bonus).best  # fmt: skip

    return FinalSearch(cards, discard, targets, solve, _valuer(bonuses), bonuses.ceiling, most)


#: A final turn's bonus targets as one solve takes them: ``(beat_longest,
#: beat_words, bonus)``.
_Aim = tuple[int | None, int | None, int]


def _value_aim(bonuses: _Bonuses) -> _Aim | None:
    """The targets of one solve whose best play is worth as much as a final
    turn's best play (:func:`_final_valuer`), or None where the rules'
    bonuses need more than one solve (the two differ, or only a play going
    out may win one).

    With the true bonuses as its targets' bonus, a solve counts every play
    at its card score plus the bonuses of the targets it meets, exactly as
    the final value does, so its best play has the best value.  Which of
    the plays of that value it picks may differ from
    :func:`best_final_play`'s choice (the first best of the targets'
    solves); the value cannot."""
    longest_bonus, most_bonus, longest, count, any_play = bonuses
    if not any_play or (longest_bonus and most_bonus and longest_bonus != most_bonus):
        return None
    if not (longest_bonus or most_bonus):
        return None, None, 10  # the plain solve
    return longest if longest_bonus else None, count if most_bonus else None, longest_bonus or most_bonus


def _best_value(cards: tuple[Card, ...] | list[Card], view: PlayerView, discard: bool, aim: _Aim) -> int:
    """The best final value of ``cards``: the score of the solve of ``aim``."""
    if discard:
        even = _even_discards(cards, view, aim)
        if even is not None:
            return even[0]
    beat_longest, beat_words, bonus = aim
    return solve_hand(cards, view, discard=discard, beat_longest=beat_longest, beat_words=beat_words,
                      bonus=bonus).best.score  # fmt: skip


def _even_discards(cards: tuple[Card, ...] | list[Card], view: PlayerView,
                   aim: _Aim) -> tuple[int, frozenset[Card]] | None:  # fmt: skip
    """The best score of the solve of ``aim`` with a card discarded, and
    the cards whose discard lets the rest score that much (cached; None
    where the memory bound might refuse the solve)."""
    return _even(tuple(sorted(cards, key=_CARD_ORDER)), view.rules.words, *aim)


def _final_draw_takes(hand: list[Card], top: Card, view: PlayerView) -> bool:
    """Whether the best final play with the discard top is worth more than
    the best without it.  Every play of the hand as it is is also one with
    the top, the top discarded, so the top is worth taking exactly when no
    best play with it discards it.  Where one solve gives a hand's best
    value (:func:`_value_aim`), that solve also tells which discards reach
    it; else the two hands' searches go as far as it takes to tell."""
    bonuses = _Bonuses.of(view)
    aim = _value_aim(bonuses)
    even = None if aim is None else _even_discards(hand + [top], view, aim)
    if even is None:
        return _searched_draw_takes(hand, top, view, bonuses)
    return top not in even[1]


def _searched_draw_takes(hand: list[Card], top: Card, view: PlayerView, bonuses: _Bonuses) -> bool:
    """:func:`_final_draw_takes` by the two hands' final searches, run step
    by step (the one with the wider range of values first) only until their
    ranges part."""
    taking = _final_search(hand + [top], view, True, bonuses)
    keeping = _final_search(hand, view, False, bonuses)
    while True:
        take_high, keep_high = taking.high, keeping.high
        if taking.value > keep_high:
            return True
        if take_high <= keeping.value:
            return False
        wider = taking if take_high - taking.value >= keep_high - keeping.value else keeping
        if not wider.step():
            (keeping if wider is taking else taking).step()


def _beats_keeping(taking: Play, hand: list[Card], top: Card, view: PlayerView) -> bool:
    """Whether ``taking``, the best play of the hand with the discard top,
    scores more than the best of the hand as it is.  Every play of the hand
    is one with the top (the top discarded), so that is solved only when
    ``taking`` neither discards the top (then the hand as it is scores as
    much) nor outscores every card of the hand in words."""
    if taking.discard == top:
        return False
    if taking.score > sum(card.points for card in hand):
        return True
    return taking.score > solve_hand(hand, view, discard=False).best.score


class RandomPlayer:
    """Random legal moves.  It draws from a random source; after drawing,
    its legal moves are a discard of each different card it holds plus,
    when its cards allow it, going out, and it picks one of those moves
    uniformly (going out with the best going-out play, the solver's).  On a
    final turn it discards a random card and lays down the best words the
    rest make, so rounds score sensibly.

    ``eager=True`` makes it go out whenever it can (a stronger baseline,
    registered as ``"random-eager"``).

    :param seed: Seeds its random choices; None: unseeded.
    :param eager: Go out whenever it can.
    :ivar name: ``"random"``, or ``"random-eager"`` with ``eager=True``.
    :ivar rng: Its random generator.
    :ivar eager: Whether it goes out whenever it can.
    """

    name = "random"

    def __init__(self, seed: int | None = None, *, eager: bool = False) -> None:
        self.rng = random.Random(seed)
        self.eager = eager
        if eager:
            self.name = "random-eager"

    def __repr__(self) -> str:
        return f"<RandomPlayer {self.name!r}>"

    def choose_draw(self, view: PlayerView) -> Draw:
        """Draw from a random source that has a card (see :meth:`Player.choose_draw`).

        :param view: What the player sees; it is this player's move.
        :returns: The draw.
        """
        sources = []
        if view.may_draw_from_pile:
            sources.append("pile")
        if view.discard_top is not None:
            sources.append("discard")
        return Draw(view.seat, self.rng.choice(sources))  # type: ignore[arg-type]

    def choose_end(self, view: PlayerView) -> Discard | GoOut:
        """Pick uniformly among a discard of each different card and, when it
        can, going out (see :meth:`Player.choose_end`).

        :param view: What the player sees; it is this player's move.
        :returns: The discard or the going out.
        """
        discards = sorted(set(view.hand))
        if view.may_go_out:
            out = solve_hand(view.hand, view).best_go_out
            if out is not None and (self.eager or self.rng.randrange(len(discards) + 1) == 0):
                assert out.discard is not None
                return GoOut(view.seat, out.words, out.discard)
        return Discard(view.seat, self.rng.choice(discards))

    def choose_lay_down(self, view: PlayerView) -> LayDown:
        """Discard a random card and lay down the best words the rest make
        (see :meth:`Player.choose_lay_down`).

        :param view: What the player sees; it is this player's move.
        :returns: The lay-down.
        """
        hand = list(view.hand)
        card = hand.pop(self.rng.randrange(len(hand)))
        return LayDown(view.seat, solve_hand(hand, view, discard=False).best.words, card)


class GreedyPlayer:
    """The baseline other Quiddler programs use, every decision by the
    solver: take the discard top only if it lets the player go out or raises
    the best score; go out as soon as possible with the best going-out play;
    otherwise discard the card whose loss hurts the best score least; on a
    final turn lay down the best play (bonuses counted).

    :param seed: Accepted like every player's; greedy play uses no chance.
    :ivar name: ``"greedy"``.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed

    @cached_property
    def rng(self) -> random.Random:
        """A random generator seeded with ``seed``, unused: greedy play is
        deterministic.  Made when first read, so that a game of greedy
        players does not seed two generators (a few microseconds each)
        that nothing reads."""
        return random.Random(self._seed)

    def __repr__(self) -> str:
        return f"<GreedyPlayer {self.name!r}>"

    def choose_draw(self, view: PlayerView) -> Draw:
        """Take the discard top if it lets the player go out or raises the
        best score, else draw blind (see :meth:`Player.choose_draw`).

        :param view: What the player sees; it is this player's move.
        :returns: The draw.
        """
        top = view.discard_top
        if top is None:
            return Draw(view.seat, "pile")
        if not view.may_draw_from_pile:
            return Draw(view.seat, "discard")
        hand = list(view.hand)
        if view.final_turn:
            return Draw(view.seat, "discard" if _final_draw_takes(hand, top, view) else "pile")
        taken = solve_hand(hand + [top], view)
        take = (taken.can_go_out and view.may_go_out) or _beats_keeping(taken.best, hand, top, view)
        return Draw(view.seat, "discard" if take else "pile")

    def choose_end(self, view: PlayerView) -> Discard | GoOut:
        """Go out with the best going-out play if allowed, else discard the
        card whose loss hurts the best score least (see :meth:`Player.choose_end`).

        :param view: What the player sees; it is this player's move.
        :returns: The going out or the discard.
        """
        sol = solve_hand(view.hand, view)
        if view.may_go_out and sol.best_go_out is not None:
            out = sol.best_go_out
            assert out.discard is not None
            return GoOut(view.seat, out.words, out.discard)
        assert sol.best.discard is not None
        return Discard(view.seat, sol.best.discard)

    def choose_lay_down(self, view: PlayerView) -> LayDown:
        """Lay down the play worth most, bonuses counted (see :meth:`Player.choose_lay_down`).

        :param view: What the player sees; it is this player's move.
        :returns: The lay-down.
        """
        play = best_final_play(view.hand, view)
        assert play.discard is not None
        return LayDown(view.seat, play.words, play.discard)


_REGISTRY: dict[str, Callable[[int | None], Player]] = {
    "greedy": GreedyPlayer,
    "random": RandomPlayer,
    "random-eager": lambda seed: RandomPlayer(seed, eager=True),
}


def register_player(name: str, factory: Callable[[int | None], Player]) -> None:
    """Make a player available by name (``factory(seed)`` builds one).

    A name registered again is replaced.

    :param name: The name :func:`make_player` and ``quiddler simulate`` take.
    :param factory: Called with a seed (or None) to build a new player.
    """
    _REGISTRY[name] = factory


def player_names() -> tuple[str, ...]:
    """Names :func:`make_player` accepts, sorted.

    :returns: The registered names.
    """
    return tuple(sorted(_REGISTRY))


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name (in any case, as the command line takes it), seeded
    for reproducible play.

    >>> make_player("greedy").name
    'greedy'
    >>> make_player("Expert")
    <AIPlayer 'expert'>
    >>> make_player("clever")
    Traceback (most recent call last):
    ...
    quiddler.game.errors.UnknownPlayerError: unknown player: 'clever' (expected one of: easy, ev, expert, greedy...)

    :param name: A registered name (:func:`player_names`).
    :param seed: Seeds the player's random choices; None: unseeded.
    :returns: A new player.
    :raises ArgumentTypeError: ``name`` is not a string.
    :raises UnknownPlayerError: No player is registered under ``name``.
    """
    if not isinstance(name, str):
        raise ArgumentTypeError(f"a player name is a string, not {shown(name)}")
    try:
        factory = _REGISTRY[name] if name in _REGISTRY else _REGISTRY[name.strip().lower()]
    except KeyError:
        raise UnknownPlayerError(
            f"unknown player: {shown(name)} (expected one of: {', '.join(player_names())})"
        ) from None
    return factory(seed)
