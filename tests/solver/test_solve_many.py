"""solve_many() and score_many(): the compiled batch gives exactly what
solve() gives, hand by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiddler import HandTooLargeError, InvalidCardError, WordList, score_many, solve, solve_many

from .. import strategies as qst


def _one_by_one(hands, **kwargs):
    return [solve(hand, backend="python", **kwargs) for hand in hands]


@settings(max_examples=30)
@given(hands=st.lists(qst.mixed_hands(1, 12), min_size=1, max_size=40), discard=st.booleans(),
       targets=qst.targets(), threads=st.sampled_from([None, 1, 2]))  # fmt: skip
def test_batch_equals_one_solve_per_hand(hands, discard, targets, threads):
    kwargs = {"discard": discard, "beat_longest": targets.beat_longest, "beat_words": targets.beat_words,
                  "bonus": targets.bonus}  # fmt: skip
    assert solve_many(hands, threads=threads, backend="numba", **kwargs) == _one_by_one(hands, **kwargs)


@settings(max_examples=30)
@given(hands=st.lists(qst.mixed_hands(1, 12), min_size=1, max_size=40), discard=st.booleans(),
       targets=qst.targets(), threads=st.sampled_from([None, 1, 2]))  # fmt: skip
def test_scores_equal_the_solutions(hands, discard, targets, threads):
    kwargs = {"discard": discard, "beat_longest": targets.beat_longest, "beat_words": targets.beat_words,
              "bonus": targets.bonus}  # fmt: skip
    expected = [(s.best.score, s.best_go_out.score if s.best_go_out else None) for s in _one_by_one(hands, **kwargs)]
    assert score_many(hands, threads=threads, backend="numba", **kwargs) == expected


def test_batch_of_many_sizes_and_a_custom_list():
    words = WordList(["aa", "aaaa", "at", "tat", "tea", "eat", "ate"])
    hands = ["a,a,a,a", "t,e,a", "a", "t,a,t,e,a,a", "e,e,e"]
    expected = _one_by_one(hands, wordlist=words, discard=True)
    for backend in ("numba", "auto", "python"):
        assert solve_many(hands, wordlist=words, discard=True, backend=backend) == expected


def test_a_huge_hand_in_a_batch_falls_back_to_solving_it_alone():
    # More words than the batch buffers hold: that hand is solved on its own.
    huge = "e,a,r,s,t,i,n,o,l,d,u,c,m,p,g,h,b,y,er,in"
    hands = [huge, "qu,i,t"]
    solutions = [solve(hand, discard=True) for hand in hands]
    assert solve_many(hands, discard=True, backend="numba") == solutions
    assert score_many(hands, discard=True, backend="numba") == [(s.best.score, s.best_go_out.score) for s in solutions]


def test_a_huge_hand_alone_gets_more_room_on_the_compiled_backend():
    huge = "e,a,r,s,t,i,n,o,l,d,u,c,m,p,g,h,b,y,er,in"
    assert solve(huge, discard=True, backend="numba") == solve(huge, discard=True, backend="python")


def test_the_batch_uses_no_numba_threading_layer():
    # Batches run on Python threads (the kernels release the GIL), so numba's
    # thread pool (and its fork and re-entrancy hazards) is never started.
    solve_many(["a,b,c", "qu,i,t"] * 10, threads=2, backend="numba")
    from numba.np.ufunc import parallel

    assert not parallel._is_initialized


def test_bad_thread_count():
    for backend in ("numba", "auto", "python"):
        with pytest.raises(ValueError, match="threads must be at least 1"):
            solve_many(["a,b"], threads=0, backend=backend)
        with pytest.raises(ValueError, match="threads must be at least 1"):
            score_many(["a,b"], threads=-1, backend=backend)


def test_empty_batch():
    assert solve_many([]) == [] and score_many([]) == []


@pytest.mark.parametrize(
    ("hands", "error", "message"),
    [
        (["a,b", "zz"], InvalidCardError, "hand 2: unknown card: 'zz'"),
        (["a,b", ""], InvalidCardError, "hand 2: empty hand"),
        (["a," * 20 + "a"], HandTooLargeError, "hand 1: hand of 21 cards is too large"),
    ],
)
def test_a_bad_hand_is_named_and_nothing_is_solved(hands, error, message):
    with pytest.raises(error, match=message):
        solve_many(hands)
    with pytest.raises(error, match=message):
        score_many(hands)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_of_hands_of_one_size_and_its_overflows_give_the_solves_of_each(monkeypatch, threads):
    # A player's batch: hands of cards, all of one size (the kernel counts
    # their faces) or of mixed sizes (counted beforehand).  A hand with more
    # words than the batch's room (no hand of a game's size has that many:
    # marked here) is solved alone.
    import random

    from quiddler import full_deck
    from quiddler.solver._backends import NumbaBackend

    solve_batch = NumbaBackend.solve_batch

    def overflowing(self, *args):  # every third hand's status says: more words than the room
        out, status = solve_batch(self, *args)
        status[::3] = -1
        return out, status

    monkeypatch.setattr(NumbaBackend, "solve_batch", overflowing)
    rng = random.Random(8)
    deck = full_deck()
    for sizes in ([8] * 30, [4] * 12, [1] * 3, [12] * 5, [3, 8, 8, 11, 1, 12, 6] * 3):
        hands = [rng.sample(deck, size) for size in sizes]
        hands = [tuple(hand) if i % 2 else hand for i, hand in enumerate(hands)]
        for discard in (True, False):
            expected = _one_by_one(hands, discard=discard)
            solutions = solve_many(hands, discard=discard, threads=threads, backend="numba")
            assert solutions == expected and all(type(s.cards) is tuple for s in solutions)
            scores = [(s.best.score, s.best_go_out.score if s.best_go_out else None) for s in expected]
            assert score_many(hands, discard=discard, threads=threads, backend="numba") == scores
