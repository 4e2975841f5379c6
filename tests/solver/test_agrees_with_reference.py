"""The reference solver (``naive.py``) checked by hand, so that it can serve as the spec."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import pytest

from quiddler import parse_hand

from ..naive import Reference, RefPlay, Targets, enable_reference, spell

KNOWN = [json.loads(line) for line in (Path(__file__).parent.parent / "data" / "known_hands.jsonl").open()]


def test_spell():
    assert spell("cat") == [("c", "a", "t")]
    assert sorted(spell("queen")) == [("q", "u", "e", "e", "n"), ("qu", "e", "e", "n")]
    assert sorted(spell("clerk")) == sorted(
        [("c", "l", "e", "r", "k"), ("cl", "e", "r", "k"), ("c", "l", "er", "k"), ("cl", "er", "k")]
    )
    assert len(spell("inin")) == 4 and len(set(spell("inin"))) == 4
    assert spell("in") == [("i", "n"), ("in",)]


def test_words_for_needs_the_exact_cards_and_two_of_them():
    ref = Reference(["in", "queen", "tea", "eat", "ate"])
    assert ref.words_for(("in",)) == ()  # one card
    assert ref.words_for(("i", "n")) == ("in",)
    assert ref.words_for(("e", "e", "n", "qu")) == ("queen",)
    assert ref.words_for(("e", "e", "n", "q", "u")) == ("queen",)
    assert ref.words_for(("e", "e", "n", "q")) == ()
    assert ref.words_for(("a", "e", "t")) == ("ate", "eat", "tea")


def test_plays_of_four_cards_with_every_two_letter_word():
    # Every pairing of a, b, c, d is a word: the plays are the matchings of
    # K4 (1 empty + 6 single pairs + 3 perfect), and nothing else.
    ref = Reference("".join(p) for p in permutations("abcd", 2))
    plays = ref.plays(parse_hand("a,b,c,d"))
    assert len(plays) == 10
    assert sum(play.goes_out for play in plays) == 3
    assert max(plays, key=RefPlay.key).card_score == 2 + 8 + 8 + 5


def test_plays_of_repeated_cards_are_distinct_multisets():
    ref = Reference(["aa", "aaaa"])
    plays = ref.ranked(parse_hand("a,a,a,a"))
    assert plays == [
        RefPlay(None, (("a", "a", "a", "a"),), ()),
        RefPlay(None, (("a", "a"), ("a", "a")), ()),
        RefPlay(None, (("a", "a"),), ("a", "a")),
        RefPlay(None, (), ("a", "a", "a", "a")),
    ]
    assert [p.key() for p in plays] == [(8, True, 4, 1), (8, True, 2, 2), (0, False, 2, 1), (-8, False, 0, 0)]
    with_bonus = ref.ranked(parse_hand("a,a,a,a"), targets=Targets(beat_words=1))
    assert with_bonus[0] == plays[1] and with_bonus[0].score(Targets(beat_words=1)) == 18


def test_discard_plays():
    ref = Reference(["ab"])
    plays = ref.plays(parse_hand("a,b,b"), discard=True)
    assert plays == {
        RefPlay("a", (), ("b", "b")),
        RefPlay("b", (), ("a", "b")),
        RefPlay("b", (("a", "b"),), ()),
    }
    assert ref.ranked(parse_hand("a,b,b"), discard=True)[0].key() == (10, True, 2, 1)


def test_targets():
    assert Targets().bonus_of(8, 4) == 0
    assert Targets(beat_longest=5).bonus_of(5, 1) == 0
    assert Targets(beat_longest=5).bonus_of(6, 1) == 10
    assert Targets(beat_words=2, bonus=7).bonus_of(0, 3) == 7
    assert Targets(beat_longest=0, beat_words=0, bonus=3).bonus_of(2, 1) == 6


def test_find_words_lists_each_spelling_once():
    ref = Reference(["queen", "in", "inn"])
    found = ref.find_words(parse_hand("q,u,qu,e,e,n,i,in"))
    assert found == {
        ("queen", ("q", "u", "e", "e", "n")),
        ("queen", ("qu", "e", "e", "n")),
        ("in", ("i", "n")),  # not the one card 'in'
        ("inn", ("in", "n")),  # not i,n,n: one n only
    }


@pytest.mark.parametrize("row", [row for row in KNOWN if len(row["hand"]) <= 7],
                         ids=lambda row: f"{row['mode']}:{','.join(row['hand'])}")  # fmt: skip
def test_reference_agrees_with_known_hands(row):
    plays = enable_reference().ranked(parse_hand(row["hand"]), row["mode"] == "discard")
    assert plays[0].score() == row["score"]
    out = [play.score() for play in plays if play.goes_out]
    assert (max(out) if out else None) == row["go_out_score"]
