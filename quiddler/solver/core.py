"""The public solver: :func:`solve` and :func:`find_words`.

These validate and convert (cards -> face counts), run one kernel call
through a backend, and wrap the integers that come back in value objects.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..cardtrie import KERNEL_ORDER, CardTrie
from ..cards import Card, parse_hand
from ..errors import HandTooLargeError, InvalidCardError
from ..wordlist import WordList, default_wordlist
from . import _kernels as K
from ._backends import FACE_SLOTS, MAX_CARDS, OUT_BLOCK, get_backend
from .types import Play, Solution, Word

__all__ = ["MAX_CARDS", "find_words", "solve"]

_KERNEL_CARDS = tuple(Card(face) for face in KERNEL_ORDER)
_KERNEL_INDEX = {card: k for k, card in enumerate(_KERNEL_CARDS)}
_NO_TARGET = 1 << 20


def _cards_of(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_hand(cards)
    hand = tuple(cards)
    for item in hand:
        if not isinstance(item, (Card, str)):
            raise InvalidCardError(f"not a card: {item!r}")
    return parse_hand(hand) if hand else hand


def _face_counts(hand: Sequence[Card]) -> list[int]:
    counts = [0] * FACE_SLOTS
    for card in hand:
        counts[_KERNEL_INDEX[card]] += 1
    return counts


def _check_size(hand: Sequence[Card]) -> None:
    if not hand:
        raise InvalidCardError("empty hand")
    if len(hand) > MAX_CARDS:
        raise HandTooLargeError(f"hand of {len(hand)} cards is too large (at most {MAX_CARDS})")


def solve(
    cards: Iterable[Card] | str,
    *,
    discard: bool = False,
    wordlist: WordList | None = None,
    top: int = 1,
    beat_longest: int | None = None,
    beat_words: int | None = None,
    bonus: int = 10,
    backend: str = "auto",
) -> Solution:
    """Find the highest-scoring way to lay the hand down as words.

    A play splits the cards into words of two or more cards from the word
    list, plus leftovers; it scores the points of the cards in words minus
    the points of the leftovers.  With ``discard=True`` (a turn, after
    drawing) exactly one card is discarded first and counts for nothing.
    Ties go to the play that goes out, then to the longest word (in letters),
    then to more words.

    ``beat_longest=N`` adds ``bonus`` to plays whose longest word has more
    than ``N`` letters; ``beat_words=N`` adds ``bonus`` to plays with more
    than ``N`` words.  The optimum accounts for them exactly.

    ``top`` asks for that many best distinct plays in ``Solution.plays``.
    ``backend`` is ``"numba"`` (compiled; fastest for many solves),
    ``"python"`` (no numba import; best for a single solve) or ``"auto"``.

    >>> sol = solve("d,cl,o,g,a,b,er,in,n,y,s")
    >>> sol.best.score, sol.best.goes_out
    (59, True)
    >>> solve("d,cl,o,g,a,b,er,in,n,y,s", discard=True).best.score
    57
    """
    hand = _cards_of(cards)
    _check_size(hand)
    if top < 1:
        raise ValueError(f"top must be at least 1, not {top}")
    for name, value in (("beat_longest", beat_longest), ("beat_words", beat_words)):
        if value is not None and value < 0:
            raise ValueError(f"{name} must not be negative, not {value}")
    words_list = wordlist if wordlist is not None else default_wordlist()
    trie = words_list.card_trie
    ncards = len(hand) - (1 if discard else 0)
    # A target no play can reach is dropped so the memo stays small.
    need_words = beat_words + 1 if beat_words is not None and beat_words + 1 <= ncards // 2 else 0
    long_target = 1 if beat_longest is not None else 0
    long_after = beat_longest if beat_longest is not None else _NO_TARGET
    params = [int(discard), need_words, long_target, long_after, bonus, bonus]

    counts = _face_counts(hand)
    states = 1
    for count in counts:
        states *= count + 1
    memo_size = K.MEMO_SLOT * states * (need_words + 1) * (long_target + 1)
    engine = get_backend(backend)
    out, found = engine.solve_counts(trie, counts, params, memo_size)

    best = _play_from(out, 0, found, trie, counts)
    best_go_out = _play_from(out, OUT_BLOCK, found, trie, counts) if out[OUT_BLOCK + 3] >= 0 else None
    plays: tuple[Play, ...] = (best,)
    if top > 1:
        out, found, count = engine.top_counts(trie, counts, params, memo_size, top)
        ranked = [_play_from(out, i * OUT_BLOCK, found, trie, counts) for i in range(count)]
        # The best play leads; where equally good plays tie, the order among
        # them is the enumeration's, so put the solver's choice first.
        plays = (best,) + tuple(play for play in ranked if play != best)[: top - 1]
    return Solution(cards=hand, discard_required=discard, plays=plays, best_go_out=best_go_out)


def _digit_cards(counts: Sequence[int]) -> list[Card]:
    return [_KERNEL_CARDS[face] for face, count in enumerate(counts) if count]


def _word_faces(radix: int, counts: Sequence[int]) -> list[int]:
    """The kernel faces (ascending) of a sub-multiset from its mixed-radix index."""
    faces = []
    for face, count in enumerate(counts):
        if count:
            faces.extend([face] * (radix % (count + 1)))
            radix //= count + 1
    return faces


def _play_from(out: Sequence[int], ob: int, found: Sequence[int], trie: CardTrie, counts: Sequence[int]) -> Play:
    """Build the Play a kernel wrote to the block of ``out`` at ``ob``."""
    digits = _digit_cards(counts)
    maxc = K.OUT_MAXC
    nwords, nleft = out[ob + 1], out[ob + 2]
    words = tuple(
        sorted(
            (
                _word_of(trie, trie.rank_of(_word_faces(found[K.WORD_STRIDE * out[ob + K.OUT_HEAD + i] + 1], counts)))
                for i in range(nwords)
            ),
            key=lambda w: (-w.points, -w.letters, w.text),
        )
    )
    unused = tuple(sorted(digits[out[ob + K.OUT_HEAD + maxc + i]] for i in range(nleft)))
    discard = digits[out[ob]] if out[ob] >= 0 else None
    total = (out[ob + 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET
    play = Play(words=words, unused=unused, discard=discard)
    return Play(words=words, unused=unused, discard=discard, bonus=total - play.card_score)


def _word_of(trie: CardTrie, rank: int) -> Word:
    """The multiset's representative word: the alphabetically first spelling."""
    faces = next(trie.spellings_of(rank))
    return Word("".join(faces), tuple(Card(face) for face in faces))


def find_words(cards: Iterable[Card] | str, *, wordlist: WordList | None = None,
               backend: str = "auto") -> tuple[Word, ...]:  # fmt: skip
    """Every word the cards can make, once per card spelling, best first
    (most points, then most letters, then alphabetical).

    >>> [str(w) for w in find_words("qu,e,e,n")][:3]
    ['queen', 'queen', 'quee']
    """
    hand = _cards_of(cards)
    _check_size(hand)
    trie = (wordlist if wordlist is not None else default_wordlist()).card_trie
    ranks = get_backend(backend).word_ranks(trie, _face_counts(hand))
    found = [
        Word("".join(faces), tuple(Card(face) for face in faces))
        for rank in ranks
        for faces in trie.spellings_of(rank)
    ]
    found.sort(key=lambda w: (-w.points, -w.letters, w.text, [c.index for c in w.cards]))
    return tuple(found)
