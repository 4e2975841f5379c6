"""A slow, obviously correct reference solver: the specification of ``solve()``.

It shares nothing with the library's solver (no card trie, no kernels).  A
word is found through an anagram index (sorted letters -> words), then kept
only if it can be spelled with exactly the group's cards.  Every split of the
hand is enumerated: the first card is either left over or in a word with some
sub-multiset of the other cards, and the rest is split the same way.  Cards
are handled as faces (strings) and multisets as sorted tuples of faces, so
identical cards never produce duplicate plays.  Fine for hands up to about
eight cards with ENABLE, and for large hands of few distinct faces with a
small word list.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import product
from typing import Any, NamedTuple

from quiddler import Card

Multiset = tuple[str, ...]  # sorted faces

_DOUBLES = ("er", "in", "qu", "th", "cl")


def spell(word: str) -> list[tuple[str, ...]]:
    """Every way to write ``word`` with card faces, in word order.

    >>> spell("then")
    [('t', 'h', 'e', 'n'), ('th', 'e', 'n')]
    """
    if not word:
        return [()]
    heads = [word[0]] + [word[:2]] * (word[:2] in _DOUBLES)
    return [(head,) + tail for head in heads for tail in spell(word[len(head) :])]


def points(faces: Iterable[str]) -> int:
    return sum(Card(face).points for face in faces)


def sub_multisets(hand: Multiset) -> Iterator[Multiset]:
    """Every sub-multiset of ``hand``, each once.

    >>> list(sub_multisets(("a", "a", "b")))
    [(), ('b',), ('a',), ('a', 'b'), ('a', 'a'), ('a', 'a', 'b')]
    """
    counts = Counter(hand)
    for takes in product(*(range(n + 1) for n in counts.values())):
        yield tuple(sorted(face for face, k in zip(counts, takes) for _ in range(k)))


def without(hand: Multiset, taken: Multiset) -> Multiset:
    left = Counter(hand)
    left.subtract(taken)
    return tuple(sorted(left.elements()))


class Targets(NamedTuple):
    """The bonus targets of ``solve()``."""

    beat_longest: int | None = None
    beat_words: int | None = None
    bonus: int = 10

    def bonus_of(self, longest: int, count: int) -> int:
        won = (self.beat_longest is not None and longest > self.beat_longest) + (
            self.beat_words is not None and count > self.beat_words
        )
        return self.bonus * won


NO_TARGETS = Targets()


class RefPlay(NamedTuple):
    """A play up to the order of words and cards: what makes two plays distinct."""

    discard: str | None
    words: tuple[Multiset, ...]  # sorted
    unused: Multiset

    @classmethod
    def of(cls, play: Any) -> RefPlay:
        """The reference form of a library ``Play``."""
        return cls(
            None if play.discard is None else play.discard.face,
            tuple(sorted(tuple(sorted(c.face for c in w.cards)) for w in play.words)),
            tuple(sorted(c.face for c in play.unused)),
        )

    @property
    def card_score(self) -> int:
        return sum(points(word) for word in self.words) - points(self.unused)

    @property
    def goes_out(self) -> bool:
        return not self.unused

    @property
    def longest_word(self) -> int:
        return max((len("".join(word)) for word in self.words), default=0)

    def score(self, targets: Targets = NO_TARGETS) -> int:
        return self.card_score + targets.bonus_of(self.longest_word, len(self.words))

    def key(self, targets: Targets = NO_TARGETS) -> tuple[int, bool, int, int]:
        """What the best play maximises: score, goes out, longest word, word count."""
        return (self.score(targets), self.goes_out, self.longest_word, len(self.words))


class Reference:
    """The reference solver over one word list."""

    def __init__(self, words: Iterable[str]) -> None:
        self.anagrams: dict[str, list[str]] = defaultdict(list)
        for word in words:
            self.anagrams["".join(sorted(word))].append(word)
        self._words_for: dict[Multiset, tuple[str, ...]] = {}

    def words_for(self, group: Multiset) -> tuple[str, ...]:
        """The words spelled by exactly the cards ``group`` (two or more)."""
        if group not in self._words_for:
            candidates = self.anagrams.get("".join(sorted("".join(group))), []) if len(group) >= 2 else []
            self._words_for[group] = tuple(
                sorted(w for w in candidates if any(tuple(sorted(s)) == group for s in spell(w)))
            )
        return self._words_for[group]

    def plays(self, cards: Sequence[Card], discard: bool = False) -> set[RefPlay]:
        """Every distinct play of the hand."""

        @cache
        def splits(hand: Multiset) -> frozenset[tuple[tuple[Multiset, ...], Multiset]]:
            if not hand:
                return frozenset({((), ())})
            first, rest = hand[0], hand[1:]
            found = {(words, tuple(sorted(unused + (first,)))) for words, unused in splits(rest)}
            for others in sub_multisets(rest):
                group = (first,) + others
                if self.words_for(group):
                    for words, unused in splits(without(rest, others)):
                        found.add((tuple(sorted(words + (group,))), unused))
            return frozenset(found)

        hand = tuple(sorted(card.face for card in cards))
        starts = [(face, without(hand, (face,))) for face in set(hand)] if discard else [(None, hand)]
        return {RefPlay(d, words, unused) for d, rest in starts for words, unused in splits(rest)}

    def ranked(
        self, cards: Sequence[Card], discard: bool = False, targets: Targets = NO_TARGETS
    ) -> list[RefPlay]:
        """Every distinct play, best first (ties in an arbitrary order)."""
        return sorted(self.plays(cards, discard), key=lambda p: p.key(targets), reverse=True)

    def find_words(self, cards: Sequence[Card]) -> set[tuple[str, tuple[str, ...]]]:
        """(word, faces in word order) for every word and spelling the cards make."""
        hand = tuple(sorted(card.face for card in cards))
        return {
            (word, faces)
            for group in sub_multisets(hand)
            for word in self.words_for(group)
            for faces in spell(word)
            if tuple(sorted(faces)) == group
        }


@cache
def enable_reference() -> Reference:
    """The reference over the default list (ENABLE), built once."""
    from quiddler import default_wordlist

    return Reference(default_wordlist())
