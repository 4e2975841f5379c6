"""The public solver: :class:`Solver`, and :func:`solve` and its kin over a default one.

A :class:`Solver` is prepared once for a word list and a backend: it looks up
the list's card trie, the backend, the memory bound and the names of the
words met so far, so that each call only validates its arguments, counts the
cards, runs one kernel call and wraps the integers that come back in value
objects.  The module-level functions do the same over a default Solver per
backend (the default word list), or a new one for any other list.
"""

from __future__ import annotations

import functools
import os
import weakref
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from operator import attrgetter, index, itemgetter
from typing import Any

from ..cards import Card, parse_hand
from ..cardtrie import KERNEL_ORDER, MAX_WORD_CARDS, MIN_WORD_CARDS, CardTrie
from ..errors import ArgumentTypeError, HandTooLargeError, InvalidArgumentError, InvalidCardError, shown
from ..thresholds import BATCH_MEMO_BYTES, PYTHON_CHUNK
from ..wordlist import WordList, default_wordlist
from . import _kernels as K
from ._backends import (
    BACKEND_NAMES,
    FACE_SLOTS,
    JOB_OUT,
    MAX_CARDS,
    OUT_BLOCK,
    AutoBackend,
    NumbaBackend,
    batch_backend,
    get_backend,
    needed_memo,
)
from .types import Play, Solution, Word, make_play, make_solution, make_word

__all__ = ["DEFAULT_MAX_MEMORY_MB", "MAX_BONUS", "MAX_CARDS", "MAX_TOP_PLAYS", "MEMORY_ENV", "NO_GO_OUT", "Solver",
           "find_words", "max_memory_bytes", "score_counts", "score_many", "search_size", "solve", "solve_many",
           "usable_cores"]  # fmt: skip

#: The largest ``bonus`` accepted: 1,000,000 (the rules use 10).  Scores are packed into
#: 64-bit keys by the compiled kernels; this keeps every score far inside them.
MAX_BONUS = 1_000_000
#: The most plays one ``top=K`` solve lists.  Any K is accepted and the
#: result is sized by the plays that exist; only a hand with more distinct
#: plays than this, asked for more than this, is refused (the kernel keeps
#: its plays in an insertion-sorted array, whose cost grows with the square
#: of K: see the solver's explanation page).
MAX_TOP_PLAYS = 1_000
#: The search's memory bound in MB unless ``$QUIDDLER_MAX_MEMORY_MB`` says
#: otherwise.  The worst 20-card hand (20 distinct faces with both bonus
#: targets) needs about 1.8 GB; a typical hand well under 1 MB.
DEFAULT_MAX_MEMORY_MB = 2048
MEMORY_ENV = "QUIDDLER_MAX_MEMORY_MB"
#: What :func:`score_counts` reports as the going-out score of a hand that
#: cannot go out: -2**40, that is -1099511627776, below any score.
NO_GO_OUT = -(1 << 40)

assert MAX_WORD_CARDS == MAX_CARDS, "the index leaves out words no hand can hold"
assert MIN_WORD_CARDS >= 2, "an itemgetter of a word's faces gives a tuple (see _name)"
_KERNEL_CARDS = tuple(Card(face) for face in KERNEL_ORDER)
# Cards hash by identity: a dict of them finds a card's kernel face, order
# and points without a Python call (Card.__lt__ and Card.points are calls).
_KERNEL_INDEX = {card: k for k, card in enumerate(_KERNEL_CARDS)}
_CARD_ORDER_OF = {card: card.index for card in _KERNEL_CARDS}.__getitem__
# Each card's kernel face as int64 bytes, for the compiled backend's solve_hand.
_FACE_BYTES = {card: array("q", [k]).tobytes() for card, k in _KERNEL_INDEX.items()}
_CARD_OF_FACE = {card.face: card for card in _KERNEL_CARDS}
_KERNEL_POINTS = tuple(card.points for card in _KERNEL_CARDS)
_NO_COUNTS = array("q", bytes(8 * FACE_SLOTS))
#: No word has this many letters: a larger ``beat_longest`` is as
#: unreachable, and the kernels' int64 holds it.
_NO_TARGET = 1 << 20
#: The kernels' parameters without bonus targets, by ``discard``: the same
#: tuple for every such solve, which the compiled backend recognises.
_PLAIN_PARAMS: tuple[tuple[int, ...], ...] = ((0, 0, 0, _NO_TARGET, 10, 10), (1, 0, 0, _NO_TARGET, 10, 10))
#: The least memory bound ``$QUIDDLER_MAX_MEMORY_MB`` can set (1 MB): a search
#: needing no more is never refused, so its bound need not be looked at.
_LEAST_MEMORY_BOUND = 1 << 20
#: Hands of at most this many cards without bonus targets (every hand of a
#: game) get the memo room the worst such hand needs, 2**n states, from
#: :data:`_ROOMY`: the memo is indexed by state, so spare room changes
#: nothing, and at under 1 MB (the least memory bound one can set) no bound
#: refuses it.  Working out the exact size would cost more than the room.
_ROOMY_CARDS = 12
_ROOMY = tuple(1 + 2 * K.MEMO_SLOT * (1 << n) for n in range(_ROOMY_CARDS + 1))
assert 8 * _ROOMY[-1] < 1 << 20, "under the least memory bound"
assert JOB_OUT + K.KEPT_STRIDE * FACE_SLOTS <= K.JOB_WIDTH, "a job row holds the keys of every face (see _kept_scores)"
_FIRST_TOP = 64  # top=K starts with room for this many plays and grows while more exist
# The kernels' output layout (a play block's fields: see _kernels), as plain
# globals (each ``K.NAME`` is a lookup more).
_OUT_DISCARD, _OUT_WORDS, _OUT_LEFT, _OUT_KEY = K.OUT_DISCARD, K.OUT_WORDS, K.OUT_LEFT, K.OUT_KEY
_OUT_HEAD, _OUT_TIES = K.OUT_HEAD, K.OUT_TIES
_SCORE_SHIFT, _SCORE_OFFSET = K.SCORE_SHIFT, K.SCORE_OFFSET
_OUT_BLOCK_KEY = OUT_BLOCK + _OUT_KEY
_KEY_COLUMNS = [_OUT_KEY, _OUT_BLOCK_KEY]  # a batch's best and going-out keys, in its out rows
_PLUS_KEY_COLUMNS = ((K.PLUS_BEST,), (K.PLUS_GO,))  # where score_plus_rows' jobs start them (add each hand's column)
_OUT_LEFTOVERS = K.OUT_LEFTOVERS
_OUT_EVEN_DISCARDS = K.OUT_EVEN_DISCARDS
_INFEASIBLE = K.INFEASIBLE
CLASS_WORDS, CLASS_COUNT = K.CLASS_WORDS, K.CLASS_COUNT
#: The defaults of ``top`` and ``bonus``: :meth:`Solver.solve` takes its quick
#: path when they are these very objects (CPython keeps one object per small int).
_TOP, _BONUS = 1, 10
#: A play block's discard as a card: the kernel face's card, or None for the
#: kernel's NO_DISCARD (-1, the last item).
_CARD_OR_NONE = (*_KERNEL_CARDS, None)
assert K.NO_DISCARD == -1 and len(_CARD_OR_NONE) == len(_KERNEL_CARDS) + 1
_PLAY_ORDER = itemgetter(0)
_WORD = itemgetter(1)
_TEXT = attrgetter("text")
_PARAM_NEED_WORDS, _PARAM_LONG_TARGET, _PARAM_LONG_AFTER = K.PARAM_NEED_WORDS, K.PARAM_LONG_TARGET, K.PARAM_LONG_AFTER
_PARAM_WORD_BONUS, _PARAM_LONG_BONUS = K.PARAM_WORD_BONUS, K.PARAM_LONG_BONUS


class Solver:
    """The solver prepared for one word list and backend.

    Everything that does not depend on the hand is resolved once, here: the
    word list's card trie, the backend, the memory bound and the words named
    so far.  The calls (:meth:`solve`, :meth:`solve_many`,
    :meth:`score_many`, :meth:`score_counts`, :meth:`find_words`,
    :meth:`search_size`) take the same arguments as the module-level
    functions of the same names, less ``wordlist`` and ``backend``, and give
    the same results; a program that solves many hands (a game's player, a
    simulation) holds one.

    ``backend`` is ``"numba"`` (compiled; fastest for many solves),
    ``"python"`` (no numba import; best for a single solve) or ``"auto"``
    (Python until the compiled kernels pay off).

    The memory bound, ``$QUIDDLER_MAX_MEMORY_MB`` (megabytes, default
    :data:`DEFAULT_MAX_MEMORY_MB`), is read when the Solver is made, once:
    a change to the variable later applies to Solvers made after it (the
    module-level functions follow it at once: see :func:`default_solver`).
    A bad setting raises here.

    >>> solver = Solver()
    >>> solver.solve("d,cl,o,g,a,b,er,in,n,y,s").best.score
    59
    >>> [score for score, _ in solver.score_many(["qu,i,t", "a,b,c"])]
    [14, 18]

    :param wordlist: The word list plays are made from; None: the default
        ENABLE list (:func:`~quiddler.default_wordlist`).
    :param backend: ``"numba"``, ``"python"`` or ``"auto"``, as above.
    :raises ArgumentTypeError: ``wordlist`` is not a :class:`~quiddler.WordList`,
        or ``backend`` is not a string.
    :raises InvalidArgumentError: ``backend`` is not one of the three names,
        or ``$QUIDDLER_MAX_MEMORY_MB`` is not a whole number of megabytes of
        at least 1.
    """

    __slots__ = ("_auto", "_engine", "_follows_environment", "_orders", "_trie", "_word_of", "_words", "backend",
                 "max_memory_bytes", "wordlist")

    def __init__(self, wordlist: WordList | None = None, backend: str = "auto") -> None:
        #: The word list plays are made from.
        self.wordlist: WordList = _wordlist_of(wordlist)
        #: The backend's name, as given.
        self.backend: str = _backend_name(backend)
        #: The memory bound in bytes: no search needing more is started.
        self.max_memory_bytes: int = max_memory_bytes()
        # The module-level functions' default Solvers (see default_solver)
        # read the setting again for every search it could refuse.
        self._follows_environment = False
        self._trie = self.wordlist.card_trie
        engine = get_backend(self.backend)
        # The auto backend hands every call to its compiled one once it has
        # moved there: from then on this calls that one directly.
        self._engine: Any = engine.compiled or engine if type(engine) is AutoBackend else engine
        self._auto: Any = engine if type(engine) is AutoBackend else None
        # The words named so far for this trie, shared by every Solver on it:
        # each word once, by rank, and each one's order among a play's words.
        self._words, self._orders = _names(self._trie)
        self._word_of = self._words.__getitem__

    def __repr__(self) -> str:
        return f"Solver(wordlist={self.wordlist.name!r}, backend={self.backend!r})"

    # -- one hand -------------------------------------------------------------------

    def solve(self, cards: Iterable[Card] | str, *, discard: bool = False, top: int = 1,
              beat_longest: int | None = None, beat_words: int | None = None, bonus: int = 10) -> Solution:  # fmt: skip
        """Find the highest-scoring way to lay the hand down as words: see :func:`solve`.

        :param cards: The hand: :class:`~quiddler.Card` objects, or the faces
            as a string such as ``"qu,e,e,n"`` (read by :func:`~quiddler.parse_hand`).
        :param discard: Discard exactly one card first (a turn, after
            drawing); the discard counts for nothing.
        :param top: How many best distinct plays ``Solution.plays`` lists.
        :param beat_longest: Add ``bonus`` to plays whose longest word has
            more than this many letters; None sets no such target.
        :param beat_words: Add ``bonus`` to plays with more than this many
            words; None sets no such target.
        :param bonus: What meeting a target adds, 0 to :data:`~quiddler.MAX_BONUS`.
        :returns: The best play, the best going-out play and, with ``top``,
            the next best plays.
        :raises InvalidCardError: A card cannot be read, or a hand is empty.
        :raises HandTooLargeError: A hand has more than
            :data:`~quiddler.MAX_CARDS` cards, or its search would need more
            memory than the bound allows.
        :raises ArgumentTypeError: An option has the wrong type.
        :raises InvalidArgumentError: An option is out of range.
        """
        if top is _TOP:
            if beat_longest is None and beat_words is None and bonus is _BONUS:
                solution = self._plain(cards, discard)
            else:
                solution = self._aimed(cards, discard, beat_longest, beat_words, bonus)
            if solution is not None:
                return solution
        hand, counts = _hand_and_counts(cards)
        if type(top) is not int or top < 1:
            top = _integer("top", top, 1)
        if type(discard) is not bool:
            discard = _flag("discard", discard)
        size = len(hand)
        if beat_longest is None and beat_words is None and type(bonus) is int and bonus == 10:
            params, targets = _PLAIN_PARAMS[discard], False
            memo_size = _ROOMY[size] if size <= _ROOMY_CARDS else needed_memo(counts, params)
        else:
            params = _params(size, discard, beat_longest, beat_words, bonus)
            targets = params[1] > 0 or params[2] > 0
            memo_size = _memo_room(size, counts, params)
        if 8 * memo_size > _LEAST_MEMORY_BOUND:  # no setting refuses less
            self._check_memory(memo_size, targets)
        engine = self._engine
        if engine is self._auto:
            engine = self._current()
        out = engine.solve_counts(self._trie, counts, params, memo_size)
        best, best_go_out = self._best_plays(out, 0, params)
        if top == 1:
            return make_solution(hand, discard, (best,), best_go_out)
        out, count = self._top_blocks(engine, counts, params, memo_size, top)
        ranked = [self._play_from(out, i * OUT_BLOCK, params) for i in range(count)]
        # The best play leads; where equally good plays tie, the order among
        # them is the enumeration's, so put the solver's choice first.
        plays = (best,) + tuple(play for play in ranked if play != best)[: top - 1]
        return make_solution(hand, discard, plays, best_go_out)

    def search_size(self, cards: Iterable[Card] | str, *, discard: bool = False, beat_longest: int | None = None,
                    beat_words: int | None = None) -> int:  # fmt: skip
        """How many search states :meth:`solve` may visit: see :func:`search_size`.

        :param cards: The hand: :class:`~quiddler.Card` objects, or the faces
            as a string such as ``"qu,e,e,n"`` (read by :func:`~quiddler.parse_hand`).
        :param discard: Discard exactly one card first (a turn, after
            drawing); the discard counts for nothing.
        :param beat_longest: Add ``bonus`` to plays whose longest word has
            more than this many letters; None sets no such target.
        :param beat_words: Add ``bonus`` to plays with more than this many
            words; None sets no such target.
        :returns: The number of states in the search's memo.
        :raises InvalidCardError: A card cannot be read.
        :raises ArgumentTypeError: An option has the wrong type.
        :raises InvalidArgumentError: An option is out of range.
        """
        hand = _cards_of(cards)
        params = _params(len(hand), _flag("discard", discard), beat_longest, beat_words, 0)
        return (needed_memo(_face_counts(hand), params) - 1) // (2 * K.MEMO_SLOT)

    def find_words(self, cards: Iterable[Card] | str) -> tuple[Word, ...]:
        """Every word the cards can make, best first: see :func:`find_words`.

        :param cards: The hand: :class:`~quiddler.Card` objects, or the faces
            as a string such as ``"qu,e,e,n"`` (read by :func:`~quiddler.parse_hand`).
        :returns: Each word once per card spelling, best first.
        :raises InvalidCardError: A card cannot be read, or the hand is empty.
        :raises HandTooLargeError: The hand has more than :data:`~quiddler.MAX_CARDS` cards.
        """
        hand = _cards_of(cards)
        _check_size(hand)
        trie = self._trie
        ranks = self._current().word_ranks(trie, _face_counts(hand))
        found = [
            Word("".join(faces), tuple(map(_CARD_OF_FACE.__getitem__, faces)))
            for rank in ranks
            for faces in trie.spellings_of(rank)
        ]
        found.sort(key=lambda w: (-w.points, -w.letters, w.text, [c.index for c in w.cards]))
        return tuple(found)

    # -- many hands -------------------------------------------------------------------

    def solve_many(self, hands: Iterable[Iterable[Card] | str], *, discard: bool = False,
                   beat_longest: int | None = None, beat_words: int | None = None, bonus: int = 10,
                   threads: int | None = None) -> list[Solution]:  # fmt: skip
        """:meth:`solve` for many hands at once, on every core: see :func:`solve_many`.

        :param hands: The hands, each as :meth:`solve` takes it.
        :param discard: Discard exactly one card first (a turn, after
            drawing); the discard counts for nothing.
        :param beat_longest: Add ``bonus`` to plays whose longest word has
            more than this many letters; None sets no such target.
        :param beat_words: Add ``bonus`` to plays with more than this many
            words; None sets no such target.
        :param bonus: What meeting a target adds, 0 to :data:`~quiddler.MAX_BONUS`.
        :param threads: Worker threads for the compiled kernels; None: one per
            usable core (:func:`~quiddler.usable_cores`).
        :returns: One :class:`~quiddler.Solution` per hand, in order.
        :raises InvalidCardError: A card cannot be read, or a hand is empty.
        :raises HandTooLargeError: A hand has more than
            :data:`~quiddler.MAX_CARDS` cards, or its search would need more
            memory than the bound allows.
        :raises ArgumentTypeError: An option has the wrong type.
        :raises InvalidArgumentError: An option is out of range.
        """
        discard = _flag("discard", discard)
        options = {"discard": discard, "beat_longest": beat_longest, "beat_words": beat_words, "bonus": bonus}
        solutions: list[Solution] = []
        for chunk, batch in self._batches(hands, threads, options):
            if batch is None:
                solutions += [self.solve(hand, **options) for hand in chunk]  # type: ignore[arg-type]
                continue
            out, status, params = batch
            for i, hand in enumerate(chunk):
                if status[i] < 0:  # more words than the batch buffers hold: solve alone
                    solutions.append(self._compiled_twin().solve(hand, **options))  # type: ignore[arg-type]
                    continue
                best, go_out = self._best_plays(out[i].tolist(), 0, params)
                solutions.append(make_solution(tuple(hand), discard, (best,), go_out))
        return solutions

    def score_many(self, hands: Iterable[Iterable[Card] | str], *, discard: bool = False,
                   beat_longest: int | None = None, beat_words: int | None = None, bonus: int = 10,
                   threads: int | None = None) -> list[tuple[int, int | None]]:  # fmt: skip
        """Each hand's ``(best score, best going-out score or None)``: see :func:`score_many`.

        :param hands: The hands, each as :meth:`solve` takes it.
        :param discard: Discard exactly one card first (a turn, after
            drawing); the discard counts for nothing.
        :param beat_longest: Add ``bonus`` to plays whose longest word has
            more than this many letters; None sets no such target.
        :param beat_words: Add ``bonus`` to plays with more than this many
            words; None sets no such target.
        :param bonus: What meeting a target adds, 0 to :data:`~quiddler.MAX_BONUS`.
        :param threads: Worker threads for the compiled kernels; None: one per
            usable core (:func:`~quiddler.usable_cores`).
        :returns: ``(best score, best going-out score or None)`` per hand, in order.
        :raises InvalidCardError: A card cannot be read, or a hand is empty.
        :raises HandTooLargeError: A hand has more than
            :data:`~quiddler.MAX_CARDS` cards, or its search would need more
            memory than the bound allows.
        :raises ArgumentTypeError: An option has the wrong type.
        :raises InvalidArgumentError: An option is out of range.
        """
        discard = _flag("discard", discard)
        options = {"discard": discard, "beat_longest": beat_longest, "beat_words": beat_words, "bonus": bonus}
        result: list[tuple[int, int | None]] = []
        for chunk, batch in self._batches(hands, threads, options, scores_only=True):
            if batch is None:
                result += [_scores_of(self.solve(hand, **options)) for hand in chunk]  # type: ignore[arg-type]
                continue

            out, status, _ = batch
            start = len(result)
            result += _scores_of_keys(out[:, _KEY_COLUMNS].T)
            if status.min() < 0:  # more words than the batch buffers hold: solve those hands alone
                for i, code in enumerate(status.tolist()):
                    if code < 0:
                        result[start + i] = _scores_of(self._compiled_twin().solve(chunk[i], **options))  # type: ignore[arg-type]
        return result

    def _score_plus(self, bases: Sequence[Sequence[Card]], extra: Sequence[Card], wanted: Sequence[int],
                    beat_longest: int | None = None, beat_words: int | None = None,
                    bonus: int = 10) -> list[tuple[int, int | None]] | None:  # fmt: skip
        """:meth:`score_many` with ``discard=True`` (and these bonus targets) of the hands
        ``[*bases[i // len(extra)], extra[i % len(extra)]]`` for each ``i``
        of ``wanted`` (a computer player's decision: a few bases, each with
        every card a draw may bring), on one thread; or None when this way
        does not serve (no compiled backend, not hands of cards of a game's
        size, or bases of more than 12 cards together): then ask
        :meth:`score_many`.

        The hands share all but a card or two: the kernel lays out the
        bases' cards together (each base is a state of them), finds their
        words once and those that hold each card added once, and its memo
        serves every base and card (``score_plus_rows``), which costs much
        less than solving each hand alone.  If the words overflow the
        batch's room, the hands are scored by :meth:`score_many`."""
        width = len(extra)
        sizes = list(map(len, bases))
        if not wanted or not 0 < width <= FACE_SLOTS or min(sizes) < 1 or max(sizes) >= _ROOMY_CARDS:
            return None
        if (engine := batch_backend(self.backend, len(wanted))) is None:
            return None
        import numpy as np

        try:
            faces = np.frombuffer(bytes(map(_KERNEL_INDEX.__getitem__, chain.from_iterable(bases))), np.uint8)
            extra_faces = np.array(list(map(_KERNEL_INDEX.__getitem__, extra)), dtype=np.int64)
        except (KeyError, TypeError):  # not all cards
            return None
        params = _params(max(sizes) + 1, True, beat_longest, beat_words, bonus)
        row, column = np.divmod(np.array(wanted, dtype=np.int64), width)  # each hand's base and added card
        jobs = _plus_jobs(sizes, faces, params, width)
        jobs[row, K.PLUS_FACES + column] = extra_faces[column]
        # The kernel's hand: of each face, the most any base holds (every base is a state of it).
        together = sizes[0] if len(bases) == 1 else int(jobs[:, :FACE_SLOTS].max(axis=0).sum())
        if together > _ROOMY_CARDS:
            return None
        engine.score_plus_batch(self._trie, jobs, _ROOMY[together] * (params[1] + 1) * (params[2] + 1))
        result = list(_scores_of_keys(jobs[row, _PLUS_KEY_COLUMNS + column]))  # one fancy index for both keys
        if jobs[:, K.JOB_STATUS].min() < 0:  # more words than the batch's room: score those hands the usual way
            again = np.flatnonzero(jobs[row, K.JOB_STATUS] < 0).tolist()
            hands = [[*bases[wanted[i] // width], extra[wanted[i] % width]] for i in again]
            alone = self.score_many(hands, discard=True, beat_longest=beat_longest, beat_words=beat_words, bonus=bonus,
                                    threads=1)  # fmt: skip
            for i, scores in zip(again, alone):
                result[i] = scores
        return result

    def score_counts(self, counts: Any, *, discard: bool = False, threads: int | None = None) -> tuple[Any, Any]:
        """:meth:`score_many` for hands given as a numpy matrix of face counts: see :func:`score_counts`.

        :param counts: An ``(n, FACE_SLOTS)`` matrix of face counts, one row per hand.
        :param discard: Discard exactly one card first (a turn, after
            drawing); the discard counts for nothing.
        :param threads: Worker threads for the compiled kernels; None: one per
            usable core (:func:`~quiddler.usable_cores`).
        :returns: ``(best, go_out)``: two int64 arrays of ``n`` scores,
            ``go_out`` holding :data:`~quiddler.NO_GO_OUT` where a hand cannot go out.
        :raises InvalidArgumentError: ``counts`` is not such a matrix, holds a
            negative count or a count in the last column, or ``threads`` is below 1.
        :raises HandTooLargeError: A row holds no card or more than
            :data:`~quiddler.MAX_CARDS`, or the search would need more memory
            than the bound allows.
        :raises ArgumentTypeError: An option has the wrong type.
        """
        import numpy as np

        counts = np.ascontiguousarray(counts, dtype=np.int64)
        if counts.ndim != 2 or counts.shape[1] != FACE_SLOTS:
            raise InvalidArgumentError(f"counts must be an (n, {FACE_SLOTS}) matrix, not {counts.shape}")
        if len(counts) and (counts.min() < 0 or counts[:, FACE_SLOTS - 1].any()):
            raise InvalidArgumentError("counts must be non-negative, with nothing in the last column")
        sizes = counts.sum(axis=1)
        if len(counts) and (sizes.min() < 1 or sizes.max() > MAX_CARDS):
            raise HandTooLargeError(f"every hand must hold 1 to {MAX_CARDS} cards")
        discard = _flag("discard", discard)
        if threads is not None:
            threads = _integer("threads", threads, 1)
        best = np.zeros(len(counts), dtype=np.int64)
        go_out = np.full(len(counts), NO_GO_OUT, dtype=np.int64)
        if not len(counts):
            return best, go_out
        params = _PLAIN_PARAMS[discard]
        # needed_memo of the largest search, for every row at once (no bonus targets: one state a sub-hand)
        memo_size = 1 + _MEMO_UNIT * int((counts + 1).prod(axis=1).max())
        self._check_memory(memo_size, False)
        engine = get_backend("numba")
        assert isinstance(engine, NumbaBackend)
        out, status = self._batch_counts(engine, counts, params, memo_size, threads, None, True)
        best[:] = (out[:, _OUT_KEY] >> _SCORE_SHIFT) - _SCORE_OFFSET
        can = out[:, OUT_BLOCK + _OUT_KEY] >= 0
        go_out[can] = ((out[:, OUT_BLOCK + _OUT_KEY] >> _SCORE_SHIFT) - _SCORE_OFFSET)[can]
        for i in np.flatnonzero(status < 0).tolist():  # more words than the batch buffers hold
            hand = [card for card, n in zip(_KERNEL_CARDS, counts[i].tolist()) for _ in range(n)]
            score, out_score = _scores_of(self._compiled_twin().solve(hand, discard=discard))
            best[i], go_out[i] = score, NO_GO_OUT if out_score is None else out_score
        return best, go_out

    # -- the parts ----------------------------------------------------------------------

    def _current(self) -> Any:
        """The backend to call: the auto backend's compiled one once it has moved there."""
        engine = self._engine
        if engine is self._auto and engine.compiled is not None:
            engine = self._engine = engine.compiled
        return engine

    def _compiled_twin(self) -> Solver:
        """This Solver on the compiled backend, for the rare hand a batch
        cannot hold (more words than its buffers)."""
        if self.backend == "numba":
            return self
        twin = Solver(self.wordlist, "numba")
        twin.max_memory_bytes = self.max_memory_bytes
        return twin

    def _check_memory(self, memo_size: int, targets: bool) -> None:
        """Refuse, before allocating anything, a search whose memo would pass
        the memory bound (its size is known exactly from the hand and targets)."""
        limit = max_memory_bytes() if self._follows_environment else self.max_memory_bytes
        if 8 * memo_size > limit:
            with_targets = " with these bonus targets" if targets else ""
            raise HandTooLargeError(
                f"this hand's search{with_targets} needs {8 * memo_size / 2**20:,.0f} MB, over the limit of "
                f"{limit >> 20:,} MB (set {MEMORY_ENV} to allow more)"
            )

    def _top_blocks(self, engine: Any, counts: Sequence[int], params: Sequence[int], memo_size: int,
                    top: int) -> tuple[Sequence[int], int]:  # fmt: skip
        """The ``top`` best plays, with room sized by the plays that exist: the
        search starts with room for a few and is rerun with more only while
        every slot fills, so ``top=10**20`` on a two-card hand costs nothing."""
        limit = min(top, _FIRST_TOP)
        while True:
            out, count = engine.top_counts(self._trie, counts, params, memo_size, limit)
            if count > MAX_TOP_PLAYS:
                raise InvalidArgumentError(
                    f"top={top:,}: this hand has more than {MAX_TOP_PLAYS:,} distinct plays, the most one solve "
                    f"lists; ask for at most {MAX_TOP_PLAYS:,}"
                )
            if count < limit or limit == top:
                return out, count
            limit = min(top, 16 * limit, MAX_TOP_PLAYS + 1)

    def _plain(self, cards: object, discard: object) -> Solution | None:
        """:meth:`solve` of the usual call, or None for anything else (the
        plain path then checks it, with its errors): a tuple or list of 1 to
        :data:`_ROOMY_CARDS` cards and no option but ``discard``, True or
        False.  Such a hand needs no check but that its items are cards (the
        counting's lookups find only cards), its memo room comes from
        :data:`_ROOMY` and no memory bound refuses it, and its plays have no
        bonus."""
        hand = _quick_hand(cards)
        if hand is None or (discard is not True and discard is not False):
            return None
        out = self._quick_blocks(hand, _PLAIN_PARAMS[discard], _ROOMY[len(hand)])
        if out is None:
            return None
        best = self._plain_play(out, JOB_OUT)
        if not best.unused:  # it goes out: the kernel copied this play to the going-out block
            go_out: Play | None = best
        elif out[JOB_OUT + _OUT_BLOCK_KEY] < 0:
            go_out = None
        else:
            go_out = self._plain_play(out, JOB_OUT + OUT_BLOCK)
        return make_solution(hand, discard, (best,), go_out)

    def _plain_play(self, out: Sequence[int], ob: int) -> Play:
        """:meth:`_play_from` of a solve without bonus targets (its bonus is 0),
        the usual play's steps only: named words, no tie, no leftover or one."""
        left = out[ob + _OUT_LEFT]
        if out[ob + _OUT_TIES] or left > 1:
            return self._play_from(out, ob, _PLAIN_PARAMS[0])
        start = ob + _OUT_HEAD
        count = out[ob + _OUT_WORDS]
        try:
            if count > 1:  # every lookup at C speed (an itemgetter of one key gives the value itself)
                words = itemgetter(*out[start : start + count])(self._words)
            else:
                words = tuple(map(self._word_of, out[start : start + count]))
        except KeyError:  # a word not named yet
            return self._play_from(out, ob, _PLAIN_PARAMS[0])
        unused = (_KERNEL_CARDS[out[ob + _OUT_LEFTOVERS]],) if left else ()
        return make_play(words, unused, _CARD_OR_NONE[out[ob]], 0)

    def _aimed(self, cards: object, discard: object, beat_longest: object, beat_words: object,
               bonus: object) -> Solution | None:  # fmt: skip
        """:meth:`solve` with bonus targets, ``top`` its default, or None for
        anything but the usual such call (the plain path then checks it, with
        its errors): a tuple or list of 1 to :data:`_ROOMY_CARDS` cards,
        ``discard`` True or False, each target None or an int of at least 0
        and ``bonus`` an int of 0 to :data:`MAX_BONUS` (a computer player's
        final turn).  The memo room is the table's for the hand's size times
        the targets' states, more than an exact count of the faces would give
        (spare room changes nothing): what it costs a memory bound to allow
        is checked only when it is over the least bound one can set."""
        hand = _quick_hand(cards)
        if hand is None or (discard is not True and discard is not False):
            return None
        if beat_longest is not None and (type(beat_longest) is not int or beat_longest < 0):
            return None
        if beat_words is not None and (type(beat_words) is not int or beat_words < 0):
            return None
        if type(bonus) is not int or not 0 <= bonus <= MAX_BONUS:
            return None
        params = _packed(len(hand), discard, beat_longest, beat_words, bonus)
        memo_size = _room_with_targets(len(hand), params)
        if 8 * memo_size > _LEAST_MEMORY_BOUND and (self._follows_environment or 8 * memo_size > self.max_memory_bytes):
            return None  # the checked path sizes it exactly, and refuses it if it must
        out = self._quick_blocks(hand, params, memo_size)
        if out is None:
            return None
        best, go_out = self._best_plays(out, JOB_OUT, params)
        return make_solution(hand, discard, (best,), go_out)

    def _even_discards(self, cards: tuple[Card, ...], beat_longest: int | None, beat_words: int | None,
                       bonus: int) -> tuple[int, frozenset[Card]] | None:  # fmt: skip
        """The best score of ``cards`` with a card discarded (:meth:`solve`'s
        ``best.score``, bonus targets and all), and the cards whose discard
        lets the rest score that much, going out or not: what a final turn's
        draw asks (is a play using the discard top worth more than every play
        of the hand without it, where the top is discarded?).  For a
        computer player's cards and valid options, sized as :meth:`_aimed`
        sizes a solve; None for a hand of fewer than 2 or more than
        :data:`_ROOMY_CARDS` cards, or where the memory bound might refuse
        the solve (:meth:`solve` then says)."""
        if not 1 < len(cards) <= _ROOMY_CARDS:
            return None
        params = _packed(len(cards), True, beat_longest, beat_words, bonus)
        memo_size = _room_with_targets(len(cards), params)
        if 8 * memo_size > _LEAST_MEMORY_BOUND and (self._follows_environment or 8 * memo_size > self.max_memory_bytes):
            return None
        out = self._quick_blocks(cards, params, memo_size)
        assert out is not None
        even = out[JOB_OUT + _OUT_EVEN_DISCARDS]  # a bit per digit: the hand's faces in kernel order
        digits = {face: d for d, face in enumerate(_digit_faces(cards))}
        score = (out[JOB_OUT + _OUT_KEY] >> _SCORE_SHIFT) - _SCORE_OFFSET
        return score, frozenset(card for card in cards if even >> digits[_KERNEL_INDEX[card]] & 1)

    def _class_scores(self, cards: tuple[Card, ...], beat_longest: int,
                      beat_words: int) -> tuple[int | None, ...] | None:  # fmt: skip
        """The best card score of each class of plays of ``cards`` with a
        card discarded that a final turn's value tells apart, or None where
        no play is of the class: at ``CLASS_WORDS * a + b``, ``a`` the
        longest word's level (0 any; 1 more than ``beat_longest`` letters)
        and ``b`` the word count's (0 any; 1 more than ``beat_words``; 2 at
        least that many).  A class holds every play that reaches its levels,
        so these are the card scores of the plays that solves aiming at
        those targets find, with a bonus no score outweighs, all from one
        search (see :func:`~quiddler.solver._kernels.class_keys`).

        For a computer player's final turn on the compiled backend; None on
        the pure-Python one (whose search has no such pass), for a hand of
        fewer than 2 or more than :data:`_ROOMY_CARDS` cards, or where the
        memory bound would refuse the search."""
        if not 1 < len(cards) <= _ROOMY_CARDS:
            return None
        engine = self._current()
        if type(engine) is not NumbaBackend:
            return None
        # More words than a play can make: both word levels are out of reach, and the memo stays small.
        need_words = min(beat_words + 1, (len(cards) - 1) // 2 + 2)
        params = (1, need_words, 1, min(beat_longest, _NO_TARGET), 0, 0)
        memo_size = _room_with_targets(len(cards), params)
        if 8 * memo_size > (max_memory_bytes() if self._follows_environment else self.max_memory_bytes):
            return None
        row = engine.class_hand(self._trie, cards, _FACE_BYTES, params, memo_size)
        keys = row[JOB_OUT : JOB_OUT + CLASS_COUNT]
        return tuple(None if key == _INFEASIBLE else (key >> _SCORE_SHIFT) - _SCORE_OFFSET for key in keys)

    def _kept_scores(self, cards: Sequence[Card]) -> dict[Card, tuple[int, int | None]] | None:
        """:meth:`score_many`'s ``(best score, best going-out score or
        None)`` without a discard of ``cards`` less one of each face it
        holds, by that face's card: the cards a turn keeps after each
        discard, all from one search (see
        :func:`~quiddler.solver._kernels.kept_keys`).

        For a computer player's turn on the compiled backend; None on the
        pure-Python one (whose search has no such pass), or for fewer than
        2 or more than :data:`_ROOMY_CARDS` cards (no memory bound refuses
        the rest: see :data:`_ROOMY`)."""
        if not 1 < len(cards) <= _ROOMY_CARDS:
            return None
        engine = self._current()
        if type(engine) is not NumbaBackend:
            return None
        row = engine.kept_hand(self._trie, cards, _FACE_BYTES, _PLAIN_PARAMS[0], _ROOMY[len(cards)])
        faces = _digit_faces(cards)  # two keys each
        keys = row[JOB_OUT : JOB_OUT + K.KEPT_STRIDE * len(faces)].tolist()
        best, go = keys[K.KEPT_BEST :: K.KEPT_STRIDE], keys[K.KEPT_GO :: K.KEPT_STRIDE]
        return {
            _KERNEL_CARDS[face]: ((b >> _SCORE_SHIFT) - _SCORE_OFFSET,
                                  None if g == _INFEASIBLE else (g >> _SCORE_SHIFT) - _SCORE_OFFSET)
            for face, b, g in zip(faces, best, go)
        }  # fmt: skip

    def _quick_blocks(self, hand: tuple[Any, ...], params: Sequence[int], memo_size: int) -> Sequence[int] | None:
        """The quick paths' kernel call: its output, the two play blocks
        from ``JOB_OUT`` (see ``solve_hand``), or None if not every item of
        ``hand`` is a card."""
        engine = self._engine
        if engine is self._auto:
            engine = self._current()
        try:
            return engine.solve_hand(self._trie, hand, _FACE_BYTES, params, memo_size)  # type: ignore[no-any-return]
        except (KeyError, TypeError):  # not all cards
            return None

    def _best_plays(self, out: Sequence[int], ob: int, params: Sequence[int]) -> tuple[Play, Play | None]:
        """The best play and the best going-out play from the two blocks at
        ``ob`` of a solve with the kernel parameters ``params``."""
        best = self._play_from(out, ob, params)
        if out[ob + _OUT_LEFT] == 0:  # no card left over: the kernel copied this play to the going-out block
            return best, best
        if out[ob + _OUT_BLOCK_KEY] < 0:
            return best, None
        return best, self._play_from(out, ob + OUT_BLOCK, params)

    def _play_from(self, out: Sequence[int], ob: int, params: Sequence[int]) -> Play:
        """The Play a kernel wrote to the block of ``out`` at ``ob`` in a solve
        with the kernel parameters ``params``: its words as ranks, in the
        order a play shows them but for ties on points and letters (flagged
        at ``[OUT_TIES]``: those go by text), its discard and leftovers as
        kernel faces.  Its bonus is what the targets it meets add, as the
        kernel counts them (more words than ``beat_words``: at least
        ``need_words``; a word longer than ``long_after`` letters)."""
        start = ob + _OUT_HEAD
        count = out[ob + _OUT_WORDS]
        ranks = out[start : start + count]
        try:
            words = itemgetter(*ranks)(self._words) if count > 1 else tuple(map(self._word_of, ranks))
        except KeyError:  # a word this trie's Solvers have not named yet
            words = tuple([self._words.get(rank) or self._name(rank) for rank in ranks])
        if out[ob + _OUT_TIES]:  # words equal on points and letters (a few plays in a hundred): by text
            orders = self._orders.__getitem__
            words = tuple(map(_WORD, sorted(zip(map(orders, ranks), words), key=_PLAY_ORDER)))
        left = out[ob + _OUT_LEFT]
        if left == 0:
            unused: tuple[Card, ...] = ()
        elif left == 1:
            unused = (_KERNEL_CARDS[out[ob + _OUT_LEFTOVERS]],)
        else:
            start = ob + _OUT_LEFTOVERS
            # (a tuple's __getitem__ is a slot wrapper, slow to call: one itemgetter of two or more faces)
            unused = tuple(sorted(itemgetter(*out[start : start + left])(_KERNEL_CARDS), key=_CARD_ORDER_OF))
        bonus = 0
        need_words = params[_PARAM_NEED_WORDS]
        if need_words and count >= need_words:
            bonus = params[_PARAM_WORD_BONUS]
        if params[_PARAM_LONG_TARGET] and count and max(map(len, map(_TEXT, words))) > params[_PARAM_LONG_AFTER]:
            bonus += params[_PARAM_LONG_BONUS]
        return make_play(words, unused, _CARD_OR_NONE[out[ob + _OUT_DISCARD]], bonus)

    def _name(self, rank: int) -> Word:
        """Name the word of ``rank``: its multiset's alphabetically first spelling."""
        return _name(self._trie, rank, (self._words, self._orders))

    def _batches(self, hands: Iterable[Iterable[Card] | str], threads: int | None, options: dict[str, Any],
                 scores_only: bool = False) -> Iterator[tuple[list[Any], tuple[Any, Any, Sequence[int]] | None]]:  # fmt: skip
        """The shared course of :meth:`solve_many` and :meth:`score_many`: every
        argument checked and every hand parsed and counted first (nothing is
        solved if one is bad), then the hands in order, in chunks, each with
        the compiled batch's results (out, status, the kernel parameters)
        or None (solve that chunk one by one).  Once the compiled
        backend is ready, the rest goes to it in one batch.  ``scores_only``:
        the compiled batch writes only each block's key (see
        ``NumbaBackend.solve_batch``)."""
        if isinstance(hands, (str, Card)):
            raise ArgumentTypeError(f"hands must be an iterable of hands (a list of str, say), not one "
                                    f"{type(hands).__name__}")  # fmt: skip
        if threads is not None:
            threads = _integer("threads", threads, 1)
        hands = list(hands)  # looked at twice: the quick path, else the plain one
        quick = _game_sized(hands, options)
        if quick is not None and (engine := batch_backend(self.backend, len(hands))) is not None:
            # The usual batch (a computer player's: plain options, hands of cards of a game's size)
            # counted at C speed in one matrix; no memory bound refuses its searches.
            import numpy as np

            sizes, faces = quick
            params = _PLAIN_PARAMS[options["discard"]]
            low, high = min(sizes), max(sizes)
            if low == high:  # hands of one size (nearly every batch of a player's): the kernel counts them
                by_hand = np.frombuffer(faces, dtype=np.uint8).reshape(len(hands), high)
                out, status = self._batch_counts(engine, None, params, _ROOMY[high], threads, by_hand, scores_only)
            else:
                rows = np.repeat(np.arange(0, len(hands) * FACE_SLOTS, FACE_SLOTS), sizes)
                cells = rows + np.frombuffer(faces, dtype=np.uint8)
                matrix = np.bincount(cells, minlength=len(hands) * FACE_SLOTS).reshape(len(hands), FACE_SLOTS)
                out, status = self._batch_counts(engine, matrix, params, _ROOMY[high], threads, None, scores_only)
            yield hands, (out, status, params)  # lists of cards too: solve_many makes its tuples
            return
        parsed, counts = _parse_many(hands)
        params = _params(max((len(h) for h in parsed), default=1), options["discard"], options["beat_longest"],
                         options["beat_words"], options["bonus"])  # fmt: skip
        targets = params[1] > 0 or params[2] > 0
        sizes = [_memo_room(len(hand), hand_counts, params) for hand, hand_counts in zip(parsed, counts)]
        self._check_memory(max(sizes, default=1), targets)
        start = 0
        while start < len(parsed):
            engine = batch_backend(self.backend, len(parsed) - start)
            if engine is not None:
                import numpy as np

                # Each hand's counts are int64 bytes already: joined, they are
                # the matrix (far faster than np.array of the arrays).
                rest = counts[start:]
                matrix = np.frombuffer(b"".join(rest), dtype=np.int64).reshape(len(rest), FACE_SLOTS)
                out, status = self._batch_counts(engine, matrix, params, max(sizes[start:]), threads, None,
                                                 scores_only)  # fmt: skip
                yield parsed[start:], (out, status, params)
                return
            yield parsed[start : start + PYTHON_CHUNK], None
            start += PYTHON_CHUNK

    def _batch_counts(self, engine: NumbaBackend, counts: Any, params: Sequence[int], memo_size: int,
                      threads: int | None, faces: Any = None, scores_only: bool = False) -> tuple[Any, Any]:  # fmt: skip
        """(out, status) of the compiled batch over the int64 face-count matrix
        ``counts`` (or the hands' ``faces``: see ``NumbaBackend.solve_batch``),
        with memo room ``memo_size`` (enough for its largest search).  A hand
        whose status is negative overflowed the batch buffers and must be
        solved on its own."""
        if threads is None:
            threads = usable_cores()
        # Each thread has its own memo: huge hands (a 20-card memo can take
        # tens of MB) get fewer threads.
        threads = min(threads, max(1, BATCH_MEMO_BYTES // (8 * memo_size)))
        return engine.solve_batch(self._trie, counts, params, memo_size, threads, faces, scores_only)


# -- the module-level functions: one call each, over a default Solver ---------------------


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

    This is :meth:`Solver.solve` of a default :class:`Solver` (see
    :func:`default_solver`).

    >>> sol = solve("d,cl,o,g,a,b,er,in,n,y,s")
    >>> sol.best.score, sol.best.goes_out
    (59, True)
    >>> solve("d,cl,o,g,a,b,er,in,n,y,s", discard=True).best.score
    57

    :param cards: The hand: :class:`~quiddler.Card` objects, or the faces
        as a string such as ``"qu,e,e,n"`` (read by :func:`~quiddler.parse_hand`).
    :param discard: Discard exactly one card first (a turn, after
        drawing); the discard counts for nothing.
    :param wordlist: The word list; None: the default ENABLE list
        (:func:`~quiddler.default_wordlist`).
    :param top: How many best distinct plays ``Solution.plays`` lists.
    :param beat_longest: Add ``bonus`` to plays whose longest word has
        more than this many letters; None sets no such target.
    :param beat_words: Add ``bonus`` to plays with more than this many
        words; None sets no such target.
    :param bonus: What meeting a target adds, 0 to :data:`~quiddler.MAX_BONUS`.
    :param backend: ``"numba"`` (compiled), ``"python"`` or ``"auto"``
        (Python until the compiled kernels pay off).
    :returns: The best play (``.best``), the best going-out play
        (``.best_go_out``) and, with ``top``, the next best plays.
    :raises InvalidCardError: A card cannot be read, or a hand is empty.
    :raises HandTooLargeError: A hand has more than
        :data:`~quiddler.MAX_CARDS` cards, or its search would need more
        memory than the bound allows.
    :raises ArgumentTypeError: An option has the wrong type.
    :raises InvalidArgumentError: An option is out of range.
    """
    solver = _DEFAULT_SOLVERS.get(backend) if wordlist is None and type(backend) is str else None
    if solver is None:
        solver = default_solver(wordlist, backend)
    elif top is _TOP and beat_longest is None and beat_words is None and bonus is _BONUS:
        solution = solver._plain(cards, discard)  # Solver.solve's quick path, without its call
        if solution is not None:
            return solution
    return solver.solve(cards, discard=discard, top=top, beat_longest=beat_longest, beat_words=beat_words,
                        bonus=bonus)  # fmt: skip


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

    :param hands: The hands, each as :func:`solve` takes it.
    :param discard: Discard exactly one card first (a turn, after
        drawing); the discard counts for nothing.
    :param wordlist: The word list; None: the default ENABLE list
        (:func:`~quiddler.default_wordlist`).
    :param beat_longest: Add ``bonus`` to plays whose longest word has
        more than this many letters; None sets no such target.
    :param beat_words: Add ``bonus`` to plays with more than this many
        words; None sets no such target.
    :param bonus: What meeting a target adds, 0 to :data:`~quiddler.MAX_BONUS`.
    :param threads: Worker threads for the compiled kernels; None: one per
        usable core (:func:`~quiddler.usable_cores`).
    :param backend: ``"numba"`` (compiled), ``"python"`` or ``"auto"``
        (Python until the compiled kernels pay off).
    :returns: One :class:`~quiddler.Solution` per hand, in order.
    :raises InvalidCardError: A card cannot be read, or a hand is empty.
    :raises HandTooLargeError: A hand has more than
        :data:`~quiddler.MAX_CARDS` cards, or its search would need more
        memory than the bound allows.
    :raises ArgumentTypeError: An option has the wrong type.
    :raises InvalidArgumentError: An option is out of range.
    """
    return default_solver(wordlist, backend).solve_many(hands, discard=discard, beat_longest=beat_longest,
                                                        beat_words=beat_words, bonus=bonus, threads=threads)  # fmt: skip


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

    :param hands: The hands, each as :func:`solve` takes it.
    :param discard: Discard exactly one card first (a turn, after
        drawing); the discard counts for nothing.
    :param wordlist: The word list; None: the default ENABLE list
        (:func:`~quiddler.default_wordlist`).
    :param beat_longest: Add ``bonus`` to plays whose longest word has
        more than this many letters; None sets no such target.
    :param beat_words: Add ``bonus`` to plays with more than this many
        words; None sets no such target.
    :param bonus: What meeting a target adds, 0 to :data:`~quiddler.MAX_BONUS`.
    :param threads: Worker threads for the compiled kernels; None: one per
        usable core (:func:`~quiddler.usable_cores`).
    :param backend: ``"numba"`` (compiled), ``"python"`` or ``"auto"``
        (Python until the compiled kernels pay off).
    :returns: ``(best score, best going-out score or None)`` per hand, in order.
    :raises InvalidCardError: A card cannot be read, or a hand is empty.
    :raises HandTooLargeError: A hand has more than
        :data:`~quiddler.MAX_CARDS` cards, or its search would need more
        memory than the bound allows.
    :raises ArgumentTypeError: An option has the wrong type.
    :raises InvalidArgumentError: An option is out of range.
    """
    return default_solver(wordlist, backend).score_many(hands, discard=discard, beat_longest=beat_longest,
                                                        beat_words=beat_words, bonus=bonus, threads=threads)  # fmt: skip


def score_counts(counts: Any, *, discard: bool = False, wordlist: WordList | None = None,
                 threads: int | None = None) -> tuple[Any, Any]:  # fmt: skip
    """:func:`score_many` for hands given as a numpy matrix of face counts,
    the form a simulation generates: row ``i`` holds hand ``i``'s count of
    each face in :data:`~quiddler.cardtrie.KERNEL_ORDER` (:data:`FACE_SLOTS`
    columns, the last always 0).  Skips building card objects, so millions
    of hands cost little more than the compiled search.

    Returns ``(best, go_out)``, two int64 arrays: each hand's best score
    and its best going-out score, ``go_out`` holding :data:`NO_GO_OUT`
    where the hand cannot go out.  Needs numba.

    :param counts: An ``(n, FACE_SLOTS)`` matrix of face counts, one row per
        hand (anything :func:`numpy.ascontiguousarray` takes).
    :param discard: Discard exactly one card first (a turn, after
        drawing); the discard counts for nothing.
    :param wordlist: The word list; None: the default ENABLE list
        (:func:`~quiddler.default_wordlist`).
    :param threads: Worker threads for the compiled kernels; None: one per
        usable core (:func:`~quiddler.usable_cores`).
    :returns: ``(best, go_out)``, two int64 arrays of ``n`` scores.
    :raises InvalidArgumentError: ``counts`` is not such a matrix, holds a
        negative count or a count in the last column, or ``threads`` is below 1.
    :raises HandTooLargeError: A row holds no card or more than
        :data:`~quiddler.MAX_CARDS`, or the search would need more memory
        than the bound allows.
    :raises ArgumentTypeError: An option has the wrong type.
    """
    return default_solver(wordlist, "numba").score_counts(counts, discard=discard, threads=threads)


def find_words(cards: Iterable[Card] | str, *, wordlist: WordList | None = None,
               backend: str = "auto") -> tuple[Word, ...]:  # fmt: skip
    """Every word the cards can make, once per card spelling, best first
    (most points, then most letters, then alphabetical).

    >>> [str(w) for w in find_words("qu,e,e,n")][:3]
    ['queen', 'nee', 'en']

    :param cards: The hand: :class:`~quiddler.Card` objects, or the faces
        as a string such as ``"qu,e,e,n"`` (read by :func:`~quiddler.parse_hand`).
    :param wordlist: The word list; None: the default ENABLE list
        (:func:`~quiddler.default_wordlist`).
    :param backend: ``"numba"`` (compiled), ``"python"`` or ``"auto"``
        (Python until the compiled kernels pay off).
    :returns: The words, each with the cards that spell it.
    :raises InvalidCardError: A card cannot be read, or the hand is empty.
    :raises HandTooLargeError: The hand has more than :data:`~quiddler.MAX_CARDS` cards.
    """
    return default_solver(wordlist, backend).find_words(cards)


def search_size(cards: Iterable[Card] | str, *, discard: bool = False, beat_longest: int | None = None,
                beat_words: int | None = None) -> int:  # fmt: skip
    """How many search states :func:`solve` may visit for this hand and
    these targets (the size of its memo): a measure of the work, which the
    command line uses to choose the compiled backend for big hands.

    >>> search_size("a,b,c"), search_size("a,a,b")
    (8, 6)

    :param cards: The hand: :class:`~quiddler.Card` objects, or the faces
        as a string such as ``"qu,e,e,n"`` (read by :func:`~quiddler.parse_hand`).
    :param discard: Discard exactly one card first (a turn, after
        drawing); the discard counts for nothing.
    :param beat_longest: Add ``bonus`` to plays whose longest word has
        more than this many letters; None sets no such target.
    :param beat_words: Add ``bonus`` to plays with more than this many
        words; None sets no such target.
    :returns: The number of states in the search's memo.
    :raises InvalidCardError: A card cannot be read.
    :raises ArgumentTypeError: An option has the wrong type.
    :raises InvalidArgumentError: An option is out of range.
    """
    return default_solver(None, "python").search_size(cards, discard=discard, beat_longest=beat_longest,
                                                      beat_words=beat_words)  # fmt: skip


_DEFAULT_SOLVERS: dict[str, Solver] = {}


def default_solver(wordlist: WordList | None = None, backend: str = "auto") -> Solver:
    """The :class:`Solver` the module-level functions use: for the default
    word list, one per backend, made on first use; for any other list, a new
    one each call, so that nothing here keeps a list alive after its owner
    drops it (a program solving many hands on its own list holds a Solver
    instead).  A default Solver reads ``$QUIDDLER_MAX_MEMORY_MB`` again for
    every search that needs more than the least bound it can set (1 MB), so
    a change to it applies to the module-level functions at once, at no cost
    to the usual hand."""
    if type(backend) is str and (wordlist is None or wordlist is default_wordlist()):
        solver = _DEFAULT_SOLVERS.get(backend)
        if solver is not None:
            return solver
        if backend in BACKEND_NAMES:
            solver = Solver(None, backend)
            solver._follows_environment = True
            return _DEFAULT_SOLVERS.setdefault(backend, solver)
    return Solver(wordlist, backend)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system
    has one): what "every core" means for worker threads and processes.

    :returns: The number of cores, at least 1.
    """
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# -- arguments in, checked and converted ------------------------------------------------


def _cards_of(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, (tuple, list)) and all(type(item) is Card for item in cards):
        return tuple(cards)  # nothing to parse
    return parse_hand(cards)


def _face_counts(hand: Iterable[Card]) -> array[int]:
    """The hand's count of each kernel face (:data:`FACE_SLOTS` of them), as
    the int64 array the compiled backend copies into its job row at C speed."""
    counts = _NO_COUNTS[:]
    for card in hand:
        counts[_KERNEL_INDEX[card]] += 1
    return counts


def _hand_and_counts(cards: Iterable[Card] | str) -> tuple[tuple[Card, ...], array[int]]:
    """The hand as a tuple of cards, size-checked, and its face counts.

    A tuple or list of cards (what programs pass) is counted straight away,
    one dict lookup a card: anything else in it is no key of
    ``_KERNEL_INDEX`` (cards hash by identity), and only then is the hand
    parsed, with parsing's errors.  (Checking every item's type first and
    counting after would look at each card twice.)
    """
    if type(cards) is tuple or type(cards) is list:
        counts = _NO_COUNTS[:]
        try:
            for face in map(_KERNEL_INDEX.__getitem__, cards):
                counts[face] += 1
        except (KeyError, TypeError):  # not all cards: parse it, with its errors
            pass
        else:
            if 0 < len(cards) <= MAX_CARDS:
                return cards if type(cards) is tuple else tuple(cards), counts
    hand = _cards_of(cards)
    _check_size(hand)
    return hand, _face_counts(hand)


def _check_size(hand: Sequence[Card]) -> None:
    if not hand:
        raise InvalidCardError("empty hand")
    if len(hand) > MAX_CARDS:
        raise HandTooLargeError(f"hand of {len(hand)} cards is too large (at most {MAX_CARDS})")


def _quick_hand(cards: object) -> tuple[Any, ...] | None:
    """The hand of a quick path's call as a tuple, or None unless ``cards``
    is a tuple or list of 1 to :data:`_ROOMY_CARDS` items (whether they are
    cards, the kernel call finds)."""
    if type(cards) is tuple:
        hand = cards
    elif type(cards) is list:
        hand = tuple(cards)
    else:
        return None
    return hand if 0 < len(hand) <= _ROOMY_CARDS else None


_SEQUENCES = {tuple, list}


def _game_sized(hands: list[Any], options: dict[str, Any]) -> tuple[list[int], bytes] | None:
    """Each hand's size and every hand's kernel faces, in order, one byte
    each, found at C speed, for a batch without bonus targets of tuples or
    lists of 1 to :data:`_ROOMY_CARDS` cards; None for anything else (the
    plain path parses it, with its errors)."""
    plain = options["beat_longest"] is None and options["beat_words"] is None and type(options["bonus"]) is int
    if not (hands and plain and options["bonus"] == 10 and set(map(type, hands)) <= _SEQUENCES):
        return None
    sizes = list(map(len, hands))
    if min(sizes) < 1 or max(sizes) > _ROOMY_CARDS:
        return None
    try:
        return sizes, bytes(map(_KERNEL_INDEX.__getitem__, chain.from_iterable(hands)))
    except (KeyError, TypeError):  # not all cards
        return None


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


def _plus_jobs(sizes: list[int], faces: Any, params: Sequence[int], width: int) -> Any:
    """``score_plus_rows``' jobs: a row per base (of ``sizes`` cards, whose
    kernel faces are ``faces``, a numpy array of them all in order), with
    its face counts, the solve parameters and ``width`` faces to add, none
    wanted yet (-1: the caller puts in those it wants)."""
    import numpy as np

    jobs = np.zeros((len(sizes), K.PLUS_WIDTH), dtype=np.int64)
    cells = np.repeat(np.arange(0, len(sizes) * FACE_SLOTS, FACE_SLOTS), sizes) + faces
    jobs[:, :FACE_SLOTS] = np.bincount(cells, minlength=len(sizes) * FACE_SLOTS).reshape(len(sizes), FACE_SLOTS)
    jobs[:, K.JOB_PARAMS : K.JOB_STATUS] = params
    jobs[:, K.PLUS_COUNT] = width
    jobs[:, K.PLUS_FACES : K.PLUS_FACES + width] = -1
    return jobs


def _scores_of_keys(keys: Any) -> Iterator[tuple[int, int | None]]:
    """``(best score, best going-out score or None)`` of a numpy matrix of
    the kernels' keys: the best keys in its first row, the going-out keys in
    its second, one column per hand."""
    scores, go_out = ((keys >> _SCORE_SHIFT) - _SCORE_OFFSET).tolist()
    # The key INFEASIBLE (the hand cannot go out) gives a score below -SCORE_OFFSET, and no other key does.
    return zip(scores, [None if score < -_SCORE_OFFSET else score for score in go_out])


def _scores_of(solution: Solution) -> tuple[int, int | None]:
    return solution.best.score, solution.best_go_out.score if solution.best_go_out else None


def _integer(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..high``: ArgumentTypeError for a float, a
    str or a bool, InvalidArgumentError out of range, each naming the argument."""
    if type(value) is int and value >= low and (high is None or value <= high):
        return value  # the usual case, first (a bool is not exactly an int)
    if isinstance(value, bool):
        raise ArgumentTypeError(f"{name} must be an integer, not {value!r}")
    try:
        number = index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ArgumentTypeError(f"{name} must be an integer, not {type(value).__name__} {shown(value)}") from None
    if number < low:
        raise InvalidArgumentError(f"{name} must be at least {low}, not {number}")
    if high is not None and number > high:
        raise InvalidArgumentError(f"{name} must be at most {high:,}, not {shown(number)}")
    return number


def _flag(name: str, value: object) -> bool:
    """``value`` as a bool: True, False, 1 or 0 (a numpy bool too), nothing else."""
    if value is True or value is False:
        return value
    if type(value).__name__ == "bool_":  # numpy's bool, without importing numpy
        return bool(value)
    if not isinstance(value, bool) and isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ArgumentTypeError(f"{name} must be True or False, not {type(value).__name__} {shown(value)}")


def _wordlist_of(wordlist: object) -> WordList:
    if wordlist is None:
        return default_wordlist()
    if not isinstance(wordlist, WordList):
        hint = " (load a file with quiddler.load_wordlist(path))" if isinstance(wordlist, (str, os.PathLike)) else ""
        raise ArgumentTypeError(f"wordlist must be a WordList{hint}, not {type(wordlist).__name__} "
                                f"{shown(wordlist)}")  # fmt: skip
    return wordlist


def _backend_name(backend: object) -> str:
    choices = "'auto', 'python' or 'numba'"
    if not isinstance(backend, str):
        raise ArgumentTypeError(f"backend must be {choices}, not {type(backend).__name__} {shown(backend)}")
    if backend not in BACKEND_NAMES:
        raise InvalidArgumentError(f"unknown backend: {shown(backend)} (expected {choices})")
    return str(backend)


def _params(ncards: int, discard: bool, beat_longest: int | None, beat_words: int | None,
            bonus: int) -> tuple[int, ...]:  # fmt: skip
    """Validate the solve options and pack them for the kernels."""
    if beat_longest is None and beat_words is None and type(bonus) is int and bonus == 10 and type(discard) is bool:
        return _PLAIN_PARAMS[discard]
    if beat_longest is not None:
        beat_longest = _integer("beat_longest", beat_longest, 0)
    if beat_words is not None:
        beat_words = _integer("beat_words", beat_words, 0)
    bonus = _integer("bonus", bonus, 0, MAX_BONUS)
    return _packed(ncards, discard, beat_longest, beat_words, bonus)


@functools.lru_cache(maxsize=1024)
def _packed(ncards: int, discard: bool, beat_longest: int | None, beat_words: int | None,
            bonus: int) -> tuple[int, ...]:  # fmt: skip
    """The kernels' parameters of options already checked.

    Kept for the options met lately (a computer player's final turns ask
    for a few kinds of target over and over): the cache costs less than
    packing them, and the same options give the very same tuple, which
    the compiled backend's job row then holds already."""
    playable = ncards - (1 if discard else 0)
    # A word target no play can reach is dropped, so the memo stays small.
    need_words = beat_words + 1 if beat_words is not None and beat_words + 1 <= playable // 2 else 0
    long_target = 1 if beat_longest is not None else 0
    long_after = min(beat_longest, _NO_TARGET) if beat_longest is not None else _NO_TARGET
    return int(discard), need_words, long_target, long_after, bonus, bonus


_memo_size = needed_memo
_MEMO_UNIT = 2 * K.MEMO_SLOT


def _memo_room(ncards: int, counts: Sequence[int], params: Sequence[int]) -> int:
    """Memo slots enough for the search of this hand: the table's room for a
    game-sized hand without bonus targets (see :data:`_ROOMY_CARDS`), else
    exactly what it needs."""
    if ncards <= _ROOMY_CARDS and params[1] == 0 and params[2] == 0:
        return _ROOMY[ncards]
    return needed_memo(counts, params)


def _room_with_targets(ncards: int, params: Sequence[int]) -> int:
    """Memo slots enough for the search of any hand of ``ncards`` cards with
    the bonus targets' states of ``params``: ``2**ncards`` sub-hands times
    those states, more than an exact count of the faces would give (spare
    room changes nothing) and cheaper to work out."""
    return 1 + _MEMO_UNIT * (1 << ncards) * (params[1] + 1) * (params[2] + 1)


def _digit_faces(cards: Iterable[Card]) -> list[int]:
    """The kernel faces of the hand's digits, in the kernels' digit order:
    each face the hand holds once, in kernel order."""
    return sorted(set(map(_KERNEL_INDEX.__getitem__, cards)))


def max_memory_bytes() -> int:
    """The search's memory bound as ``$QUIDDLER_MAX_MEMORY_MB`` (megabytes)
    sets it now, else :data:`DEFAULT_MAX_MEMORY_MB`: what a :class:`Solver`
    reads when it is made."""
    text = os.environ.get(MEMORY_ENV)
    return DEFAULT_MAX_MEMORY_MB << 20 if text is None else _memory_limit(text)


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
        raise InvalidArgumentError(f"{MEMORY_ENV} must be a whole number of megabytes, not {shown(text)}") from None
    if megabytes < 1:
        raise InvalidArgumentError(f"{MEMORY_ENV} must be at least 1, not {megabytes}")
    return megabytes << 20


# -- naming the words of a trie ------------------------------------------------------------

#: A trie's words named so far, by rank, and each one's order among a
#: play's words: one int that sorts as ``(-points, -letters, text)`` does
#: (see :func:`_play_order`), read only where the kernel flags words equal
#: on points and letters.  Apart, so that the usual play touches only its
#: words.
_Names = tuple[dict[int, Word], dict[int, int]]
# Held weakly: the names of a word list's words go when the list does.
_NAMES: weakref.WeakKeyDictionary[CardTrie, _Names] = weakref.WeakKeyDictionary()


def _names(trie: CardTrie) -> _Names:
    """The words named so far for ``trie`` (every Solver on it shares them: words recur across hands)."""
    names = _NAMES.get(trie)
    if names is None:
        names = _NAMES.setdefault(trie, ({}, {}))
    return names


def _name(trie: CardTrie, rank: int, names: _Names) -> Word:
    """The multiset's representative word: the alphabetically first spelling.

    Every word a process meets is named once, so a fresh process names
    several per hand (and a game's player keeps meeting new ones): the
    spelling's kernel faces are read straight from the trie's arrays (what
    ``CardTrie.spellings_of`` yields first, without its generators), and
    its faces, cards and points picked out of the tables by kernel face by
    one itemgetter, at C speed (a word has two or more cards, so each pick
    is a tuple)."""
    first = trie.ms_spell[rank]
    pick = itemgetter(*trie.spell_cards[trie.spell_off[first] : trie.spell_off[first + 1]].tobytes())
    text = "".join(pick(KERNEL_ORDER))
    word = make_word(text, pick(_KERNEL_CARDS))
    names[1][rank] = _play_order(sum(pick(_KERNEL_POINTS)), text)
    names[0][rank] = word
    return word


def _play_order(points: int, text: str) -> int:
    """An int that orders words as ``(-points, -letters, text)`` does: fewer
    points above, then fewer letters, then the text as a big-endian number of
    its ASCII bytes, :data:`_TEXT_BITS` wide.  Texts are compared only when
    their lengths are equal, and letters a-z as bytes compare as they do as
    characters.  (Comparing ints is cheaper than comparing tuples.)"""
    head = (_POINTS_TOP - points) << _LETTER_BITS | (_LETTERS_TOP - len(text))
    return head << _TEXT_BITS | int.from_bytes(text.encode("ascii"), "big")


# A word has at most MAX_WORD_CARDS cards of at most 2 letters and 15 points each.
_LETTER_BITS, _LETTERS_TOP, _POINTS_TOP = 6, 63, 1023
_TEXT_BITS = 8 * _LETTERS_TOP
assert 2 * MAX_WORD_CARDS <= _LETTERS_TOP and 15 * MAX_WORD_CARDS <= _POINTS_TOP
