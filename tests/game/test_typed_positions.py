"""``position_view``: a position typed in must be one that can exist (the
cards it puts on the table come out of one 118-card deck, no face more
often than the deck holds it), errors name the parameters (never a
command-line flag), and the turn count follows the first-turn rule: before
drawing, the turn about to start is not counted yet."""

from __future__ import annotations

import pytest

from quiddler import Card, parse_hand
from quiddler.errors import ArgumentTypeError, InvalidArgumentError
from quiddler.game import Phase, Rules, word_of
from quiddler.game.hints import hint, position_view

FIRST_TURN_RULE = Rules(no_going_out_first_turn=True)


def test_fifteen_cards_each_at_a_table_of_eight_do_not_fit_the_deck() -> None:
    hand = parse_hand("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o")
    with pytest.raises(InvalidArgumentError, match=r"needs 121 cards \(a hand of 15, 7 other hands of 15, "
                                                   r"1 face up\), but the deck holds only 118"):  # fmt: skip
        position_view(hand, discard_top=Card("e"), opponents=7)


def test_the_largest_table_that_fits_is_accepted() -> None:
    hand = parse_hand("a,b,c,d,e,f,g,h,i,j,k,l,m,n")  # 8 x 14 + 1 = 113 cards
    view = position_view(hand, discard_top=Card("e"), opponents=7)
    assert view.draw_pile_size == 118 - 113 and view.hand_sizes == (14,) * 8


def test_seen_cards_count_towards_the_deck() -> None:
    hand = parse_hand("a,b,c,d,e,f,g,h,i,j")  # after drawing: 9 dealt; 8 x 9 + 1 = 73 in hands
    seen = parse_hand(",".join("a" * 9 + "e" * 11)) + parse_hand("i,i,i,i,i,i,i,o,o,o,o,o,o,o,o,u,u,u,u,u,u,n,n,n,n,n")
    with pytest.raises(InvalidArgumentError, match=r"needs 119 cards \(a hand of 10, 7 other hands of 9, 46 face up\)"):
        position_view(hand, seen=seen, opponents=7)
    position_view(hand, seen=seen[:-1], opponents=7)  # one card fewer: 118, it fits


def test_a_face_used_up_by_the_seen_cards_is_refused_naming_the_count() -> None:
    with pytest.raises(InvalidArgumentError, match="3 z cards given, but the deck holds 2"):
        position_view(parse_hand("z,a,t,e"), seen=parse_hand("z,z"))
    with pytest.raises(InvalidArgumentError, match="13 e cards given, but the deck holds 12"):
        position_view(parse_hand("e,a,t"), discard_top=Card("e"), seen=parse_hand(",".join("e" * 11)))


def test_words_gone_out_with_count_towards_the_deck_and_their_faces() -> None:
    hand = parse_hand("z,a,t,e,s")
    with pytest.raises(InvalidArgumentError, match="3 z cards given, but the deck holds 2"):
        position_view(hand, went_out=(word_of(["z", "a", "x"]), ), seen=parse_hand("z"))  # fmt: skip


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"opponents": 0}, "opponents must be 1 to 7, not 0"),
    ({"opponents": 8}, "opponents must be 1 to 7, not 8"),
    ({"turn": 0}, "turn must be 1 to 50"),
    ({"turn": 51}, "turn must be 1 to 50"),
    ({"round_number": 9}, "round_number must be 1 to 8, not 9"),
])  # fmt: skip
def test_errors_name_the_parameters_not_command_line_flags(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message) as caught:
        position_view(parse_hand("q,i,t,e"), **kwargs)  # type: ignore[arg-type]
    assert "--" not in str(caught.value)


@pytest.mark.parametrize("name", ["opponents", "turn", "round_number"])
def test_counts_that_are_not_integers_are_type_errors(name: str) -> None:
    with pytest.raises(ArgumentTypeError, match=f"{name} must be an integer, not True"):
        position_view(parse_hand("q,i,t,e"), **{name: True})  # type: ignore[arg-type]


def test_before_drawing_on_the_first_turn_no_turn_has_been_taken_yet() -> None:
    view = position_view(parse_hand("c,a,t"), discard_top=Card("s"), turn=1, rules=FIRST_TURN_RULE)
    assert view.phase is Phase.DRAW and view.turns_taken == 0
    assert not view.may_go_out  # the turn about to start is the first
    later = position_view(parse_hand("c,a,t"), discard_top=Card("s"), turn=2, rules=FIRST_TURN_RULE)
    assert later.turns_taken == 1 and later.may_go_out


def test_after_drawing_the_turn_in_hand_is_counted() -> None:
    view = position_view(parse_hand("c,a,t,s"), turn=1, rules=FIRST_TURN_RULE)
    assert view.phase is Phase.DISCARD and view.turns_taken == 1 and not view.may_go_out
    assert position_view(parse_hand("c,a,t,s"), turn=2, rules=FIRST_TURN_RULE).may_go_out


def test_the_first_turn_rule_keeps_the_hint_from_going_out() -> None:
    hand = parse_hand("c,a,t,s")  # cats: out at once, were it allowed
    first = hint(position_view(hand, turn=1, rules=FIRST_TURN_RULE))
    assert all(option.action == "discard" for option in first.options)
    second = hint(position_view(hand, turn=2, rules=FIRST_TURN_RULE))
    assert any(option.action == "go-out" for option in second.options)
    without_rule = hint(position_view(hand, turn=1))
    assert any(option.action == "go-out" for option in without_rule.options)
