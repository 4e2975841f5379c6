"""The rules configuration and pure round scoring.

:class:`Rules` holds every choice the rules page (docs/rules.md) marks as a *decision* and every
listed variant as a field; ``Rules()`` is the official game plus the
project's decisions.  Scoring is a pure function of what each player laid
down and kept, so it can be tested with hand-made rounds and no engine.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from itertools import chain
from operator import attrgetter
from typing import Any, Literal

from ..cards import DECK_SIZE, Card, full_deck
from ..errors import shown
from ..solver import MAX_BONUS, MAX_CARDS
from ..solver.types import Word
from ..wordlist import WordList, default_wordlist
from .errors import RulesError, RulesTypeError
from .listhash import wordlist_sha256

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RoundScore",
    "Rules",
    "add_to_totals",
    "bonus_winner",
    "score_round",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 8

TwoPlayerBonuses = Literal["both", "longest", "most"]

# Scoring sums card and word points once or twice a round for every seat: at
# C speed (a lookup per card instead of the Card.points property's Python call).
_CARD_POINTS: Callable[[Card], int] = {card: card.points for card in full_deck()}.__getitem__
_CARDS: Callable[[Word], tuple[Card, ...]] = attrgetter("cards")
_FACE: Callable[[Card], str] = attrgetter("face")
_TEXT: Callable[[Word], str] = attrgetter("text")


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's rules.  The defaults are the official rules and the
    project's decisions (see [Rules as implemented](../rules.md#decisions-and-variants));
    every field is a house-rule switch.

    >>> Rules().round_sizes
    (3, 4, 5, 6, 7, 8, 9, 10)
    >>> Rules(round_sizes=(3, 4, 3)).rounds
    3

    :ivar rounds: The number of rounds: ``len(round_sizes)``.
    :raises RulesTypeError: A field has the wrong type (a float or a bool where an
        integer belongs, a string for ``round_sizes``, a non-bool switch, a
        ``wordlist`` that is not a :class:`~quiddler.WordList`).
    :raises RulesError: A field is out of range: no rounds, a round of fewer
        than 2 cards or of so many that a hand with its drawn card would pass
        :data:`~quiddler.MAX_CARDS`, a negative
        bonus or one over :data:`~quiddler.MAX_BONUS`, an unknown ``two_player_bonuses``, a ``turn_limit`` below 1.
    """

    #: Cards dealt in each round; the number of rounds is its length.
    round_sizes: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10)
    #: Longest-word bonus (letters, ``th`` counts 2); 0 turns it off.
    longest_word_bonus: int = 10
    #: Most-words bonus; 0 turns it off.
    most_words_bonus: int = 10
    #: With exactly two players, which bonuses are played ("one bonus only" variant).
    two_player_bonuses: TwoPlayerBonuses = "both"
    #: House rule: only players who went out (laid down every card) may win a bonus.
    #: Decision (default False): anyone who laid down at least one word may.
    bonus_requires_going_out: bool = False
    #: Decision: a total is floored at zero after each round, bonuses included.
    floor_at_zero: bool = True
    #: Variant: a player may not go out on their first turn of a round ...
    no_going_out_first_turn: bool = False
    #: ... in the first this-many rounds only (None: every round; 4: rounds 1-4).
    first_turn_rule_rounds: int | None = None
    #: Decision: every round starts from the full deck, shuffled.  False: the
    #: next round deals from the old draw pile first, the other cards shuffled below it.
    fresh_deck_each_round: bool = True
    #: Decision: an empty draw pile is refilled by shuffling the discard pile
    #: except its top card.  False: the player must take the discard top instead.
    reshuffle_discards: bool = True
    #: Decision (a round must end): if nobody has gone out once every player
    #: has taken this many turns in the round, the round ends there: every
    #: player lays down the best words their hand allows (no draw, no
    #: discard; unused cards count against them) and it is scored as usual.
    turn_limit: int = 50
    #: The agreed word list; None means ENABLE (:func:`~quiddler.default_wordlist`).
    wordlist: WordList | None = None

    def __post_init__(self) -> None:
        if isinstance(self.round_sizes, (str, bytes)) or not isinstance(self.round_sizes, Iterable):
            raise RulesTypeError(f"round_sizes must be a sequence of integers, not {shown(self.round_sizes)}")
        sizes = tuple(_integer("round_sizes", n) for n in self.round_sizes)
        if not sizes:
            raise RulesError("round_sizes must name at least one round")
        object.__setattr__(self, "round_sizes", sizes)
        for name in ("longest_word_bonus", "most_words_bonus", "turn_limit"):
            object.__setattr__(self, name, _integer(name, getattr(self, name)))
        if self.first_turn_rule_rounds is not None:
            object.__setattr__(self, "first_turn_rule_rounds",
                               _integer("first_turn_rule_rounds", self.first_turn_rule_rounds))  # fmt: skip
        for name in ("bonus_requires_going_out", "floor_at_zero", "no_going_out_first_turn",
                     "fresh_deck_each_round", "reshuffle_discards"):  # fmt: skip
            if not isinstance(getattr(self, name), bool):
                raise RulesTypeError(f"{name} must be True or False, not {shown(getattr(self, name))}")
        if self.wordlist is not None and not isinstance(self.wordlist, WordList):
            raise RulesTypeError(f"wordlist must be a WordList or None, not {shown(self.wordlist)}")
        for n in self.round_sizes:
            if n < 2:
                raise RulesError(f"round_sizes: a round must deal at least 2 cards, not {n}")
            if n + 1 > MAX_CARDS:
                raise RulesError(f"round_sizes: a round of {n} cards is too large: a hand holds one card more "
                                 f"after drawing, and the solver takes at most {MAX_CARDS} cards "
                                 f"(rounds of 2 to {MAX_CARDS - 1} cards)")  # fmt: skip
        for name in ("longest_word_bonus", "most_words_bonus"):
            if getattr(self, name) < 0:
                raise RulesError(f"{name} must not be negative, not {getattr(self, name)}")
            if getattr(self, name) > MAX_BONUS:
                raise RulesError(f"{name} must be at most {MAX_BONUS:,} (the solver's bound), not {getattr(self, name)}")
        if self.two_player_bonuses not in ("both", "longest", "most"):
            raise RulesError(f"unknown two_player_bonuses: {self.two_player_bonuses!r}")
        if self.first_turn_rule_rounds is not None and self.first_turn_rule_rounds < 0:
            raise RulesError(
                f"first_turn_rule_rounds must not be negative, not {self.first_turn_rule_rounds}"
            )
        if self.turn_limit < 1:
            raise RulesError(f"turn_limit must be at least 1, not {self.turn_limit}")

    @property
    def rounds(self) -> int:
        return len(self.round_sizes)

    @property
    def words(self) -> WordList:
        """The word list in force."""
        return self.wordlist if self.wordlist is not None else default_wordlist()

    def bonuses(self, players: int) -> tuple[int, int]:
        """(longest-word bonus, most-words bonus) in a game of ``players``.

        :param players: The number of players.
        :returns: The two bonuses; one is 0 in a two-player game under
            ``two_player_bonuses="longest"`` or ``"most"``.
        """
        longest, most = self.longest_word_bonus, self.most_words_bonus
        if players == 2 and self.two_player_bonuses == "longest":
            most = 0
        elif players == 2 and self.two_player_bonuses == "most":
            longest = 0
        return longest, most

    def first_turn_out_forbidden(self, round_index: int) -> bool:
        """Whether the no-going-out-on-the-first-turn rule applies in round ``round_index`` (0-based).

        :param round_index: The round, from 0.
        :returns: True if a player may not go out on their first turn of that round.
        """
        if not self.no_going_out_first_turn:
            return False
        return self.first_turn_rule_rounds is None or round_index < self.first_turn_rule_rounds

    def check_players(self, players: int) -> None:
        """Check that ``players`` can play a game under these rules.

        :param players: The number of players.
        :raises RulesTypeError: ``players`` is not an int (a bool is not one).
        :raises RulesError: ``players`` is outside 2 to 8, or that many hands
            of the largest round and the up card do not fit the deck.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesTypeError(f"players must be an integer, not {shown(players)}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(f"quiddler needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        biggest = max(self.round_sizes)
        # The hands and the up card must fit: players * cards + 1 <= 118.  (With at most
        # 20 cards and 8 players the product is never 118: ">" would do as well.)
        if biggest * players >= DECK_SIZE:  # pragma: no mutate
            raise RulesError(f"{players} hands of {biggest} cards do not fit the {DECK_SIZE}-card deck "
                             f"with the up card: a round of {biggest} is too large for {players} players")

    def settings(self) -> dict[str, Any]:
        """Every field but the word list, JSON-shaped (what :meth:`from_dict`
        needs besides the word list itself; cheap, unlike the list's hash).

        :returns: Field name to value, tuples as lists.
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name != "wordlist":
                value = getattr(self, f.name)
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: :meth:`settings` and the word list, named by
        ``wordlist`` (its name) and ``wordlist_sha256`` (the SHA-256 of its
        words, :func:`~quiddler.game.listhash.wordlist_sha256`).

        :returns: The settings and the word list's name and hash.
        """
        out = self.settings()
        words = self.words
        out["wordlist"] = words.name
        out["wordlist_sha256"] = wordlist_sha256(words)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], wordlist: WordList | None = None) -> Rules:
        """Inverse of :meth:`to_dict`; the word list itself is passed in
        (None: ENABLE).  A missing field takes its default (records written
        before the field existed); other keys are ignored.

        :param data: A dict as :meth:`to_dict` or :meth:`settings` gives it.
        :param wordlist: The word list; None: ENABLE.
        :returns: The rules.
        :raises RulesTypeError: ``data`` is not a dict, or a value has the wrong type.
        :raises RulesError: A value is out of range (as for the constructor).
        """
        if not isinstance(data, dict):
            raise RulesTypeError(f"rules must be an object, not {shown(data)}")
        names = {f.name for f in fields(cls)} - {"wordlist"}
        kwargs = {k: v for k, v in data.items() if k in names}
        if "round_sizes" in kwargs:
            if not isinstance(kwargs["round_sizes"], list):
                raise RulesTypeError(f"round_sizes must be a list, not {shown(kwargs['round_sizes'])}")
            kwargs["round_sizes"] = tuple(kwargs["round_sizes"])
        return cls(**kwargs, wordlist=wordlist)


def _integer(name: str, value: Any) -> int:
    """``value`` as an int; a bool, float or string is a TypeError naming ``name``."""
    if isinstance(value, bool):
        raise RulesTypeError(f"{name} must be an integer, not {shown(value)}")
    try:
        return operator.index(value)
    except TypeError:
        raise RulesTypeError(f"{name} must be an integer, not {shown(value)}") from None


@dataclass(frozen=True, slots=True)
class RoundScore:
    """One player's round: words laid down, cards left in hand, bonuses won.

    :ivar words: The words the player laid down.
    :ivar unused: The cards left in hand, which count against the score.
    :ivar longest_bonus: The longest-word bonus won, else 0.
    :ivar most_words_bonus: The most-words bonus won, else 0.
    :ivar went_out: Whether this player went out.
    :ivar word_points: The points of the cards in words.
    :ivar unused_points: The points of the cards left in hand.
    :ivar bonus: Both bonuses together.
    """

    words: tuple[Word, ...]
    unused: tuple[Card, ...]
    longest_bonus: int = 0
    most_words_bonus: int = 0
    went_out: bool = False

    @property
    def word_points(self) -> int:
        return sum(map(_CARD_POINTS, chain.from_iterable(map(_CARDS, self.words))))

    @property
    def unused_points(self) -> int:
        return sum(map(_CARD_POINTS, self.unused))

    @property
    def bonus(self) -> int:
        return self.longest_bonus + self.most_words_bonus

    @property
    def score(self) -> int:
        """Points in words, minus points left in hand, plus bonuses."""
        return self.word_points - self.unused_points + self.bonus

    @property
    def longest_word(self) -> int:
        """Letters of the longest word laid down, 0 if none."""
        return max(map(len, map(_TEXT, self.words)), default=0)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of a round score, as game records hold it.

        :returns: ``{"score", "words", "unused", "longest_bonus",
            "most_words_bonus", "went_out"}``, cards as faces.
        """
        return {
            "score": self.score,
            "words": [list(map(_FACE, w.cards)) for w in self.words],
            "unused": list(map(_FACE, self.unused)),
            "longest_bonus": self.longest_bonus,
            "most_words_bonus": self.most_words_bonus,
            "went_out": self.went_out,
        }


def bonus_winner(values: Sequence[int], eligible: Sequence[bool]) -> int | None:
    """The seat with the strictly highest value among eligible seats, or
    None on a tie or when nobody is eligible.

    >>> bonus_winner([5, 7, 7], [True, True, True]) is None
    True
    >>> bonus_winner([5, 7, 7], [True, True, False])
    1
    """
    best: int | None = None
    winner: int | None = None
    for seat, (value, ok) in enumerate(zip(values, eligible)):
        if ok and (best is None or value > best):
            best, winner = value, seat
        elif ok and value == best:
            winner = None  # a tie, unless a higher value comes later
    return winner


def score_round(
    words: Sequence[Sequence[Word]],
    unused: Sequence[Sequence[Card]],
    went_out: int | None,
    rules: Rules = Rules(),
) -> tuple[RoundScore, ...]:
    """Score a finished round: ``words[seat]`` laid down, ``unused[seat]``
    left in hand, ``went_out`` the seat that went out.  Discards count for
    nothing and are not passed in.

    :param words: Per seat, the words laid down.
    :param unused: Per seat, the cards left in hand.
    :param went_out: The seat that went out, or None (a round ended by the turn limit).
    :param rules: The rules that set the bonuses.
    :returns: One :class:`RoundScore` per seat.
    :raises ValueError: ``words`` and ``unused`` differ in length.
    """
    players = len(words)
    if len(unused) != players:
        raise ValueError("words and unused must have one entry per player")
    longest_value, most_value = rules.bonuses(players)
    eligible = [bool(w) and (not rules.bonus_requires_going_out or not u) for w, u in zip(words, unused)]
    # A player without words is not eligible, so the default (0) is never compared.
    longest = bonus_winner([max(map(len, map(_TEXT, w)), default=0) for w in words], eligible)  # pragma: no mutate
    most = bonus_winner(list(map(len, words)), eligible)
    return tuple([
        RoundScore(
            words=tuple(words[seat]),
            unused=tuple(unused[seat]),
            longest_bonus=longest_value if seat == longest else 0,
            most_words_bonus=most_value if seat == most else 0,
            went_out=seat == went_out,
        )
        for seat in range(players)
    ])  # fmt: skip


def add_to_totals(
    totals: Sequence[int], scores: Sequence[RoundScore], rules: Rules = Rules()
) -> tuple[int, ...]:
    """New totals after a round, floored at zero if the rules say so.

    >>> add_to_totals([5, 0], [RoundScore((), (Card("q"),)), RoundScore((), (Card("a"),))])
    (0, 0)

    :param totals: The totals before the round, per seat.
    :param scores: The round's scores, per seat.
    :param rules: The rules (``floor_at_zero``).
    :returns: The new totals.
    :raises ValueError: ``totals`` and ``scores`` differ in length.
    """
    new = [total + s.score for total, s in zip(totals, scores, strict=True)]
    if rules.floor_at_zero:
        new = [max(0, t) for t in new]
    return tuple(new)
