"""The simulated finishes ``master`` plays: short (a finish nobody goes
out of ends a few turns on, as a round at the turn limit does), and made
of values (a sample and the search's settings cannot change under it)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from quiddler.game import Game, Rules
from quiddler.game.ai import EXPERT, AIPlayer
from quiddler.game.master import MASTER
from quiddler.game.plans import next_action
from quiddler.game.sampling import HiddenState, RolloutGame, Sampler, rollout_game, sample_hidden
from quiddler.game.state import Discard, Draw, Phase


def never_going_out(game: RolloutGame) -> None:
    """Play the finish to its end, every seat drawing from the pile and
    discarding the card it drew."""
    while game.result is None:
        seat = game.turn
        if game.phase is Phase.DRAW:
            game.apply(Draw(seat))
        else:
            game.apply(Discard(seat, game.hand(seat)[-1]))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_finish_nobody_goes_out_of_ends_extra_turns_after_the_furthest_seat(seed: int) -> None:
    """Seat 1 moves first: after its draw it has started one turn and seat
    0 none.  With two extra turns the finish ends, as at the turn limit,
    once every seat has taken three."""
    game = Game(2, seed=seed)
    game.apply(Draw(1))
    assert [game.turns_taken(0), game.turns_taken(1)] == [0, 1]
    sampler = Sampler(game.view(1), extra_turns=2)
    finish = sampler.game(sampler.sample(random.Random(seed)))
    never_going_out(finish)
    assert finish.result is not None and finish.result.turn_limit
    assert [finish.turns_taken(0), finish.turns_taken(1)] == [3, 3]


def test_a_finish_ends_at_the_rules_turn_limit_if_that_comes_first() -> None:
    game = Game(2, seed=3, rules=Rules(turn_limit=2))
    game.apply(Draw(1))
    sampler = Sampler(game.view(1), extra_turns=100)
    finish = sampler.game(sampler.sample(random.Random(3)))
    never_going_out(finish)
    assert finish.result is not None and finish.result.turn_limit
    assert [finish.turns_taken(0), finish.turns_taken(1)] == [2, 2]


def test_the_one_call_helpers_are_the_samplers() -> None:
    """sample_hidden and rollout_game do what a Sampler of the view does;
    by default a finish ends six turns after the furthest seat's."""
    game = Game(2, seed=6)
    game.apply(Draw(1))
    view = game.view(1)
    hidden = sample_hidden(view, random.Random(6))
    assert hidden == Sampler(view).sample(random.Random(6))
    for finish in (rollout_game(view, hidden), Sampler(view).game(hidden)):
        never_going_out(finish)
        assert finish.result is not None and finish.result.turn_limit
        assert [finish.turns_taken(0), finish.turns_taken(1)] == [7, 7]


@pytest.mark.parametrize("players", [3, 4])
def test_a_finish_starts_with_each_seats_turns_as_the_real_game_counts_them(players: int) -> None:
    """At every position of a game, the finish set up from what the player
    to move sees has each seat's turns this round as the real game has them
    (they decide when a finish reaches its turn limit)."""
    experts = [AIPlayer(EXPERT)] * players
    game = Game(players, seed=5, rules=Rules(round_sizes=(3, 4, 5)))
    rng = random.Random(5)
    checked = 0
    while not game.over:
        view = game.view(game.turn)
        sampler = Sampler(view)
        finish = sampler.game(sampler.sample(rng))
        assert [finish.turns_taken(s) for s in range(players)] == [game.turns_taken(s) for s in range(players)]
        checked += 1
        game.apply(next_action(game, experts))
    assert checked > 20


def test_a_finish_from_the_truth_of_a_final_turn_ends_as_the_real_round() -> None:
    """At three players, after one player went out: the finish set up with
    the true hidden cards gives every other seat its final turn, and ends
    with the real round's result."""
    experts = [AIPlayer(EXPERT)] * 3
    game = Game(3, seed=7, rules=Rules(round_sizes=(3, 4, 5)))
    compared = 0
    while not game.over:
        view = game.view(game.turn)
        if view.final_turn and view.phase is Phase.DRAW and len(game.finished) == 1:
            truth = HiddenState(tuple(game.hand(s) for s in range(3)), tuple(reversed(game.draw_pile)), game.seed)
            finish = Sampler(view, extra_turns=100).game(truth)
            while True:
                action = next_action(game, experts)
                outcome = game.apply(action)
                finish.apply(action)
                if outcome.round_result is not None:
                    break
                assert finish.result is None
            assert finish.result == outcome.round_result
            compared += 1
        else:
            game.apply(next_action(game, experts))
    assert compared >= 3


def test_samples_and_settings_are_values() -> None:
    game = Game(2, seed=4)
    game.apply(Draw(1))
    hidden = Sampler(game.view(1)).sample(random.Random(4))
    with pytest.raises(dataclasses.FrozenInstanceError):
        hidden.draw_pile = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        MASTER.samples = 1  # type: ignore[misc]
    assert not hasattr(hidden, "__dict__") and not hasattr(MASTER, "__dict__")  # slots, as every value type


@pytest.mark.parametrize("players", [2, 3])
def test_the_policies_moves_played_unchecked_finish_as_through_apply(players: int) -> None:
    """A search plays its policies' moves without the engine's check
    (``play_chosen``): on many samples of real positions every such move
    is legal, and the finish ends in the same state as through ``apply``."""
    from quiddler.game.master import _POLICIES, _next_action

    game = Game(players, seed=40 + players)
    seats = [AIPlayer(EXPERT)] * players
    finishes = 0
    while not game.over and finishes < 60:
        view = game.view(game.turn)
        sampler = Sampler(view)
        for i in range(3):
            hidden = sampler.sample(random.Random(i))
            policy = _POLICIES["expert" if i % 2 else "ev"]
            checked, unchecked = sampler.game(hidden), sampler.game(hidden)
            while checked.result is None:
                action = _next_action(checked.view(checked.turn), policy)
                assert checked.is_legal(action)
                checked.apply(action)
                unchecked.play_chosen(_next_action(unchecked.view(unchecked.turn), policy))
            assert unchecked.result == checked.result and unchecked._snapshot() == checked._snapshot()
            finishes += 1
        game.apply(next_action(game, seats))
    assert finishes == 60
