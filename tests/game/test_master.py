"""The ``master`` level: sampled hidden states that fit what the player
saw, simulated finishes played by the real engine, a search that is
deterministic, legal, bounded in time and explained in its own numbers.

Strength and speed are measured in benchmarks/bench_master.py, not here;
the searches here use few samples so the tests stay fast."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from quiddler.cards import full_deck
from quiddler.game import Game, PlayerView, Rules, hint, make_player, play_game, player_names, simulate
from quiddler.game.ai import EXPERT, AIPlayer
from quiddler.game.counting import discard_pile, known_holdings
from quiddler.game.master import (
    MASTER,
    MasterPlayer,
    SearchSettings,
    explain,
    master_hint,
    search,
    searchable,
)
from quiddler.game.runner import next_action
from quiddler.game.sampling import HiddenState, Sampler, decision_seed
from quiddler.game.state import Phase

FEW = SearchSettings(samples=4, race=0.0)
SHORT = Rules(round_sizes=(3, 6, 9))


def positions(seed: int, players: int = 2, rules: Rules | None = None) -> list[tuple[Game, PlayerView]]:
    """Every position of an expert game, with a copy of the game in it (replayed from the log)."""
    experts = [AIPlayer(EXPERT) for _ in range(players)]
    game = Game(players, seed=seed, rules=rules)
    actions = []
    out = []
    while not game.over:
        out.append((len(actions), game.view(game.turn)))
        action = next_action(game, experts)
        actions.append(action)
        game.apply(action)
    replays = []
    for count, view in out:
        copy = Game(players, seed=seed, rules=rules)
        for action in actions[:count]:
            copy.apply(action)
        replays.append((copy, view))
    return replays


def searchable_positions(seed: int, players: int = 2) -> list[tuple[Game, PlayerView]]:
    return [(g, v) for g, v in positions(seed, players) if searchable(v, FEW) and search(v, FEW) is not None]


# -- sampling the hidden state ---------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_samples_fit_everything_the_player_saw(players: int) -> None:
    rng = random.Random(1)
    checked = 0
    for game, view in positions(11, players)[::3]:
        if game.over:
            continue
        hidden = Sampler(view).sample(rng)
        assert hidden.hands[view.seat] == view.hand
        held = known_holdings(view)
        for seat, hand in enumerate(hidden.hands):
            assert len(hand) == view.hand_sizes[seat]
            assert not held[seat] - Counter(hand)  # the cards it is known to hold are in it
        assert len(hidden.draw_pile) == view.draw_pile_size
        on_table = Counter(c for h in hidden.hands for c in h) + Counter(hidden.draw_pile) + Counter(discard_pile(view))
        on_table += Counter(c for laid in view.laid_down for w in laid for c in w.cards)
        assert on_table == Counter(full_deck())
        checked += 1
    assert checked > 10


def test_a_rollout_from_the_true_hidden_state_plays_as_the_real_game() -> None:
    """The engine set up from a sample that happens to be the truth is the real
    game: the same views, and the same round result for the same actions."""
    experts = [AIPlayer(EXPERT), AIPlayer(EXPERT)]
    compared = 0
    for game, view in positions(5)[::4]:
        if game.over:
            continue
        truth = HiddenState(tuple(game.hand(s) for s in range(2)), tuple(reversed(game.draw_pile)), game.seed)
        rollout = Sampler(view, extra_turns=100).game(truth)
        assert rollout.card_count() == 118
        for seat in range(2):
            real, sampled = game.view(seat), rollout.view(seat)
            assert dataclasses.replace(sampled, rules=real.rules) == real
        round_number = game.round
        while rollout.result is None and not game.over:
            action = next_action(game, experts)
            assert next_action(rollout, experts) == action
            outcome = game.apply(action)
            rollout.apply(action)
            if outcome.round_result is not None:
                assert rollout.result == outcome.round_result
        assert game.round > round_number or game.over
        compared += 1
    assert compared > 10


def test_decision_seeds_depend_on_the_position_and_the_salt_only() -> None:
    _, view = positions(3)[5]
    assert decision_seed(view, 7) == decision_seed(dataclasses.replace(view), 7)
    assert decision_seed(view, 7) != decision_seed(view, 8)
    assert decision_seed(view, 7) != decision_seed(dataclasses.replace(view, turns_taken=view.turns_taken + 1), 7)


# -- the search --------------------------------------------------------------------


def test_master_searches_only_where_it_could_go_out_and_keeps_the_experts_choice() -> None:
    found = searchable_positions(21)
    assert found
    for _, view in found:
        result = search(view, FEW)
        assert result is not None
        assert view.phase is Phase.DISCARD and not view.final_turn
        assert any(o.action == "go-out" for o in result.options)
        assert any(o == dataclasses.replace(result.expert, value=o.value) for o in result.options)
        assert 2 <= len(result.options) <= 4
        assert result.samples == (4,) * len(result.options)
        assert [o.value for o in result.options] == sorted((o.value for o in result.options), reverse=True)


def test_master_plays_as_the_expert_wherever_it_does_not_search() -> None:
    master, expert = MasterPlayer(1, settings=FEW), AIPlayer(EXPERT)
    compared = 0
    for _, view in positions(8):
        if not view.my_turn or searchable(view, FEW):
            continue
        if view.phase is Phase.DRAW:
            assert master.choose_draw(view) == expert.choose_draw(view)
        elif view.final_turn:
            assert master.choose_lay_down(view) == expert.choose_lay_down(view)
        else:
            assert master.choose_end(view) == expert.choose_end(view)
        compared += 1
    assert compared > 30


def test_the_same_seed_plays_the_same_game() -> None:
    def record() -> list[object]:
        game = play_game([MasterPlayer(5, settings=FEW), make_player("expert", 6)], seed=41, rules=SHORT)
        return game.log

    first = record()
    assert record() == first
    other = play_game([MasterPlayer(99, settings=FEW), make_player("expert", 6)], seed=41, rules=SHORT)
    assert other.log[0]["hands"] == first[0]["hands"]  # same deals


def test_simulate_with_two_workers_equals_one_worker() -> None:
    runs = [simulate(["master", "expert"], 4, seed=3, rules=SHORT, workers=w, records=True) for w in (1, 2)]
    one, two = (r.to_dict() for r in runs)
    assert one == two
    assert one["strategies"]["master"]["seats"] == 4


def test_a_deadline_stops_the_search_with_every_candidate_on_the_same_samples() -> None:
    _, view = searchable_positions(21)[0]
    hurried = search(view, dataclasses.replace(FEW, samples=50, deadline=0.0))
    assert hurried is not None and hurried.samples == (1,) * len(hurried.options)
    patient = search(view, dataclasses.replace(FEW, samples=6, deadline=1e9))
    assert patient is not None and patient.samples == (6,) * len(patient.options)


def test_racing_drops_only_clearly_beaten_candidates() -> None:
    for _, view in searchable_positions(21)[:3]:
        raced = search(view, dataclasses.replace(MASTER, samples=16))
        assert raced is not None
        assert raced.samples[0] == max(raced.samples)  # the best option saw every sample played
        full = search(view, dataclasses.replace(MASTER, samples=16, race=0.0))
        assert full is not None and set(full.samples) == {16}


@pytest.mark.parametrize("players", [2, 3])
def test_whole_games_are_legal_and_no_round_stalls(players: int) -> None:
    """The engine checks every action (an illegal one raises); master vs the
    expert and master vs itself end every round well before the turn limit."""
    for seed in (1, 2):
        seats = [MasterPlayer(seed + s, settings=FEW) if s % 2 == 0 else make_player("expert", s) for s in range(players)]
        for table in (seats, [MasterPlayer(seed + s, settings=FEW) for s in range(players)]):
            game = play_game(table, seed=seed, rules=SHORT)
            assert game.over and len(game.history) == SHORT.rounds
            assert not any(r.turn_limit for r in game.history)
            for entry in game.log:
                draws = Counter(a["player"] for a in entry["actions"] if a["type"] == "draw")
                assert max(draws.values()) <= MASTER.wait_turns + 2


# -- hints ---------------------------------------------------------------------------


def test_the_hint_names_the_values_it_ranks_by() -> None:
    """Each option's value appears in the reason, rounded, in the options' order."""
    checked = 0
    for _, view in searchable_positions(21)[:4]:
        advice = master_hint(view, FEW)
        last = view.round == view.rules.rounds - 1
        unit = "%" if last else ""
        first, *rest = advice.options
        expected = [(f"{'wins' if last else 'averages'} {first.value:.0f}{unit} over 4 simulated finishes of the "
                    f"{'game' if last else 'round'}")]  # fmt: skip
        seen_out = first.action == "go-out"
        for option in rest:
            if option.action == "discard":
                phrase = f"waiting with the {option.card}"
            else:
                phrase = "going out with" if seen_out else "going out now"
                seen_out = True
            expected.append(f"{phrase}")
            expected.append(f" {option.value:.0f}{unit}")
        at = 0
        for piece in expected:
            found = advice.reason.find(piece, at)
            assert found >= 0, (piece, advice.reason)
            at = found + len(piece)
        assert advice.recommended == first
        if first.action == "go-out":
            assert advice.reason.startswith(f"Go out with {', '.join(w.text for w in first.words or ())}")
        else:
            assert advice.reason.startswith(f"Wait: discard the {first.card}")
        checked += 1
    assert checked


def test_explanation_in_the_experts_terms() -> None:
    _, view = searchable_positions(21)[0]
    result = search(view, FEW)
    assert result is not None
    text = explain(result)
    first = result.options[0]
    assert f"{first.value:.0f} over 4 simulated finishes" in text
    for option in result.options[1:]:
        phrase = f"waiting with the {option.card}" if option.action == "discard" else "going out"
        assert phrase in text
        assert f" {option.value:.0f}" in text


def test_hint_level_master_and_bad_levels() -> None:
    _, view = searchable_positions(21)[0]
    assert hint(view, level="master").reason == master_hint(view).reason
    assert hint(view).reason == hint(view, level="expert").reason
    with pytest.raises(ValueError, match="'grandmaster'"):
        hint(view, level="grandmaster")
    draw_view = next(v for _, v in positions(21) if v.phase is Phase.DRAW)
    assert hint(draw_view, level="master") == hint(draw_view)  # no search: the expert's advice


def test_master_is_a_registered_player() -> None:
    assert "master" in player_names()
    player = make_player("master", 3)
    assert isinstance(player, MasterPlayer) and player.name == "master"
    assert json.dumps(player.settings.models) == '["expert", "ev"]'


def test_a_search_holds_off_garbage_collection_and_restores_it() -> None:
    """The collector is off while a search simulates and back as it was after
    (on if it was on, off if it was off; nested uses restore it once)."""
    import gc

    from quiddler.game.gcpause import collection_paused

    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collection_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_searches_that_overlap_for_long_still_collect_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches running one over another keep the collector off: one that
    ends after the longest pause collects once (and the next does not)."""
    import gc

    from quiddler.game import gcpause

    collections: list[str] = []

    def heard(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            collections.append(phase)

    clock = [1000.0]
    monkeypatch.setattr(gcpause.time, "monotonic", lambda: clock[0])
    gc.callbacks.append(heard)
    try:
        with gcpause.collection_paused():
            with gcpause.collection_paused():
                pass
            assert collections == []  # a short overlap: nothing collected
            clock[0] += gcpause.LONGEST_PAUSE
            with gcpause.collection_paused():
                pass
            assert collections == ["start"] and not gc.isenabled()
            with gcpause.collection_paused():
                pass
            assert collections == ["start"]
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(heard)
