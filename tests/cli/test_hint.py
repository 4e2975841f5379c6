"""``quiddler hint``: the expert's advice for a typed-in position, as text
and JSON, and a typed-in position that is wrong as one ``Error:`` line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from quiddler.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_before_drawing_the_hint_says_which_pile() -> None:
    code, out, _ = run("hint", "j,a,z,x", "--discard-top", "z")
    assert code == 0
    assert out.startswith("hint: take the discard top (z)") and "draw from the pile" in out


def test_json_lists_every_discard_with_its_value() -> None:
    code, out, _ = run("hint", "n,a,u,i,o,u", "--json", "--seen", "e,e")
    assert code == 0
    data = json.loads(out)
    assert data["recommended"] == {"action": "discard", "card": "u", "words": None,
                                   "value": data["options"][0]["value"]}  # fmt: skip
    assert isinstance(data["reason"], str) and data["reason"].startswith("Discard the u")
    assert sorted(o["card"] for o in data["options"]) == ["a", "i", "n", "o", "u"]


def test_going_out_names_the_words_in_json() -> None:
    code, out, _ = run("hint", "qu", "i", "e", "t", "er", "--json", "--opponents", "2", "--turn", "3")
    assert code == 0
    rec = json.loads(out)["recommended"]
    assert rec["action"] == "go-out" and rec["words"] and all(
        set(w) == {"word", "cards", "points"} for w in rec["words"]
    )


def test_after_an_opponent_went_out_the_hint_lays_down() -> None:
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
        (["a,b,c,d", "--opponents", "9"], "'--opponents': 9 is not in the range 1<=x<=7"),
        (["a,b,c,d", "--round", "9"], "'--round': 9 is not in the range 1<=x<=8"),
        (["a,b,c,d", "--turn", "0"], "'--turn': 0 is not in the range x>=1"),
        (["c,a,t,e,r", "--went-out", "xyzzy"], "not a playable word"),
        (["c,a,t,e", "--seen", "a,,b"], "--seen"),
    ],
)
def test_an_impossible_position_is_one_error_line(args: list[str], message: str) -> None:
    code, out, err = run("hint", *args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and message in err and len(err.strip().splitlines()) == 1


def test_the_group_lists_hint_and_its_help_has_examples() -> None:
    code, out, _ = run("--help")
    assert code == 0 and "hint" in out
    code, out, _ = run("hint", "--help")
    assert code == 0 and "--discard-top" in out and "Examples" in out


# -- impossible positions and bounded work ------------------------------------


def _one_error_line(code: int, out: str, err: str, *fragments: str) -> None:
    assert code == 2 and out == "", (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_a_table_that_does_not_fit_the_deck_is_refused_naming_the_count() -> None:
    hand = ",".join("abcdefghijklmno")
    _one_error_line(*run("hint", hand, "--opponents", "7", "--discard-top", "e"),
                    "needs 121 cards", "the deck holds only 118")  # fmt: skip


def test_seen_cards_that_use_up_a_face_are_refused() -> None:
    _one_error_line(*run("hint", "z,a,t,e", "--seen", "z,z"), "3 z cards given, but the deck holds 2")
    _one_error_line(*run("hint", "q,a,t,e", "--discard-top", "e", "--seen", ",".join("e" * 12)),
                    "14 e cards given")  # fmt: skip


def test_many_words_gone_out_with_are_refused_by_their_count_at_once() -> None:
    # Every spelling combination of 40 words would never finish; the count settles it first.
    _one_error_line(*run("hint", "c,a,t,e,r,d,o,g,s,a,b", "--went-out", "quiet " * 40),
                    "40 words need at least 80 cards", "going out lays down 10")  # fmt: skip


def test_as_many_words_as_the_cards_allow_are_spelled_the_best_way() -> None:
    # Five two-card words make the ten cards of the round.
    code, out, err = run("hint", "c,a,t,e,r,s,o,n,g,i,l", "--went-out", "at,at,at,ti,re", "--json")
    assert code == 0, err
    assert json.loads(out)["recommended"]["action"] == "lay-down"


def test_went_out_spellings_are_the_highest_scoring_that_fit() -> None:
    import itertools

    from quiddler import default_wordlist
    from quiddler.cli.hint import _parse_words

    words = default_wordlist()
    for text, cards in [("quiet", 5), ("quiet", 4), ("queen,in", 6), ("thin,inert", 8), ("there,in", 7),
                        ("clot,then", 7), ("quit,inn", 6)]:  # fmt: skip
        options = [words.spellings(w) for w in text.split(",")]
        fitting = [c for c in itertools.product(*options) if sum(len(s) for s in c) == cards]
        got = _parse_words(text, words, cards)
        if not fitting:
            continue
        best = max(sum(card.points for s in combo for card in s) for combo in fitting)
        assert sum(card.points for w in got for card in w.cards) == best
        assert sum(len(w.cards) for w in got) == cards
        assert got == tuple(type(got[0])("".join(c.face for c in s), s)
                            for s in max(fitting, key=lambda c: sum(card.points for s in c for card in s)))  # fmt: skip


def test_a_turn_past_the_turn_limit_is_refused() -> None:
    _one_error_line(*run("hint", "q,i,t,e", "--turn", "51"), "turn must be 1 to 50", "not 51")


def test_level_master_explains_by_simulated_finishes() -> None:
    code, out, err = run("hint", "j,a,z,z,x", "--level", "master", "--json")
    assert code == 0 and err == ""
    reason = json.loads(out)["reason"]
    assert "simulated finishes of the round" in reason
    expert = json.loads(run("hint", "j,a,z,z,x", "--json")[1])["reason"]
    assert "simulated" not in expert


def test_an_unknown_level_is_one_error_line() -> None:
    code, out, err = run("hint", "j,a,z,z,x", "--level", "wizard")
    assert code == 2 and out == ""
    assert err.startswith("Error: unknown hint level: 'wizard'") and len(err.strip().splitlines()) == 1
