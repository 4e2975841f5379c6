"""The best card score of each class of a final turn's plays
(``Solver._class_scores``, what the expert's lay-down asks for its best
value): on both backends of the kernel, each class's score is that of the
play a solve aiming at the class's targets finds, with a bonus no score
outweighs, where that play meets them, and none where it does not."""

from __future__ import annotations

import random

import pytest

from quiddler import Card, Solver, default_wordlist, full_deck, parse_hand
from quiddler.solver import _backends
from quiddler.solver import _kernels as K
from quiddler.solver.core import CLASS_COUNT, CLASS_WORDS, _face_counts

from .test_native_build import NoNegativeIndex

_BIG = 10_000  # a bonus no card score outweighs


def _deals(count: int, sizes: tuple[int, ...], seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = full_deck()
    return [tuple(rng.sample(deck, rng.choice(sizes))) for _ in range(count)]


def _targets(rng: random.Random) -> tuple[int, int]:
    """A longest word and a word count to beat, out of reach at times."""
    return rng.choice([0, 1, 2, 3, 4, 5, 6, 9]), rng.choice([0, 1, 2, 3, 4, 6])


def _solved(solver: Solver, hand: tuple[Card, ...], beat_longest: int, beat_words: int) -> list[int | None]:
    """Each class's score from a solve aiming at its targets: the card score
    of its play if the play meets them, else None (no play does)."""
    scores: list[int | None] = []
    for longest in (None, beat_longest):
        for count in (None, beat_words, beat_words - 1 if beat_words else None):
            if count is None and len(scores) % CLASS_WORDS == 2:
                scores.append(scores[-2])  # at least 0 words: any play
                continue
            play = solver.solve(hand, discard=True, beat_longest=longest, beat_words=count, bonus=_BIG).best
            meets = (longest is None or play.longest_word > longest) and (count is None or play.word_count > count)
            scores.append(play.card_score if meets else None)
    return scores


def _kernel_scores(hand: tuple[Card, ...], beat_longest: int, beat_words: int) -> list[int | None]:
    """The kernel run as plain Python on arrays that refuse negative indices."""
    trie = default_wordlist().card_trie
    counts = list(_face_counts(hand))
    need_words = min(beat_words + 1, (len(hand) - 1) // 2 + 2)
    params = [1, need_words, 1, beat_longest, 0, 0]
    out = NoNegativeIndex([0] * CLASS_COUNT)
    status = K.class_counts(
        NoNegativeIndex(trie.kernel_edges()), NoNegativeIndex(trie.kernel_ranks()), NoNegativeIndex(counts),
        NoNegativeIndex(_backends.FACE_POINTS), NoNegativeIndex(_backends.FACE_LETTERS), NoNegativeIndex(params),
        NoNegativeIndex([0] * K.HAND_SIZE), NoNegativeIndex([0] * (K.WORD_STRIDE * K.PACKED_WORDS)),
        NoNegativeIndex([0] * K.GROUP_SIZE), NoNegativeIndex([0] * _backends.needed_memo(counts, params)),
        NoNegativeIndex([0] * K.STACK_SIZE), NoNegativeIndex([0] * K.FACE_SLOTS), out,
    )  # fmt: skip
    assert status >= 0
    return [None if key == K.INFEASIBLE else (key >> K.SCORE_SHIFT) - K.SCORE_OFFSET for key in out]


def test_the_kernel_as_python_gives_each_class_its_solves_score() -> None:
    solver = Solver(backend="python")
    rng = random.Random(7)
    hands = [parse_hand("d,cl,o,g,a,b,er,in,n,y,s"), parse_hand("q,q,x,x,z,z,j,j"), parse_hand("a,a,a,a")]
    hands += _deals(12, (2, 5, 8, 11), seed=8)
    for hand in hands:
        beat_longest, beat_words = _targets(rng)
        assert _kernel_scores(hand, beat_longest, beat_words) == _solved(solver, hand, beat_longest, beat_words), (
            hand, beat_longest, beat_words)  # fmt: skip


def test_the_compiled_kernel_gives_each_class_its_solves_score() -> None:
    solver = Solver(backend="numba")
    rng = random.Random(9)
    hands = [parse_hand("d,cl,o,g,a,b,er,in,n,y,s"), parse_hand("q,q,x,x,z,z,j,j"), parse_hand("t,y,er,e,t")]
    hands += _deals(150, (2, 3, 5, 8, 10, 11, 11, 12), seed=10)
    reached = [0] * CLASS_COUNT
    for hand in hands:
        beat_longest, beat_words = _targets(rng)
        scores = solver._class_scores(hand, beat_longest, beat_words)
        assert scores is not None
        assert list(scores) == _solved(solver, hand, beat_longest, beat_words), (hand, beat_longest, beat_words)
        reached = [n + (score is not None) for n, score in zip(reached, scores)]
    assert all(reached)  # every class was met, and not always
    assert all(n < len(hands) for n in reached[1:])


def test_no_class_scores_on_the_python_backend_out_of_a_games_sizes_or_over_the_memory_bound() -> None:
    hand = _deals(1, (11,), seed=5)[0]
    assert Solver(backend="python")._class_scores(hand, 3, 2) is None
    solver = Solver(backend="numba")
    for size in (1, 13, 20):
        assert solver._class_scores(_deals(1, (size,), seed=size)[0], 3, 2) is None
    assert solver._class_scores(hand, 3, 2) is not None
    solver.max_memory_bytes = 1 << 20
    assert solver._class_scores(hand, 3, 2) is None  # four word states and two long ones: over 1 MB


@pytest.mark.parametrize("hand", ["cl,in,g,er,s,t,o,a,qu,i,th", "a,b"])
def test_the_word_levels_out_of_reach_keep_the_memo_small(hand: str) -> None:
    """A word count to beat beyond any play's: both word levels are empty,
    and the memo is sized as if it were one more than a play can make."""
    cards = tuple(parse_hand(hand))
    scores = Solver(backend="numba")._class_scores(cards, 2, 40)
    assert scores is not None
    assert [scores[CLASS_WORDS * a + b] for a in (0, 1) for b in (1, 2)] == [None] * 4
