"""The discards that reach a hand's best score (``Solver._even_discards``,
what a computer player's final draw asks): on both backends, the best
score of the hand with a discard and exactly the cards whose rest, solved
without a discard, scores as much, bonus targets and all."""

from __future__ import annotations

import random

import pytest

from quiddler import Card, Solver, full_deck, parse_hand
from quiddler.solver import _kernels as K

# (beat_longest, beat_words, bonus): none, each, both, out of reach, a bonus the score cannot pass up.
_AIMS = [(None, None, 10), (3, None, 10), (None, 1, 10), (4, 2, 10), (2, 0, 25), (30, 9, 10), (5, 2, 10_000)]


def _deals(count: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = full_deck()
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def _rests(solver: Solver, hand: tuple[Card, ...], aim: tuple[int | None, int | None, int]) -> dict[Card, int]:
    """Each card's rest, solved without a discard: its best score."""
    beat_longest, beat_words, bonus = aim
    scores = {}
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        scores[card] = solver.solve(rest, beat_longest=beat_longest, beat_words=beat_words, bonus=bonus).best.score
    return scores


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_the_even_discards_are_those_whose_rest_scores_the_best(backend: str) -> None:
    solver = Solver(backend=backend)
    # Going out or not aside: discarding er goes out, t scores as much with y left over.
    hands = [parse_hand("t,y,er,e,t"), parse_hand("y,d,er,t,i,c"), parse_hand("d,cl,o,g,a,b,er,in,n,y,s"),
             parse_hand("q,q,x,x,z,z,j,j"), parse_hand("a,a,a,a")]  # fmt: skip
    hands += [hand for size in (2, 5, 8, 11) for hand in _deals(6 if backend == "python" else 25, size, seed=size)]
    several = 0
    for n, hand in enumerate(hands):
        aim = _AIMS[n % len(_AIMS)]
        found = solver._even_discards(hand, *aim)
        assert found is not None
        best, even = found
        beat_longest, beat_words, bonus = aim
        assert best == solver.solve(hand, discard=True, beat_longest=beat_longest, beat_words=beat_words,
                                    bonus=bonus).best.score  # fmt: skip
        rests = _rests(solver, hand, aim)
        assert max(rests.values()) == best
        assert even == {card for card, score in rests.items() if score == best}, (hand, aim)
        several += len(even) > 1
    assert several  # ties between discards were met


def test_the_even_discards_slot_is_one_no_play_fills() -> None:
    assert K.OUT_EVEN_DISCARDS == K.OUT_LEFTOVERS + K.OUT_MAXC - 1 and K.MAX_CARDS < K.OUT_MAXC


def test_no_even_discards_where_a_memory_bound_might_refuse_the_solve_or_out_of_a_games_sizes() -> None:
    solver = Solver()
    for size in (1, 13, 20):
        assert solver._even_discards(_deals(1, size, seed=size)[0], None, None, 10) is None
    solver.max_memory_bytes = 1 << 20
    hand = _deals(1, 11, seed=5)[0]
    assert solver._even_discards(hand, 3, 2, 10) is None  # four word states and two long ones: over 1 MB
    assert solver._even_discards(hand, None, None, 10) is not None
