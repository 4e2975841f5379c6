"""``quiddler play`` as a command: a scripted whole game runs to the score
sheet, opponents and their levels, bad options are one error line, and
the rule options it shares with ``simulate``."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from quiddler.cli import main
from quiddler.game.record import replay
from quiddler.play.saves import HUMAN

from .helpers import (
    AUTO,
    SHORT,
    invoke,
    one_error_line,
)


def test_scripted_whole_game_runs_to_the_score_sheet(tmp_path: Path) -> None:
    """`yes auto | quiddler play --seed 1`: all eight rounds, the score sheet, exit 0."""
    save = tmp_path / "game.json"
    result = invoke(["--seed", "1", "--save", str(save)], AUTO)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    out = result.output
    assert out.startswith("Quiddler: you against Ada (medium). 8 rounds of 3 to 10 cards. Game seed 1.")
    assert "\x1b[" not in out
    for number in range(1, 9):
        assert f"End of round {number} (" in out
    record = json.loads(save.read_text())
    assert record["finished"] and record["players"] == [HUMAN, "medium"]
    sheet = out[out.index("Score sheet"):].splitlines()
    assert [line.split()[0] for line in sheet[2:10]] == [str(n) for n in range(1, 9)]
    assert [int(x) for x in sheet[10].split()[1:]] == record["final_scores"] == list(replay(record).totals)


def test_levels_and_opponents(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke(["--seed", "2", "--opponents", "3", "--level", "easy,hard,greedy", *SHORT, "--save", str(save)],
                    AUTO)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "you against Ada (easy), Bram (hard), Cleo (greedy). 2 rounds of 3 to 4 cards" in result.output
    assert json.loads(save.read_text())["players"] == [HUMAN, "easy", "hard", "greedy"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "0"], "Invalid value for '--opponents'"),
        (["--opponents", "8"], "Invalid value for '--opponents'"),
        (["--level", "genius"], "unknown level: 'genius' (expected easy, medium or hard"),
        (["--level", "easy,hard", "--opponents", "3"], "2 levels for 3 opponents"),
        (["--rounds", "0"], "Invalid value for '--rounds'"),
        (["--rounds", "2", "--round-sizes", "3,4"], "give --rounds or --round-sizes, not both"),
        (["--round-sizes", "3,x"], "expected card counts such as 3,5,7, not '3,x'"),
        (["--round-sizes", "1"], "a round must deal at least 2 cards, not 1"),
        (["--round-sizes", "25"], "a round of 25 cards is too large"),
        (["--opponents", "7", "--round-sizes", "15"], "8 hands of 15 cards do not fit the 118-card deck"),
        (["--wordlist", "/no/such/file"], "word list not found"),
        (["--seed", "x"], "Invalid value for '--seed'"),
        (["--pace", "-1"], "Invalid value for '--pace'"),
    ],
)
def test_bad_options_are_one_error_line(args: list[str], message: str) -> None:
    assert message in one_error_line(invoke(args, AUTO))


def test_group_offers_play_with_help() -> None:
    result = CliRunner().invoke(main, ["play", "--help"])
    assert result.exit_code == 0
    assert "yes auto | quiddler play --seed 1" in result.output and "--no-first-turn-out" in result.output
    result = CliRunner().invoke(main, ["play", "--opponents", "9"])
    assert result.exit_code == 2 and result.stderr.startswith("Error: ")


def test_simulate_and_play_share_the_rule_options() -> None:
    def options(name: str) -> set[str]:
        command = main.get_command(click.Context(main), name)
        assert command is not None
        return {o for p in command.params for o in p.opts}

    shared = {"--wordlist", "--rounds", "--round-sizes", "--no-first-turn-out", "--no-bonuses", "--no-floor"}
    assert shared <= options("simulate") & options("play")
