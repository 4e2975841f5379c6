"""The one mutable object of a game: :class:`Game`, like ``chess.Board``.

The engine knows the whole table (every hand, the deck order) and enforces
the rules: :meth:`Game.legal` checks an action and :meth:`Game.apply` checks
then applies it, so an illegal action raises and changes nothing.  Rounds are
dealt, scored and chained automatically.  Every shuffle is seeded from the
game seed (by default each round and each reshuffle on its own, see
:mod:`~quiddler.game.shuffle`), so a seed plus the actions fixes the whole
game.  A round nobody can go out of ends at the rules' turn limit.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from operator import attrgetter
from typing import Any

from ..cards import Card, full_deck
from ..drafts import draft_class
from ..errors import ArgumentTypeError, IllegalActionError, InvalidArgumentError, QuiddlerError, shown
from ..solver.types import Word
from .errors import (
    CardNotInHandError,
    GoingOutError,
    InvalidWordError,
    MalformedActionError,
    WrongPhaseError,
    WrongPlayerError,
)
from .rules import Rules, _integer, add_to_totals, score_round
from .shuffle import Shuffler, ShuffleScheme, shuffle_cards
from .state import Action, Discard, Draw, GoOut, LayDown, Outcome, Phase, PlayerView, PublicEvent, RoundResult

__all__ = ["Game"]

_FACE = attrgetter("face")
_ViewDraft = draft_class(PlayerView)  # Game.view builds its views as drafts
# The types of a legal action's cards and words, checked at C speed (see _all_cards).
_ONLY_CARD = frozenset({Card})
_ONLY_WORD = frozenset({Word})
# The rules of every game given none: one frozen value, checked once (making Rules() checks every field).
_OFFICIAL = Rules()


class Game:
    """A game of Quiddler for ``players`` seats (0..players-1, play going
    to higher seats, "left").  Seat 0 deals round 1; the deal passes left.

    A new game has dealt its first round (round 0) and waits for the first
    player's draw.  Read the state from the attributes and methods below;
    change it only with :meth:`apply`.

    >>> game = Game(2, seed=7)
    >>> game.round, game.round_size, game.dealer, game.turn, game.phase
    (0, 3, 0, 1, <Phase.DRAW: 'draw'>)
    >>> outcome = game.apply(Draw(1))
    >>> len(game.hand(1))
    4

    :param players: The number of seats, as the rules allow (2 to 8 by default).
    :param seed: The seed every shuffle derives from; None: a random one.
    :param rules: The rules; None: the default :class:`Rules`.
    :param shuffle: The shuffle scheme, ``"per-round"`` or ``"single-stream"``.
    :ivar rules: The rules of this game.
    :ivar players: The number of seats.
    :ivar totals: Each seat's total score over the rounds finished.
    :ivar history: A :class:`RoundResult` for each round finished, in order.
    :ivar round: The round in play, from 0 (the last round once :attr:`over`).
    :ivar turn: The seat to move.
    :ivar phase: What the player to move does next: draw, or discard (go out,
        lay down); :attr:`Phase.GAME_OVER` when the game has ended.
    :ivar round_size: Cards dealt to each player this round.
    :ivar dealer: The seat that dealt this round.
    :ivar over: Whether the game has ended.
    :ivar discard_top: The face-up card of the discard pile, or None if the pile is empty.
    :raises ArgumentTypeError: ``rules`` is not a :class:`Rules`, or
        ``players`` or ``seed`` is not an integer (a bool is not one).
    :raises RulesError: The rules do not allow this many players.
    """

    def __init__(self, players: int, *, seed: int | None = None, rules: Rules | None = None,
                 shuffle: ShuffleScheme = "per-round") -> None:  # fmt: skip
        self.rules = rules if rules is not None else _OFFICIAL
        if not isinstance(self.rules, Rules):
            raise ArgumentTypeError(f"rules must be a Rules, not {shown(self.rules)}")
        with _argument_errors():
            players = _integer("players", players)
            self.rules.check_players(players)
            #: The seed every shuffle derives from; chosen at random if not given, so any game can be replayed.
            self.seed = _integer("seed", seed) if seed is not None else random.SystemRandom().randrange(2**63)
        self.players = players
        self._shuffler = Shuffler(self.seed, shuffle)
        self.totals: tuple[int, ...] = (0,) * players
        self.history: list[RoundResult] = []
        #: Per round: the deal (hands, up card, draw pile) and every action applied.
        self.log: list[dict[str, Any]] = []
        self.round = -1
        # The round in play, set by _start_round (these are placeholders until then).
        self.turn = 0  # pragma: no mutate
        self.phase = Phase.DRAW
        self._draw: list[Card] = []  # top of the pile = end of the list
        self._discard: list[Card] = []  # likewise
        self._hands: list[list[Card]] = []
        self._laid: list[tuple[Word, ...]] = []
        self._seen: list[Card] = []
        self._turns: list[int] = []
        self._done: set[int] = set()
        self._went_out: int | None = None
        self._public: list[PublicEvent] = []  # the round's actions as the table sees them
        self._start_round(list(full_deck()))

    # -- reading the state -------------------------------------------------

    @property
    def shuffle(self) -> ShuffleScheme:
        """The shuffle scheme (:mod:`~quiddler.game.shuffle`): ``"per-round"`` or ``"single-stream"``."""
        return self._shuffler.scheme

    @property
    def round_size(self) -> int:
        return self.rules.round_sizes[self.round]

    @property
    def dealer(self) -> int:
        return self.round % self.players

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def went_out(self) -> int | None:
        """The seat that went out this round, if any."""
        return self._went_out

    @property
    def final_turn(self) -> bool:
        """The player to move is taking their last turn after someone went out."""
        return self._went_out is not None

    @property
    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, top card first (secret to players)."""
        return tuple(reversed(self._draw))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, top card first."""
        return tuple(reversed(self._discard))

    @property
    def discard_top(self) -> Card | None:
        return self._discard[-1] if self._discard else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds.

        :param seat: The seat, 0 to ``players - 1``.
        :returns: The hand, in the order the cards came.
        :raises ArgumentTypeError: ``seat`` is not an int (a bool is not one).
        :raises InvalidArgumentError: There is no such seat.
        """
        return tuple(self._hands[self._seat(seat)])

    def laid_down(self, seat: int) -> tuple[Word, ...]:
        """The words ``seat`` has laid down this round.

        :param seat: The seat, 0 to ``players - 1``.
        :returns: The words, empty until the seat goes out or lays down.
        :raises ArgumentTypeError: ``seat`` is not an int (a bool is not one).
        :raises InvalidArgumentError: There is no such seat.
        """
        return self._laid[self._seat(seat)]

    def turns_taken(self, seat: int) -> int:
        """How many turns ``seat`` has finished this round.

        :param seat: The seat, 0 to ``players - 1``.
        :returns: The count, from 0.
        :raises ArgumentTypeError: ``seat`` is not an int (a bool is not one).
        :raises InvalidArgumentError: There is no such seat.
        """
        return self._turns[self._seat(seat)]

    def _seat(self, seat: object) -> int:
        """``seat`` checked: an int (not a bool) naming a seat of this game."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ArgumentTypeError(f"a seat is an integer, not {shown(seat)}")
        if not 0 <= seat < self.players:
            raise InvalidArgumentError(f"no seat {seat} in a game of {self.players}")
        return seat

    @property
    def finished(self) -> frozenset[int]:
        """Seats done for this round: the one who went out and those who had their final turn."""
        return frozenset(self._done)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the highest total (all of them on a tie); final once :attr:`over`."""
        best = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hand, the table and the public log.

        :param seat: The seat, 0 to ``players - 1``.
        :returns: A snapshot; it does not change as the game goes on.
        :raises ArgumentTypeError: ``seat`` is not an int (a bool is not one).
        :raises InvalidArgumentError: There is no such seat.
        """
        seat = self._seat(seat)
        # Built as a draft (see quiddler.drafts): a simulated finish makes a view for every move.
        view = _ViewDraft()
        view.seat = seat
        view.players = self.players
        view.rules = self.rules
        view.round = self.round
        view.round_size = self.round_size
        view.dealer = self.dealer
        view.turn = self.turn
        view.phase = self.phase
        view.hand = tuple(self._hands[seat])
        view.discard_top = self.discard_top
        view.draw_pile_size = len(self._draw)
        view.discard_pile_size = len(self._discard)
        view.hand_sizes = tuple(map(len, self._hands))
        view.seen = tuple(self._seen)
        view.laid_down = tuple(self._laid)
        view.totals = self.totals
        view.went_out = self._went_out
        view.turns_taken = self._turns[seat]
        view.history = tuple(self.history)
        view.log = tuple(self._public)
        view.__class__ = PlayerView
        return view  # type: ignore[no-any-return]

    def card_count(self) -> int:
        """Cards on the table: draw pile + discard pile + hands + laid-down words (always 118).

        :returns: The count.
        """
        in_words = sum(len(w.cards) for laid in self._laid for w in laid)
        return len(self._draw) + len(self._discard) + sum(map(len, self._hands)) + in_words

    # -- checking and applying actions ------------------------------------

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now (:meth:`legal` says why not).

        :param action: The action.
        :returns: True if :meth:`apply` would play it.
        """
        try:
            self.legal(action)
        except IllegalActionError:
            return False
        return True

    def legal(self, action: Action) -> None:
        """Raise the precise :class:`~quiddler.errors.IllegalActionError`
        subclass if ``action`` is illegal now; return None if it is legal.

        :param action: The action.
        :raises MalformedActionError: ``action`` is not an action, or is
            malformed whatever the state (a seat that is not an int, a bad
            draw source, words that are not :class:`~quiddler.Word` objects).
        :raises WrongPhaseError: The game is over, or the action does not fit
            the phase (a draw after drawing, a discard before it, going out
            after someone went out, an empty pile).
        :raises WrongPlayerError: It is another player's turn.
        :raises GoingOutError: Going out is not allowed now (the first turn,
            under :attr:`Rules.no_going_out_first_turn`) or the cards do not go out.
        :raises InvalidWordError: A word is not in the word list, has fewer
            than two cards or is not spelled by its cards.
        :raises CardNotInHandError: The action uses a card the player does not hold.
        """
        self._check(action)

    def _check(self, action: Action) -> list[Card] | None:
        """:meth:`legal`'s checks.  For going out or a final turn, which
        count the hand against the cards played, they return what the hand
        keeps (that is how :meth:`_play` leaves it); else None."""
        if not isinstance(action, (Draw, Discard, GoOut, LayDown)):
            raise MalformedActionError(f"not an action: {shown(action)}")
        _check_form(action)
        if self.phase is Phase.GAME_OVER:
            raise WrongPhaseError("the game is over", reason="game_over")
        if action.player != self.turn:
            raise WrongPlayerError(f"it is player {self.turn}'s turn, not player {action.player}'s", reason="wrong_player",
                                   params={"turn": self.turn, "player": action.player})  # fmt: skip
        hand = self._hands[self.turn]
        match action:
            case Draw(source=source):
                if self.phase is not Phase.DRAW:
                    raise WrongPhaseError("already drew this turn: discard, go out or lay down", reason="already_drew")
                if source == "discard":
                    if not self._discard:
                        raise WrongPhaseError("the discard pile is empty", reason="discard_pile_empty")
                elif not self._draw and not (self.rules.reshuffle_discards and len(self._discard) > 1):
                    raise WrongPhaseError("the draw pile is empty: take the discard", reason="draw_pile_empty")
            case Discard(card=card):
                self._check_after_draw()
                if self._went_out is not None:
                    raise WrongPhaseError("final turn: lay down words (or none) and discard", reason="final_turn")
                _check_cards(hand, (card,))
            case GoOut(words=words, discard=card):
                self._check_after_draw()
                if self._went_out is not None:
                    raise WrongPhaseError(f"player {self._went_out} already went out: lay down and discard",
                                          reason="already_went_out", params={"player": self._went_out})  # fmt: skip
                if self._turns[self.turn] <= 1 and self.rules.first_turn_out_forbidden(self.round):
                    raise GoingOutError("no going out on a player's first turn", reason="first_turn_no_go_out")
                self._check_words(words)
                kept = _kept(hand, _played(words, card))
                if kept:
                    raise GoingOutError(f"going out must lay down every card but the discard: {len(kept)} left over",
                                        reason="cards_left", params={"count": len(kept)})  # fmt: skip
                return kept
            case LayDown(words=words, discard=card):
                self._check_after_draw()
                if self._went_out is None:
                    raise WrongPhaseError("nobody has gone out: discard or go out", reason="nobody_went_out")
                self._check_words(words)
                return _kept(hand, _played(words, card))
        return None

    def _check_after_draw(self) -> None:
        if self.phase is not Phase.DISCARD:
            raise WrongPhaseError("draw a card first", reason="draw_first")

    def _check_words(self, words: Sequence[Word]) -> None:
        wordlist = self.rules.words
        for word in words:
            if not isinstance(word, Word) or not _all_cards(word.cards):
                raise InvalidWordError(f"not a word: {word!r}", reason="malformed")
            if len(word.cards) < 2:
                raise InvalidWordError(f"a word needs at least two cards: {word.text!r}", reason="too_short",
                                       params={"word": word.text})  # fmt: skip
            spelled = "".join(map(_FACE, word.cards))
            if spelled != word.text:
                raise InvalidWordError(f"cards {spelled!r} do not spell {word.text!r}", reason="misspelled",
                                       params={"cards": spelled, "word": word.text})  # fmt: skip
            if word.text not in wordlist:
                raise InvalidWordError(f"not in the word list: {word.text!r}", reason="not_a_word",
                                       params={"word": word.text})  # fmt: skip

    def apply(self, action: Action) -> Outcome:
        """Check ``action`` (raising and changing nothing if illegal), then play it.

        :param action: The action of the player to move.
        :returns: What happened: the card drawn, a reshuffle, the round's
            result when the action ended a round.
        :raises IllegalActionError: The action is illegal now, as
            :meth:`legal` says (each subclass listed there).
        """
        return self._play(action, self._check(action))

    def _play(self, action: Action, kept: list[Card] | None = None) -> Outcome:
        """Play ``action``, which :meth:`legal` has passed (or which a
        simulation's own players chose, see :class:`~quiddler.game.sampling.RolloutGame`);
        ``kept``: what the hand keeps after going out or a final turn, where
        the checks have counted it."""
        self._record(action)
        seat = self.turn
        hand = self._hands[seat]
        match action:
            case Draw(source="discard"):
                card = self._discard.pop()
                hand.append(card)
                self._turns[seat] += 1
                self.phase = Phase.DISCARD
                self._public.append(PublicEvent(action, taken=card))
                return Outcome(action, drawn=card)
            case Draw():
                reshuffled = not self._draw
                if reshuffled:
                    self._reshuffle()
                card = self._draw.pop()
                hand.append(card)
                self._turns[seat] += 1
                self.phase = Phase.DISCARD
                self._public.append(PublicEvent(action, reshuffled=reshuffled))
                return Outcome(action, drawn=card, reshuffled=reshuffled)
            case Discard(card=card):
                self._public.append(PublicEvent(action))
                hand.remove(card)
                self._put_down(card)
                self._pass_turn()
                return Outcome(action, round_result=self._end_round_at_turn_limit())
            case GoOut(words=words, discard=card) | LayDown(words=words, discard=card):
                self._public.append(PublicEvent(action))
                hand[:] = kept if kept is not None else _taken(hand, _played(words, card))
                self._laid[seat] = tuple(words)
                self._put_down(card)
                if isinstance(action, GoOut):
                    self._went_out = seat
                self._done.add(seat)
                result = self._end_round() if len(self._done) == self.players else None
                if result is None:
                    self._pass_turn()
                return Outcome(action, round_result=result)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- internals ---------------------------------------------------------

    def _record(self, action: Action) -> None:
        """Log ``action`` for the game record (a simulated finish keeps no record)."""
        self.log[-1]["actions"].append(action.to_dict())

    def _put_down(self, card: Card) -> None:
        self._discard.append(card)
        self._seen.append(card)

    def _pass_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.phase = Phase.DRAW

    def _reshuffle(self) -> None:
        """Refill the empty draw pile: the discard pile but its top card,
        shuffled; the new pile is logged (top card first)."""
        entry = self.log[-1]
        self._draw = self._discard[:-1]
        self._discard = self._discard[-1:]
        shuffle_cards(self._shuffler.for_reshuffle(self.round, len(entry["reshuffles"]) + 1), self._draw)
        entry["reshuffles"].append(
            {"action": len(entry["actions"]) - 1, "draw_pile": [c.face for c in reversed(self._draw)]}
        )

    def _end_round_at_turn_limit(self) -> RoundResult | None:
        """After a discard: if nobody went out and every player has taken
        ``rules.turn_limit`` turns, everyone lays down the best words their
        hand allows (the solver's best play, no discard) and the round ends."""
        if self._went_out is not None or min(self._turns) < self.rules.turn_limit:
            return None
        from ..solver import solve

        for seat, hand in enumerate(self._hands):
            words = solve(sorted(hand), wordlist=self.rules.words).best.words
            hand[:] = _taken(hand, [c for w in words for c in w.cards])
            self._laid[seat] = tuple(words)
            self._done.add(seat)
        return self._end_round(turn_limit=True)

    def _start_round(self, deck: list[Card]) -> None:
        self.round += 1
        n = self.round_size
        if self.rules.fresh_deck_each_round or self.round == 0:
            deck = list(full_deck())
            shuffle_cards(self._shuffler.for_deal(self.round), deck)
        # deck: top card = end of list.  The cards go one at a time round the table from the
        # dealer's left: of the dealt cards, top first, every players-th one to the same seat.
        players = self.players
        first = (self.dealer + 1) % players
        dealt = deck[len(deck) - n * players :][::-1]
        del deck[len(deck) - n * players :]
        hands = [dealt[(seat - first) % players :: players] for seat in range(players)]
        self._hands = hands
        self._discard = [deck.pop()]
        self._draw = deck
        self._seen = list(self._discard)
        self._laid = [()] * self.players
        self._public = []
        self._turns = [0] * self.players
        self._done = set()
        self._went_out = None
        self.turn = first
        self.phase = Phase.DRAW
        self.log.append(
            {
                "round": self.round + 1,
                "cards": n,
                "dealer": self.dealer,
                "hands": [list(map(_FACE, h)) for h in hands],
                "discard": self._discard[0].face,
                "draw_pile": list(map(_FACE, reversed(deck))),
                "actions": [],
                "reshuffles": [],
            }
        )

    def _end_round(self, turn_limit: bool = False) -> RoundResult:
        scores = score_round(self._laid, self._hands, self._went_out, self.rules)
        self.totals = add_to_totals(self.totals, scores, self.rules)
        result = RoundResult(
            round=self.round + 1,
            cards=self.round_size,
            dealer=self.dealer,
            went_out=self._went_out,
            scores=scores,
            totals=self.totals,
            turn_limit=turn_limit,
        )
        self.history.append(result)
        self.log[-1]["result"] = result.to_dict()
        if self.round + 1 < self.rules.rounds:
            if self.rules.fresh_deck_each_round and self._shuffler.scheme == "per-round":
                # The next deal shuffles a fresh deck from its own source: the cards left are not used.
                self._start_round([])
                return result
            # Without a fresh deck, the old draw pile stays on top and the rest is shuffled below it
            # (under "single-stream" this shuffle draws from the one stream even with a fresh deck).
            rest = list(self._discard) + [c for h in self._hands for c in h]
            rest += [c for laid in self._laid for w in laid for c in w.cards]
            shuffle_cards(self._shuffler.for_deal(self.round + 1), rest)
            self._start_round(rest + self._draw)
        else:
            self.phase = Phase.GAME_OVER
        return result

    def _snapshot(self) -> tuple[Any, ...]:
        """Everything that defines the state, for tests that an illegal action changed nothing."""
        return (
            self.round, self.turn, self.phase, self._went_out, tuple(self._done), self.totals,
            tuple(map(tuple, self._hands)), tuple(self._draw), tuple(self._discard), tuple(self._laid),
            tuple(self._turns), tuple(self._seen), len(self._public), len(self.history), self._shuffler.state(),
            len(self.log[-1]["reshuffles"]) if self.log else 0,
            sum(len(r["actions"]) for r in self.log),
        )  # fmt: skip

    def __repr__(self) -> str:
        return (f"<Game players={self.players} seed={self.seed} round={self.round + 1}/{self.rules.rounds} "
                f"turn={self.turn} phase={self.phase.value} totals={list(self.totals)}>")  # fmt: skip


@contextmanager
def _argument_errors() -> Iterator[None]:
    """The rules' checks of a game's arguments as the library's own errors
    (a plain TypeError or ValueError becomes its QuiddlerError kind)."""
    try:
        yield
    except QuiddlerError:
        raise
    except TypeError as exc:
        raise ArgumentTypeError(str(exc)) from None
    except ValueError as exc:
        raise InvalidArgumentError(str(exc)) from None


def _check_form(action: Action) -> None:
    """What an action must be whatever the state: its seat an int (a bool
    or a float is not a seat: the record would not replay), a known draw
    source, cards that are Cards and words that are Words."""
    player = action.player
    if type(player) is not int and (isinstance(player, bool) or not isinstance(player, int)):
        raise MalformedActionError(f"an action's player is a seat number, an integer, not {shown(player)}")
    match action:
        case Draw(source=source):
            if source not in ("pile", "discard"):
                raise MalformedActionError(f"unknown draw source: {shown(source)} (expected 'pile' or 'discard')")
        case Discard(card=card):
            _check_card("the discard", card)
        case GoOut(words=words, discard=card) | LayDown(words=words, discard=card):
            # The constructor makes words a tuple; the full checks are for an action built around it.
            if type(words) is not tuple and (isinstance(words, (str, bytes)) or not isinstance(words, Sequence)):
                raise MalformedActionError(f"words must be a sequence of Words, not {shown(words)}")
            if not _ONLY_WORD.issuperset(map(type, words)):
                for i, word in enumerate(words):
                    if not isinstance(word, Word):
                        raise MalformedActionError(
                            f"words[{i}] must be a Word (such as word_of(['r', 'u', 'n'])), not {shown(word)}"
                        )
            _check_card("the discard", card)


def _all_cards(items: Sequence[object]) -> bool:
    """Whether every item is a :class:`Card`: the usual case (every type
    exactly Card) at C speed, a subclass by ``isinstance``."""
    return _ONLY_CARD.issuperset(map(type, items)) or all(isinstance(c, Card) for c in items)


def _check_card(what: str, card: object) -> None:
    if not isinstance(card, Card):
        raise MalformedActionError(f"{what} must be a Card (such as Card('e')), not {shown(card)}")


def _without(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card] | None:
    """``hand`` less one copy of each of ``cards``, in its order (the first
    copies go, as ``list.remove`` takes them), or None if a card is not
    there to take.  Counted in a dict: a card is equal only to itself, but
    a list's search compares each card it passes (all but the one it finds)
    through ``Card``'s Python-level ordering methods, ten times slower than
    hashing it."""
    wanted: dict[Card, int] = {}
    for card in cards:
        wanted[card] = wanted.get(card, 0) + 1
    kept = []
    for card in hand:
        if wanted.get(card):
            wanted[card] -= 1
        else:
            kept.append(card)
    return None if any(wanted.values()) else kept


def _played(words: Sequence[Word], card: Card) -> list[Card]:
    """The cards a going-out or a final turn plays: its words' and its discard."""
    return [c for w in words for c in w.cards] + [card]


def _taken(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` less ``cards``, which it holds (a played action's cards)."""
    kept = _without(hand, cards)
    assert kept is not None, "a played action's cards are in the hand"
    return kept


def _kept(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` less ``cards`` (see :func:`_without`), every card in
    ``cards`` checked to be in ``hand``, each copy used at most once."""
    kept = _without(hand, cards) if _ONLY_CARD.issuperset(map(type, cards)) else None
    if kept is None:  # not the usual case, a legal action's cards
        _refuse_cards(hand, cards)  # raises, unless each is a held card of a subclass of Card
        kept = _taken(hand, cards)
    return kept


def _check_cards(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    """Every card in ``cards`` is in ``hand``, each copy used at most once:
    one card (a discard) by a short search of the hand, which costs less
    than counting it (see :func:`_without`)."""
    if len(cards) == 1 and type(cards[0]) is Card and cards[0] in hand:
        return  # the usual case, a legal discard
    _kept(hand, cards)


def _refuse_cards(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    """Raise the error that says why ``hand`` does not hold ``cards`` (if it does, return)."""
    have = Counter(hand)
    for card, need in Counter(cards).items():
        if not isinstance(card, Card):
            raise CardNotInHandError(f"not a card: {card!r}", reason="malformed")
        if have[card] < need:
            if have[card]:
                raise CardNotInHandError(f"card {card.face!r} used {need} times but held {have[card]} times",
                                         reason="used_too_often", params={"card": card.face, "used": need,
                                                                          "held": have[card]})  # fmt: skip
            raise CardNotInHandError(f"card not in hand: {card.face!r}", reason="not_in_hand", params={"card": card.face})
