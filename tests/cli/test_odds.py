"""``quiddler odds``: the table as text and JSON (the library's table), its
progress bar, bad options as one line, and ``--threads`` with its old name
``--workers``."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from quiddler.cli import main
from quiddler.odds import go_out_odds


def test_json_is_the_library_table() -> None:
    args = ["odds", "--cards", "3-4", "--trials", "500", "--seed", "7", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["trials", "seed", "turn", "wordlist", "rows"]
    assert (data["trials"], data["seed"], data["turn"], data["wordlist"]) == (500, 7, "first", "ENABLE")
    assert [row["cards"] for row in data["rows"]] == [3, 4]
    for row in data["rows"]:
        assert list(row) == ["cards", "go_out", "se", "best_score"]
        assert list(row["best_score"]) == ["mean", "quartiles"] and len(row["best_score"]["quartiles"]) == 3
        assert row["se"] == pytest.approx(math.sqrt(row["go_out"] * (1 - row["go_out"]) / 500), abs=1e-6)
    assert data == go_out_odds([3, 4], trials=500, seed=7).to_dict()


def test_table_and_progress_bar() -> None:
    result = CliRunner().invoke(main, ["odds", "--cards", "6", "--trials", "300", "--seed", "1", "--progress"])
    assert result.exit_code == 0, result.output
    assert "seed 1" in result.stdout and "go out" in result.stdout and "deals" in result.stderr
    row = go_out_odds([6], trials=300, seed=1).rows[0]
    assert f"{row.go_out:.2%}" in result.stdout
    # The finished bar is erased: what the terminal shows last of stderr is a blank line, not the bar.
    assert result.stderr.split("\r")[-1].strip() == "", repr(result.stderr[-200:])


def test_json_names_a_custom_word_list_as_the_table_does(tmp_path) -> None:
    words = tmp_path / "house-words.txt"
    words.write_text("cat\ndog\nat\n")
    args = ["odds", "--cards", "3", "--trials", "200", "--seed", "2", "--wordlist", str(words)]
    text = CliRunner().invoke(main, args)
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert text.exit_code == 0, text.output
    assert f"word list {data['wordlist']}" in text.stdout and "house-words" in data["wordlist"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cards", "10-3"], "--cards: hand sizes must be from 1 to 19"),
        (["--cards", "0-5"], "--cards: hand sizes must be from 1 to 19"),
        (["--cards", "three"], "--cards: hand sizes must be N or LOW-HIGH"),
        (["--trials", "0"], "0 is not in the range x>=1"),
        (["--workers", "0"], "0 is not in the range x>=1"),
        (["--threads", "0"], "'--threads': 0 is not in the range x>=1"),
        (["--turn", "last"], "'last' is not one of 'first', 'blind'"),
        (["--wordlist", "/nonexistent/words.txt"], "word list not found"),
    ],
)
def test_bad_options_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["odds", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("option", ["--threads", "--workers"])
def test_threads_and_their_old_name_give_the_same_table(option: str) -> None:
    args = ["odds", "--cards", "4", "--trials", "300", "--seed", "3", "--json", option, "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == go_out_odds([4], trials=300, seed=3).to_dict()


def test_the_old_name_of_threads_is_hidden_and_cannot_disagree() -> None:
    shown = CliRunner().invoke(main, ["odds", "--help"]).stdout
    assert "--threads N" in shown and "--workers" not in shown
    result = CliRunner().invoke(main, ["odds", "--threads", "1", "--workers", "2"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "Error: give --threads or --workers (its old name), not both\n"
