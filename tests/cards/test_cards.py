"""Cards, the official deck, and parsing hands from text."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quiddler import (
    DECK_SIZE,
    FACES,
    Card,
    Deck,
    InvalidCardError,
    QuiddlerError,
    format_hand,
    full_deck,
    parse_hand,
)

from .. import strategies as qst

# The deck table of RULES.md, written out again: face -> (copies, points).
RULES_TABLE = {
    "a": (10, 2), "b": (2, 8), "c": (2, 8), "d": (4, 5), "e": (12, 2), "f": (2, 6), "g": (4, 6),
    "h": (2, 7), "i": (8, 2), "j": (2, 13), "k": (2, 8), "l": (4, 3), "m": (2, 5), "n": (6, 5),
    "o": (8, 2), "p": (2, 6), "q": (2, 15), "r": (6, 5), "s": (4, 3), "t": (6, 3), "u": (6, 4),
    "v": (2, 11), "w": (2, 10), "x": (2, 12), "y": (4, 4), "z": (2, 14), "er": (2, 7), "in": (2, 7),
    "qu": (2, 9), "th": (2, 9), "cl": (2, 10),
}  # fmt: skip


def test_deck_matches_the_rules():
    deck = full_deck()
    assert len(deck) == DECK_SIZE == 118
    assert sum(card.points for card in deck) == 592
    assert FACES == tuple(RULES_TABLE)
    assert Counter(card.face for card in deck) == {face: copies for face, (copies, _) in RULES_TABLE.items()}
    for face, (copies, points) in RULES_TABLE.items():
        card = Card(face)
        assert (card.copies, card.points, card.letters) == (copies, points, len(face))
        assert card.index == FACES.index(face)


def test_cards_are_interned_values():
    assert Card("qu") is Card("qu") is Card.parse(" QU ")
    assert copy.copy(Card("th")) is Card("th") and copy.deepcopy(Card("th")) is Card("th")
    assert pickle.loads(pickle.dumps(Card("cl"))) is Card("cl")
    assert str(Card("er")) == "er" and eval(repr(Card("er"))) is Card("er")
    assert sorted(Card(face) for face in reversed(FACES)) == [Card(face) for face in FACES]
    assert Card("z") < Card("er") < Card("cl")


@pytest.mark.parametrize("bad", ["zz", "", " qu", "QU", "A", "ab"])
def test_card_constructor_takes_exact_faces(bad):
    with pytest.raises(InvalidCardError):
        Card(bad)


@pytest.mark.parametrize(
    "text",
    ["qu,i,th,er", "qu i th er", "Qu, i th,er", "  QU ,I\tTH ,  eR  ", "qu,\ni,th\n,er\n", "QU I TH ER"],
)
def test_parse_hand_separators_and_case(text):
    assert parse_hand(text) == (Card("qu"), Card("i"), Card("th"), Card("er"))


def test_two_letter_card_or_two_cards():
    assert parse_hand("in") == (Card("in"),)
    assert parse_hand("i,n") == parse_hand("i n") == (Card("i"), Card("n"))


def test_parse_hand_from_strings_or_cards():
    assert parse_hand(["Qu", " i ", Card("th")]) == (Card("qu"), Card("i"), Card("th"))
    assert parse_hand(iter(["a"])) == (Card("a"),)


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("zz", "'zz'"),
        ("a,zz,b", "'zz'"),
        ("a b quu", "'quu'"),
        ("qu,,i", "'qu,,i'"),
        (",a", "',a'"),
        ("a,", "'a,'"),
        ("a , , b", "'a , , b'"),
    ],
)
def test_bad_hand_is_an_error_quoting_the_token(text, quoted):
    with pytest.raises(InvalidCardError) as info:
        parse_hand(text)
    assert isinstance(info.value, QuiddlerError) and isinstance(info.value, ValueError)
    assert quoted in str(info.value)
    assert str(info.value) == str(info.value).lower()


@pytest.mark.parametrize("empty", ["", "   ", "\n\t", [], ()])
def test_empty_hand_is_an_error(empty):
    with pytest.raises(InvalidCardError, match="empty"):
        parse_hand(empty)


@pytest.mark.parametrize("bad", [["a", "zz"], ["a", ""], ["a", "  "]])
def test_bad_card_in_a_list(bad):
    with pytest.raises(InvalidCardError):
        parse_hand(bad)


@given(hand=qst.hands(1, 20))
def test_format_then_parse_is_identity(hand):
    text = format_hand(hand)
    assert parse_hand(text) == hand
    assert format_hand(parse_hand(text)) == text


@given(hand=qst.hands(1, 20), data=st.data())
def test_any_separators_and_case(hand, data):
    separators = st.sampled_from([",", " ", ", ", " , ", "\t", "  ,", ",\n"])
    pieces = []
    for i, card in enumerate(hand):
        face = data.draw(st.sampled_from([card.face, card.face.upper(), card.face.capitalize()]))
        pieces.append(face if i == 0 else data.draw(separators) + face)
    text = (
        data.draw(st.sampled_from(["", " ", "\n"]))
        + "".join(pieces)
        + data.draw(st.sampled_from(["", " ", "\n"]))
    )
    assert parse_hand(text) == hand


def test_deck_deals_every_card_once():
    deck = Deck(random.Random(7))
    dealt = deck.deal(10) + deck.deal(0) + deck.deal(108)
    assert len(deck) == 0
    assert Counter(dealt) == Counter(full_deck())
    with pytest.raises(ValueError):
        deck.deal(1)


def test_seeded_decks_deal_alike():
    assert Deck(random.Random(3)).deal(20) == Deck(random.Random(3)).deal(20)
    assert Deck(random.Random(3)).deal(20) != Deck(random.Random(4)).deal(20)
