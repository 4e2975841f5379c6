"""``quiddler review``: a game's record file of each kind the package writes
(a ``play --save`` file, a line of a ``simulate --log`` file, the browser
game's record) reviewed as text and JSON; bad input as one ``Error:`` line."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from quiddler.game import Rules, make_player
from quiddler.game.plans import play_game
from quiddler.game.record import game_record
from quiddler.game.reviews import review

from .helpers import assert_input_error, run, run_json

GOLDEN = Path(__file__).parents[1] / "data" / "golden"


@cache
def record_text(names: tuple[str, ...] = ("medium", "human")) -> str:
    """A short game with the person in seat 1, as ``play --save`` labels it."""
    players = [make_player(name if name in ("medium", "hard") else "greedy", 7 + seat) for seat, name in enumerate(names)]
    game = play_game(players, seed=8, rules=Rules(round_sizes=(3, 4, 5)))
    return json.dumps(game_record(game, list(names)))


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(record_text())
    return path


def test_a_saved_game_is_reviewed_for_the_persons_seat(saved: Path) -> None:
    result = run("review", str(saved))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Review of seat 1 (human) at level expert; players: seat 0 medium, seat 1 human")
    expected = review(json.loads(record_text()), 1)
    assert f"accuracy {expected.accuracy:.1f}" in out and f"{expected.loss_total:.1f} points lost" in out
    table = [line for line in out.splitlines() if line.split()[:1] in (["1"], ["2"], ["3"])]
    assert len([line for line in table if "draw" in line or "discard" in line or "final" in line]) == len(
        expected.decisions)
    assert out.count("<- worst") == len(expected.worst()) > 0
    assert "round  decisions   loss  accuracy  score" in out


def test_json_is_the_reviews_own_shape(saved: Path) -> None:
    data = run_json("review", str(saved), "--seat", "0")
    assert data == json.loads(json.dumps(review(json.loads(record_text()), 0).to_dict()))


def test_every_seat_with_all(saved: Path) -> None:
    data = run_json("review", str(saved), "--all")
    assert [d["seat"] for d in data] == [0, 1] and [d["player"] for d in data] == ["medium", "human"]
    text = run("review", str(saved), "--all").stdout
    assert "Review of seat 0 (medium)" in text and "Review of seat 1 (human)" in text


def test_a_game_of_a_simulate_log_is_picked_by_its_number(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    made = run("simulate", "--players", "expert,greedy", "--games", "3", "--rounds", "2", "--seed", "4",
               "--log", str(log), "--no-progress")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    lines = log.read_text().splitlines()
    first = run_json("review", str(log), "--seat", "1")
    third = run_json("review", str(log), "--seat", "1", "--game", "2")
    for data, line in ((first, lines[0]), (third, lines[2])):
        record = json.loads(line)
        assert [d["played"] for d in data["decisions"]] == [a for r in record["rounds"] for a in r["actions"]
                                                             if a["player"] == 1]  # fmt: skip
        assert data["players"] == record["players"]
    assert_input_error(run("review", str(log), "--game", "3"), "--game 3", "holds 3 games (0 to 2)")


def test_the_web_games_record_names_its_players(tmp_path: Path) -> None:
    path = tmp_path / "quiddler-table.json"
    path.write_text(record_text(("Ada", "hard")))
    out = run("review", str(path), "--seat", "1").stdout
    assert out.startswith("Review of seat 1 (hard) at level expert; players: seat 0 Ada, seat 1 hard")


def test_records_of_format_1_and_2_with_their_word_list() -> None:
    for version in ("v1", "v2"):
        path = GOLDEN / version / "two-custom-list.json"
        data = run_json("review", str(path), "--wordlist", str(GOLDEN / "short-words.txt"))
        assert data["decisions"] and data["seat"] == 0


def test_workers_give_the_same_review(saved: Path) -> None:
    assert run_json("review", str(saved), "--workers", "2") == run_json("review", str(saved))


def test_progress_is_shown_on_stderr_when_asked(saved: Path) -> None:
    result = run("review", str(saved), "--progress")
    assert result.exit_code == 0 and "decision" in result.stderr
    assert run("review", str(saved)).stderr == ""


def test_master_level_gives_the_noise_of_searched_decisions(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from quiddler.game import judging

    monkeypatch.setattr(judging, "REVIEW_SEARCH", replace(judging.REVIEW_SEARCH, samples=6))
    data = run_json("review", str(saved), "--level", "master", "--seat", "0")
    assert data["level"] == "master"
    searched = [d for d in data["decisions"] if d["samples"]]
    assert searched and all(d["samples"] == 6 for d in searched)
    assert all(d["se"] == 0 for d in data["decisions"] if not d["samples"])


def corrupted(text: str) -> str:
    record: dict[str, Any] = json.loads(text)
    record["rounds"][0]["actions"][1] = dict(record["rounds"][0]["actions"][0])
    return json.dumps(record)


@pytest.mark.parametrize(("content", "args", "fragments"), [
    ("just text\n", (), ("is not a game record: not JSON",)),
    ("[1, 2]", (), ("is not a game record: its JSON is not an object",)),
    ('{"format": "chess/1"}', (), ("not a game record of a known format",)),
    (None, ("--seat", "2"), ("no seat 2 in this game: its seats are 0 to 1",)),
    (None, ("--seat", "0", "--all"), ("give --seat or --all, not both",)),
    (None, ("--game", "1"), ("--game 1", "holds one game")),
    (None, ("--level", "grandmaster"), ("'grandmaster' is not one of 'expert', 'master'",)),
    ("corrupted", (), ("round 1, action 2: already drew this turn",)),
])  # fmt: skip
def test_bad_input_is_one_error_line(tmp_path: Path, content: str | None, args: tuple[str, ...],
                                     fragments: tuple[str, ...]) -> None:  # fmt: skip
    path = tmp_path / "record.json"
    path.write_text(record_text() if content is None else corrupted(record_text()) if content == "corrupted"
                    else content)  # fmt: skip
    assert_input_error(run("review", str(path), *args), *fragments)


def test_a_missing_file_and_a_record_of_another_word_list_are_one_error_line(tmp_path: Path) -> None:
    assert_input_error(run("review", str(tmp_path / "none.json")), "cannot read", "none.json")
    assert_input_error(run("review", str(GOLDEN / "v2" / "two-custom-list.json")), "short-words.txt",
                       "pass that list")  # fmt: skip
    assert_input_error(run("review", str(tmp_path)), "not a regular file")


def test_a_log_larger_than_any_record_is_read_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from quiddler.cli import review as review_module

    line = record_text()
    log = tmp_path / "games.jsonl"
    log.write_text(f"{line}\n\n{line}\n{line}\n")  # three games, a blank line between
    monkeypatch.setattr(review_module, "MAX_RECORD_BYTES", len(line) + 10)  # the file is three times that
    data = run_json("review", str(log), "--game", "2", "--seat", "1")
    assert data["decisions"] and data["player"] == "human"
    assert_input_error(run("review", str(log), "--game", "3"), "holds 3 games (0 to 2)")


def test_a_record_spread_over_lines_is_one_game(tmp_path: Path) -> None:
    path = tmp_path / "pretty.json"
    path.write_text(json.dumps(json.loads(record_text()), indent=2))
    assert run_json("review", str(path)) == run_json("review", str(path), "--game", "0")
