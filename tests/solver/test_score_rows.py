"""The scores-only batch kernel (``score_rows``, ``score_counts``): the very
keys the full solve writes, as plain Python (the kernel source the
pure-Python backend runs) and compiled."""

from __future__ import annotations

import random

import pytest

from quiddler import default_wordlist, full_deck
from quiddler.solver import _backends
from quiddler.solver import _kernels as K
from quiddler.solver.core import _KERNEL_INDEX, _ROOMY, _face_counts, _params

_KEYS = (K.OUT_KEY, K.OUT_BLOCK + K.OUT_KEY)


def _deals(seed, count):
    rng = random.Random(seed)
    deck = full_deck()
    return [rng.sample(deck, rng.randint(1, 12)) for _ in range(count)]


def _param_sets(cards):
    n = len(cards)
    return [_params(n, True, None, None, 10), _params(n, False, None, None, 10), _params(n, True, 4, 2, 10),
            _params(n, False, 3, None, 25), _params(n, True, None, 1, 7)]  # fmt: skip


def test_score_counts_as_python_gives_the_keys_of_solve_counts():
    """Both kernels run as plain Python, on dealt hands with and without a
    discard and bonus targets: the two keys agree, and so does the status."""
    trie = default_wordlist().card_trie
    edges, ranks = trie.kernel_edges(), trie.kernel_ranks()
    for cards in _deals(11, 40):
        counts = list(_face_counts(cards))
        for params in _param_sets(cards):
            memo = _backends.needed_memo(counts, params)

            def scratch(memo=memo):
                return [[0] * K.HAND_SIZE, [0] * (K.WORD_STRIDE * K.PACKED_WORDS), [0] * K.GROUP_SIZE,
                        [0] * memo, [0] * K.STACK_SIZE]  # fmt: skip

            inputs = (edges, ranks, counts, _backends.FACE_POINTS, _backends.FACE_LETTERS, list(params))
            full_out = [0] * (2 * K.OUT_BLOCK)
            status = K.solve_counts(*inputs, *scratch(), [0] * K.STACK_SIZE, full_out)
            keys_out = [0] * (2 * K.OUT_BLOCK)
            assert K.score_counts(*inputs, *scratch(), keys_out) == status >= 0
            assert [keys_out[k] for k in _KEYS] == [full_out[k] for k in _KEYS], (cards, params)


@pytest.mark.parametrize("threads", [1, 2])
def test_score_rows_compiled_gives_the_keys_of_solve_rows(threads):
    """The compiled batch both ways over the same jobs (counts and faces),
    with a discard, without, with bonus targets: the same statuses and keys."""
    import numpy as np

    backend = _backends.get_backend("numba")
    trie = default_wordlist().card_trie
    hands = _deals(12, 300)
    counts = np.array([list(_face_counts(cards)) for cards in hands], dtype=np.int64)
    for params in _param_sets([0] * 12):
        memo = max(_backends.needed_memo(row, params) for row in counts.tolist())
        full, full_status = backend.solve_batch(trie, counts, params, memo, threads)
        keys, status = backend.solve_batch(trie, counts, params, memo, threads, scores_only=True)
        assert status.tolist() == full_status.tolist() and min(status.tolist()) >= 0
        assert keys[:, _KEYS].tolist() == full[:, _KEYS].tolist()
    same_size = [cards for cards in hands if len(cards) == 9]
    faces = np.array([[_KERNEL_INDEX[card] for card in cards] for cards in same_size], dtype=np.int64)
    params = _params(9, True, None, None, 10)
    full, _ = backend.solve_batch(trie, None, params, _ROOMY[9], threads, faces)
    keys, _ = backend.solve_batch(trie, None, params, _ROOMY[9], threads, faces, True)
    assert len(same_size) > 10 and keys[:, _KEYS].tolist() == full[:, _KEYS].tolist()
