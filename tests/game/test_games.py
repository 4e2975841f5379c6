"""Complete games: many random games under every rule set run and replay,
the same seed gives the same game, the JSON record and its replay, the
built-in players satisfy the protocol, and greedy beats random."""

from __future__ import annotations

import json

import pytest

from quiddler import WordList
from quiddler.game import (
    Game,
    GameRecordError,
    GreedyPlayer,
    Player,
    RandomPlayer,
    Rules,
    add_to_totals,
    make_player,
    play_game,
    simulate,
)
from quiddler.game.plans import next_action
from quiddler.game.players import best_final_play
from quiddler.game.record import game_record, replay

RULE_SETS = [
    Rules(),
    Rules(no_going_out_first_turn=True, first_turn_rule_rounds=4),
    Rules(round_sizes=(3, 5, 7, 9, 10, 8, 6, 4), floor_at_zero=False, fresh_deck_each_round=False),
    Rules(longest_word_bonus=0, most_words_bonus=5, two_player_bonuses="most", bonus_requires_going_out=True),
]


def check_finished(game: Game) -> None:
    assert game.over and len(game.history) == game.rules.rounds
    totals = (0,) * game.players
    for index, result in enumerate(game.history):
        assert result.round == index + 1 and result.cards == game.rules.round_sizes[index]
        assert result.dealer == index % game.players and result.went_out is not None
        totals = add_to_totals(totals, result.scores, game.rules)
        assert totals == result.totals
    assert totals == game.totals
    if game.rules.floor_at_zero:
        assert min(game.totals) >= 0


@pytest.mark.parametrize("players", range(2, 9))
def test_many_random_games_run_and_replay(players: int) -> None:
    for i in range(60):
        seed = players * 100 + i
        rules = RULE_SETS[(i + i // 4) % len(RULE_SETS)]
        names = ["random"] * players if i % 4 else ["greedy"] + ["random-eager"] * (players - 1)
        game = play_game([make_player(n, seed + s) for s, n in enumerate(names)], seed=seed, rules=rules)
        check_finished(game)
        text = json.dumps(game_record(game, names))
        again = replay(text)
        assert again.totals == game.totals and again.winners == game.winners


def test_same_seed_same_decisions_same_game() -> None:
    def run() -> Game:
        return play_game([RandomPlayer(1), GreedyPlayer(), RandomPlayer(2)], seed=42)

    a, b = run(), run()
    assert a.log == b.log and a.totals == b.totals
    c = play_game([RandomPlayer(1), GreedyPlayer(), RandomPlayer(3)], seed=42)
    assert c.log[0]["hands"] == a.log[0]["hands"]  # the deal depends on the game seed only


def test_record_fields_and_tampering_is_detected() -> None:
    game = play_game([GreedyPlayer(), RandomPlayer(5)], seed=3)
    record = game_record(game, ["greedy", "random"])
    assert set(record) == {
        "format",
        "seed",
        "shuffle",
        "players",
        "rules",
        "rounds",
        "finished",
        "final_scores",
        "winners",
    }
    assert record["rules"]["wordlist"] == "ENABLE" and record["finished"]
    first = record["rounds"][0]
    assert set(first) == {"round", "cards", "dealer", "hands", "discard", "draw_pile", "actions", "reshuffles",
                          "result"}  # fmt: skip
    assert len(first["draw_pile"]) == 118 - 2 * 3 - 1
    assert json.loads(json.dumps(record)) == record

    bad = json.loads(json.dumps(record))
    bad["final_scores"][0] += 1
    with pytest.raises(GameRecordError, match="final_scores"):
        replay(bad)
    bad = json.loads(json.dumps(record))
    bad["seed"] += 1
    with pytest.raises(GameRecordError, match="deal"):
        replay(bad)
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["actions"] = bad["rounds"][0]["actions"][1:]
    with pytest.raises(GameRecordError, match="round 1, action 1"):
        replay(bad)
    with pytest.raises(GameRecordError, match="word list"):
        replay(record, wordlist=WordList(["cat"], name="tiny"))
    with pytest.raises(GameRecordError):
        replay("{not json")


def test_unfinished_game_record_replays() -> None:
    players = [RandomPlayer(1), RandomPlayer(2)]
    game = Game(2, seed=8)
    for _ in range(15):
        game.apply(next_action(game, players))
    again = replay(json.dumps(game_record(game)))
    assert again._snapshot() == game._snapshot()


def test_players_satisfy_the_protocol_and_greedy_uses_bonuses() -> None:
    assert isinstance(make_player("random"), Player) and isinstance(make_player("greedy"), Player)
    with pytest.raises(ValueError, match="unknown player"):
        make_player("nobody")
    # A final turn: someone laid down a 4-letter word and 1 word; greedy's
    # play must be worth at least the plain best play once bonuses count.
    game = Game(2, seed=1)
    players = [GreedyPlayer(), GreedyPlayer()]
    while game.went_out is None:
        game.apply(next_action(game, players))
    if game.phase.value == "draw":
        game.apply(next_action(game, players))
    view = game.view(game.turn)
    play = best_final_play(view.hand, view)
    assert play.discard is not None and game.is_legal(players[game.turn].choose_lay_down(view))


def test_greedy_beats_random_in_a_small_sample() -> None:
    stats = simulate(["greedy", "random"], 10, seed=7)
    assert stats.strategies["greedy"].wins + stats.strategies["random"].wins == pytest.approx(10)
    assert stats.strategies["greedy"].wins >= 7
