"""``quiddler simulate`` as the shared options shape it: the word list and
the rule options reach the games, and bad values are one ``Error:`` line.
(The statistics themselves are the game's tests.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quiddler import load_wordlist
from quiddler.game.record import replay

from .helpers import assert_input_error, run

WORDS = "cat\nact\nat\nta\ndog\ngod\nto\nad\n"


def test_the_word_list_and_the_rules_reach_every_game(tmp_path: Path) -> None:
    words, log = tmp_path / "words.txt", tmp_path / "games.jsonl"
    words.write_text(WORDS)
    args = ["simulate", "-n", "2", "--seed", "1", "--wordlist", str(words), "--log", str(log), "--json",
            "--round-sizes", "3,4", "--no-bonuses", "--turn-limit", "7"]  # fmt: skip
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 2
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 2
    for record in records:
        rules = record["rules"]
        assert rules["wordlist"] == str(words) and rules["round_sizes"] == [3, 4] and rules["turn_limit"] == 7
        assert rules["longest_word_bonus"] == rules["most_words_bonus"] == 0
        assert replay(record, wordlist=load_wordlist(words)).totals == tuple(record["final_scores"])


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--rounds", "2", "--round-sizes", "3,4"], ["--rounds or --round-sizes, not both"]),
        (["--round-sizes", "3,x"], ["'--round-sizes'", "3,5,7"]),
        (["--rounds", "9"], ["'--rounds'", "9 is not in the range 1<=x<=8"]),
        (["--wordlist", "/no/such/list.txt"], ["'--wordlist'", "not found"]),
        (["--players", "greedy,wizard"], ["unknown strategy: 'wizard'"]),
        (["--games", "0"], ["'--games' / '-n'", "0 is not in the range x>=1"]),
    ],
)
def test_bad_options_are_one_error_line(args: list[str], fragments: list[str]) -> None:
    assert_input_error(run("simulate", "-n", "1", *args), *fragments)
