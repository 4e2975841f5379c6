"""The hidden state of a round, sampled from what one player may see, and
the real engine set up in it to play the round to its end.

A player sees its own hand, the face-up cards and the round's public log;
it does not see the other hands or the order of the draw pile.  A sample
fills that in consistently with everything seen: each other hand is the
cards that seat is known to hold (taken face up, per
:func:`~quiddler.game.counting.known_holdings`) plus cards drawn at random
from the unseen pool (:func:`~quiddler.game.counting.unseen`), and the
pool's remainder, shuffled, is the draw pile.  Nothing else about the
opponents is assumed: every unseen card is as likely to be in a hand as in
the pile.

:func:`rollout_game` then builds a :class:`~quiddler.game.engine.Game` in
exactly that state, so a simulated finish of the round is played by the
same engine as a real one (the moves its own computer players choose
skip the legality check, :meth:`RolloutGame.play_chosen`); it stops when
the round ends instead of dealing the next.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from functools import lru_cache

from ..cards import _CARD_INDEX, Card
from .counting import discard_pile, known_holdings, unseen
from .engine import Game
from .rules import Rules, add_to_totals, score_round
from .shuffle import Shuffler, shuffle_cards
from .state import Action, Phase, PlayerView, RoundResult

__all__ = ["HiddenState", "RolloutGame", "Sampler", "decision_seed", "rollout_game", "sample_hidden"]

_CARD_ORDER = _CARD_INDEX.__getitem__  # cards' own order, as a sort key at C speed


@dataclass(frozen=True, slots=True)
class HiddenState:
    """One guess at what the viewer cannot see: every seat's hand (the
    viewer's own is its real hand) and the draw pile, top card last."""

    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    #: seeds the reshuffles of this sample's simulated finish
    seed: int


def decision_seed(view: PlayerView, salt: int) -> int:
    """A seed fixed by the position alone (and ``salt``, the player's own
    seed): the same position in the same game gets the same samples in any
    process, so a seeded game replays exactly.  SHA-256 of a text, not
    ``hash()``, whose value for text changes from process to process."""
    hand = ",".join(str(c.index) for c in sorted(view.hand))
    text = f"{salt}/{view.round}/{view.seat}/{view.turns_taken}/{len(view.log)}/{hand}/{view.totals}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


class Sampler:
    """Samples of the hidden state of one position, and the engine set up
    in each.  What every sample shares (the unseen pool, the known cards,
    the discard pile) is worked out once."""

    def __init__(self, view: PlayerView, *, extra_turns: int = 6) -> None:
        self.view = view
        self._pool = sorted(unseen(view).elements(), key=_CARD_ORDER)
        held = known_holdings(view)
        self._known = [list(held[s].elements())[: view.hand_sizes[s]] for s in range(view.players)]
        self._discard = discard_pile(view)
        self._turns = _turns(view)
        self._rules = _horizon_rules(view.rules, min(view.rules.turn_limit, max(self._turns) + extra_turns))

    def sample(self, rng: random.Random) -> HiddenState:
        """Each other seat's hand = its known cards + a uniform fill from the
        unseen pool; the rest of the pool, shuffled, is the draw pile."""
        view = self.view
        pool = self._pool[:]
        shuffle_cards(rng, pool)  # rng.shuffle(pool), written out (the same permutation and state of rng)
        hands: list[tuple[Card, ...]] = []
        taken = 0
        for seat in range(view.players):
            if seat == view.seat:
                hands.append(view.hand)
                continue
            need = view.hand_sizes[seat] - len(self._known[seat])
            hands.append(tuple(self._known[seat]) + tuple(pool[taken : taken + need]))
            taken += need
        # Equivalent mutant: 64 bits seed the finish's reshuffles as well as 63 (any int will do).
        return HiddenState(tuple(hands), tuple(pool[taken:]), rng.getrandbits(63))  # pragma: no mutate

    def game(self, hidden: HiddenState) -> RolloutGame:
        """The engine in the state the view sees, the hidden cards as
        ``hidden`` guesses them.  A finish that has not ended once every seat
        has taken ``extra_turns`` more turns ends there, as a round at the
        turn limit does (everyone lays down their best words): a simulated
        finish stays short."""
        return RolloutGame(self.view, hidden, self._rules, self._discard, self._turns)


def sample_hidden(view: PlayerView, rng: random.Random) -> HiddenState:
    """One sample of ``view``'s hidden state (see :class:`Sampler`)."""
    return Sampler(view).sample(rng)


def _turns(view: PlayerView) -> list[int]:
    """Turns each seat has started this round.  Play goes round the table
    from the dealer's left; the seats before the viewer in that order have
    started this lap's turn, the seats after it have not (the viewer's own
    count includes the turn in hand only once it has drawn)."""
    first = (view.dealer + 1) % view.players
    mine = (view.seat - first) % view.players
    lap = view.turns_taken + (1 if view.phase is Phase.DRAW and view.my_turn else 0)
    turns = [lap if (s - first) % view.players < mine else max(0, lap - 1) for s in range(view.players)]
    turns[view.seat] = view.turns_taken
    return turns


@lru_cache(maxsize=256)
def _horizon_rules(rules: Rules, turn_limit: int) -> Rules:
    return replace(rules, turn_limit=turn_limit)


class RolloutGame(Game):
    """The engine in a sampled state of a round in play.  It plays by the
    same rules and checks (:meth:`apply`; :meth:`play_chosen` for a
    simulated player's own moves), and stops when the round ends
    (``result``) instead of dealing the next round."""

    result: RoundResult | None

    def __init__(self, view: PlayerView, hidden: HiddenState, rules: Rules, discard: list[Card],
                 turns: list[int]) -> None:  # fmt: skip
        # Not Game.__init__: that deals a game from its start.  Every field it sets is set here.
        self.rules = rules
        self.players = view.players
        self.seed = hidden.seed
        self._shuffler = Shuffler(hidden.seed, "per-round")
        self.totals = view.totals
        self.history = list(view.history)
        self.log = [{"actions": [], "reshuffles": []}]
        self.round = view.round
        self.turn = view.turn
        self.phase = view.phase
        self._draw = list(hidden.draw_pile)
        self._discard = list(discard)
        self._hands = [list(h) for h in hidden.hands]
        self._laid = list(view.laid_down)
        self._seen = list(view.seen)
        self._turns = list(turns)
        self._done = {s for s, laid in enumerate(view.laid_down) if laid and view.went_out is not None}
        self._went_out = view.went_out
        self._public = list(view.log)
        self.result = None

    def _record(self, action: Action) -> None:
        """Nothing: a simulated finish is never recorded or replayed."""

    def play_chosen(self, action: Action) -> None:
        """Play an action that a computer player chose from this game's own
        view, without :meth:`apply`'s check that it is legal: the players a
        search simulates only ever choose among legal moves (their every
        move in whole games goes through :meth:`apply`, and a test plays
        finishes both ways to the same results), and a search plays
        thousands of moves a decision."""
        self._play(action)

    def _end_round(self, turn_limit: bool = False) -> RoundResult:
        scores = score_round(self._laid, self._hands, self._went_out, self.rules)
        self.totals = add_to_totals(self.totals, scores, self.rules)
        self.result = RoundResult(round=self.round + 1, cards=self.round_size, dealer=self.dealer,
                                  went_out=self._went_out, scores=scores, totals=self.totals,
                                  turn_limit=turn_limit)  # fmt: skip
        self.phase = Phase.GAME_OVER
        return self.result


def rollout_game(view: PlayerView, hidden: HiddenState, *, extra_turns: int = 6) -> RolloutGame:
    """The engine in the state ``view`` sees, the hidden cards as ``hidden`` guesses them (see :meth:`Sampler.game`)."""
    return Sampler(view, extra_turns=extra_turns).game(hidden)
