"""Complete games: many random games without error, seeded determinism,
the JSON record and its replay, the built-in players, and the simulate
command."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from quiddler import WordList
from quiddler.cli.simulate import simulate as simulate_command
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
from quiddler.game.players import best_final_play
from quiddler.game.record import game_record, replay
from quiddler.game.runner import next_action

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
    with pytest.raises(ValueError, match="unknown strategy"):
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


def test_simulate_command_json_and_log(tmp_path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["--players", "greedy,random,random", "--games", "4", "--seed", "1", "--json", "--log", str(log)]
    result = CliRunner().invoke(simulate_command, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 4 and data["seed"] == 1
    assert set(data["strategies"]) == {"greedy", "random"}
    assert sum(s["wins"] for s in data["strategies"].values()) == pytest.approx(4)
    for s in data["strategies"].values():
        assert {"wins", "win_rate", "mean_score", "going_out_rate"} <= set(s)
    lines = log.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        record = json.loads(line)
        assert replay(record).totals == tuple(record["final_scores"])
    # seats rotate: each game's seat 0 strategy follows the rotation
    assert [json.loads(line)["players"][0] for line in lines] == ["greedy", "random", "random", "greedy"]
    again = CliRunner().invoke(
        simulate_command, ["--players", "greedy,random,random", "-n", "4", "--seed", "1", "--json"]
    )
    assert json.loads(again.stdout) == data


def test_simulate_command_table_and_variants() -> None:
    args = [
        "--players",
        "random,random",
        "--games",
        "2",
        "--seed",
        "2",
        "--no-first-turn-out",
        "--no-bonuses",
        "--no-floor",
    ]
    result = CliRunner().invoke(simulate_command, args)
    assert result.exit_code == 0
    assert "random" in result.stdout and "win rate" in result.stdout and result.stderr == ""


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "greedy,wizard"], "unknown strategy: 'wizard'"),
        (["--players", "greedy"], "2 to 8 players, not 1"),
        (["--players", ",".join(["random"] * 9)], "2 to 8 players, not 9"),
        (["--games", "0"], "0 is not in the range x>=1"),
        (["--games", "lots"], "not a valid integer"),
        (["--wordlist", "/nonexistent/words.txt"], "word list not found"),
        (["--turn-limit", "0"], "'--turn-limit': 0 is not in the range x>=1"),
        (["--turn-limit", "many"], "not a valid integer"),
    ],
)
def test_simulate_command_bad_arguments(args: list[str], message: str) -> None:
    result = CliRunner().invoke(simulate_command, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_simulate_through_the_main_group() -> None:
    cli = pytest.importorskip("quiddler.cli")
    args = ["simulate", "--players", "random,random", "-n", "1", "--seed", "1", "--json"]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 1
    bad = CliRunner().invoke(cli.main, ["simulate", "--players", "random"])
    assert bad.exit_code == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_simulate_progress_goes_to_stderr_only_when_asked() -> None:
    args = ["--players", "random,random", "-n", "2", "--seed", "3", "--json"]
    quiet = CliRunner().invoke(simulate_command, args)
    shown = CliRunner().invoke(simulate_command, [*args, "--progress"])
    assert quiet.stderr == "" and "games" in shown.stderr
    assert json.loads(shown.stdout) == json.loads(quiet.stdout)


def test_simulate_with_a_word_list_nobody_can_go_out_with_terminates(tmp_path) -> None:
    """Issue 11 item 2: with the words quit and queen nobody can ever go out;
    the game hung with memory growing.  Now each round ends at the turn limit
    (default 50 turns each).  Run in a child process so a hang fails cleanly."""
    import subprocess
    import sys

    words = tmp_path / "quit-queen.txt"
    words.write_text("quit\nqueen\n")
    log = tmp_path / "games.jsonl"
    args = ["simulate", "--players", "greedy,random", "--games", "1", "--seed", "1", "--wordlist", str(words),
            "--json", "--log", str(log)]  # fmt: skip
    done = subprocess.run([sys.executable, "-c", "from quiddler.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 1
    record = json.loads(log.read_text())
    assert record["finished"] and record["rules"]["turn_limit"] == 50
    results = [entry["result"] for entry in record["rounds"]]
    assert len(results) == 8 and all(r["turn_limit"] and r["went_out"] is None for r in results)
    # 50 turns each per round, a draw and a discard per turn
    assert all(len(entry["actions"]) == 2 * 2 * 50 for entry in record["rounds"])
    assert replay(record, WordList(["queen", "quit"])).over


def test_simulate_turn_limit_option_reaches_the_rules_and_the_records(tmp_path) -> None:
    words = tmp_path / "quit-queen.txt"
    words.write_text("quit\nqueen\n")
    log = tmp_path / "games.jsonl"
    args = ["--players", "random,random,greedy", "-n", "2", "--seed", "4", "--wordlist", str(words),
            "--turn-limit", "3", "--log", str(log)]  # fmt: skip
    result = CliRunner().invoke(simulate_command, args)
    assert result.exit_code == 0, result.output
    for line in log.read_text().splitlines():
        record = json.loads(line)
        assert record["rules"]["turn_limit"] == 3
        assert all(len(entry["actions"]) == 2 * 3 * 3 for entry in record["rounds"])
