"""Solves with bonus targets where the compiled searches' cuts are tight.

The kernels leave out of a target's search every state with too few cards
for the words it still needs (two a word, and for a long word the fewest
cards of any long word of the hand), skip a target's search that cannot
reach the best score so far, search only the targets the best was reached
with when they settle the longest word and the word count, and skip a
class's search that cannot raise its key.  Each hand here is one where a
cut one card or one point looser than it should be changes the answer:
every card is needed for the words, or the long word is the hand's
fewest-card one, or discards and targets tie, or differ by a point.
"""

from __future__ import annotations

import random

import pytest

from quiddler import Card, Solver, WordList, default_wordlist, full_deck, parse_hand, solve

from ..naive import Reference, Targets, enable_reference
from .test_solve import assert_matches_reference

_WORDS = WordList(["at", "in", "on", "be", "an", "no", "ta", "quit", "quite", "quiet", "the", "there", "here",
                   "ether", "tin", "tan", "bat", "tab", "nab", "ban", "bean", "neat", "ante", "bait"])  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "targets"),
    [
        ("a,t,i,n,o,n,b,e,z", Targets(beat_words=3, bonus=50)),  # four words of two cards: every card
        ("a,t,i,n,o,n,b,e,z", Targets(beat_words=3, beat_longest=2, bonus=50)),
        ("qu,i,t,e,a,t,i,n,z", Targets(beat_words=2, beat_longest=4, bonus=50)),  # quite (4 cards) + at + in
        ("qu,i,e,t,a,t,o,n", Targets(beat_words=2, beat_longest=4, bonus=10_000)),
        ("th,er,e,a,t,i,n,o,n,z", Targets(beat_words=3, beat_longest=4, bonus=50)),  # there (3 cards) + three
        ("th,er,e,a,t,i,n,o,n,z", Targets(beat_longest=4, bonus=3)),
        ("th,er,e,a,t,i,n,o,n,z", Targets(beat_words=3, bonus=3)),
        ("b,e,a,n,t,a,i,n,z", Targets(beat_words=3, beat_longest=3, bonus=1)),  # targets worth a point
        ("b,e,a,n,t,a,i,n,z", Targets(beat_words=2, beat_longest=3, bonus=0)),
    ],
)
@pytest.mark.parametrize("discard", [True, False])
def test_targets_that_need_every_card_match_reference(hand: str, targets: Targets, discard: bool) -> None:
    cards = parse_hand(hand)
    solution = solve(cards, discard=discard, wordlist=_WORDS, backend="numba", beat_longest=targets.beat_longest,
                     beat_words=targets.beat_words, bonus=targets.bonus)  # fmt: skip
    assert_matches_reference(solution, Reference(_WORDS), cards, discard, _WORDS, targets)


@pytest.mark.parametrize(
    ("hand", "targets"),
    [
        ("c,e,m,j,e,a,er,l", Targets(beat_longest=4, beat_words=3, bonus=1)),
        ("r,g,u,t,in,w,a", Targets(beat_longest=5, beat_words=0, bonus=2)),
        ("g,t,u,i,p,m,r", Targets(beat_longest=5, beat_words=3, bonus=2)),
        ("k,a,n,t,e,u", Targets(beat_longest=4, bonus=2)),
        ("r,b,o,b,y,a,o,p", Targets(beat_longest=4, bonus=3)),
    ],
)
def test_plays_that_tie_with_and_without_a_target_match_reference(hand: str, targets: Targets) -> None:
    """A play that meets a target ties with one that does not (the bonus
    makes up the card score): both are searched for the longest word."""
    cards = parse_hand(hand)
    solution = solve(cards, discard=True, backend="numba", beat_longest=targets.beat_longest,
                     beat_words=targets.beat_words, bonus=targets.bonus)  # fmt: skip
    assert_matches_reference(solution, enable_reference(), cards, True, default_wordlist(), targets)


def _aimed_scores(solver: Solver, hand: tuple[Card, ...], beat_longest: int, beat_words: int) -> list[int | None]:
    """Each class's score from a solve aiming at its targets (see ``test_class_scores``)."""
    scores: list[int | None] = []
    for longest in (None, beat_longest):
        for words in (None, beat_words, beat_words - 1 if beat_words else None):
            play = solver.solve(hand, discard=True, beat_longest=longest, beat_words=words, bonus=10_000).best
            meets = (longest is None or play.longest_word > longest) and (words is None or play.word_count > words)
            scores.append(play.card_score if meets else None)
    return scores


@pytest.mark.parametrize(
    ("hand", "beat_longest", "beat_words"),
    [("th,d,t,p,n", 3, 0), ("x,q,u,z,a,a,e,s,p", 5, 1), ("m,y,p,f,w,d,a", 0, 1), ("q,c,z,n,d,er,b,y", 0, 1)],
)
def test_class_scores_a_point_apart_across_discards(hand: str, beat_longest: int, beat_words: int) -> None:
    """Hands whose classes' best discard beats another by a single point."""
    solver = Solver(backend="numba")
    cards = parse_hand(hand)
    assert list(solver._class_scores(cards, beat_longest, beat_words) or ()) == _aimed_scores(
        solver, cards, beat_longest, beat_words)


def _deals(count: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = full_deck()
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


@pytest.mark.parametrize("size", [7, 9])
def test_as_many_words_as_the_cards_allow_match_reference(size: int) -> None:
    """Dealt hands, a card discarded, asked for as many words as the rest
    holds pairs of cards (and at times a long word too), with bonuses small
    enough to tie with card scores: the searches' cuts on cards are tight."""
    rng = random.Random(size)
    for hand in _deals(30, size, 4714 + size):
        targets = Targets(beat_words=(size - 1) // 2 - 1, beat_longest=rng.choice([None, 3, 4, 5]),
                          bonus=rng.choice([0, 1, 2, 5, 10_000]))  # fmt: skip
        solution = solve(hand, discard=True, backend="numba", beat_longest=targets.beat_longest,
                         beat_words=targets.beat_words, bonus=targets.bonus)  # fmt: skip
        assert_matches_reference(solution, enable_reference(), hand, True, default_wordlist(), targets)


def test_even_discards_and_class_scores_of_tight_targets() -> None:
    """A final turn's other searches on the same kind of hands: the even
    discards are those whose rest scores the best (each rest solved on its
    own), and each class's score is that of a solve aiming at it."""
    solver = Solver(backend="numba")
    rng = random.Random(4715)
    for hand in _deals(40, 9, 4716):
        longest, words, bonus = rng.choice([None, 3, 4]), rng.choice([None, 2, 3]), rng.choice([1, 10_000])
        score, even = solver._even_discards(hand, longest, words, bonus)
        rests = {}
        for i, card in enumerate(hand):
            rest = hand[:i] + hand[i + 1 :]
            rests[card] = solver.solve(rest, beat_longest=longest, beat_words=words, bonus=bonus).best.score
        assert score == max(rests.values())
        assert even == {card for card, value in rests.items() if value == score}
        beat_longest, beat_words = rng.choice([3, 4, 5]), rng.choice([1, 2, 3])
        classes = solver._class_scores(hand, beat_longest, beat_words)
        assert list(classes or ()) == _aimed_scores(solver, hand, beat_longest, beat_words)
