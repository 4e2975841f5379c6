"""The best play of a final turn, solving only the bonus targets that can still matter.

A final turn's best play is found by solving the hand once plainly and
once per set of bonus targets (beat the longest word laid down, beat the
most words, both, or the expert's ties that deny a bonus), each target
with a bonus too big to pass up, and comparing the plays at their true
values.  Most of those solves cannot change the answer: a target no play
of the hand can meet adds nothing, and a solve whose play cannot be worth
more than the best found so far is skipped.

What any play can be worth is bounded by the plain solve's card score
(no play scores more without bonuses) plus the bonuses at the longest
word and the most words the hand may still make.  Those two start at what
the cards allow (every letter in one word; two cards a word) and shrink as
solves prove targets out of reach: a solve aiming at one target whose
play misses it proves that no play meets it (the bonus outweighs any
score), and a solve aiming at two that meets neither proves both out of
reach.  A solve whose targets, less those out of reach, are those of a
solve done already finds a play of that play's card score.  Where the
caller knows the best value, the solves stop at the first play worth it.

The plays are tried in the callers' order and a later play replaces the
best only when worth strictly more, so the play returned is the first of
the full list with the highest value, as before: every play skipped is
worth at most the best one found earlier.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import attrgetter

from ..cards import Card
from ..solver.types import Play

__all__ = ["FinalSearch", "best_final_play_of"]

Target = tuple[int | None, int | None]
_FACE = attrgetter("face")


class FinalSearch:
    """The solves of one final-turn hand, done one at a time and only while
    they can still change the answer: the best play so far (:attr:`best`,
    :attr:`value`) and the most the answer can be worth (:attr:`high`)
    narrow towards each other until :meth:`step` has nothing left to do.

    :param cards: The hand being solved (for the bounds on its words).
    :param discard: Whether the plays discard a card.
    :param targets: ``(beat_longest, beat_words)`` per solve, in order; the
        first must be ``(None, None)``, the plain solve.
    :param solve: Solves the hand for one target pair (cached by the caller).
    :param value: A play's true value.
    :param ceiling: The most a play with this card score, this longest word
        (letters) and this many words can be worth; it must never fall as
        any of the three grows (for a value that is a function of the three
        alone, computed the same way, it is that value).
    :param most: The most any play of the hand is worth, where the caller
        knows it (one solve can tell, for some values): no solve is done
        once a play worth that much is found.
    """

    def __init__(self, cards: Sequence[Card], discard: bool, targets: Sequence[Target],
                 solve: Callable[[int | None, int | None], Play], value: Callable[[Play], float],
                 ceiling: Callable[[int, int, int], float], most: float | None = None) -> None:  # fmt: skip
        assert targets and targets[0] == (None, None)
        self._solve, self._value, self._ceiling = solve, value, ceiling
        self._most = math.inf if most is None else most
        letters = sorted(map(len, map(_FACE, cards)))  # each card's letters (Card.letters), at C speed
        self._max_long = sum(letters[1:] if discard and letters else letters)
        self._max_count = (len(cards) - (1 if discard else 0)) // 2
        self.best = solve(None, None)
        self.value = value(self.best)
        self._scores: dict[Target, int] = {(None, None): self.best.card_score}  # each solve's play's card score
        self._pending = list(targets[1:])

    def _bound(self, target: Target) -> float:
        """The most the play of ``target``'s solve can be worth.  Without
        the targets proved out of reach, a solve aims as one done already
        does: its play has that play's card score (and meets the same
        targets); otherwise no play scores more than the plain solve's."""
        longest, count = target
        aim = (None if longest is None or self._max_long <= longest else longest,
               None if count is None or self._max_count <= count else count)  # fmt: skip
        score = self._scores[aim if aim in self._scores else (None, None)]
        return self._ceiling(score, self._max_long, self._max_count)

    @property
    def high(self) -> float:
        """The most the best play can be worth, whatever the solves left find."""
        return min(self._most, max([self.value, *map(self._bound, self._pending)]))

    def step(self) -> bool:
        """Do the next solve that can still beat the best play (the ones
        before it that cannot are dropped); False when none is left."""
        while self._pending:
            target = self._pending.pop(0)
            if self.value < self._most and self._bound(target) > self.value:
                break
        else:
            return False
        longest, count = target
        play = self._solve(longest, count)
        self._scores[target] = play.card_score
        long_missed = longest is not None and play.longest_word <= longest
        count_missed = count is not None and play.word_count <= count
        # Each target carries a bonus no score outweighs: a solve that misses every target
        # it aims at proves no play of the hand meets them.
        if longest is not None and long_missed and (count is None or count_missed):
            self._max_long = min(self._max_long, longest)
        if count is not None and count_missed and (longest is None or long_missed):
            self._max_count = min(self._max_count, count)
        worth = self._value(play)
        if worth > self.value:  # strictly: on a tie the earlier play stays, as max() keeps the first
            self.best, self.value = play, worth
        return True

    def finish(self) -> tuple[Play, float]:
        """The best play of every target's solve (the first of the best) and its value."""
        while self.step():
            pass
        return self.best, self.value


def best_final_play_of(cards: Sequence[Card], discard: bool, targets: Sequence[Target],
                       solve: Callable[[int | None, int | None], Play], value: Callable[[Play], float],
                       ceiling: Callable[[int, int, int], float], most: float | None = None) -> tuple[Play, float]:  # fmt: skip
    """The first play of ``solve(*target)`` over ``targets`` with the
    highest ``value``, and that value, without the solves that cannot
    change it (see :class:`FinalSearch` for the arguments)."""
    return FinalSearch(cards, discard, targets, solve, value, ceiling, most).finish()
