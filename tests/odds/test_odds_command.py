"""``quiddler odds``: the JSON contract, the table and its progress line,
and bad options as one error line."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from quiddler import cli
from quiddler.odds import go_out_odds


def test_json_is_the_contract() -> None:
    args = ["odds", "--cards", "3-4", "--trials", "500", "--seed", "7", "--json"]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["trials", "seed", "turn", "rows"]
    assert (data["trials"], data["seed"], data["turn"]) == (500, 7, "first")
    assert [row["cards"] for row in data["rows"]] == [3, 4]
    for row in data["rows"]:
        assert list(row) == ["cards", "go_out", "se", "best_score"]
        assert list(row["best_score"]) == ["mean", "quartiles"] and len(row["best_score"]["quartiles"]) == 3
        assert row["se"] == pytest.approx(math.sqrt(row["go_out"] * (1 - row["go_out"]) / 500), abs=1e-6)
    assert data == go_out_odds([3, 4], trials=500, seed=7).to_dict()


def test_a_table_for_people_and_progress_on_stderr() -> None:
    result = CliRunner().invoke(cli.main, ["odds", "--cards", "6", "--trials", "300", "--seed", "1", "--progress"])
    assert result.exit_code == 0, result.output
    assert "seed 1" in result.stdout and "go out" in result.stdout and "deals" in result.stderr
    row = go_out_odds([6], trials=300, seed=1).rows[0]
    assert f"{row.go_out:.2%}" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--cards", "10-3"], "--cards: hand sizes must be from 1 to 19"),
        (["--cards", "0-5"], "--cards: hand sizes must be from 1 to 19"),
        (["--cards", "three"], "--cards: hand sizes must be N or LOW-HIGH"),
        (["--trials", "0"], "0 is not in the range x>=1"),
        (["--workers", "0"], "0 is not in the range x>=1"),
        (["--turn", "last"], "'last' is not one of 'first', 'blind'"),
        (["--wordlist", "/nonexistent/words.txt"], "word list not found"),
    ],
)
def test_bad_options_are_one_error_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli.main, ["odds", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
