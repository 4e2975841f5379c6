"""The public solver: :func:`solve`, :func:`solve_many`, :func:`score_many` and :func:`find_words`.

These validate and convert (cards -> face counts), run one kernel call
through a backend, and wrap the integers that come back in value objects.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress
from math import prod
from operator import itemgetter
from typing import Any

from ..cards import Card, parse_hand
from ..cardtrie import KERNEL_ORDER, CardTrie
from ..errors import HandTooLargeError, InvalidCardError
from ..wordlist import WordList, default_wordlist
from . import _kernels as K
from ._backends import FACE_SLOTS, MAX_CARDS, OUT_BLOCK, NumbaBackend, batch_backend, get_backend
from .types import Play, Solution, Word

__all__ = ["MAX_CARDS", "find_words", "score_many", "solve", "solve_many"]

_KERNEL_CARDS = tuple(Card(face) for face in KERNEL_ORDER)
_KERNEL_INDEX = {card: k for k, card in enumerate(_KERNEL_CARDS)}
# Card order and points as dict lookups, for sorting and summing leftovers at
# C speed (Card.__lt__ and Card.points are Python calls).
_CARD_ORDER = {card: card.index for card in _KERNEL_CARDS}
_CARD_POINTS = {card: card.points for card in _KERNEL_CARDS}
_NO_TARGET = 1 << 20
_BATCH_MEMO_BYTES = 1 << 29  # what solve_many's per-chunk memos may take together


def _cards_of(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_hand(cards)
    hand = tuple(cards)
    if all(type(item) is Card for item in hand):
        return hand  # the common case: nothing to parse
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
    params = _params(len(hand), discard, beat_longest, beat_words, bonus)
    trie = (wordlist if wordlist is not None else default_wordlist()).card_trie
    counts = _face_counts(hand)
    memo_size = _memo_size(counts, params)
    engine = get_backend(backend)
    best, best_go_out = _best_plays(engine.solve_counts(trie, counts, params, memo_size), trie, counts)
    plays: tuple[Play, ...] = (best,)
    if top > 1:
        out, count = engine.top_counts(trie, counts, params, memo_size, top)
        digits = _digit_cards(counts)
        ranked = [_play_from(out, i * OUT_BLOCK, trie, digits) for i in range(count)]
        # The best play leads; where equally good plays tie, the order among
        # them is the enumeration's, so put the solver's choice first.
        plays = (best,) + tuple(play for play in ranked if play != best)[: top - 1]
    return Solution(cards=hand, discard_required=discard, plays=plays, best_go_out=best_go_out)


def solve_many(
    hands: Iterable[Iterable[Card] | str],
    *,
    discard: bool = False,
    wordlist: WordList | None = None,
    beat_longest: int | None = None,
    beat_words: int | None = None,
    bonus: int = 10,
    threads: int | None = None,
    backend: str = "auto",
) -> list[Solution]:
    """:func:`solve` for many hands at once, on every core.

    Gives exactly what ``[solve(h, ...) for h in hands]`` gives, but runs the
    compiled kernels over all hands in one call, spread over ``threads``
    threads (default: one per core).  A bad hand raises before anything is
    solved, naming its position.  With ``backend="auto"`` a batch too small
    to repay loading numba is solved in pure Python, and while the kernels
    are compiled for the first time (in the background) the first hands are
    too.  (Building the result objects is plain Python and takes longer
    than the solving; :func:`score_many` skips it.)

    >>> [s.best.score for s in solve_many(["qu,i,t", "a,b,c"])]
    [14, 18]
    """
    options = {"discard": discard, "wordlist": wordlist, "beat_longest": beat_longest,
               "beat_words": beat_words, "bonus": bonus}  # fmt: skip
    solutions: list[Solution] = []
    for chunk, batch in _batches(_parse_many(hands), threads, backend, options):
        if batch is None:
            solutions += [solve(hand, backend=backend, **options) for hand in chunk]  # type: ignore[arg-type]
            continue
        trie, counts, out, status = batch
        for i, hand in enumerate(chunk):
            if status[i] < 0:  # more words than the batch buffers hold: solve alone
                solutions.append(solve(hand, backend="numba", **options))  # type: ignore[arg-type]
                continue
            best, go_out = _best_plays(out[i].tolist(), trie, counts[i].tolist())
            solutions.append(Solution(cards=hand, discard_required=discard, plays=(best,), best_go_out=go_out))
    return solutions


def score_many(
    hands: Iterable[Iterable[Card] | str],
    *,
    discard: bool = False,
    wordlist: WordList | None = None,
    beat_longest: int | None = None,
    beat_words: int | None = None,
    bonus: int = 10,
    threads: int | None = None,
    backend: str = "auto",
) -> list[tuple[int, int | None]]:
    """For each hand, ``(best score, best going-out score or None)``: the
    numbers of :func:`solve_many` without building any play, for
    simulations that only need scores.  All the work is compiled and runs
    on every core (``backend`` as for :func:`solve_many`).

    >>> score_many(["qu,i,t", "a,b,c", "z,z"], discard=True)
    [(5, 5), (10, 10), (-14, None)]
    """
    options = {"discard": discard, "wordlist": wordlist, "beat_longest": beat_longest,
               "beat_words": beat_words, "bonus": bonus}  # fmt: skip
    result: list[tuple[int, int | None]] = []
    for chunk, batch in _batches(_parse_many(hands), threads, backend, options):
        if batch is None:
            result += [_scores_of(solve(hand, backend=backend, **options)) for hand in chunk]  # type: ignore[arg-type]
            continue
        _, _, out, status = batch
        scores = ((out[:, 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET).tolist()
        go_out = ((out[:, OUT_BLOCK + 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET).tolist()
        can = (out[:, OUT_BLOCK + 3] >= 0).tolist()
        for i, hand in enumerate(chunk):
            if status[i] < 0:  # more words than the batch buffers hold: solve alone
                result.append(_scores_of(solve(hand, backend="numba", **options)))  # type: ignore[arg-type]
            else:
                result.append((scores[i], go_out[i] if can[i] else None))
    return result


def _scores_of(solution: Solution) -> tuple[int, int | None]:
    return solution.best.score, solution.best_go_out.score if solution.best_go_out else None


#: Hands solved one by one between two looks at whether the compiled batch
#: kernel is ready (about 30 ms of pure Python).
_PYTHON_CHUNK = 32


def _batches(parsed: list[tuple[Card, ...]], threads: int | None, backend: str, options: dict[str, Any]
             ) -> Iterator[tuple[list[tuple[Card, ...]], tuple[CardTrie, Any, Any, Any] | None]]:  # fmt: skip
    """The shared course of :func:`solve_many` and :func:`score_many`: the
    hands in order, in chunks, each with the compiled batch's results
    (trie, counts, out, status) or None (solve that chunk one by one).  Once
    the compiled backend is ready, the rest goes to it in one batch."""
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    start = 0
    while start < len(parsed):
        engine = batch_backend(backend, len(parsed) - start)
        if engine is not None:
            rest = parsed[start:]
            yield rest, _run_batch(engine, rest, threads, **options)
            return
        yield parsed[start : start + _PYTHON_CHUNK], None
        start += _PYTHON_CHUNK


def _parse_many(hands: Iterable[Iterable[Card] | str]) -> list[tuple[Card, ...]]:
    """Every hand parsed and size-checked; a bad one raises, naming its position."""
    parsed = []
    for i, cards in enumerate(hands):
        try:
            hand = _cards_of(cards)
            _check_size(hand)
        except ValueError as exc:
            raise type(exc)(f"hand {i + 1}: {exc}") from None
        parsed.append(hand)
    return parsed


def _run_batch(engine: NumbaBackend, parsed: Sequence[tuple[Card, ...]], threads: int | None, *, discard: bool,
               wordlist: WordList | None, beat_longest: int | None, beat_words: int | None,
               bonus: int) -> tuple[CardTrie, Any, Any, Any]:  # fmt: skip
    """Run the compiled batch kernel: (trie, counts, out, status) as numpy
    arrays.  A hand whose status is negative overflowed the batch buffers
    and must be solved on its own."""
    import numpy as np

    params = _params(max((len(h) for h in parsed), default=1), discard, beat_longest, beat_words, bonus)
    trie = (wordlist if wordlist is not None else default_wordlist()).card_trie
    counts = np.array([_face_counts(hand) for hand in parsed], dtype=np.int64).reshape(len(parsed), FACE_SLOTS)
    memo_size = max((_memo_size(row, params) for row in counts.tolist()), default=1)
    if threads is None:
        threads = _cores()
    # Each thread has its own memo: huge hands (a 20-card memo can take tens
    # of MB) get fewer threads.
    threads = min(threads, max(1, _BATCH_MEMO_BYTES // (8 * memo_size)))
    out, status = engine.solve_batch(trie, counts, params, memo_size, threads)
    return trie, counts, out, status


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _params(ncards: int, discard: bool, beat_longest: int | None, beat_words: int | None, bonus: int) -> list[int]:
    """Validate the solve options and pack them for the kernels."""
    for name, value in (("beat_longest", beat_longest), ("beat_words", beat_words), ("bonus", bonus)):
        if value is not None and value < 0:
            raise ValueError(f"{name} must not be negative, not {value}")
    playable = ncards - (1 if discard else 0)
    # A word target no play can reach is dropped, so the memo stays small.
    need_words = beat_words + 1 if beat_words is not None and beat_words + 1 <= playable // 2 else 0
    long_target = 1 if beat_longest is not None else 0
    long_after = beat_longest if beat_longest is not None else _NO_TARGET
    return [int(discard), need_words, long_target, long_after, bonus, bonus]


def _memo_size(counts: Sequence[int], params: Sequence[int]) -> int:
    states = prod(map(_PLUS_ONE, filter(None, counts)))  # the mixed-radix size, at C speed
    return 1 + 2 * K.MEMO_SLOT * states * (params[1] + 1) * (params[2] + 1)


_PLUS_ONE = (1).__add__


def _digit_cards(counts: Sequence[int]) -> list[Card]:
    """The hand's distinct cards in kernel order (its digits)."""
    return list(compress(_KERNEL_CARDS, counts))


def _best_plays(out: Sequence[int], trie: CardTrie, counts: Sequence[int]) -> tuple[Play, Play | None]:
    """The best play and the best going-out play from ``solve_counts``' two blocks."""
    digits = _digit_cards(counts)
    best = _play_from(out, 0, trie, digits)
    if out[OUT_BLOCK + 3] < 0:
        return best, None
    if out[OUT_BLOCK : 2 * OUT_BLOCK] == out[:OUT_BLOCK]:
        return best, best  # the best play goes out
    return best, _play_from(out, OUT_BLOCK, trie, digits)


def _play_from(out: Sequence[int], ob: int, trie: CardTrie, digits: Sequence[Card]) -> Play:
    """Build the Play a kernel wrote to the block of ``out`` at ``ob``;
    ``digits`` are the hand's distinct cards in kernel order."""
    names = _names(trie)
    start = ob + K.OUT_HEAD
    named = sorted((names.get(rank) or _name(trie, rank, names) for rank in out[start : start + out[ob + 1]]),
                   key=_PLAY_ORDER)  # fmt: skip
    start += K.OUT_MAXC
    unused = tuple(sorted(map(digits.__getitem__, out[start : start + out[ob + 2]]), key=_CARD_ORDER.__getitem__))
    discard = digits[out[ob]] if out[ob] >= 0 else None
    total = (out[ob + 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET
    card_score = -sum(name[0] for name in named) - sum(map(_CARD_POINTS.__getitem__, unused))
    return Play(words=tuple(name[3] for name in named), unused=unused, discard=discard, bonus=total - card_score)


#: (-points, -letters, text, word): a word named by rank; plays list their
#: words by the first three.
_Named = tuple[int, int, str, Word]
_PLAY_ORDER = itemgetter(0, 1, 2)
_NAMES: dict[int, tuple[CardTrie, dict[int, _Named]]] = {}


def _names(trie: CardTrie) -> dict[int, _Named]:
    """The words named so far for ``trie``, by rank (words recur across hands)."""
    entry = _NAMES.get(id(trie))
    if entry is None or entry[0] is not trie:
        entry = _NAMES[id(trie)] = (trie, {})
    return entry[1]


def _name(trie: CardTrie, rank: int, names: dict[int, _Named]) -> _Named:
    """The multiset's representative word: the alphabetically first spelling."""
    faces = next(trie.spellings_of(rank))
    word = Word("".join(faces), tuple(Card(face) for face in faces))
    named = names[rank] = (-word.points, -word.letters, word.text, word)
    return named


def find_words(cards: Iterable[Card] | str, *, wordlist: WordList | None = None,
               backend: str = "auto") -> tuple[Word, ...]:  # fmt: skip
    """Every word the cards can make, once per card spelling, best first
    (most points, then most letters, then alphabetical).

    >>> [str(w) for w in find_words("qu,e,e,n")][:3]
    ['queen', 'nee', 'en']
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
