"""What the commands say reads as English: one of a thing is singular, the
and a command given no hand (or no
word) says what is missing with an example, as ``solve`` does."""

from __future__ import annotations

import json

import pytest

from quiddler import find_words

from .helpers import assert_input_error, run


def test_one_word_and_one_spelling_are_singular() -> None:
    assert len(find_words("x,i")) == 1  # xi alone
    result = run("words", "x,i")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "1 word, 1 spelling, from x,i"


def test_one_game_is_singular() -> None:
    result = run("simulate", "--games", "1", "--workers", "1", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("1 game, seed 1, ")


def test_one_deal_is_singular() -> None:
    result = run("odds", "--cards", "3", "--trials", "1", "--seed", "1", "--threads", "1")
    assert result.exit_code == 0, result.stderr
    assert "1 deal per hand size" in result.stdout


def test_levels_for_one_opponent_is_singular() -> None:
    result = run("play", "--opponents", "1", "--level", "easy,hard")
    assert_input_error(result, "2 levels for 1 opponent")
    assert "opponents" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["words"], "Error: missing CARDS (for example: quiddler words qu,e,e,n)"),
    (["words", "--json"], "Error: missing CARDS (for example: quiddler words qu,e,e,n)"),
    (["hint"], "Error: missing HAND (for example: quiddler hint qu,i,e,t,er)"),
    (["check"], "Error: missing WORD (for example: quiddler check queen)"),
    (["solve"], "Error: missing CARDS (for example: quiddler solve qu,i,th,er)"),
])  # fmt: skip
def test_a_command_given_no_hand_says_what_is_missing_with_an_example(args: list[str], message: str) -> None:
    result = run(*args)
    assert_input_error(result)
    assert result.stderr.strip() == message


def test_a_hand_given_still_works_after_the_missing_check() -> None:
    result = run("words", "x,i", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["cards"] == ["x", "i"]
