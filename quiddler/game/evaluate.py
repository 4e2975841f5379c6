"""Scoring many candidate hands at once, with a memo.

A computer player's decision asks for the best score of dozens to hundreds of hands
(each candidate kept hand plus each card it might draw).  One call to
:func:`~quiddler.solver.score_many` runs them all in one compiled batch,
which costs a fraction of the same hands solved one by one; the memo skips
hands already scored (they recur across candidates, turns and the hint
that repeats a decision).  The batch runs on one thread: decisions are
small, and the machines that run many games at once have no core to spare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import compress, count, repeat
from operator import is_
from typing import cast

from ..cards import _CARD_INDEX, Card
from ..solver import Solver
from ..wordlist import WordList

__all__ = ["HandScorer", "scorer_for"]

Scores = tuple[int, int | None]
_Options = tuple[bool, int, int, int]


class HandScorer:
    """``(best score, best going-out score or None)`` of hands in one word
    list, as :func:`~quiddler.solver.score_many` gives them, memoised by the
    hand's cards (order-free) and the options."""

    def __init__(self, wordlist: WordList, *, max_entries: int = 200_000) -> None:
        self.wordlist = wordlist
        self.solver = Solver(wordlist)
        self.max_entries = max_entries
        self._memo: dict[_Options, dict[int, Scores]] = {}  # per options, by the hand's cards
        # scores_plus's own memo, per options: by the base's cards, then by the added card's index
        self._plus: dict[_Options, dict[int, dict[int, Scores]]] = {}
        self._entries = 0

    def scores(self, hands: Sequence[Sequence[Card]], *, discard: bool, beat_longest: int | None = None,
               beat_words: int | None = None, bonus: int = 10) -> list[Scores]:  # fmt: skip
        """Scores of ``hands`` in order; every hand not in the memo is
        scored in one batch."""

        def score(wanted: list[int]) -> list[Scores]:
            return self.solver.score_many([hands[i] for i in wanted], discard=discard, beat_longest=beat_longest,
                                          beat_words=beat_words, bonus=bonus, threads=1)  # fmt: skip

        return self._scored(list(map(_key, hands)), score, _options(discard, beat_longest, beat_words, bonus))

    def scores_less(self, hand: Sequence[Card], cards: Sequence[Card], *, discard: bool) -> list[Scores]:
        """:meth:`scores` of ``hand`` less one card, for each card of
        ``cards`` (each in ``hand``): a decision's kept hands.  Each key is
        the hand's key less the card's count (one subtraction).  Without a
        discard (a turn's kept cards), the kept hands the memo lacks come
        from one search of the whole hand, which holds them all as its
        states; otherwise a kept hand is built only if the memo lacks it."""
        key = _key(hand)
        keys = [key - _COUNT_OF[card] for card in cards]

        def score(wanted: list[int]) -> list[Scores]:
            kept = None if discard else self.solver._kept_scores(hand)
            if kept is not None:
                return [kept[cards[i]] for i in wanted]
            hands = []
            for i in wanted:
                hands.append(list(hand))
                hands[-1].remove(cards[i])
            return self.solver.score_many(hands, discard=discard, threads=1)

        return self._scored(keys, score, _options(discard, None, None, 10))

    def scores_plus(self, bases: Sequence[Sequence[Card]], extra: Sequence[Card], *, discard: bool,
                    beat_longest: int | None = None, beat_words: int | None = None,
                    bonus: int = 10) -> list[Scores]:  # fmt: skip
        """:meth:`scores` of ``base + [card]`` for each base, for each card
        of ``extra`` (base by base): a decision's hands are a few bases
        (the hand, each kept hand) plus each card a draw may bring.

        These hands have a memo of their own, by the base's cards and then
        by the card added: one look-up in the large memo per base, and one
        per card in the base's small dict of (at most) the 31 faces, instead
        of one in the large memo per hand.  The same hand reached from
        another base is scored again, which is rare: the next turn's draw
        has the same base as this turn's look-ahead.  With a discard (every
        player's decision), the hands the memo lacks are scored together:
        they share all but a card or two, and the solver finds the bases'
        words once and shares its search among every base and card.  So a
        hand two bases reach in one call (a kept hand plus the card it let
        go is the hand itself) costs next to nothing the second time, less
        than finding such hands out."""
        options = _options(discard, beat_longest, beat_words, bonus)
        self._make_room(len(bases) * len(extra))
        memo = self._plus.get(options)
        if memo is None:
            memo = self._plus[options] = {}
        added = list(map(_CARD_INDEX.__getitem__, extra))
        base_keys = list(map(_key, bases))
        rows = [memo.setdefault(key, {}) for key in base_keys]
        scores: list[Scores | None] = []
        for row in rows:
            scores += map(row.get, added)
        if all(scores):  # no None (a pair of scores is never empty)
            return cast(list[Scores], scores)
        width = len(extra)
        missing = list(compress(count(), map(is_, scores, repeat(None))))
        found = self.solver._score_plus(bases, extra, missing, beat_longest, beat_words, bonus) if discard else None
        if found is None:
            hands = [[*bases[i // width], extra[i % width]] for i in missing]
            found = self.solver.score_many(hands, discard=discard, beat_longest=beat_longest, beat_words=beat_words,
                                           bonus=bonus, threads=1)  # fmt: skip
        self._entries += len(missing)
        for i, pair in zip(missing, map(_SHARED.setdefault, found, found)):  # one tuple per pair (see _SHARED)
            scores[i] = rows[i // width][added[i % width]] = pair
        return cast(list[Scores], scores)

    def _scored(self, keys: list[int], score: Callable[[list[int]], list[Scores]], options: _Options) -> list[Scores]:
        """The scores of the hands with these memo keys: those not in the
        memo come from ``score`` of their places in ``keys`` (each
        distinct hand once), in one call."""
        self._make_room(len(keys))
        memo = self._memo.get(options)
        if memo is None:
            memo = self._memo[options] = {}
        known = list(map(memo.get, keys))  # most calls find every hand: one look-up each, at C speed
        if all(known):  # no None (a pair of scores is never empty)
            return cast(list[Scores], known)
        # Each distinct hand the memo lacks once (at its last place: the same cards).
        where = {keys[i]: i for i in compress(count(), map(is_, known, repeat(None)))}
        found = score(list(where.values()))
        fresh = dict(zip(where, map(_SHARED.setdefault, found, found)))  # one tuple per pair (see _SHARED)
        memo.update(fresh)
        self._entries += len(fresh)
        # The hands just scored from the small dict, the others as found: no second look-up in the large memo.
        return cast(list[Scores], list(map(fresh.get, keys, known)))

    def _make_room(self, hands: int) -> None:
        """Forget every hand when ``hands`` more might not fit under
        ``max_entries``: a crude bound (decisions need hundreds of hands,
        the memos hold many games' worth)."""
        if self._entries + hands > self.max_entries:
            self._memo.clear()
            self._plus.clear()
            self._entries = 0

    def one(self, hand: Sequence[Card], *, discard: bool) -> Scores:
        return self.scores([hand], discard=discard)[0]


def _options(discard: bool, beat_longest: int | None, beat_words: int | None, bonus: int) -> _Options:
    """The memos' key for a call's options."""
    return discard, -1 if beat_longest is None else beat_longest, -1 if beat_words is None else beat_words, bonus


#: Each card as a one in its face's byte of an int (the face's index picks the byte).
_COUNT_OF = {card: 1 << (8 * index) for card, index in _CARD_INDEX.items()}


def _key(hand: Iterable[Card]) -> int:
    """A hand's memo key, order-free: how many of each face it holds, a byte
    per face, summed at C speed (a hand of the game's cards holds at most 12
    of a face; the kernel solves at most 20 cards).  Adding a card to a hand
    adds its count to the key."""
    return sum(map(_COUNT_OF.__getitem__, hand))


#: One tuple per distinct pair of scores (a few hundred of them), which the
#: memo shares.  Why int keys and shared values: the memo holds up to
#: ``max_entries`` hands, and a new tuple per entry is an object the garbage
#: collector tracks.  Hundreds of thousands of them made its full collections
#: long, each landing on whichever decision came next; ints are never tracked,
#: and a dict holding only untracked objects is not traversed at all.
_SHARED: dict[Scores, Scores] = {}


_SCORERS: dict[WordList, HandScorer] = {}  # word lists hash by identity


def scorer_for(wordlist: WordList) -> HandScorer:
    """The process's scorer for ``wordlist`` (one memo per list)."""
    scorer = _SCORERS.get(wordlist)
    if scorer is None:
        scorer = _SCORERS[wordlist] = HandScorer(wordlist)
    return scorer
