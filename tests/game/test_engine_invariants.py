"""A Hypothesis state machine that plays random legal and illegal actions
and checks the engine's invariants after every step: all 118 cards
accounted for, hand sizes, whose turn it is, exactly one final turn for
each other player, and totals changing only when a round ends."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from quiddler import Card, IllegalActionError, full_deck, solve
from quiddler.game import Discard, Draw, Game, GoOut, LayDown, Phase, Rules, add_to_totals, word_of
from quiddler.game.errors import GoingOutError

RULE_SETS = [
    Rules(round_sizes=(3, 4, 3)),
    Rules(round_sizes=(2, 3), no_going_out_first_turn=True),
    Rules(round_sizes=(3, 5), longest_word_bonus=0, floor_at_zero=False, fresh_deck_each_round=False),
    Rules(round_sizes=(4,), reshuffle_discards=False, two_player_bonuses="most"),
    Rules(),
]


def drawing(self: GameMachine) -> bool:
    return not self.game.over and self.game.phase is Phase.DRAW


def ending_turn(self: GameMachine) -> bool:
    return not self.game.over and self.game.phase is Phase.DISCARD and not self.game.final_turn


def final_turn(self: GameMachine) -> bool:
    return not self.game.over and self.game.phase is Phase.DISCARD and self.game.final_turn


class GameMachine(RuleBasedStateMachine):
    game: Game

    @initialize(players=st.integers(2, 6), seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS))
    def start(self, players: int, seed: int, rules: Rules) -> None:
        self.game = Game(players, seed=seed, rules=rules)
        self.expected_turn = (self.game.dealer + 1) % players
        self.totals = self.game.totals
        self.rounds_seen = 0
        self.final_turns: Counter[int] = Counter()

    # -- legal actions -----------------------------------------------------

    def _apply(self, action: Draw | Discard | GoOut | LayDown) -> None:
        game = self.game
        round_before, went_out = game.round, game.went_out
        outcome = game.apply(action)
        if isinstance(action, LayDown):
            assert went_out is not None and action.player != went_out
            self.final_turns[action.player] += 1
        if isinstance(action, Draw):
            assert game.turn == self.expected_turn
            return
        if outcome.round_result is not None:
            result = outcome.round_result
            # every player but the one who went out had exactly one final turn
            assert result.went_out is not None
            assert self.final_turns == Counter(s for s in range(game.players) if s != result.went_out)
            assert add_to_totals(self.totals, result.scores, game.rules) == result.totals
            self.totals = result.totals
            self.final_turns = Counter()
            self.rounds_seen += 1
            if not game.over:
                assert game.round == round_before + 1
                self.expected_turn = (game.dealer + 1) % game.players
        else:
            self.expected_turn = (self.expected_turn + 1) % game.players

    @precondition(drawing)
    @rule(from_discard=st.booleans())
    def draw(self, from_discard: bool) -> None:
        action = Draw(self.game.turn, "discard" if from_discard else "pile")
        if self.game.is_legal(action):
            self._apply(action)
        else:
            before = self.game._snapshot()
            with pytest.raises(IllegalActionError):
                self.game.apply(action)
            assert self.game._snapshot() == before

    @precondition(ending_turn)
    @rule(data=st.data())
    def end_turn(self, data: st.DataObject) -> None:
        """Go out when the cards allow it (usually), else discard a random card."""
        seat = self.game.turn
        hand = self.game.hand(seat)
        out = solve(hand, discard=True, wordlist=self.game.rules.words).best_go_out
        if out is not None and data.draw(st.integers(0, 3), label="go out") > 0:
            assert out.discard is not None
            action = GoOut(seat, out.words, out.discard)
            if self.game.view(seat).may_go_out:
                self._apply(action)
                return
            before = self.game._snapshot()
            with pytest.raises(GoingOutError):
                self.game.apply(action)
            assert self.game._snapshot() == before
        self._apply(Discard(seat, data.draw(st.sampled_from(hand), label="discard")))

    @precondition(final_turn)
    @rule(data=st.data())
    def lay_down(self, data: st.DataObject) -> None:
        seat = self.game.turn
        play = solve(self.game.hand(seat), discard=True, wordlist=self.game.rules.words).best
        assert play.discard is not None
        keep = data.draw(st.integers(0, len(play.words)))
        self._apply(LayDown(seat, play.words[:keep], play.discard))

    # -- illegal actions ---------------------------------------------------

    @precondition(lambda self: True)
    @rule(kind=st.sampled_from(["wrong_player", "wrong_phase", "not_in_hand", "bad_word", "cards_left"]))
    def illegal(self, kind: str) -> None:
        game = self.game
        seat = game.turn
        hand = game.hand(seat)
        other = (seat + 1) % game.players
        in_discard_phase = game.phase is Phase.DISCARD
        missing = next((c for c in map(Card, ("z", "q", "x", "j", "cl")) if c not in hand), None)
        match kind:
            case _ if game.over:
                action = Draw(seat)
            case "wrong_player":
                action = Draw(other) if not in_discard_phase else Discard(other, hand[0])
            case "wrong_phase":
                action = Draw(seat) if in_discard_phase else Discard(seat, hand[0])
            case "not_in_hand":
                if missing is None or not in_discard_phase:
                    return
                action = Discard(seat, missing) if not game.final_turn else LayDown(seat, (), missing)
            case "bad_word":
                if len(hand) < 3 or not in_discard_phase:
                    return
                word = word_of(hand[:2])
                if word.text in game.rules.words:
                    return
                action = (LayDown if game.final_turn else GoOut)(seat, (word,), hand[2])
            case _:  # going out with cards left: no words at all
                if not in_discard_phase or game.final_turn:
                    return
                action = GoOut(seat, (), hand[0])
        before = game._snapshot()
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert game._snapshot() == before

    def teardown(self) -> None:
        if hasattr(self, "game"):
            event(f"actions: {sum(len(r['actions']) for r in self.game.log) // 20 * 20}+")
            event(f"rounds finished: {min(self.rounds_seen, 3)}{'+' if self.rounds_seen >= 3 else ''}")

    # -- invariants --------------------------------------------------------

    @invariant()
    def all_cards_accounted_for(self) -> None:
        game = self.game
        table = list(game.draw_pile) + list(game.discard_pile)
        table += [c for s in range(game.players) for c in game.hand(s)]
        table += [c for s in range(game.players) for w in game.laid_down(s) for c in w.cards]
        assert Counter(table) == Counter(full_deck())

    @invariant()
    def hand_sizes(self) -> None:
        game = self.game
        if game.over:
            return
        n = game.round_size
        for seat in range(game.players):
            held = len(game.hand(seat))
            laid = sum(len(w.cards) for w in game.laid_down(seat))
            if seat in game.finished:
                assert held + laid == n
                if seat == game.went_out:
                    assert held == 0 and laid == n
            elif seat == game.turn and game.phase is Phase.DISCARD:
                assert held == n + 1 and laid == 0
            else:
                assert held == n and laid == 0

    @invariant()
    def whose_turn(self) -> None:
        if not self.game.over:
            assert self.game.turn == self.expected_turn
            assert self.game.turn not in self.game.finished

    @invariant()
    def at_most_one_final_turn_each(self) -> None:
        assert all(count == 1 for count in self.final_turns.values())
        assert self.game.went_out not in self.final_turns
        if self.final_turns:
            assert self.game.went_out is not None

    @invariant()
    def totals_change_only_at_round_end(self) -> None:
        assert self.game.totals == self.totals
        assert len(self.game.history) == self.rounds_seen


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(
    max_examples=150, stateful_step_count=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
