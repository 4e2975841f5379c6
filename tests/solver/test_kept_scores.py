"""The scores of a hand less one card of each face, without a discard
(``Solver._kept_scores``, what a computer player's turn asks of the cards
it would keep after each discard): from one search of the whole hand, on
both backends of the kernel, exactly the scores each kept hand gets solved
alone, the best and the best going out."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from quiddler import Card, Solver, default_wordlist, full_deck, parse_hand
from quiddler.cardtrie import KERNEL_ORDER
from quiddler.solver import _backends
from quiddler.solver import _kernels as K
from quiddler.solver.core import _PLAIN_PARAMS, _face_counts

from .test_native_build import NoNegativeIndex

DECK = full_deck()


def _alone(solver: Solver, hand: tuple[Card, ...]) -> dict[Card, tuple[int, int | None]]:
    """Each kept hand solved on its own, by its face's card."""
    out = {}
    for card in set(hand):
        kept = list(hand)
        kept.remove(card)
        solution = solver.solve(kept)
        go_out = solution.best_go_out
        out[card] = (solution.best.score, None if go_out is None else go_out.score)
    return out


def _kernel_scores(hand: tuple[Card, ...]) -> dict[Card, tuple[int, int | None]]:
    """The kernel run as plain Python on arrays that refuse negative indices."""
    trie = default_wordlist().card_trie
    counts = list(_face_counts(hand))
    params = list(_PLAIN_PARAMS[0])
    out = NoNegativeIndex([0] * (K.KEPT_STRIDE * K.FACE_SLOTS))
    status = K.kept_counts(
        NoNegativeIndex(trie.kernel_edges()), NoNegativeIndex(trie.kernel_ranks()), NoNegativeIndex(counts),
        NoNegativeIndex(_backends.FACE_POINTS), NoNegativeIndex(_backends.FACE_LETTERS), NoNegativeIndex(params),
        NoNegativeIndex([0] * K.HAND_SIZE), NoNegativeIndex([0] * (K.WORD_STRIDE * K.PACKED_WORDS)),
        NoNegativeIndex([0] * K.GROUP_SIZE), NoNegativeIndex([0] * _backends.needed_memo(counts, params)),
        NoNegativeIndex([0] * K.STACK_SIZE), out,
    )  # fmt: skip
    assert status >= 0
    scores = {}
    for d, face in enumerate(face for face, n in enumerate(counts) if n):  # the digits: the faces held
        best, go = out[K.KEPT_STRIDE * d + K.KEPT_BEST], out[K.KEPT_STRIDE * d + K.KEPT_GO]
        scores[Card(KERNEL_ORDER[face])] = (_score(best), None if go == K.INFEASIBLE else _score(go))
    return scores


def _score(key: int) -> int:
    return (key >> K.SCORE_SHIFT) - K.SCORE_OFFSET


def test_the_kernel_as_python_gives_each_kept_hand_its_own_scores() -> None:
    solver = Solver(backend="python")
    hands = [tuple(parse_hand(h)) for h in ("d,cl,o,g,a,b,er,in,n,y,s", "q,q,x,x,z,z,j,j", "a,a,a,a", "qu,i,t")]
    rng = random.Random(3)
    hands += [tuple(rng.sample(DECK, rng.choice((2, 5, 8, 11)))) for _ in range(10)]
    for hand in hands:
        assert _kernel_scores(hand) == _alone(solver, hand), hand


def test_the_compiled_kernel_gives_each_kept_hand_its_own_scores() -> None:
    solver = Solver(backend="numba")
    rng = random.Random(4)
    hands = [tuple(parse_hand(h)) for h in ("d,cl,o,g,a,b,er,in,n,y,s", "q,q,x,x,z,z,j,j", "e,e,e,e,e,e")]
    hands += [tuple(rng.sample(DECK, rng.randint(2, 12))) for _ in range(300)]
    going, not_going = 0, 0
    for hand in hands:
        scores = solver._kept_scores(hand)
        assert scores == _alone(solver, hand), hand
        going += sum(go is not None for _, go in scores.values())
        not_going += sum(go is None for _, go in scores.values())
    assert going and not_going  # kept hands of both kinds were met


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=12))
def test_kept_scores_are_the_kept_hands_scores(hand: list[Card]) -> None:
    solver = Solver(backend="numba")
    assert solver._kept_scores(hand) == _alone(solver, tuple(hand))


def test_no_kept_scores_on_the_python_backend_or_out_of_a_games_sizes() -> None:
    hand = tuple(random.Random(5).sample(DECK, 9))
    assert Solver(backend="python")._kept_scores(hand) is None
    solver = Solver(backend="numba")
    assert solver._kept_scores(hand) is not None
    for size in (1, 13, 20):
        assert solver._kept_scores(tuple(random.Random(size).sample(DECK, size))) is None
