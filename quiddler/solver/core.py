"""The public solver: :func:`solve`, :func:`solve_many`, :func:`score_many` and :func:`find_words`.

These validate and convert (cards -> face counts), run one kernel call
through a backend, and wrap the integers that come back in value objects.
"""

from __future__ import annotations

import functools
import os
import weakref
from array import array
from collections.abc import Iterable, Iterator, Sequence
from operator import index, itemgetter
from typing import Any

from ..cards import Card, parse_hand
from ..cardtrie import KERNEL_ORDER, MAX_WORD_CARDS, CardTrie
from ..errors import HandTooLargeError, InvalidCardError, shown
from ..thresholds import BATCH_MEMO_BYTES, PYTHON_CHUNK
from ..wordlist import WordList, default_wordlist
from . import _kernels as K
from ._backends import (
    FACE_SLOTS,
    MAX_CARDS,
    OUT_BLOCK,
    AutoBackend,
    NumbaBackend,
    backends_made,
    batch_backend,
    get_backend,
    needed_memo,
)
from .types import Play, Solution, Word, new_play, new_solution

__all__ = ["MAX_BONUS", "MAX_CARDS", "MAX_TOP_PLAYS", "NO_GO_OUT", "find_words", "score_counts", "score_many",
           "solve", "solve_many"]

#: The largest ``bonus`` accepted (the rules use 10).  Scores are packed into
#: 64-bit keys by the compiled kernels; this keeps every score far inside them.
MAX_BONUS = 1_000_000
#: The most plays one ``top=K`` solve lists.  Any K is accepted and the
#: result is sized by the plays that exist; only a hand with more distinct
#: plays than this, asked for more than this, is refused.  (The kernel keeps
#: its plays in an insertion-sorted array: 1,001 plays of a 10-card hand took
#: 0.9 s, 10,001 took 53 s.)
MAX_TOP_PLAYS = 1_000
#: The search's memory bound in MB unless ``$QUIDDLER_MAX_MEMORY_MB`` says
#: otherwise.  The worst 20-card hand (20 distinct faces with both bonus
#: targets) needs about 1.8 GB; a typical hand well under 1 MB.
DEFAULT_MAX_MEMORY_MB = 2048
MEMORY_ENV = "QUIDDLER_MAX_MEMORY_MB"

assert MAX_WORD_CARDS == MAX_CARDS, "the index leaves out words no hand can hold"
_KERNEL_CARDS = tuple(Card(face) for face in KERNEL_ORDER)
_KERNEL_INDEX = {card: k for k, card in enumerate(_KERNEL_CARDS)}
# Card order and points as dict lookups, for sorting and summing leftovers at
# C speed (Card.__lt__ and Card.points are Python calls).
_CARD_ORDER = {card: card.index for card in _KERNEL_CARDS}
_CARD_POINTS = {card: card.points for card in _KERNEL_CARDS}
_CARD_ORDER_OF = _CARD_ORDER.__getitem__
_NO_TARGET = 1 << 20
_BACKENDS = backends_made()  # name -> backend, as get_backend made them
_FIRST_TOP = 64  # top=K starts with room for this many plays and grows while more exist


def _cards_of(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, (tuple, list)) and all(type(item) is Card for item in cards):
        return tuple(cards)  # the common case: nothing to parse
    return parse_hand(cards)


def _face_counts(hand: Iterable[Card]) -> array[int]:
    """The hand's count of each kernel face (:data:`FACE_SLOTS` of them),
    as the int64 array the compiled backend copies into its job row at C
    speed (converting a list of 38 ints there took about 1 µs)."""
    counts = _NO_COUNTS[:]
    for card in hand:
        counts[_KERNEL_INDEX[card]] += 1
    return counts


_NO_COUNTS = array("q", bytes(8 * FACE_SLOTS))


def _hand_and_counts(cards: Iterable[Card] | str) -> tuple[tuple[Card, ...], array[int]]:
    """The hand as a tuple of cards, size-checked, and its face counts.

    A tuple or list of cards (what programs pass) is counted straight away,
    one dict lookup a card: anything else in it is not a key of
    ``_KERNEL_INDEX`` (cards hash by identity), and only then is the hand
    parsed, with parsing's errors.  Checking every item's type first and
    counting after took twice as long.
    """
    if type(cards) is tuple or type(cards) is list:
        try:
            counts = _face_counts(cards)
        except (KeyError, TypeError):  # not all cards: parse it, with its errors
            pass
        else:
            hand = cards if type(cards) is tuple else tuple(cards)
            _check_size(hand)
            return hand, counts
    hand = _cards_of(cards)
    _check_size(hand)
    return hand, _face_counts(hand)


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
    # Every step has a fast path for the usual arguments (the kernel call of
    # an 11-card hand takes 10-20 µs, so each 0.1 µs here shows): see
    # "The Python around the kernel" in docs/solver.md.
    if ((type(cards) is tuple or type(cards) is list) and 0 < len(cards) <= _ROOMY_CARDS and type(discard) is bool
            and top == 1 and type(top) is int and wordlist is None and beat_longest is None and beat_words is None
            and bonus == 10 and type(bonus) is int and type(backend) is str
            and (engine := _BACKENDS.get(backend)) is not None
            and _ENVIRON_DATA.get(_MEMORY_KEY) is None and os.environ is _ENVIRON):  # fmt: skip
        # The usual call, a turn of a game: a tuple or list of at most 12
        # cards, the default list and options, a backend already made and
        # no memory setting (read as _memory_setting reads it, without its
        # call).  Each check of the plain path would pass (the options are
        # valid, no bonus target, the memo room is the table's, under any
        # memory bound), so this runs flat, without the helpers' calls
        # (0.2-0.4 µs of a solve, in situ).  The cards are counted at once:
        # anything in the hand that is not a card is no key of
        # ``_KERNEL_INDEX`` (cards hash by identity) and sends the hand
        # down the plain path, which parses it and raises parsing's error.
        counts = _NO_COUNTS[:]
        try:
            for card in cards:
                counts[_KERNEL_INDEX[card]] += 1
        except (KeyError, TypeError):
            pass
        else:
            hand = cards if type(cards) is tuple else tuple(cards)
            if type(engine) is AutoBackend:  # what _engine does
                engine = engine.compiled or engine
            trie = default_wordlist().card_trie
            out = engine.solve_counts(trie, counts, _PLAIN_PARAMS[discard], _ROOMY[len(hand)])
            last = _last_names
            if out[2] == 0 and not out[_OUT_TIES] and last is not None and last[0]() is trie:
                # The best play goes out (about 93% of 11-card turns; the
                # going-out play is the same), its words need no sorting
                # and are named by the list in use: _best_plays' work for
                # this case, without its calls and checks.
                try:
                    words = tuple(map(last[1][0].__getitem__, out[_OUT_HEAD : _OUT_HEAD + out[1]]))
                except KeyError:  # a word not named yet: _best_plays names it
                    pass
                else:
                    best = new_play(words, (), _KERNEL_CARDS[out[0]] if out[0] >= 0 else None, 0)
                    return new_solution(hand, discard, (best,), best)
            best, best_go_out = _best_plays(out, trie, False)
            return new_solution(hand, discard, (best,), best_go_out)
    hand, counts = _hand_and_counts(cards)
    top = _integer("top", top, 1)
    discard = _flag("discard", discard)
    params = _params(len(hand), discard, beat_longest, beat_words, bonus)
    trie = _wordlist_of(wordlist).card_trie
    memo_size = _memo_room(len(hand), counts, params)
    _check_memory(memo_size, params)
    engine = _engine(backend)
    targets = params[1] > 0 or params[2] > 0  # a bonus is possible
    out = engine.solve_counts(trie, counts, params, memo_size)
    best, best_go_out = _best_plays(out, trie, targets)
    plays: tuple[Play, ...] = (best,)
    if top > 1:
        out, count = _top_blocks(engine, trie, counts, params, memo_size, top)
        names = _names(trie)
        ranked = [_play_from(out, i * OUT_BLOCK, trie, names, targets) for i in range(count)]
        # The best play leads; where equally good plays tie, the order among
        # them is the enumeration's, so put the solver's choice first.
        plays = (best,) + tuple(play for play in ranked if play != best)[: top - 1]
    return new_solution(hand, discard, plays, best_go_out)


def _top_blocks(engine: Any, trie: CardTrie, counts: Sequence[int], params: Sequence[int], memo_size: int,
                top: int) -> tuple[Sequence[int], int]:  # fmt: skip
    """The ``top`` best plays, with room sized by the plays that exist: the
    search starts with room for a few and is rerun with more only while
    every slot fills, so ``top=10**20`` on a two-card hand costs nothing."""
    limit = min(top, _FIRST_TOP)
    while True:
        out, count = engine.top_counts(trie, counts, params, memo_size, limit)
        if count > MAX_TOP_PLAYS:
            raise ValueError(f"top={top:,}: this hand has more than {MAX_TOP_PLAYS:,} distinct plays, the most "
                             f"one solve lists; ask for at most {MAX_TOP_PLAYS:,}")  # fmt: skip
        if count < limit or limit == top:
            return out, count
        limit = min(top, 16 * limit, MAX_TOP_PLAYS + 1)


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
    targets = beat_longest is not None or beat_words is not None
    for chunk, batch in _batches(hands, threads, backend, options):
        if batch is None:
            solutions += [solve(hand, backend=backend, **options) for hand in chunk]  # type: ignore[arg-type]
            continue
        trie, out, status = batch
        for i, hand in enumerate(chunk):
            if status[i] < 0:  # more words than the batch buffers hold: solve alone
                solutions.append(solve(hand, backend="numba", **options))  # type: ignore[arg-type]
                continue
            best, go_out = _best_plays(out[i].tolist(), trie, targets)
            solutions.append(new_solution(hand, bool(options["discard"]), (best,), go_out))
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
    for chunk, batch in _batches(hands, threads, backend, options):
        if batch is None:
            result += [_scores_of(solve(hand, backend=backend, **options)) for hand in chunk]  # type: ignore[arg-type]
            continue
        _, out, status = batch
        scores = ((out[:, 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET).tolist()
        go_out = ((out[:, OUT_BLOCK + 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET).tolist()
        can = (out[:, OUT_BLOCK + 3] >= 0).tolist()
        for i, hand in enumerate(chunk):
            if status[i] < 0:  # more words than the batch buffers hold: solve alone
                result.append(_scores_of(solve(hand, backend="numba", **options)))  # type: ignore[arg-type]
            else:
                result.append((scores[i], go_out[i] if can[i] else None))
    return result


def score_counts(
    counts: Any,
    *,
    discard: bool = False,
    wordlist: WordList | None = None,
    threads: int | None = None,
) -> tuple[Any, Any]:
    """:func:`score_many` for hands given as a numpy matrix of face counts,
    the form a simulation generates: row ``i`` holds hand ``i``'s count of
    each face in :data:`~quiddler.cardtrie.KERNEL_ORDER` (32 columns, the
    last always 0).  Skips building card objects, so millions of hands cost
    little more than the compiled search.

    Returns ``(best, go_out)``, two int64 arrays: each hand's best score
    and its best going-out score, ``go_out`` holding :data:`NO_GO_OUT`
    where the hand cannot go out.  Needs numba.
    """
    import numpy as np

    counts = np.ascontiguousarray(counts, dtype=np.int64)
    if counts.ndim != 2 or counts.shape[1] != FACE_SLOTS:
        raise ValueError(f"counts must be an (n, {FACE_SLOTS}) matrix, not {counts.shape}")
    if len(counts) and (counts.min() < 0 or counts[:, FACE_SLOTS - 1].any()):
        raise ValueError("counts must be non-negative, with nothing in the last column")
    sizes = counts.sum(axis=1)
    if len(counts) and (sizes.min() < 1 or sizes.max() > MAX_CARDS):
        raise HandTooLargeError(f"every hand must hold 1 to {MAX_CARDS} cards")
    best = np.zeros(len(counts), dtype=np.int64)
    go_out = np.full(len(counts), NO_GO_OUT, dtype=np.int64)
    if not len(counts):
        return best, go_out
    params = _params(int(sizes.max()), discard, None, None, 10)
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    engine = get_backend("numba")
    assert isinstance(engine, NumbaBackend)
    trie = _wordlist_of(wordlist).card_trie
    memo_size = max(_memo_size(row, params) for row in counts.tolist())
    out, status = _batch_counts(engine, trie, counts, params, memo_size, threads)
    best[:] = (out[:, 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET
    can = out[:, OUT_BLOCK + 3] >= 0
    go_out[can] = ((out[:, OUT_BLOCK + 3] >> K.SCORE_SHIFT) - K.SCORE_OFFSET)[can]
    for i in np.flatnonzero(status < 0).tolist():  # more words than the batch buffers hold
        hand = [card for card, n in zip(_KERNEL_CARDS, counts[i].tolist()) for _ in range(n)]
        score, out_score = _scores_of(solve(hand, discard=discard, wordlist=wordlist, backend="numba"))
        best[i], go_out[i] = score, NO_GO_OUT if out_score is None else out_score
    return best, go_out


#: What :func:`score_counts` reports as the going-out score of a hand that cannot go out.
NO_GO_OUT = -(1 << 40)


def _scores_of(solution: Solution) -> tuple[int, int | None]:
    return solution.best.score, solution.best_go_out.score if solution.best_go_out else None


def _batches(hands: Iterable[Iterable[Card] | str], threads: int | None, backend: str, options: dict[str, Any]
             ) -> Iterator[tuple[list[tuple[Card, ...]], tuple[CardTrie, Any, Any] | None]]:  # fmt: skip
    """The shared course of :func:`solve_many` and :func:`score_many`: every
    argument checked and every hand parsed and counted first (nothing is
    solved if one is bad), then the hands in order, in chunks, each with the
    compiled batch's results (trie, out, status) or None (solve that chunk
    one by one).  Once the compiled backend is ready, the rest goes to it
    in one batch."""
    if isinstance(hands, (str, Card)):
        raise TypeError(f"hands must be an iterable of hands (a list of str, say), not one {type(hands).__name__}")
    if threads is not None:
        threads = _integer("threads", threads, 1)
    options["discard"] = _flag("discard", options["discard"])
    _wordlist_of(options["wordlist"])
    _engine(backend)  # a bad name raises here, not after the first chunk
    parsed, counts = _parse_many(hands)
    params = _params(max((len(h) for h in parsed), default=1), options["discard"], options["beat_longest"],
                     options["beat_words"], options["bonus"])  # fmt: skip
    sizes = [_memo_size(hand_counts, params) for hand_counts in counts]
    _check_memory(max(sizes, default=1), params)
    start = 0
    while start < len(parsed):
        engine = batch_backend(backend, len(parsed) - start)
        if engine is not None:
            trie = _wordlist_of(options["wordlist"]).card_trie
            yield parsed[start:], (trie, *_run_batch(engine, trie, counts[start:], max(sizes[start:]), params, threads))
            return
        yield parsed[start : start + PYTHON_CHUNK], None
        start += PYTHON_CHUNK


def _parse_many(hands: Iterable[Iterable[Card] | str]) -> tuple[list[tuple[Card, ...]], list[array[int]]]:
    """Every hand parsed, size-checked and counted (see :func:`_hand_and_counts`);
    a bad one raises, naming its position."""
    parsed, counts = [], []
    for i, cards in enumerate(hands):
        try:
            hand, hand_counts = _hand_and_counts(cards)
        except ValueError as exc:
            raise type(exc)(f"hand {i + 1}: {exc}") from None
        parsed.append(hand)
        counts.append(hand_counts)
    return parsed, counts


def _run_batch(engine: NumbaBackend, trie: CardTrie, counts: Sequence[array[int]], memo_size: int,
               params: Sequence[int], threads: int | None) -> tuple[Any, Any]:  # fmt: skip
    """Run the compiled batch kernel over hands given by their face counts:
    (out, status) as numpy arrays.  A hand whose status is negative
    overflowed the batch buffers and must be solved on its own."""
    import numpy as np

    # Each hand's counts are int64 bytes already: joined, they are the matrix (50 times faster than np.array).
    matrix = np.frombuffer(b"".join(counts), dtype=np.int64).reshape(len(counts), FACE_SLOTS)
    return _batch_counts(engine, trie, matrix, params, memo_size, threads)


def _batch_counts(engine: NumbaBackend, trie: CardTrie, counts: Any, params: Sequence[int], memo_size: int,
                  threads: int | None) -> tuple[Any, Any]:  # fmt: skip
    """(out, status) of the compiled batch over the int64 face-count matrix
    ``counts``, with memo room ``memo_size`` (enough for its largest search)."""
    if threads is None:
        threads = usable_cores()
    # Each thread has its own memo: huge hands (a 20-card memo can take tens
    # of MB) get fewer threads.
    threads = min(threads, max(1, BATCH_MEMO_BYTES // (8 * memo_size)))
    return engine.solve_batch(trie, counts, params, memo_size, threads)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system
    has one): what "every core" means for worker threads and processes."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _integer(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high``: TypeError for a float, a str or a
    bool, ValueError out of range, each naming the argument."""
    if type(value) is int and value >= low and (high is None or value <= high):
        return value  # the usual case, first (a bool is not exactly an int)
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    try:
        number = index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} {shown(value)}") from None
    if number < low:
        raise ValueError(f"{name} must be at least {low}, not {number}")
    if high is not None and number > high:
        raise ValueError(f"{name} must be at most {high:,}, not {shown(number)}")
    return number


def _flag(name: str, value: object) -> bool:
    """``value`` as a bool: True, False, 1 or 0 (a numpy bool too), nothing else."""
    if value is True or value is False:
        return value
    if type(value).__name__ == "bool_":  # numpy's bool, without importing numpy
        return bool(value)
    if not isinstance(value, bool) and isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True or False, not {type(value).__name__} {shown(value)}")


def _wordlist_of(wordlist: object) -> WordList:
    if wordlist is None:
        return default_wordlist()
    if not isinstance(wordlist, WordList):
        hint = " (load a file with quiddler.load_wordlist(path))" if isinstance(wordlist, (str, os.PathLike)) else ""
        raise TypeError(f"wordlist must be a WordList{hint}, not {type(wordlist).__name__} {shown(wordlist)}")
    return wordlist


def _engine(backend: object) -> Any:
    """The backend named ``backend``; the auto backend's compiled one once
    it has moved to it (its calls would only pass through)."""
    if not isinstance(backend, str):
        raise TypeError(f"backend must be 'auto', 'python' or 'numba', not {type(backend).__name__} {shown(backend)}")
    engine = get_backend(backend)
    return engine.compiled or engine if type(engine) is AutoBackend else engine


def _params(ncards: int, discard: bool, beat_longest: int | None, beat_words: int | None,
            bonus: int) -> tuple[int, ...]:  # fmt: skip
    """Validate the solve options and pack them for the kernels."""
    if beat_longest is None and beat_words is None and bonus == 10 and type(bonus) is int and type(discard) is bool:
        # No bonus targets (every solve of a game but the last turns): the
        # same tuple each time, which the compiled backend recognises.
        return _PLAIN_PARAMS[discard]
    if beat_longest is not None:
        beat_longest = _integer("beat_longest", beat_longest, 0)
    if beat_words is not None:
        beat_words = _integer("beat_words", beat_words, 0)
    bonus = _integer("bonus", bonus, 0, MAX_BONUS)
    playable = ncards - (1 if discard else 0)
    # A word target no play can reach is dropped, so the memo stays small.
    need_words = beat_words + 1 if beat_words is not None and beat_words + 1 <= playable // 2 else 0
    long_target = 1 if beat_longest is not None else 0
    # No word has _NO_TARGET letters: a larger target is as unreachable, and fits the kernels' int64.
    long_after = min(beat_longest, _NO_TARGET) if beat_longest is not None else _NO_TARGET
    return int(discard), need_words, long_target, long_after, bonus, bonus


_PLAIN_PARAMS: tuple[tuple[int, ...], ...] = ((0, 0, 0, _NO_TARGET, 10, 10), (1, 0, 0, _NO_TARGET, 10, 10))


def max_memory_bytes() -> int:
    """The search's memory bound: ``$QUIDDLER_MAX_MEMORY_MB`` (megabytes),
    else :data:`DEFAULT_MAX_MEMORY_MB`.  Read on every solve (a program may
    change it at any time), so read fast: see :func:`_memory_setting`."""
    text = _memory_setting()
    return DEFAULT_MAX_MEMORY_MB << 20 if text is None else _memory_limit(text)


def _memory_setting() -> str | None:
    """``os.environ.get(MEMORY_ENV)``, in a twentieth of the time.

    ``os.environ.get`` of an unset variable raises and catches a KeyError
    inside: 0.7 µs, a tenth of all the Python :func:`solve` runs around its
    kernel call.  ``os.environ`` keeps its values in a plain dict of encoded
    keys (``_data``; CPython's layout since 3.0) that every change made
    through ``os.environ`` (``monkeypatch.setenv`` too) updates, so a lookup
    there sees the same value.  Anything else standing in for
    ``os.environ`` (now, or when quiddler was imported) is asked the
    ordinary way.  :func:`solve`'s usual call makes the same lookup inline.
    """
    if os.environ is _ENVIRON:
        raw = _ENVIRON_DATA.get(_MEMORY_KEY)
        return None if raw is None else os.environ.decodevalue(raw)
    return os.environ.get(MEMORY_ENV)


_MEMORY_KEY = os.environ.encodekey(MEMORY_ENV) if type(os.environ) is os._Environ else None
# For _memory_setting and solve()'s usual call: os.environ as imported and
# its dict of encoded values (CPython never rebinds ``_data``: every change
# goes into it).  If os.environ is replaced later, the identity check fails
# and the variable is read the ordinary way.
_ENVIRON: object = os.environ
_ENVIRON_DATA: dict[Any, Any] = getattr(os.environ, "_data", None)  # type: ignore[assignment]
if type(os.environ) is not os._Environ or type(_ENVIRON_DATA) is not dict:  # not CPython's: no fast path
    _ENVIRON, _ENVIRON_DATA = None, {}


@functools.lru_cache(maxsize=16)
def _memory_limit(text: str) -> int:
    """The bound a setting of :data:`MEMORY_ENV` gives, in bytes (a bad
    setting raises, every time: errors are not cached)."""
    text = text.strip()
    if not text:
        return DEFAULT_MAX_MEMORY_MB << 20
    try:
        megabytes = int(text)
    except ValueError:
        raise ValueError(f"{MEMORY_ENV} must be a whole number of megabytes, not {shown(text)}") from None
    if megabytes < 1:
        raise ValueError(f"{MEMORY_ENV} must be at least 1, not {megabytes}")
    return megabytes << 20


def _check_memory(memo_size: int, params: Sequence[int]) -> None:
    """Refuse, before allocating anything, a search whose memo would pass
    the memory bound (its size is known exactly from the hand and targets)."""
    need, limit = 8 * memo_size, max_memory_bytes()
    if need > limit:
        targets = " with these bonus targets" if params[1] or params[2] else ""
        raise HandTooLargeError(
            f"this hand's search{targets} needs {need / 2**20:,.0f} MB, over the limit of {limit >> 20:,} MB "
            f"(set {MEMORY_ENV} to allow more)"
        )


def search_size(cards: Iterable[Card] | str, *, discard: bool = False, beat_longest: int | None = None,
                beat_words: int | None = None) -> int:  # fmt: skip
    """How many search states :func:`solve` may visit for this hand and
    these targets (the size of its memo): a measure of the work, which the
    command line uses to choose the compiled backend for big hands."""
    hand = _cards_of(cards)
    params = _params(len(hand), _flag("discard", discard), beat_longest, beat_words, 0)
    return (_memo_size(_face_counts(hand), params) - 1) // (2 * K.MEMO_SLOT)


_memo_size = needed_memo


def _memo_room(ncards: int, counts: Sequence[int], params: Sequence[int]) -> int:
    """Memo slots enough for the search of this hand (at least
    :func:`_memo_size`, which takes 0.7 µs to work out).

    A hand of at most :data:`_ROOMY_CARDS` cards without bonus targets (a
    hand of the game) gets the room the worst such hand needs, 2**ncards
    states: the memo is indexed by state, so spare room changes nothing,
    the pure-Python backend trims its memo to the exact size anyway, and
    at under 1 MB (the least memory bound one can set) the memory check
    passes as it would with the exact size.
    """
    if ncards <= _ROOMY_CARDS and params[1] == 0 and params[2] == 0:
        return _ROOMY[ncards]
    return needed_memo(counts, params)


_ROOMY_CARDS = 12
_ROOMY = [1 + 2 * K.MEMO_SLOT * (1 << n) for n in range(_ROOMY_CARDS + 1)]
assert 8 * _ROOMY[-1] < 1 << 20, "under the least memory bound"


def _best_plays(out: Sequence[int], trie: CardTrie, targets: bool) -> tuple[Play, Play | None]:
    """The best play and the best going-out play from ``solve_counts``' two
    blocks; ``targets``: whether the solve had bonus targets."""
    last = _last_names  # what _names(trie) checks first, without its call (0.045 µs in situ)
    names = last[1] if last is not None and last[0]() is trie else _names(trie)
    best = _play_from(out, 0, trie, names, targets)
    if out[2] == 0:  # no card left over: the kernel copied this play to the going-out block
        return best, best
    if out[OUT_BLOCK + 3] < 0:
        return best, None
    return best, _play_from(out, OUT_BLOCK, trie, names, targets)


def _play_from(out: Sequence[int], ob: int, trie: CardTrie, names: _Names, targets: bool) -> Play:
    """Build the Play a kernel wrote to the block of ``out`` at ``ob``: its
    words as ranks, in the order a play shows them but for ties on points
    and letters (flagged at ``[OUT_TIES]``: those go by text), its discard
    and leftovers as kernel faces; ``names`` is :func:`_names` of ``trie``.
    Without bonus targets the bonus is 0 (the kernel's score is the
    cards'); with them it is the kernel's score less the cards'."""
    words_of, orders = names
    start = ob + _OUT_HEAD
    ranks = out[start : start + out[ob + 1]]
    try:
        words = tuple(map(words_of.__getitem__, ranks))
    except KeyError:  # a word not named yet for this list
        words = tuple([words_of.get(rank) or _name(trie, rank, names) for rank in ranks])
    if out[ob + _OUT_TIES]:  # words equal on points and letters (about 3% of plays): order them by text
        words = tuple(map(_WORD, sorted(zip(map(orders.__getitem__, ranks), words), key=_PLAY_ORDER)))
    left = out[ob + 2]
    unused: tuple[Card, ...] = ()
    if left:
        start += _OUT_MAXC
        unused = tuple(sorted(map(_KERNEL_CARDS.__getitem__, out[start : start + left]), key=_CARD_ORDER_OF))
    bonus = 0
    if targets:
        card_score = (sum(_POINTS_TOP - (orders[rank] >> _POINTS_SHIFT) for rank in ranks)
                      - sum(map(_CARD_POINTS.__getitem__, unused)))  # fmt: skip
        bonus = (out[ob + 3] >> _SCORE_SHIFT) - _SCORE_OFFSET - card_score
    discard = out[ob]
    return new_play(words, unused, _KERNEL_CARDS[discard] if discard >= 0 else None, bonus)


# The kernels' output layout, as plain globals (each ``K.NAME`` is a lookup more).
_OUT_HEAD, _OUT_TIES, _OUT_MAXC = K.OUT_HEAD, K.OUT_TIES, K.OUT_MAXC
_SCORE_SHIFT, _SCORE_OFFSET = K.SCORE_SHIFT, K.SCORE_OFFSET
#: A trie's words named so far, by rank, and each one's order among a
#: play's words: one int that sorts as ``(-points, -letters, text)`` does
#: (see :func:`_play_order`; comparing ints is cheaper than comparing
#: tuples), read only where the kernel flags words equal on points and
#: letters (about 3% of plays) and for bonuses.  Apart, so that the usual
#: play touches only its words.
_Names = tuple[dict[int, Word], dict[int, int]]
_PLAY_ORDER = itemgetter(0)
_WORD = itemgetter(1)
# Held weakly: the names of a word list's words go when the list does.
_NAMES: weakref.WeakKeyDictionary[CardTrie, _Names] = weakref.WeakKeyDictionary()
# The last trie asked for and its names, through a weak reference too (and
# forgotten with the trie): nearly every solve uses the same list, and a
# WeakKeyDictionary lookup makes a new weak reference each time (0.15 µs).
_last_names: tuple[weakref.ref[CardTrie], _Names] | None = None


def _names(trie: CardTrie) -> _Names:
    """The words named so far for ``trie``, by rank (words recur across hands)."""
    global _last_names
    last = _last_names
    if last is not None and last[0]() is trie:
        return last[1]
    names = _NAMES.get(trie)
    if names is None:
        names = _NAMES.setdefault(trie, ({}, {}))
    _last_names = (weakref.ref(trie, _forget_last_names), names)
    return names


def _forget_last_names(dead: weakref.ref[CardTrie]) -> None:
    """A trie went: let its names go with it (a later trie may have replaced it already)."""
    global _last_names
    last = _last_names
    if last is not None and last[0] is dead:
        _last_names = None


def _name(trie: CardTrie, rank: int, names: _Names) -> Word:
    """The multiset's representative word: the alphabetically first spelling.

    Every word a process meets is named once, so a fresh process names
    several per hand: cards, points and letters come from dict lookups at C
    speed (6.6 -> 3.1 µs a word; ``Card(face)`` and ``Word.points`` are
    Python calls)."""
    faces = next(trie.spellings_of(rank))
    text = "".join(faces)
    word = Word(text, tuple(map(_CARD_OF_FACE.__getitem__, faces)))
    names[1][rank] = _play_order(sum(map(_FACE_POINTS.__getitem__, faces)), text)
    names[0][rank] = word
    return word


def _play_order(points: int, text: str) -> int:
    """An int that orders words as ``(-points, -letters, text)`` does: fewer
    points above, then fewer letters, then the text as a big-endian number of
    its ASCII bytes, :data:`_TEXT_BITS` wide.  Texts are compared only when
    their lengths are equal, and letters a-z as bytes compare as they do as
    characters."""
    head = (_POINTS_TOP - points) << _LETTER_BITS | (_LETTERS_TOP - len(text))
    return head << _TEXT_BITS | int.from_bytes(text.encode("ascii"), "big")


# A word has at most MAX_WORD_CARDS cards of at most 2 letters and 15 points each.
_LETTER_BITS, _LETTERS_TOP, _POINTS_TOP = 6, 63, 1023
_TEXT_BITS = 8 * _LETTERS_TOP
_POINTS_SHIFT = _LETTER_BITS + _TEXT_BITS
assert 2 * MAX_WORD_CARDS <= _LETTERS_TOP and 15 * MAX_WORD_CARDS <= _POINTS_TOP


_CARD_OF_FACE = {card.face: card for card in _KERNEL_CARDS}
_FACE_POINTS = {card.face: card.points for card in _KERNEL_CARDS}


def find_words(cards: Iterable[Card] | str, *, wordlist: WordList | None = None,
               backend: str = "auto") -> tuple[Word, ...]:  # fmt: skip
    """Every word the cards can make, once per card spelling, best first
    (most points, then most letters, then alphabetical).

    >>> [str(w) for w in find_words("qu,e,e,n")][:3]
    ['queen', 'nee', 'en']
    """
    hand = _cards_of(cards)
    _check_size(hand)
    trie = _wordlist_of(wordlist).card_trie
    ranks = _engine(backend).word_ranks(trie, _face_counts(hand))
    found = [
        Word("".join(faces), tuple(Card(face) for face in faces))
        for rank in ranks
        for faces in trie.spellings_of(rank)
    ]
    found.sort(key=lambda w: (-w.points, -w.letters, w.text, [c.index for c in w.cards]))
    return tuple(found)
