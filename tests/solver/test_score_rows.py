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


_TARGETS = [(None, None, 10), (4, 2, 10), (3, None, 25), (None, 1, 7), (2, 0, 10)]


def _plus_row(base, extras, targets):
    """A ``score_plus_rows`` job row: the base's counts, a discard and the
    bonus targets, the faces added (None: a hand not wanted)."""
    row = [0] * K.PLUS_WIDTH
    row[: K.FACE_SLOTS] = list(_face_counts(base))
    row[K.JOB_PARAMS : K.JOB_STATUS] = _params(len(base) + 1, True, *targets)
    row[K.PLUS_COUNT] = len(extras)
    for k, card in enumerate(extras):
        row[K.PLUS_FACES + k] = -1 if card is None else _KERNEL_INDEX[card]
    return row


def _keys_alone(edges, ranks, hand, targets):
    """score_counts' two keys of ``hand`` with a discard and the bonus targets, as plain Python."""
    counts = list(_face_counts(hand))
    params = list(_params(len(hand), True, *targets))
    out = [0] * (2 * K.OUT_BLOCK)
    K.score_counts(edges, ranks, counts, _backends.FACE_POINTS, _backends.FACE_LETTERS, params, [0] * K.HAND_SIZE,
                   [0] * (K.WORD_STRIDE * K.PACKED_WORDS), [0] * K.GROUP_SIZE, [0] * _backends.needed_memo(counts, params),
                   [0] * K.STACK_SIZE, out)  # fmt: skip
    return [out[k] for k in _KEYS]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("targets", _TARGETS)
def test_score_plus_as_python_gives_the_keys_of_each_hand_alone(seed, targets):
    """Two bases that share all but a card or two, with each face added
    (one memo for both, over their cards together), run as plain Python on
    arrays that refuse negative indices: each hand's two keys are those of
    the hand scored alone, with and without bonus targets; a hand not
    wanted is left alone."""
    from .test_native_build import NoNegativeIndex

    trie = default_wordlist().card_trie
    edges, ranks = trie.kernel_edges(), trie.kernel_ranks()
    rng = random.Random(seed)
    deck = full_deck()
    faces = sorted(set(deck), key=_KERNEL_INDEX.__getitem__)
    for size in [1, 2, 3, 5, 7, 8, 9, 10, 10, 11]:
        base = rng.sample(deck, size)
        extras = [*rng.sample(faces, 12), base[0], None]
        other = [card for card in base[1:] if card != base[0]] + rng.sample(deck, 1)  # shares all but a card or two
        rows = [NoNegativeIndex(_plus_row(base, extras, targets)), NoNegativeIndex(_plus_row(other, extras, targets))]
        rows[1][K.PLUS_FACES + 2] = -1
        together = [max(a, b) for a, b in zip(rows[0][: K.FACE_SLOTS], rows[1][: K.FACE_SLOTS])]
        params = rows[0][K.JOB_PARAMS : K.JOB_STATUS]
        room = K.WORD_STRIDE * K.PACKED_WORDS
        status = K.score_plus(NoNegativeIndex(edges), NoNegativeIndex(ranks), NoNegativeIndex(together),
                              NoNegativeIndex(_backends.FACE_POINTS), NoNegativeIndex(_backends.FACE_LETTERS),
                              NoNegativeIndex(params), NoNegativeIndex([0] * K.HAND_SIZE), NoNegativeIndex([0] * room),
                              NoNegativeIndex([0] * K.GROUP_SIZE),
                              NoNegativeIndex([0] * _backends.needed_memo(together, params)),
                              NoNegativeIndex([0] * K.STACK_SIZE), NoNegativeIndex([0] * room),
                              NoNegativeIndex([0] * K.FACE_SLOTS), rows, 0, 1)  # fmt: skip
        assert status >= 0
        for cards, row in zip((base, other), rows):
            for k, card in enumerate(extras):
                got = [row[K.PLUS_BEST + k], row[K.PLUS_GO + k]]
                if card is None or row[K.PLUS_FACES + k] < 0:
                    assert got == [0, 0]
                else:
                    assert got == _keys_alone(edges, ranks, [*cards, card], targets), (cards, card)


def test_the_solver_scores_bases_plus_cards_as_score_many_does(monkeypatch):
    """``Solver._score_plus`` (the compiled batch of bases plus cards) gives
    what score_many gives for the same hands, for any subset of them, with
    a card repeated among those added, for a decision's bases (a hand less
    each of some cards) and for unrelated ones; a batch whose words overflow
    its room is scored the usual way; and it declines what it does not
    serve (bases of more than 12 cards together)."""
    from quiddler import Solver
    from quiddler.solver._backends import NumbaBackend

    solver = Solver(default_wordlist(), "numba")
    rng = random.Random(5)
    deck = full_deck()
    faces = sorted(set(deck), key=_KERNEL_INDEX.__getitem__)
    hand = rng.sample(deck, 11)
    kept = [[card for i, card in enumerate(hand) if i != k] for k in (0, 3, 4, 7, 10)]
    for bases, targets in zip((kept, [rng.sample(deck, 3)], [rng.sample(deck, n) for n in (1, 5, 4)], kept[:2],
                               [rng.sample(deck, 9)]), _TARGETS):  # fmt: skip
        extra = [faces[3], *rng.sample(faces, 20), faces[3]]
        every = [[*base, card] for base in bases for card in extra]
        options = dict(zip(("beat_longest", "beat_words", "bonus"), targets))
        expected = solver.score_many(every, discard=True, **options)
        wanted = list(range(len(every)))
        assert solver._score_plus(bases, extra, wanted, *targets) == expected
        some = rng.sample(wanted, len(wanted) // 3)
        assert solver._score_plus(bases, extra, some, *targets) == [expected[i] for i in some]
        last = wanted[-len(extra) :][::-1]  # the last base's hands alone: the others are not searched
        assert solver._score_plus(bases, extra, last, *targets) == [expected[i] for i in last]
    score_plus_batch = NumbaBackend.score_plus_batch

    def overflowing(self, trie, jobs, memo_size):  # the first base's words overflow
        score_plus_batch(self, trie, jobs, memo_size)
        jobs[0, K.JOB_STATUS] = K.WORDS_FULL
        jobs[0, K.PLUS_BEST :] = 0

    monkeypatch.setattr(NumbaBackend, "score_plus_batch", overflowing)
    assert solver._score_plus(bases, extra, wanted, *targets) == expected
    assert solver._score_plus([deck[:12]], extra, [0]) is None  # a hand of 13 cards
    assert solver._score_plus([deck[:7], deck[20:27]], extra, [0]) is None  # 14 cards together
    assert solver._score_plus([["a", "b"]], extra, [0]) is None  # not cards
    assert solver._score_plus(bases, extra, []) is None
    assert Solver(default_wordlist(), "python")._score_plus(bases, extra, wanted) is None


def test_the_batch_finds_going_out_keys_past_the_best_keys_discards():
    """The batch works out each hand's best key and its best going-out key
    in one pass over the discards, each key with its own bounds: dealt
    hands whose best play leaves a card over while a dearer discard goes
    out (the going-out key comes from a discard past the best key's end),
    hands whose added card ties a card of the base on points (the order
    of the discards), and small bonuses that tie plays with and without a
    target, all scored as ``score_many`` scores each hand alone."""
    from quiddler import Solver

    solver = Solver(default_wordlist(), "numba")
    rng = random.Random(17)
    deck = full_deck()
    faces = sorted(set(deck), key=_KERNEL_INDEX.__getitem__)
    later_cover = ties = 0
    for round_ in range(40):
        bases = [rng.sample(deck, rng.randint(3, 9))]
        if round_ % 4 == 0:  # a decision's bases: the hand less one card each
            bases = [[card for k, card in enumerate(bases[0]) if k != i] for i in range(min(3, len(bases[0])))]
        targets = [(None, None, 10), (3, 1, 2), (4, None, 1), (None, 2, 3), (2, 1, 0)][round_ % 5]
        every = [[*base, card] for base in bases for card in faces]
        options = dict(zip(("beat_longest", "beat_words", "bonus"), targets))
        expected = solver.score_many(every, discard=True, **options)
        assert solver._score_plus(bases, faces, list(range(len(every))), *targets) == expected
        later_cover += sum(go is not None and go < best for best, go in expected)
        ties += sum(any(card.points == hand[-1].points for card in hand[:-1]) for hand in every)
    assert later_cover > 20 and ties > 100  # both kinds of hands were met
