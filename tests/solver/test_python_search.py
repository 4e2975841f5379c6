"""The pure-Python backend's own search (``_pysearch``) gives exactly what the
kernel source gives: the same two play blocks, word for word, tie flag and
all, with bonus targets or without, so the same ``Solution`` as the compiled
backend."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from quiddler import WordList, default_wordlist, full_deck, solve
from quiddler.solver import _kernels as K
from quiddler.solver._backends import FACE_LETTERS, FACE_POINTS, HAND_SIZE, STACK_SIZE, needed_memo
from quiddler.solver._pysearch import solve_counts
from quiddler.solver.core import _face_counts, _params

from ..strategies import few_face_hands, few_face_word_lists, small_hands, small_word_lists, wordy_hands


def _both(trie, hand, discard, beat_longest=None, beat_words=None, bonus=10):
    """The blocks of the kernel source run as Python, and of ``_pysearch``."""
    edges, ranks = trie.kernel_edges(), trie.kernel_ranks()
    counts, params = _face_counts(hand), _params(len(hand), discard, beat_longest, beat_words, bonus)
    out = [0] * (2 * K.OUT_BLOCK)
    capacity = 1 << 16
    result = K.solve_counts(edges, ranks, list(counts), FACE_POINTS, FACE_LETTERS, list(params), [0] * HAND_SIZE,
                            [0] * (K.WORD_STRIDE * capacity), [0] * K.GROUP_SIZE, [0] * needed_memo(counts, params),
                            [0] * STACK_SIZE, [0] * STACK_SIZE, out)  # fmt: skip
    assert result >= 0
    return out, solve_counts(trie.edges, trie.masks, trie.ranks, counts, FACE_POINTS, FACE_LETTERS, params)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 9, 10, 11, 12, 14])
def test_the_same_blocks_as_the_kernel_source_on_dealt_hands(size):
    rng = random.Random(size)
    trie = default_wordlist().card_trie
    for _ in range(25 if size <= 12 else 5):
        hand = rng.sample(full_deck(), size)
        for discard in (False, True):
            kernel, plain = _both(trie, hand, discard)
            assert plain == kernel, (hand, discard)


@pytest.mark.parametrize("size", [3, 6, 9, 11])
def test_the_same_blocks_with_bonus_targets(size):
    rng = random.Random(100 + size)
    trie = default_wordlist().card_trie
    for _ in range(15):
        hand = rng.sample(full_deck(), size)
        targets = {"beat_longest": rng.choice([None, 0, 3, 5, 7]), "beat_words": rng.choice([None, 0, 1, 2, 3]),
                   "bonus": rng.choice([0, 5, 10])}  # fmt: skip
        for discard in (False, True):
            kernel, plain = _both(trie, hand, discard, **targets)
            assert plain == kernel, (hand, discard, targets)


@settings(max_examples=60, deadline=None)
@given(words=few_face_word_lists(), hand=few_face_hands(1, 16))
def test_the_same_blocks_on_many_copies_of_few_faces(words: WordList, hand):
    for discard in (False, True):
        kernel, plain = _both(words.card_trie, hand, discard)
        assert plain == kernel
        kernel, plain = _both(words.card_trie, hand, discard, beat_longest=3, beat_words=1)
        assert plain == kernel


@settings(max_examples=60, deadline=None)
@given(words=small_word_lists(), hand=small_hands(1, 9))
def test_the_same_blocks_on_small_random_lists(words: WordList, hand):
    for discard in (False, True):
        kernel, plain = _both(words.card_trie, hand, discard)
        assert plain == kernel


@settings(max_examples=40, deadline=None)
@given(hand=wordy_hands(1, 11))
def test_the_same_solution_as_the_compiled_backend(hand):
    for discard in (False, True):
        assert solve(hand, discard=discard, backend="python") == solve(hand, discard=discard, backend="numba")
        assert solve(hand, discard=discard, beat_longest=4, beat_words=1, backend="python") == solve(
            hand, discard=discard, beat_longest=4, beat_words=1, backend="numba")
