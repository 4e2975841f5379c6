"""``solve(top=K)``: never more than K plays, best first, distinct, and a
cut through tied plays keeps K of them (the best play first): no play left
out scores more than the last one listed."""

from __future__ import annotations

import pytest

from quiddler import solve

HANDS = ["a,t,e,s", "e,e,e,e", "c,a,t,s,d,o,g", "qu,i,e,t,er", "a,b,c,d,e,f,g", "z,z,x"]


def _key(play):  # type: ignore[no-untyped-def]
    return (play.discard, tuple(sorted(tuple(sorted(w.cards)) for w in play.words)), tuple(sorted(play.unused)))


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("discard", [False, True])
def test_top_k_never_returns_more_than_k_and_ties_at_the_cut_are_cut(hand: str, discard: bool) -> None:
    every = solve(hand, discard=discard, top=10_000).plays
    for k in range(1, min(len(every), 12) + 1):
        plays = solve(hand, discard=discard, top=k).plays
        assert len(plays) == k  # there are at least k plays: exactly k come back
        assert plays[0] == solve(hand, discard=discard).best
        scores = [p.score for p in plays]
        assert scores == sorted(scores, reverse=True)
        assert len({_key(p) for p in plays}) == k  # distinct plays
        # The K best scores are the K best of all plays, whichever of the tied ones were kept.
        assert scores == [p.score for p in every[:k]]
        left_out = [p for p in every if _key(p) not in {_key(q) for q in plays}]
        assert all(p.score <= scores[-1] for p in left_out)


def test_a_hand_with_ties_at_the_cut_is_among_the_cases() -> None:
    every = solve("c,a,t,s,d,o,g", discard=True, top=10_000).plays
    assert any(every[k - 1].score == every[k].score for k in range(1, len(every)))


@pytest.mark.parametrize("hand", HANDS)
def test_asking_for_more_than_exist_gives_every_play_once(hand: str) -> None:
    every = solve(hand, top=10_000).plays
    assert len({_key(p) for p in every}) == len(every)
    assert solve(hand, top=len(every) + 5).plays == every
