"""The go-out odds table against the slow reference of tests/naive.py over
the same deals and over deals of its own; deals from the official deck;
rows independent of other rows and of threads; the histogram's quartiles."""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest

from quiddler import Card, full_deck, score_many
from quiddler.odds import deal, go_out_odds, parse_cards_range
from quiddler.solver.core import NO_GO_OUT, score_counts

from ..naive import enable_reference


def _reference_turn(hand: tuple[str, ...], top: str, blind: str, turn: str) -> tuple[bool, int]:
    """(goes out, best score) for one deal, by the reference solver alone."""
    ref = enable_reference()

    def solve(extra: str) -> tuple[bool, int]:
        plays = ref.plays([Card(f) for f in (*hand, extra)], discard=True)
        return any(p.goes_out for p in plays), max(p.score() for p in plays)

    if turn == "first":
        out, best = solve(top)
        if out:
            return out, best
    return solve(blind)


@pytest.mark.parametrize("cards, turn", [(3, "first"), (5, "first"), (4, "blind")])
def test_table_matches_the_reference_over_the_same_deals(cards: int, turn: str) -> None:
    trials = 150
    row = go_out_odds([cards], trials=trials, turn=turn, seed=21).rows[0]
    counted = [_reference_turn(hand, top, blind, turn) for hand, top, blind in deal(21, cards, trials)]
    went_out = sum(out for out, _ in counted)
    # The same deals: the count agrees exactly (and so within 4 standard errors).
    assert row.went_out == went_out
    assert abs(row.go_out - went_out / trials) <= 4 * row.se + 1e-12
    scores = np.array([best for _, best in counted])
    assert row.best_mean == pytest.approx(scores.mean())
    assert row.best_quartiles == pytest.approx(tuple(np.percentile(scores, [25, 50, 75])))


def test_table_agrees_with_independently_dealt_hands() -> None:
    # Deals made here with the standard library, not the table's numpy
    # dealer: the two estimates agree within 4 standard errors.
    trials, rng = 400, random.Random(5)
    deck = [card.face for card in full_deck()]
    hits = 0
    for _ in range(trials):
        cards = rng.sample(deck, 5)
        hits += _reference_turn(tuple(cards[:3]), cards[3], cards[4], "first")[0]
    mine = go_out_odds([3], trials=20_000, seed=6).rows[0]
    p = hits / trials
    assert abs(mine.go_out - p) <= 4 * math.sqrt(p * (1 - p) / trials + mine.se**2)


def test_deals_come_from_the_official_deck() -> None:
    dealt = deal(3, 10, 2000)
    deck = {card.face for card in full_deck()}
    counts = {face: sum(card.face == face for card in full_deck()) for face in deck}
    for hand, top, blind in dealt:
        cards = [*hand, top, blind]
        assert len(cards) == 12 and all(cards.count(f) <= counts[f] for f in cards)
    seen = [f for hand, top, blind in dealt for f in (*hand, top, blind)]
    assert set(seen) == deck  # every face turns up in 24,000 cards
    assert deal(3, 10, 5) == dealt[:5]  # a shorter run deals the same first hands


def test_rows_do_not_depend_on_other_rows_or_threads() -> None:
    alone = go_out_odds([4], trials=3000, seed=2)
    both = go_out_odds([3, 4], trials=3000, seed=2, workers=1)
    assert both.rows[1] == alone.rows[0] and [r.cards for r in both.rows] == [3, 4]
    assert go_out_odds([4], trials=3000, seed=2, turn="blind").rows[0].go_out < alone.rows[0].go_out


def test_score_counts_equals_score_many() -> None:
    rng = random.Random(8)
    deck = list(full_deck())
    hands = [rng.sample(deck, rng.randint(1, 12)) for _ in range(300)]
    order = {face: k for k, face in enumerate(__import__("quiddler.cardtrie").cardtrie.KERNEL_ORDER)}
    counts = np.zeros((len(hands), 32), dtype=np.int64)
    for i, hand in enumerate(hands):
        for card in hand:
            counts[i, order[card.face]] += 1
    best, go_out = score_counts(counts, discard=True)
    expected = score_many(hands, discard=True)
    assert list(zip(best.tolist(), [None if g == NO_GO_OUT else g for g in go_out.tolist()])) == expected
    with pytest.raises(ValueError, match="matrix"):
        score_counts(np.zeros((2, 5)))


def test_cards_range() -> None:
    assert parse_cards_range(" 3-10 ") == range(3, 11) and parse_cards_range("19") == range(19, 20)
    for bad in ("10-3", "0", "3-20", "x", "3-", "-3", "3-4-5"):
        with pytest.raises(ValueError):
            parse_cards_range(bad)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 10, 101])
def test_histogram_quartiles_equal_numpy_percentile(n: int) -> None:
    from quiddler.odds import _SCORE_SHIFT, _mean_and_quartiles

    rng = random.Random(n)
    scores = np.array([rng.randint(-40, 90) for _ in range(n)])
    mean, quartiles = _mean_and_quartiles(np.bincount(scores + _SCORE_SHIFT, minlength=2 * _SCORE_SHIFT))
    assert mean == pytest.approx(scores.mean())
    assert quartiles == pytest.approx(tuple(np.percentile(scores, [25, 50, 75])))


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"trials": 0}, "InvalidArgumentError", "trials must be at least 1, not 0"),
    ({"trials": "5"}, "ArgumentTypeError", "trials must be an integer, not '5'"),
    ({"cards": "3-5"}, "ArgumentTypeError", "cards must be hand sizes"),
    ({"cards": [30]}, "InvalidArgumentError", "from 1 to 19 cards, not 30"),
    ({"cards": [3.0]}, "ArgumentTypeError", "a hand size must be an integer, not 3.0"),
    ({"turn": "last"}, "InvalidArgumentError", "turn must be 'first' or 'blind', not 'last'"),
    ({"workers": 0}, "InvalidArgumentError", "workers must be at least 1, not 0"),
    ({"seed": "1"}, "ArgumentTypeError", "seed must be an integer, not '1'"),
])  # fmt: skip
def test_bad_arguments_are_quiddler_errors_naming_the_argument(kwargs: dict[str, object], error: str,
                                                               message: str) -> None:  # fmt: skip
    import quiddler.errors

    kind = getattr(quiddler.errors, error)
    with pytest.raises(kind, match=re.escape(message)) as caught:
        go_out_odds(**{"cards": [3], "trials": 10, **kwargs})  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError if error == "ArgumentTypeError" else ValueError)
