"""``quiddler play`` as its options set the game up: the shared rule and
word-list options reach the game, ``--resume`` refuses the options the save
fixes, and a bad option is one ``Error:`` line before anything is played.
(The game on screen is the terminal game's tests.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import assert_input_error, run

AUTO = "auto\n" * 500


def test_a_scripted_game_plays_with_the_chosen_words_and_rules(tmp_path: Path) -> None:
    words, save = tmp_path / "words.txt", tmp_path / "game.json"
    words.write_text("cat\nact\nat\nta\ndog\ngod\nto\nad\n")
    result = run("play", "--seed", "1", "--round-sizes", "3,4", "--no-floor", "--wordlist", str(words),
                 "--save", str(save), "--pace", "0", input=AUTO)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rules = json.loads(save.read_text())["rules"]
    assert rules["wordlist"] == str(words) and rules["round_sizes"] == [3, 4] and rules["floor_at_zero"] is False


@pytest.mark.parametrize("option", [["--rounds", "2"], ["--level", "easy"], ["--seed", "3"], ["--no-bonuses"],
                                    ["--opponents", "2"]])  # fmt: skip
def test_resume_refuses_what_the_save_fixes(tmp_path: Path, option: list[str]) -> None:
    result = run("play", "--resume", str(tmp_path / "game.json"), *option)
    assert_input_error(result, "--resume continues the saved game as it was set up", f"drop {option[0]}")


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--level", "wizard"], ["unknown level: 'wizard'", "easy, medium or hard"]),
        (["--opponents", "2", "--level", "easy,hard,medium"], ["3 levels for 2 opponents"]),
        (["--opponents", "8"], ["'--opponents'", "8 is not in the range 1<=x<=7"]),
        (["--wordlist", "/no/such/list.txt"], ["'--wordlist'", "not found"]),
        (["--rounds", "2", "--round-sizes", "3,4"], ["--rounds or --round-sizes, not both"]),
    ],
)
def test_bad_options_are_one_error_line(args: list[str], fragments: list[str]) -> None:
    assert_input_error(run("play", *args, input=AUTO), *fragments)
