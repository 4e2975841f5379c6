"""``quiddler hint``: the expert's advice for a position typed on the command
line, as text and as JSON; bad input is one error line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from quiddler.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_draw_hint_says_which_pile_in_text() -> None:
    code, out, _ = run("hint", "j,a,z,x", "--discard-top", "z")
    assert code == 0
    assert out.startswith("hint: take the discard top (z)") and "draw from the pile" in out


def test_a_discard_hint_in_json_ranks_every_card() -> None:
    code, out, _ = run("hint", "n,a,u,i,o,u", "--json", "--seen", "e,e")
    assert code == 0
    data = json.loads(out)
    assert data["recommended"] == {"action": "discard", "card": "u", "words": None,
                                   "value": data["options"][0]["value"]}  # fmt: skip
    assert isinstance(data["reason"], str) and data["reason"].startswith("Discard the u")
    assert sorted(o["card"] for o in data["options"]) == ["a", "i", "n", "o", "u"]


def test_a_going_out_hint_in_json_names_its_words() -> None:
    code, out, _ = run("hint", "qu", "i", "e", "t", "er", "--json", "--opponents", "2", "--turn", "3")
    assert code == 0
    rec = json.loads(out)["recommended"]
    assert rec["action"] == "go-out" and rec["words"] and all(
        set(w) == {"word", "cards", "points"} for w in rec["words"]
    )


def test_a_final_turn_hint_lays_down_words() -> None:
    code, out, _ = run("hint", "c,a,t,e,r", "--went-out", "quiet")
    assert code == 0 and out.startswith("hint: lay down")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["a,b,zz"], "unknown card: 'zz'"),
        (["c,a,t", "--discard-top", "q,u"], "--discard-top must be one card"),
        (["q,q,q", "--discard-top", "a"], "deck holds 2"),
        (["a", "--discard-top", "b"], "too small"),
        (["a,b,c", "--discard-top", "e", "--round", "5"], "round 5 deals 7 cards"),
        (["a,b,c,d", "--opponents", "9"], "--opponents must be 1 to 7"),
        (["a,b,c,d", "--round", "9"], "--round must be 1 to 8"),
        (["a,b,c,d", "--turn", "0"], "--turn must be at least 1"),
        (["c,a,t,e,r", "--went-out", "xyzzy"], "not a playable word"),
        (["c,a,t,e", "--seen", "a,,b"], "--seen"),
    ],
)
def test_bad_input_is_one_error_line(args: list[str], message: str) -> None:
    code, out, err = run("hint", *args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and message in err and len(err.strip().splitlines()) == 1


def test_hint_is_listed_in_help_with_examples() -> None:
    code, out, _ = run("--help")
    assert code == 0 and "hint" in out
    code, out, _ = run("hint", "--help")
    assert code == 0 and "--discard-top" in out and "Examples" in out
