"""Round scoring with hand-made rounds: card points, both bonuses, ties,
eligibility, the floor at zero, and the rules switches."""

from __future__ import annotations

import pytest

from quiddler import Card, parse_hand
from quiddler.errors import QuiddlerError
from quiddler.game import RoundScore, Rules, add_to_totals, score_round, word_of
from quiddler.game.errors import RulesError, RulesTypeError
from quiddler.game.rules import bonus_winner


def w(text: str):
    """A word from comma-separated faces: w("qu,e,e,n")."""
    return word_of(parse_hand(text))


def cards(text: str) -> tuple[Card, ...]:
    return parse_hand(text) if text else ()


def test_points_minus_unused_and_both_bonuses_to_one_player() -> None:
    # seat 0: "queen" (qu9 e2 e2 n5 = 18) + "at" (a2 t3 = 5) = 23, nothing left: both bonuses.
    # seat 1: "cat" (c8 a2 t3 = 13), holds z (14) -> -1.
    scores = score_round([[w("qu,e,e,n"), w("a,t")], [w("c,a,t")]], [(), cards("z")], went_out=0)
    assert scores[0].word_points == 23 and scores[0].longest_bonus == 10 and scores[0].most_words_bonus == 10
    assert scores[0].score == 43 and scores[0].went_out
    assert scores[1].score == 13 - 14 and scores[1].bonus == 0 and not scores[1].went_out


def test_longest_word_counts_letters_not_cards() -> None:
    # "thin" is 2 cards (th, in) but 4 letters; "cat" is 3 cards, 3 letters.
    scores = score_round([[w("th,in")], [w("c,a,t")]], [(), ()], went_out=0)
    assert scores[0].longest_bonus == 10 and scores[1].longest_bonus == 0
    assert scores[0].most_words_bonus == 0 and scores[1].most_words_bonus == 0  # 1 word each: tie


def test_ties_give_nobody_the_bonus() -> None:
    scores = score_round(
        [[w("c,a,t"), w("a,t")], [w("d,o,g"), w("o,x")], [w("a,x")]], [(), (), ()], went_out=1
    )
    assert all(s.bonus == 0 for s in scores)


def test_split_bonuses_between_players() -> None:
    scores = score_round([[w("a,t"), w("o,x"), w("i,t")], [w("q,u,e,e,n")]], [(), cards("a")], went_out=0)
    assert (scores[0].most_words_bonus, scores[0].longest_bonus) == (10, 0)
    assert (scores[1].most_words_bonus, scores[1].longest_bonus) == (0, 10)
    assert scores[1].score == 28 + 10 - 2  # q15 u4 e2 e2 n5, bonus, minus a2


def test_no_words_no_bonus_and_eligibility() -> None:
    # Nobody laid a word: nobody gets a bonus (0 vs 0 is a tie anyway).
    scores = score_round([[], []], [cards("a"), cards("b")], went_out=None)
    assert [s.score for s in scores] == [-2, -8]
    assert bonus_winner([3, 0], [True, False]) == 0
    assert bonus_winner([3, 5], [True, False]) == 0
    assert bonus_winner([0, 0], [False, False]) is None


def test_bonus_requires_going_out_variant() -> None:
    laid = [[w("a,t")], [w("q,u,e,e,n"), w("o,x")]]
    unused = [(), cards("e")]
    official = score_round(laid, unused, went_out=0)
    assert official[1].bonus == 20 and official[0].bonus == 0
    house = score_round(laid, unused, went_out=0, rules=Rules(bonus_requires_going_out=True))
    assert house[0].bonus == 20 and house[1].bonus == 0


def test_bonus_values_and_bonuses_off() -> None:
    laid, unused = [[w("q,u,e,e,n"), w("a,t")], [w("o,x")]], [(), ()]
    assert score_round(laid, unused, 0, Rules(longest_word_bonus=5, most_words_bonus=3))[0].bonus == 8
    assert score_round(laid, unused, 0, Rules(longest_word_bonus=0, most_words_bonus=0))[0].bonus == 0


def test_one_bonus_only_with_two_players() -> None:
    laid, unused = [[w("q,u,e,e,n"), w("a,t")], [w("o,x")]], [(), ()]
    assert score_round(laid, unused, 0, Rules(two_player_bonuses="longest"))[0].bonus == 10
    assert score_round(laid, unused, 0, Rules(two_player_bonuses="most"))[0].most_words_bonus == 10
    three = score_round(laid + [[]], unused + [()], 0, Rules(two_player_bonuses="longest"))
    assert three[0].bonus == 20  # the switch only applies to two-player games


def test_floor_at_zero_after_each_round_bonuses_included() -> None:
    minus = RoundScore((), cards("q,z"))  # -29
    plus = RoundScore((w("a,t"),), (), longest_bonus=10)  # 15
    assert add_to_totals([10, 0], [minus, plus]) == (0, 15)
    assert add_to_totals([10, 0], [minus, plus], Rules(floor_at_zero=False)) == (-19, 15)
    # floored each round: -29 then +15 is 15, not -14
    totals = add_to_totals([0, 0], [minus, minus])
    assert add_to_totals(totals, [plus, plus]) == (15, 15)


def test_rules_validation_and_dict_round_trip() -> None:
    with pytest.raises(ValueError, match="at least 2 cards"):
        Rules(round_sizes=(1, 3))
    with pytest.raises(ValueError, match="to 8 players"):
        Rules().check_players(9)
    with pytest.raises(ValueError, match="8 hands of 15 cards do not fit"):
        Rules(round_sizes=(3, 15, 4)).check_players(8)  # the largest round counts
    Rules(round_sizes=(3, 14, 4)).check_players(8)  # 8 x 14 + 1 = 113 cards fit
    with pytest.raises(ValueError, match="a round of 21 cards is too large.*at most 20"):
        Rules(round_sizes=(3, 21))
    # A round of 20 deals 20 cards, and the first draw makes a hand of 21: one more than the solver takes.
    with pytest.raises(RulesError, match="round_sizes: a round of 20 cards is too large"):
        Rules(round_sizes=(3, 20))
    assert Rules(round_sizes=(19,)).round_sizes == (19,)


@pytest.mark.parametrize(
    ("settings", "builtin", "named"),
    [
        ({"round_sizes": (20,)}, ValueError, "20"),
        ({"round_sizes": (1,)}, ValueError, "not 1"),
        ({"round_sizes": ()}, ValueError, "round_sizes"),
        ({"round_sizes": (3.0,)}, TypeError, "3.0"),
        ({"round_sizes": "345"}, TypeError, "'345'"),
        ({"longest_word_bonus": -1}, ValueError, "-1"),
        ({"turn_limit": 0}, ValueError, "not 0"),
        ({"floor_at_zero": 1}, TypeError, "not 1"),
        ({"two_player_bonuses": "all"}, ValueError, "'all'"),
        ({"first_turn_rule_rounds": -2}, ValueError, "-2"),
    ],
)
def test_every_bad_setting_is_a_quiddler_error_naming_the_value(settings, builtin, named) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError) as raised:
        Rules(**settings)
    assert isinstance(raised.value, QuiddlerError) and isinstance(raised.value, builtin)
    assert named in str(raised.value)


def test_tables_that_do_not_fit_are_quiddler_errors() -> None:
    for players, sizes in ((9, (3,)), (1, (3,)), (8, (15,)), (7, (17,))):  # 7 x 17 + 1 = 120 cards
        with pytest.raises(RulesError):
            Rules(round_sizes=sizes).check_players(players)
    Rules(round_sizes=(19,)).check_players(6)  # 6 x 19 + 1 = 115 cards fit
    with pytest.raises(RulesTypeError):
        Rules().check_players(True)  # type: ignore[arg-type]
    rules = Rules(
        round_sizes=(3, 4, 3), no_going_out_first_turn=True, first_turn_rule_rounds=2, floor_at_zero=False
    )
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.first_turn_out_forbidden(1) and not rules.first_turn_out_forbidden(2)
    assert not Rules().first_turn_out_forbidden(0)


def test_a_round_negative_before_its_bonus_gets_the_bonus_before_the_floor() -> None:
    # 5 points in words, 12 left in hand, +10 bonus: the round is -7 + 10 = 3.
    # Flooring before the bonus would give 0 + 10 = 10 (from 0) or 5 - 7 -> 0 + 10 = 10 (from 5).
    round_score = RoundScore((w("a,t"),), cards("b,a,a"), longest_bonus=10)
    assert round_score.score == 3
    assert add_to_totals([0, 0], [round_score, RoundScore((), ())]) == (3, 0)
    assert add_to_totals([5, 0], [round_score, RoundScore((), ())]) == (8, 0)
    # Negative even with the bonus: floored after it, at zero.
    worse = RoundScore((w("a,t"),), cards("z,q"), most_words_bonus=10)  # 5 - 29 + 10 = -14
    assert add_to_totals([4, 20], [worse, worse]) == (0, 6)
    assert add_to_totals([4, 20], [worse, worse], Rules(floor_at_zero=False)) == (-10, 6)


def test_one_bonus_variant_with_the_two_bonuses_won_by_different_players() -> None:
    # Seat 0 has the longest word, seat 1 the most words.
    laid, unused = [[w("q,u,e,e,n")], [w("a,t"), w("o,x")]], [(), ()]
    both = score_round(laid, unused, 0)
    assert (both[0].longest_bonus, both[0].most_words_bonus, both[1].longest_bonus, both[1].most_words_bonus) == (
        10, 0, 0, 10)  # fmt: skip
    longest = score_round(laid, unused, 0, Rules(two_player_bonuses="longest"))
    assert [s.bonus for s in longest] == [10, 0]
    most = score_round(laid, unused, 0, Rules(two_player_bonuses="most"))
    assert [s.bonus for s in most] == [0, 10]
    assert Rules(two_player_bonuses="most", most_words_bonus=15).bonuses(2) == (0, 15)
    assert Rules(two_player_bonuses="longest", longest_word_bonus=7).bonuses(2) == (7, 0)
    assert Rules(two_player_bonuses="most").bonuses(3) == (10, 10)


def test_the_turn_limit_is_a_rule_field_with_a_default_of_fifty() -> None:
    assert Rules().turn_limit == 50
    assert Rules(turn_limit=3).to_dict()["turn_limit"] == 3
    assert Rules.from_dict({"turn_limit": 7}).turn_limit == 7
    old = Rules().to_dict()
    del old["turn_limit"]  # a record written before the field existed
    assert Rules.from_dict(old).turn_limit == 50
    with pytest.raises(ValueError, match="turn_limit must be at least 1, not 0"):
        Rules(turn_limit=0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"turn_limit": 2.5}, "turn_limit must be an integer"),
        ({"turn_limit": True}, "turn_limit must be an integer"),
        ({"longest_word_bonus": "10"}, "longest_word_bonus must be an integer"),
        ({"round_sizes": (3, 4.0)}, "round_sizes must be an integer"),
        ({"round_sizes": "345"}, "round_sizes must be a sequence"),
        ({"first_turn_rule_rounds": 1.5}, "first_turn_rule_rounds must be an integer"),
        ({"floor_at_zero": 1}, "floor_at_zero must be True or False"),
        ({"reshuffle_discards": "no"}, "reshuffle_discards must be True or False"),
        ({"wordlist": ["cat"]}, "wordlist must be a WordList"),
    ],
)
def test_rules_refuse_values_of_the_wrong_type(kwargs: dict, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Rules(**kwargs)


def test_rules_from_a_record_refuse_values_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match="rules must be an object"):
        Rules.from_dict(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="round_sizes must be a list"):
        Rules.from_dict({"round_sizes": "3,4"})
    with pytest.raises(TypeError, match="floor_at_zero"):
        Rules.from_dict({"floor_at_zero": "false"})


def test_the_default_rules_are_the_official_game_and_the_projects_decisions() -> None:
    rules = Rules()
    assert rules.round_sizes == (3, 4, 5, 6, 7, 8, 9, 10) and rules.rounds == 8
    assert (rules.longest_word_bonus, rules.most_words_bonus, rules.two_player_bonuses) == (10, 10, "both")
    assert rules.bonuses(2) == rules.bonuses(8) == (10, 10)
    assert rules.bonus_requires_going_out is False and rules.floor_at_zero is True
    assert rules.no_going_out_first_turn is False and rules.first_turn_rule_rounds is None
    assert rules.fresh_deck_each_round is True and rules.reshuffle_discards is True
    assert rules.turn_limit == 50 and rules.wordlist is None and rules.words.name == "ENABLE"


def test_rule_values_are_frozen() -> None:
    import dataclasses

    for value, field in ((Rules(), "turn_limit"), (RoundScore((), ()), "longest_bonus")):
        assert dataclasses.is_dataclass(value) and not hasattr(value, "__dict__")  # slots: no stray attributes
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, 3)


def test_integer_fields_are_stored_as_plain_ints() -> None:
    """numpy integers are accepted (they are integers) but stored as int, so
    the rules stay JSON-serialisable in a record."""
    import json

    import numpy as np

    rules = Rules(round_sizes=np.array([3, 4]), turn_limit=np.int64(5), longest_word_bonus=np.int32(7),
                  most_words_bonus=np.int16(3), first_turn_rule_rounds=np.int8(1))  # fmt: skip
    for name in ("turn_limit", "longest_word_bonus", "most_words_bonus", "first_turn_rule_rounds"):
        assert type(getattr(rules, name)) is int
    assert all(type(n) is int for n in rules.round_sizes) and rules.round_sizes == (3, 4)
    assert json.loads(json.dumps(rules.to_dict()))["turn_limit"] == 5


def test_a_round_score_made_by_hand_defaults_to_no_bonus_and_not_out() -> None:
    plain = RoundScore((w("a,t"), w("q,u,e,e,n")), cards("z"))
    assert (plain.longest_bonus, plain.most_words_bonus, plain.went_out) == (0, 0, False)
    assert plain.longest_word == 5 and plain.word_points == 33 and plain.unused_points == 14  # q,u,e,e,n = 28
    assert plain.score == 19 and plain.bonus == 0
    assert RoundScore((), ()).longest_word == 0 and RoundScore((), ()).score == 0


def test_totals_and_round_scores_must_match_seat_for_seat() -> None:
    with pytest.raises(ValueError):
        add_to_totals([0, 0, 0], [RoundScore((), ()), RoundScore((), ())])
    with pytest.raises(ValueError, match="one entry per player"):
        score_round([[], []], [()], went_out=None)


@pytest.mark.parametrize("name", ["longest_word_bonus", "most_words_bonus"])
def test_a_bonus_past_the_solvers_bound_is_refused_by_the_rules_themselves(name: str) -> None:
    from quiddler import MAX_BONUS

    assert getattr(Rules(**{name: MAX_BONUS}), name) == MAX_BONUS
    with pytest.raises(RulesError, match=f"{name} must be at most 1,000,000 .* not 2000000"):
        Rules(**{name: 2 * MAX_BONUS})


def test_a_bonus_goes_to_the_one_eligible_seat_with_the_highest_value() -> None:
    """The bonus winner, found in one pass over the seats, is the seat the
    definition names: among the eligible seats, the one whose value is
    strictly the highest, none on a tie for it (a tie below a later, higher
    value does not stop that one winning) or when nobody is eligible."""
    import random

    rng = random.Random(3)
    for _ in range(5000):
        seats = rng.randint(0, 8)
        values = [rng.randint(0, 4) for _ in range(seats)]
        eligible = [rng.random() < 0.7 for _ in range(seats)]
        best = max((v for v, ok in zip(values, eligible) if ok), default=None)
        winners = [seat for seat, (v, ok) in enumerate(zip(values, eligible)) if ok and v == best]
        assert bonus_winner(values, eligible) == (winners[0] if len(winners) == 1 else None)
    assert bonus_winner([4, 4, 6], [True, True, True]) == 2
    assert bonus_winner([4, 6, 6, 7], [True, True, True, False]) is None
