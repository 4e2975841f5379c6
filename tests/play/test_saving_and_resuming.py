"""Saving, quitting and resuming: a game stopped anywhere (quit, end of
input, Ctrl-C) and resumed is the game played straight through; quitting
asks whether and where to save; damaged or foreign saves are one error
line and left untouched; a save never overwrites a foreign file or an
unfinished game; a game on another word list resumes from the file it
names."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from quiddler.game import Game
from quiddler.play.saves import HUMAN, SaveError, check_save_target, load_game, save_game

from .helpers import (
    AUTO,
    SHORT,
    WORDS,
    LinesThenInterrupt,
    finished_one_round_game,
    invoke,
    one_error_line,
)


@pytest.fixture(scope="module")
def straight_record(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    save = tmp_path_factory.mktemp("straight") / "game.json"
    result = invoke([*RESUMED, "--save", str(save)], AUTO)
    assert result.exit_code == 0, result.output
    assert result.output.count("> auto") > 6  # every stop point below is mid-game
    return json.loads(save.read_text())  # type: ignore[no-any-return]


#: The games resumed: seed 9, three rounds (played straight through the person answers more than six prompts).
RESUMED = ["--seed", "9", "--rounds", "3"]


@pytest.mark.parametrize(("lines", "how"), [(k, ("quit", "eof", "interrupt")[k % 3]) for k in range(6)])
def test_stopping_and_resuming_gives_the_game_played_straight_through(
    tmp_path: Path, straight_record: dict, lines: int, how: str  # type: ignore[type-arg]
) -> None:
    save = tmp_path / "game.json"
    args = [*RESUMED, "--save", str(save)]
    if how == "interrupt":
        stopped = invoke(args, LinesThenInterrupt(["auto"] * lines))
        assert stopped.exit_code == 130 and isinstance(stopped.exception, SystemExit)
        assert f"Interrupted: game saved to {save}. Continue it with: quiddler play --resume {save}" in stopped.output
    elif how == "eof":
        stopped = invoke(args, "auto\n" * lines)
        assert stopped.exit_code == 0
        assert f"End of input: game saved to {save}." in stopped.output
    else:
        stopped = invoke(args, "auto\n" * lines + "quit\n")
        assert stopped.exit_code == 0
        assert f"Game saved to {save}. Continue it with: quiddler play --resume {save}" in stopped.output
    assert "Traceback" not in stopped.output
    assert not json.loads(save.read_text())["finished"]
    resumed = invoke(["--resume", str(save)], AUTO)
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming at round" in resumed.output or lines == 0
    if lines == 1:  # stopped after drawing: what happened this round is told again, the person's draw too
        assert "Round 1 so far:" in resumed.output and "You draw from the pile." in resumed.output
    assert json.loads(save.read_text()) == straight_record


def test_quit_asks_whether_and_where_to_save(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    target = tmp_path / "later.json"
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my notes\n")
    script = f"auto\nauto\nquit\nmaybe\ncancel\nauto\nquit\nyes\n{foreign}\n{target}\n"
    result = invoke(RESUMED, script)
    assert result.exit_code == 0, result.output
    assert "type yes, no or cancel" in result.output and "Cancelled." in result.output
    assert f"'{foreign}' exists and is not a saved game: choose another file" in result.output
    assert f"Game saved to {target}. Continue it with: quiddler play --resume {target}" in result.output
    assert foreign.read_text() == "my notes\n"
    resumed = invoke(["--resume", str(target)], AUTO)
    assert resumed.exit_code == 0
    assert json.loads(target.read_text()) == straight_record


def test_quit_without_saving_and_end_of_input_without_a_file() -> None:
    result = invoke(["--seed", "9", *SHORT], "auto\nquit\nno\n")
    assert result.exit_code == 0 and result.output.rstrip().endswith("Game not saved. Bye.")
    result = invoke(["--seed", "9", *SHORT], "auto\n")
    assert result.exit_code == 0
    assert "End of input: the game stops here, not saved (use --save FILE to keep games)." in result.output
    result = invoke(["--seed", "9", *SHORT], LinesThenInterrupt(["auto"]))
    assert result.exit_code == 130 and "Interrupted: the game stops here, not saved" in result.output


def test_resuming_a_finished_game_shows_the_score_sheet(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    save = tmp_path / "done.json"
    save.write_text(json.dumps(straight_record))
    result = invoke(["--resume", str(save)], "")
    assert result.exit_code == 0 and "Game over." in result.output and "Score sheet" in result.output


def damaged_saves(record: dict) -> dict[str, str]:  # type: ignore[type-arg]
    text = json.dumps(record)
    tampered = json.loads(text)
    tampered["rounds"][0]["actions"][1] = {"type": "discard", "player": 1, "card": "zz"}
    illegal = json.loads(text)
    illegal["rounds"][0]["actions"].insert(0, {"type": "discard", "player": 0, "card": "a"})
    dealt = json.loads(text)
    dealt["rounds"][0]["hands"][0][0] = "q" if dealt["rounds"][0]["hands"][0][0] != "q" else "z"
    no_human = json.loads(text)
    no_human["players"] = ["medium", "medium"]
    stranger = json.loads(text)
    stranger["players"] = [HUMAN, "deep-blue"]
    rounds = json.loads(text)
    rounds["rounds"] = "all of them"
    return {
        "truncated": text[: len(text) // 2],
        "empty": "",
        "not json": "hello\n",
        "a list": "[1, 2, 3]",
        "another format": json.dumps({**record, "format": "chess-pgn/1"}),
        "bad card": json.dumps(tampered),
        "illegal action": json.dumps(illegal),
        "another deal": json.dumps(dealt),
        "no human seat": json.dumps(no_human),
        "unknown player": json.dumps(stranger),
        "rounds not a list": json.dumps(rounds),
        "binary": "\udcff\udcfe",
    }


@pytest.mark.parametrize("kind", ["truncated", "empty", "not json", "a list", "another format", "bad card",
                                  "illegal action", "another deal", "no human seat", "unknown player",
                                  "rounds not a list", "binary"])  # fmt: skip
def test_a_damaged_or_foreign_save_is_one_error_line_and_left_untouched(
    tmp_path: Path, straight_record: dict, kind: str  # type: ignore[type-arg]
) -> None:
    save = tmp_path / "game.json"
    data = damaged_saves(straight_record)[kind].encode("utf-8", "surrogateescape")
    save.write_bytes(data)
    before = save.stat().st_mtime_ns
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert str(save) in line
    assert save.read_bytes() == data and save.stat().st_mtime_ns == before


def test_resume_errors(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    missing = tmp_path / "nothing.json"
    assert one_error_line(invoke(["--resume", str(missing)])) == f"Error: no saved game at '{missing}'"
    save = tmp_path / "game.json"
    save.write_text(json.dumps(straight_record))
    line = one_error_line(invoke(["--resume", str(save), "--seed", "3"]))
    assert line == "Error: --resume continues the saved game as it was set up: drop --seed"
    assert "drop --level" in one_error_line(invoke(["--resume", str(save), "--level", "easy"]))
    assert "drop --no-bonuses" in one_error_line(invoke(["--resume", str(save), "--no-bonuses"]))


def test_save_never_overwrites_a_foreign_file_or_an_unfinished_game(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    foreign = tmp_path / "notes.txt"
    foreign.write_text("keep me")
    line = one_error_line(invoke(["--save", str(foreign)], AUTO))
    assert line == f"Error: '{foreign}' exists and is not a saved game: choose another file"
    assert foreign.read_text() == "keep me"
    unfinished = tmp_path / "unfinished.json"
    invoke([*RESUMED, "--save", str(unfinished)], "auto\nquit\n")
    text = unfinished.read_text()
    assert "holds an unfinished game: continue it with --resume" in one_error_line(
        invoke(["--save", str(unfinished)], AUTO))
    assert unfinished.read_text() == text
    finished = tmp_path / "finished.json"
    finished.write_text(json.dumps(straight_record))
    assert invoke(["--seed", "9", *SHORT, "--save", str(finished)], "auto\nquit\n").exit_code == 0
    assert "cannot save the game to" in one_error_line(invoke(["--save", str(tmp_path / "no" / "x.json")]))
    assert "is a directory" in one_error_line(invoke(["--save", str(tmp_path)]))


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = finished_one_round_game()
    path = tmp_path / "g.json"
    with pytest.raises(SaveError):
        load_game(path)
    check_save_target(path)
    save_game(path, Game(2, seed=4), [HUMAN, "easy"])
    with pytest.raises(SaveError, match="unfinished game"):
        check_save_target(path)
    loaded, labels = load_game(path)
    assert labels == (HUMAN, "easy") and loaded.seed == 4 and not loaded.over
    assert game.over
    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        save_game(fresh, game, [HUMAN, "easy"])
        assert fresh.stat().st_mode & 0o777 == 0o644  # an ordinary file, not mkstemp's private one
        fresh.chmod(0o600)
        save_game(fresh, game, [HUMAN, "easy"])
        assert fresh.stat().st_mode & 0o777 == 0o600  # a file's own permissions are kept
    finally:
        os.umask(umask)


def test_a_game_on_another_word_list_resumes_from_the_file_it_names(tmp_path: Path) -> None:
    words = tmp_path / "short-words.txt"
    words.write_text("\n".join(w for w in WORDS if len(w) <= 4) + "\n")
    save = tmp_path / "game.json"
    stopped = invoke(["--seed", "3", "--rounds", "1", "--wordlist", str(words), "--save", str(save)], "auto\nquit\n")
    assert stopped.exit_code == 0, stopped.output
    resumed = invoke(["--resume", str(save)], AUTO)  # the record names the list's file: found again
    assert resumed.exit_code == 0 and "Game over." in resumed.output
    invoke(["--seed", "3", "--rounds", "1", "--wordlist", str(words), "--save", str(save)], "auto\nquit\n")
    words.rename(tmp_path / "moved.txt")
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert line.startswith(f"Error: cannot resume '{save}': ") and "word list" in line
    resumed = invoke(["--resume", str(save), "--wordlist", str(tmp_path / "moved.txt")], AUTO)
    assert resumed.exit_code == 0 and "Game over." in resumed.output
