"""The computer players' hand scorer: its memo and its two ways in (whole
hands, or bases each with every card a draw may bring) give exactly the
solver's scores, in the order asked, whatever is in the memo already."""

from __future__ import annotations

import random

import pytest

from quiddler.cards import full_deck
from quiddler.game.evaluate import HandScorer
from quiddler.solver import score_many
from quiddler.wordlist import default_wordlist

DECK = list(full_deck())
FACES = sorted(set(DECK))


@pytest.fixture(scope="module")
def words():
    return default_wordlist()


def _order_free(cards):
    return tuple(sorted(cards))


def _spied(monkeypatch, cls, name):
    """The answers of every call of the method ``cls.name`` from now on, in
    order, as it still gives them."""
    served = []
    method = getattr(cls, name)

    def spied(self, *args):
        served.append(method(self, *args))
        return served[-1]

    monkeypatch.setattr(cls, name, spied)
    return served


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("discard", [True, False])
def test_bases_plus_each_card_score_as_the_whole_hands(words, seed, discard):
    rng = random.Random(seed)
    size = rng.randint(2, 10)
    bases = [rng.sample(DECK, size) for _ in range(rng.randint(1, 4))]
    bases.append(list(bases[0]))  # a base given twice, its hands met again in the same call
    bases.append(bases[0][::-1])  # the same cards in another order
    extra = rng.sample(FACES, rng.randint(1, len(FACES)))
    extra.append(extra[0])  # a card given twice
    hands = [base + [card] for base in bases for card in extra]
    expected = score_many(hands, discard=discard, wordlist=words)
    scorer = HandScorer(words)
    warm = scorer.scores_plus(bases[:1], extra[::3], discard=discard)  # some of them already in the memo
    assert warm == score_many([bases[0] + [card] for card in extra[::3]], discard=discard, wordlist=words)
    assert scorer._entries == len(extra[::3])
    assert scorer.scores_plus(bases, extra, discard=discard) == expected
    # Each base and card the memo lacks is scored (the shared search makes a hand met again cheap).
    known = {(_order_free(bases[0]), card) for card in extra[::3]}
    fresh = [(base, card) for base in bases for card in extra if (_order_free(base), card) not in known]
    assert scorer._entries == len(extra[::3]) + len(fresh)
    assert scorer.scores_plus(bases, extra, discard=discard) == expected  # all from the memo now
    assert scorer._entries == len(extra[::3]) + len(fresh)
    assert HandScorer(words).scores(hands, discard=discard) == expected


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("targets", [{}, {"beat_longest": 4, "beat_words": 2}, {"beat_longest": 3, "bonus": 25}])
def test_bases_plus_each_card_scored_base_by_base_on_the_compiled_solver(words, seed, targets, monkeypatch):
    """A decision's hands with a discard (the hand, less each of some cards,
    plus each card), on the compiled backend: the hands the memo lacks are
    scored together (the solver shares its search among the bases and
    cards), with or without bonus targets: the same scores and memo."""
    from quiddler.solver import Solver

    rng = random.Random(100 + seed)
    hand = rng.sample(DECK, rng.randint(2, 11))
    bases = [hand[:k] + hand[k + 1 :] for k in rng.sample(range(len(hand)), rng.randint(1, min(5, len(hand))))]
    extra = [*rng.sample(FACES, rng.randint(1, len(FACES))), FACES[seed]]
    hands = [base + [card] for base in bases for card in extra]
    expected = score_many(hands, discard=True, wordlist=words, **targets)
    scorer = HandScorer(words)
    scorer.solver = Solver(words, "numba")
    served = _spied(monkeypatch, Solver, "_score_plus")
    some = scorer.scores_plus(bases[:1], extra[1::4], discard=True, **targets)  # some of them in the memo first
    assert some == expected[1 : len(extra) : 4]
    assert len(served) == 1 and served[0] is not None
    assert scorer.scores_plus(bases, extra, discard=True, **targets) == expected
    assert len(served) == 2 and served[1] is not None
    assert scorer.scores_plus(bases, extra, discard=True, **targets) == expected  # all from the memo
    assert len(served) == 2


def test_bonus_targets_keep_their_own_memo(words):
    rng = random.Random(7)
    base = rng.sample(DECK, 7)
    plain = score_many([base + [c] for c in FACES], discard=True, wordlist=words)
    aimed = score_many([base + [c] for c in FACES], discard=True, wordlist=words, beat_longest=4, bonus=25)
    assert plain != aimed  # the targets change some scores: the memo must not mix them up
    scorer = HandScorer(words)
    assert scorer.scores_plus([base], FACES, discard=True) == plain
    assert scorer.scores_plus([base], FACES, discard=True, beat_longest=4, bonus=25) == aimed
    assert scorer.scores_plus([base], FACES, discard=True) == plain


def test_a_full_memo_starts_again(words):
    rng = random.Random(8)
    scorer = HandScorer(words, max_entries=40)
    bases = [rng.sample(DECK, 5) for _ in range(3)]
    for _ in range(2):
        got = scorer.scores_plus(bases, FACES[:20], discard=True)
        assert got == score_many([b + [c] for b in bases for c in FACES[:20]], discard=True, wordlist=words)
        assert scorer._entries <= 60


@pytest.mark.parametrize("seed", range(4))
def test_a_hand_less_each_card_scores_as_the_kept_hands(words, seed):
    rng = random.Random(seed)
    hand = rng.sample(DECK, rng.randint(3, 10))
    hand.append(hand[0])  # a face held twice: one copy goes
    cards = sorted(set(hand), key=hand.index)
    kept = [hand[:i] + hand[i + 1 :] for i in map(hand.index, cards)]
    expected = score_many(kept, discard=False, wordlist=words)
    scorer = HandScorer(words)
    assert scorer.scores(kept[::2], discard=False) == expected[::2]  # half of them already in the memo
    assert scorer.scores_less(hand, cards, discard=False) == expected


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_hands_come_from_one_search_on_the_compiled_solver(words, seed, monkeypatch):
    """Without a discard, the kept hands the memo lacks are scored by one
    search of the whole hand (``Solver._kept_scores``): the same scores,
    and none of them scored again once in the memo."""
    from quiddler.solver import Solver

    rng = random.Random(50 + seed)
    hand = rng.sample(DECK, rng.randint(3, 11))
    hand.append(hand[-1])  # a face held twice
    cards = sorted(set(hand), key=hand.index)
    kept = [hand[:i] + hand[i + 1 :] for i in map(hand.index, cards)]
    expected = score_many(kept, discard=False, wordlist=words)
    scorer = HandScorer(words)
    scorer.solver = Solver(words, "numba")
    served = _spied(monkeypatch, Solver, "_kept_scores")
    assert scorer.scores_less(hand, cards[1:], discard=False) == expected[1:]
    assert len(served) == 1 and served[0] is not None
    assert scorer.scores_less(hand, cards, discard=False) == expected  # one more kept hand: one more search
    assert len(served) == 2
    assert scorer.scores_less(hand, cards, discard=False) == expected  # all from the memo
    assert len(served) == 2
