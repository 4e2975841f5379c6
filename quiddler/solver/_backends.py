"""The two ways to run the kernels: compiled by numba, or as plain Python.

Both expose the same small interface, so :mod:`quiddler.solver.core` never
touches numpy or numba itself.  The Python backend imports nothing heavy:
it solves with :mod:`._pysearch` on the card trie's own arrays, and runs
the kernel source for the top-K search and the word listing on lists and
the trie's padded arrays (``CardTrie.kernel_edges`` and ``kernel_ranks``);
the numba backend makes numpy arrays of those once per trie and reuses
scratch buffers per thread.

Every method takes a hand as counts per kernel face (see
:data:`quiddler.cardtrie.KERNEL_ORDER`) and returns plays in the block
layout of :func:`quiddler.solver._kernels.best_play`, words named by their
radix deltas.
"""

from __future__ import annotations

import importlib.util
import os
import struct
import threading
import time
import weakref
from array import array
from collections.abc import Callable, Mapping, Sequence
from math import prod
from operator import itemgetter
from typing import Any, Protocol

from ..cards import Card
from ..cardtrie import KERNEL_ORDER, CardTrie
from ..errors import InvalidArgumentError, shown
from ..notices import hide_notices, logger, show_notices
from ..thresholds import PAYOFF_SECONDS, POLL_SECONDS, PYTHON_SECONDS_PER_HAND
from . import _kernels as K
from . import _pysearch

__all__ = ["BACKEND_NAMES", "AutoBackend", "Backend", "batch_backend", "get_backend", "hide_notices", "show_notices", "warm"]

FACE_POINTS = [Card(face).points for face in KERNEL_ORDER] + [0]
FACE_LETTERS = [len(face) for face in KERNEL_ORDER] + [0]
#: Columns of a face-count row (see :func:`quiddler.solver.score_counts`): one a kernel face,
#: plus a spare that keeps arrays a round size; 32.
FACE_SLOTS = len(FACE_POINTS)
#: The most cards a hand given to the solver may hold: 20 (a game deals at
#: most 10, and 11 after drawing).
MAX_CARDS = K.MAX_CARDS
OUT_BLOCK = K.OUT_BLOCK
JOB_STATUS, JOB_OUT, PACKED_WORDS = K.JOB_STATUS, K.JOB_OUT, K.PACKED_WORDS
HAND_SIZE = K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS
STACK_SIZE = K.STACK_SIZE
#: Per-thread scratch buffers up to this size are kept for the next call;
#: a bigger one (the memo of a huge hand: up to ~1.8 GB) is freed after use.
KEEP_BYTES = 1 << 27


def needed_memo(face_count: Sequence[int], params: Sequence[int]) -> int:
    """The memo slots the search of this hand needs: two of ``MEMO_SLOT``
    numbers per state (a sub-multiset of the hand, numbered in mixed radix)
    and per bonus-target state, plus the generation stamp."""
    states = prod(map(_PLUS_ONE, filter(None, face_count)))  # the mixed-radix size, at C speed
    return 1 + _MEMO_UNIT * states * (params[1] + 1) * (params[2] + 1)


_PLUS_ONE = (1).__add__
_MEMO_UNIT = 2 * K.MEMO_SLOT


class Backend(Protocol):
    """What :mod:`quiddler.solver.core` calls.  ``memo_size`` is the room
    for the search's memo: at least :func:`needed_memo` of the hand (more
    is only room: the memo is indexed by state)."""

    name: str

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> Sequence[int]:  # fmt: skip
        """The best play and the best going-out play (two blocks)."""

    def solve_hand(self, trie: CardTrie, hand: Sequence[Any], face_bytes: Mapping[Any, bytes],
                   params: Sequence[int], memo_size: int) -> Sequence[int]:  # fmt: skip
        """:meth:`solve_counts` of a hand of at most ``FACE_SLOTS - 1``
        cards, each looked up in ``face_bytes`` (its kernel face as 8 bytes
        of int64; the KeyError or TypeError of anything else comes
        through): the two blocks from ``JOB_OUT``."""

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], int]:  # fmt: skip
        """The ``top`` best plays (one block each) and how many there are."""

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        """Ranks of every multiset in the trie that the hand contains."""


def words_capacity(ncards: int) -> int:
    """A first guess at the room for the words of a hand; kernels report
    overflow and are rerun with more."""
    return int(min(2**ncards, 4096))


def _check(result: int) -> bool:
    """True if the kernel finished; False if it wants a bigger words buffer."""
    if result == -2:  # the caller sized the memo; this is a bug, not bad input
        raise RuntimeError("solver memo buffer too small")
    return result >= 0


class PythonBackend:
    """Plain Python, no numba, no numpy: a solve by :mod:`._pysearch` (the
    kernel's answer, by a search written for CPython), the top-K search and
    the word listing by the kernel source itself."""

    name = "python"

    def __init__(self) -> None:
        # Held weakly: a trie's kernel arrays go when its word list does.
        self._tries: weakref.WeakKeyDictionary[CardTrie, tuple[array[int], array[int]]] = weakref.WeakKeyDictionary()

    def _arrays(self, trie: CardTrie) -> tuple[array[int], array[int]]:
        """The trie's :meth:`~quiddler.cardtrie.CardTrie.kernel_edges` and
        ``kernel_ranks``, made once per trie (about a millisecond)."""
        arrays = self._tries.get(trie)
        if arrays is None:
            arrays = self._tries.setdefault(trie, (trie.kernel_edges(), trie.kernel_ranks()))
        return arrays

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> Sequence[int]:  # fmt: skip
        # The same blocks as the kernel, computed by a search written for CPython (see _pysearch).
        return _pysearch.solve_counts(trie.edges, trie.masks, trie.ranks, face_count, FACE_POINTS, FACE_LETTERS,
                                      params)  # fmt: skip

    def solve_hand(self, trie: CardTrie, hand: Sequence[Any], face_bytes: Mapping[Any, bytes],
                   params: Sequence[int], memo_size: int) -> Sequence[int]:  # fmt: skip
        """:meth:`solve_counts` of the hand, the faces counted here, the
        two blocks from ``JOB_OUT`` as in the compiled backend's job row
        (the padding costs nothing next to the search)."""
        counts = [0] * FACE_SLOTS
        for face in array("q", b"".join([face_bytes[card] for card in hand])):
            counts[face] += 1
        return [0] * JOB_OUT + list(self.solve_counts(trie, counts, params, memo_size))

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], int]:  # fmt: skip
        capacity = words_capacity(sum(face_count))
        memo_size = min(memo_size, needed_memo(face_count, params))  # a list as long as it must be
        while True:
            out = [0] * (top * OUT_BLOCK)
            result = K.top_plays(
                *self._arrays(trie), list(face_count), FACE_POINTS, FACE_LETTERS, list(params),
                [0] * HAND_SIZE, [0] * (K.WORD_STRIDE * capacity), [0] * K.GROUP_SIZE,
                [0] * memo_size, [0] * STACK_SIZE, [0] * STACK_SIZE, [0] * (MAX_CARDS + 2), [0] * top, out,
            )  # fmt: skip
            if _check(result):
                return out, result
            capacity *= 4

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        capacity = words_capacity(sum(face_count))
        hand = [0] * HAND_SIZE
        K.layout_hand(face_count, FACE_POINTS, hand)
        while True:
            words = [0] * (K.WORD_STRIDE * capacity)
            n = K.find_words(*self._arrays(trie), 1, hand, FACE_POINTS, FACE_LETTERS, words, capacity,
                             [0] * STACK_SIZE)  # fmt: skip
            if n >= 0:
                return words[: K.WORD_STRIDE * n : K.WORD_STRIDE]
            capacity *= 4


def _dead() -> None:
    """A dead weak reference: what a :class:`_Solo` holds before its first trie."""


class _Solo:
    """One thread's buffers for single-hand kernel calls, and the trie they
    were last set up for (held weakly, like every cache of a trie here).

    ``row`` is the one-row ``jobs`` matrix of
    :func:`~quiddler.solver._kernels.solve_rows` as a Python ``array`` of
    int64, and ``job`` a numpy view of the same memory.  Python fills and
    reads an ``array`` at C speed (slice to slice), where filling the numpy
    row from a list and reading its tail with ``tolist()`` would convert
    every number on every kernel call (docs/solver.md has the figures).
    """

    __slots__ = ("bytes", "edges", "job", "memo_room", "params", "ranks", "row", "trie", "work")

    def __init__(self, row: array[int], job: Any) -> None:
        self.row, self.job = row, job
        self.bytes = memoryview(row).cast("B")  # the row's bytes, to write a hand's faces in at C speed
        self.params: Sequence[int] = ()  # the parameters the row holds, if a tuple (see _write_params)
        self.trie: Callable[[], CardTrie | None] = _dead
        self.edges: Any = None
        self.ranks: Any = None
        self.work: Any = None
        self.memo_room = -1


_PARAMS_INTO = struct.Struct(f"={K.PARAM_COUNT}q").pack_into


def _write_params(solo: _Solo, params: Sequence[int]) -> None:
    """Write the solve parameters into the thread's job row, where they stay
    for the next call with the same tuple (the kernel never writes them; the
    solver passes the same tuple for the same options).  Packed straight
    into the row's bytes: an ``array`` made of the tuple and copied in
    converts each number through a slower path."""
    _PARAMS_INTO(solo.bytes, 8 * K.JOB_PARAMS, *params)
    solo.params = params if type(params) is tuple else ()  # a list may change: never reused


def _entry_point(dispatcher: Any) -> Any:
    """The compiled code behind a numba kernel frozen to one signature (see
    :mod:`~quiddler.solver._native`), to call without the dispatcher.

    A dispatcher works out the numba type of every argument before each
    call (about half of what a call of ``solve_rows`` costs; a read-only
    array such as the trie's ranks takes its slow path).  The kernel has one
    compiled version, and its arguments here always have the types it was
    compiled for (the backend makes them), so the dispatch only costs time.
    The dispatcher itself is kept where there is no one compiled version
    (``NUMBA_DISABLE_JIT``: the kernels are plain Python) or a numba
    without ``entry_point``.
    """
    overloads = getattr(dispatcher, "overloads", None)
    if not overloads or len(overloads) != 1:
        return dispatcher
    return getattr(next(iter(overloads.values())), "entry_point", None) or dispatcher


class NumbaBackend:
    """Runs the numba-compiled kernels on numpy arrays."""

    name = "numba"

    def __init__(self) -> None:
        import numpy as np

        from . import _native

        self._np = np
        self._k = _native.load()
        self._solve_rows = _entry_point(self._k.solve_rows)
        self._class_rows = _entry_point(self._k.class_rows)
        self._kept_rows = _entry_point(self._k.kept_rows)
        self._points = np.array(FACE_POINTS, dtype=np.int64)
        self._letters = np.array(FACE_LETTERS, dtype=np.int64)
        # Held weakly: a trie's arrays go when its word list does.
        self._tries: weakref.WeakKeyDictionary[CardTrie, tuple[Any, Any]] = weakref.WeakKeyDictionary()
        self._local = threading.local()

    def trie_arrays(self, trie: CardTrie) -> tuple[Any, Any]:
        """The trie's kernel edges (padded, see ``CardTrie.kernel_edges``) and ranks
        (read-only: the kernels are compiled for exactly these types) as
        numpy arrays, made once per trie."""
        entry = self._tries.get(trie)
        if entry is None:
            np = self._np
            edges = np.frombuffer(trie.kernel_edges(), dtype=np.int32)
            ranks = np.frombuffer(trie.kernel_ranks(), dtype=np.int32)
            ranks.flags.writeable = False
            entry = self._tries.setdefault(trie, (edges, ranks))
        return entry

    def _scratch(self, name: str, size: int) -> Any:
        """A per-thread int64 buffer of at least ``size`` slots, reused between calls."""
        buffer = getattr(self._local, name, None)
        if buffer is None or len(buffer) < size:
            buffer = self._np.zeros(max(size, 64), dtype=self._np.int64)
            if buffer.nbytes <= KEEP_BYTES:  # a huge hand's memo is not held on to
                setattr(self._local, name, buffer)
        return buffer

    def _common(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int], memo_size: int,
                capacity: int) -> tuple[Any, ...]:  # fmt: skip
        np = self._np
        edges, ranks = self.trie_arrays(trie)
        return (
            edges, ranks, np.array(face_count, dtype=np.int64), self._points, self._letters,
            np.array(params, dtype=np.int64), self._scratch("hand", HAND_SIZE),
            self._scratch("words", K.WORD_STRIDE * capacity), self._scratch("group", K.GROUP_SIZE),
            self._scratch("memo", memo_size), self._scratch("stack", STACK_SIZE),
        )  # fmt: skip

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> Sequence[int]:  # fmt: skip
        """One hand through :func:`~quiddler.solver._kernels.solve_rows`.

        The Python here is part of every kernel call, so it is kept to a
        few C-speed steps (see :class:`_Solo`): the counts and parameters
        are copied into the job row as int64 arrays, the compiled code is
        called without numba's type dispatch, and the two play blocks come
        back as a copy of the row's tail (an int64 ``array``).
        """
        solo, work = self._ready(trie, memo_size)
        row = solo.row
        row[:FACE_SLOTS] = face_count if type(face_count) is array else array("q", face_count)
        if params is not solo.params:  # the solver passes the same tuple for the same options
            _write_params(solo, params)
        self._run(self._solve_rows, solo, work, memo_size)
        return row[JOB_OUT:]

    def solve_hand(self, trie: CardTrie, hand: Sequence[Any], face_bytes: Mapping[Any, bytes],
                   params: Sequence[int], memo_size: int) -> array[int]:  # fmt: skip
        """:meth:`solve_counts` of a hand of at most ``FACE_SLOTS - 1`` cards,
        given by their kernel faces, which the kernel counts
        (:func:`~quiddler.solver._kernels.solve_rows`); ``face_bytes`` maps a
        card to its kernel face as 8 bytes of int64 (its KeyError or TypeError
        for anything else comes through).  Returns the job row itself, not a
        copy: the two play blocks start at ``JOB_OUT``, and the thread's next
        kernel call overwrites them.  (The solver's quick path: counting in
        Python, a count array copied in and the blocks copied out cost about
        as much as the rest of its Python.)"""
        return self._row_of_hand(self._solve_rows, trie, hand, face_bytes, params, memo_size)

    def class_hand(self, trie: CardTrie, hand: Sequence[Any], face_bytes: Mapping[Any, bytes],
                   params: Sequence[int], memo_size: int) -> array[int]:  # fmt: skip
        """The best key of each class of plays of a final turn (see
        :func:`~quiddler.solver._kernels.class_keys`), for a hand given as
        :meth:`solve_hand` takes it: the job row itself, the keys from
        ``JOB_OUT`` (the thread's next kernel call overwrites them)."""
        return self._row_of_hand(self._class_rows, trie, hand, face_bytes, params, memo_size)

    def kept_hand(self, trie: CardTrie, hand: Sequence[Any], face_bytes: Mapping[Any, bytes],
                  params: Sequence[int], memo_size: int) -> array[int]:  # fmt: skip
        """The best key and best going-out key of the hand less one card of
        each of its faces (see :func:`~quiddler.solver._kernels.kept_keys`),
        for a hand given as :meth:`solve_hand` takes it, with ``params`` of
        a solve without a discard or targets: the job row itself, two keys
        per face from ``JOB_OUT``, the faces in kernel order (the thread's
        next kernel call overwrites them)."""
        return self._row_of_hand(self._kept_rows, trie, hand, face_bytes, params, memo_size)

    def _row_of_hand(self, rows: Any, trie: CardTrie, hand: Sequence[Any], face_bytes: Mapping[Any, bytes],
                     params: Sequence[int], memo_size: int) -> array[int]:  # fmt: skip
        """The thread's job row after the rows kernel ``rows`` (called as
        :func:`~quiddler.solver._kernels.solve_rows` is) ran on it, with the
        hand's kernel faces written into the row for the kernel to count.

        The faces are looked up by one ``itemgetter`` of the whole hand,
        every lookup at C speed, rather than by ``map``, a call per card:
        the dict and its values are out of the caches after the last kernel
        call, and the fewer steps per card the better (an itemgetter of one
        key gives the value itself, not a tuple)."""
        solo, work = self._ready(trie, memo_size)
        row = solo.row
        faces = itemgetter(*hand)(face_bytes)
        if len(hand) > 1:
            faces = b"".join(faces)
        row[FACE_SLOTS - 1] = -len(hand)
        solo.bytes[: len(faces)] = faces
        if params is not solo.params:  # else the row holds them
            _write_params(solo, params)
        self._run(rows, solo, work, memo_size)
        return row

    def _ready(self, trie: CardTrie, memo_size: int) -> tuple[_Solo, Any]:
        """This thread's buffers and work array for a solve of ``trie`` whose
        memo holds ``memo_size``: as they are when they fit, else set up anew."""
        solo = self._local.__dict__.get("solo")
        if solo is None or solo.trie() is not trie or memo_size > solo.memo_room:
            return self._solo(trie, memo_size)
        return solo, solo.work

    def _run(self, rows: Any, solo: _Solo, work: Any, memo_size: int) -> None:
        """The rows kernel ``rows`` (called as
        :func:`~quiddler.solver._kernels.solve_rows` is) on the thread's job
        row.  With more words than the work array holds (only huge hands) it
        runs again, with more room, in a fresh work array (the memo moves
        with the words, and a moved memo must start all unknown)."""
        rows(solo.edges, solo.ranks, solo.job, work, 0, 1, PACKED_WORDS)
        if solo.row[JOB_STATUS] < 0:  # finished unless negative (see _check): no call on the usual way
            self._rerun(rows, solo, memo_size)

    def _rerun(self, rows: Any, solo: _Solo, memo_size: int) -> None:
        """The reruns of the rows kernel ``rows`` on the thread's job row
        with more room, while the kernel asks for it."""
        capacity = PACKED_WORDS
        while not _check(solo.row[JOB_STATUS]):
            capacity *= 4
            work = self._new_work(K.work_size(capacity, memo_size))
            rows(solo.edges, solo.ranks, solo.job, work, 0, 1, capacity)

    def _solo(self, trie: CardTrie, memo_size: int) -> tuple[_Solo, Any]:
        """This thread's buffers for :meth:`solve_counts`, set up for
        ``trie``, and a work array (room for ``PACKED_WORDS`` words) whose
        memo holds ``memo_size``: the thread's own, unless the memo is too
        big to keep (a huge hand's), which gets a work array of its own."""
        solo = self._local.__dict__.get("solo")
        if solo is None:
            row = array("q", bytes(8 * K.JOB_WIDTH))
            # The job matrix is a numpy view of ``row``: Python reads and
            # writes the row as an array, the kernel the matrix.
            job = self._np.frombuffer(row, dtype=self._np.int64).reshape(1, -1)
            solo = self._local.solo = _Solo(row, job)
        solo.edges, solo.ranks = self.trie_arrays(trie)
        solo.trie = weakref.ref(trie)
        if memo_size > solo.memo_room:
            size = max(K.work_size(PACKED_WORDS, memo_size), K.work_size(PACKED_WORDS, 1 << 16))
            if 8 * size > KEEP_BYTES:  # a huge hand's memo is not held on to
                return solo, self._new_work(size)
            solo.work = self._new_work(size)
            solo.memo_room = size - K.work_size(PACKED_WORDS, 0)
        return solo, solo.work

    def _new_work(self, size: int) -> Any:
        """A work array of :func:`~quiddler.solver._kernels.solve_rows`: face
        tables filled in, every memo slot unknown (all zeros)."""
        work = self._np.zeros(size, dtype=self._np.int64)
        work[:32] = FACE_POINTS
        work[32:64] = FACE_LETTERS
        return work

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], int]:  # fmt: skip
        from . import _native

        np = self._np
        capacity = words_capacity(sum(face_count))
        while True:
            out = np.zeros(top * OUT_BLOCK, dtype=np.int64)
            args = self._common(trie, face_count, params, memo_size, capacity)
            result = _native.kernel("top_plays")(
                *args, self._scratch("dfs", STACK_SIZE), self._scratch("path", MAX_CARDS + 2),
                np.zeros(top, dtype=np.int64), out,
            )  # fmt: skip
            if _check(result):
                return out.tolist(), result
            capacity *= 4

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        np = self._np
        capacity = words_capacity(sum(face_count))
        edges, ranks = self.trie_arrays(trie)
        hand = self._scratch("hand", HAND_SIZE)
        counts = np.array(face_count, dtype=np.int64)
        self._k.layout_hand(counts, self._points, hand)
        while True:
            words = self._scratch("words", K.WORD_STRIDE * capacity)
            n = self._k.find_words(edges, ranks, 1, hand, self._points, self._letters, words, capacity,
                                   self._scratch("stack", STACK_SIZE))  # fmt: skip
            if n >= 0:
                return words[: K.WORD_STRIDE * n : K.WORD_STRIDE].tolist()  # type: ignore[no-any-return]
            capacity *= 4

    def solve_batch(self, trie: CardTrie, counts: Any, params: Sequence[int], memo_size: int,
                    threads: int, faces: Any = None, scores_only: bool = False) -> tuple[Any, Any]:  # fmt: skip
        """Solve every row of the int64 matrix ``counts`` on ``threads``
        threads (hands dealt round-robin; the kernel releases the GIL).
        Returns (out, status): one row of two blocks per hand, and per hand
        the kernel's result (negative: more words than the work arrays
        hold, solve that hand on its own).  ``faces`` instead of ``counts``
        (None then): a matrix of ``k`` kernel faces per hand, ``k`` under
        ``FACE_SLOTS``, which the kernel counts, as for :meth:`solve_hand`
        (hands of one size, from the solver's quick path: no count matrix
        to make and copy).  ``scores_only``: each block's ``[OUT_KEY]``
        alone is written (:func:`~quiddler.solver._kernels.score_rows`:
        the same keys, without the plays' longest word, word count and
        words, which a scorer never reads)."""
        np = self._np
        edges, ranks = self.trie_arrays(trie)
        if faces is None:
            jobs = np.zeros((len(counts), K.JOB_WIDTH), dtype=np.int64)
            jobs[:, :FACE_SLOTS] = counts
        else:
            jobs = np.zeros((len(faces), K.JOB_WIDTH), dtype=np.int64)
            jobs[:, : faces.shape[1]] = faces
            jobs[:, FACE_SLOTS - 1] = -faces.shape[1]
        jobs[:, FACE_SLOTS : K.JOB_STATUS] = params
        threads = max(1, min(threads, len(jobs)))
        rows = self._k.score_rows if scores_only else self._k.solve_rows
        if threads == 1:
            # The thread's own work array, as for one hand (its memo's generation stamps make every
            # slot a new search finds unknown): a fresh one would be zeroed and paged in every batch.
            rows(edges, ranks, jobs, self._solo(trie, memo_size)[1], 0, 1, K.PACKED_WORDS)
        else:
            works = [self._new_work(K.work_size(K.PACKED_WORDS, memo_size)) for _ in range(threads)]
            runners = [
                threading.Thread(target=rows, name=f"quiddler-batch-{t}", daemon=True,
                                 args=(edges, ranks, jobs, works[t], t, threads, K.PACKED_WORDS))
                for t in range(threads)
            ]  # fmt: skip
            for runner in runners:
                runner.start()
            for runner in runners:
                runner.join()
        return jobs[:, K.JOB_OUT :], jobs[:, K.JOB_STATUS]

    def score_plus_batch(self, trie: CardTrie, jobs: Any, memo_size: int) -> None:
        """Run :func:`~quiddler.solver._kernels.score_plus_rows` over the
        int64 matrix ``jobs`` (``PLUS_WIDTH`` numbers a row: a base hand,
        the faces its hands add, room for their keys) on this thread, in
        its own work array, with memo room ``memo_size`` for the bases' cards
        together (of each face, the most any base holds)."""
        edges, ranks = self.trie_arrays(trie)
        self._k.score_plus_rows(edges, ranks, jobs, self._solo(trie, memo_size)[1], 0, 1, K.PACKED_WORDS)


class AutoBackend:
    """The default backend: pure Python until the compiled kernels pay off.

    A first solve in a new process must not wait for numba (about a second
    to import and load the kernels, and ten or more to compile them on a
    machine where they are not cached yet).  So this starts on the Python
    backend and counts the time it spends there.  Once that reaches
    :data:`PAYOFF_SECONDS` (or a batch big enough arrives), it moves to numba:
    at once if the kernels are in numba's cache, else after compiling them in
    a background process while it keeps solving in Python.  Compiling is
    announced through :mod:`logging` (logger ``quiddler.solver``), which the
    command line shows on stderr.  Answers are the same either way.
    """

    name = "auto"

    PAYOFF_SECONDS = PAYOFF_SECONDS  # see quiddler.thresholds
    #: What compiling every kernel takes on the project's 2-core machine (said
    #: in the notice; see benchmarks/results/first_use.json).
    COMPILE_SECONDS_ESTIMATE = "10-30"
    _POLL_SECONDS = POLL_SECONDS

    def __init__(self) -> None:
        self.python = PythonBackend()
        self.compiled: NumbaBackend | None = None
        self.python_seconds = 0.0
        self._compiler: Any = None  # the background compile process while it runs
        self._compile_started = 0.0
        self._next_poll = 0.0
        self._given_up = False
        self._decide_lock = threading.Lock()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._after_fork)

    def _after_fork(self) -> None:
        """In a forked child (a worker pool): the background compile is the
        parent's process, which the child cannot wait for; forget it (the
        child starts its own if it needs one, and the lock file makes it
        wait for the parent's), and renew the lock another thread may hold."""
        self._compiler = None
        self._decide_lock = threading.Lock()

    def current(self, upcoming: float = 0.0) -> Backend:
        """The backend to use now, for work that would take ``upcoming``
        seconds in Python (beyond what has been spent)."""
        compiled = self.compiled
        if compiled is not None:
            return compiled
        if self._given_up:
            return self.python
        with self._decide_lock:
            return self._decide(upcoming)

    def _decide(self, upcoming: float) -> Backend:
        if self.compiled is not None:
            return self.compiled
        if self._compiler is None and self.python_seconds + upcoming < self.PAYOFF_SECONDS:
            return self.python  # the usual answer for a one-shot solve: without importing _native (subprocess...)
        from . import _native

        if self._compiler is not None:
            now = time.monotonic()
            if now < self._next_poll:
                return self.python
            self._next_poll = now + self._POLL_SECONDS
            if self._compiler.poll() is None:
                return self.python
            code, self._compiler = self._compiler.returncode, None
            if code != 0 or not _native.ready():
                logger("quiddler.solver").warning("compiling the solver kernels in the background failed (exit code %s, see "
                            "quiddler-kernels.log in %s); staying with pure Python", code, _native.cache_folder())  # fmt: skip
                self._given_up = True
                return self.python
            logger("quiddler.solver").info("solver kernels compiled in %.1f s; using them from now on",
                     time.monotonic() - self._compile_started)  # fmt: skip
            return self._load()
        if importlib.util.find_spec("numba") is None:
            self._given_up = True
            return self.python
        if _native.ready():
            return self._load()
        elsewhere = _native.compile_running()  # an earlier command's compile: ours waits for it
        self._compiler = _native.start_background_compile()
        if self._compiler is None:
            logger("quiddler.solver").warning("compiled solver kernels cannot be cached (no writable folder: set NUMBA_CACHE_DIR to "
                        "one); solving in pure Python")  # fmt: skip
            self._given_up = True
            return self.python
        self._compile_started = self._next_poll = time.monotonic()
        if elsewhere:
            logger("quiddler.solver").info("compiling the solver kernels in the background: another quiddler command started it "
                     "(once per install); solving in pure Python until they are ready")  # fmt: skip
        else:
            logger("quiddler.solver").info("compiling the solver kernels in the background (once per install, about %s s); "
                     "solving in pure Python until they are ready", self.COMPILE_SECONDS_ESTIMATE)  # fmt: skip
        return self.python

    def _load(self) -> Backend:
        try:
            backend = get_backend("numba")
        except ImportError:
            self._given_up = True
            return self.python
        assert isinstance(backend, NumbaBackend)
        self.compiled = backend
        return backend

    def _timed(self, run: Any) -> Any:
        started = time.perf_counter()
        try:
            return run()
        finally:
            self.python_seconds += time.perf_counter() - started

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> Sequence[int]:  # fmt: skip
        engine = self.current()
        if engine is not self.python:
            return engine.solve_counts(trie, face_count, params, memo_size)
        return self._timed(lambda: self.python.solve_counts(trie, face_count, params, memo_size))  # type: ignore[no-any-return]

    def solve_hand(self, trie: CardTrie, hand: Sequence[Any], face_bytes: Mapping[Any, bytes],
                   params: Sequence[int], memo_size: int) -> Sequence[int]:  # fmt: skip
        engine = self.current()
        if engine is not self.python:
            return engine.solve_hand(trie, hand, face_bytes, params, memo_size)
        return self._timed(lambda: self.python.solve_hand(trie, hand, face_bytes, params, memo_size))  # type: ignore[no-any-return]

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], int]:  # fmt: skip
        engine = self.current()
        if engine is not self.python:
            return engine.top_counts(trie, face_count, params, memo_size, top)
        return self._timed(lambda: self.python.top_counts(trie, face_count, params, memo_size, top))  # type: ignore[no-any-return]

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        engine = self.current()
        if engine is not self.python:
            return engine.word_ranks(trie, face_count)
        return self._timed(lambda: self.python.word_ranks(trie, face_count))  # type: ignore[no-any-return]


def batch_backend(name: str, hands: int) -> NumbaBackend | None:
    """The compiled backend if a batch of ``hands`` hands should run on it
    now, else None (solve them one by one, on ``name``, and ask again)."""
    if name == "python":
        return None
    if name == "numba":
        backend = get_backend("numba")
        assert isinstance(backend, NumbaBackend)
        return backend
    engine = get_backend(name)
    if isinstance(engine, AutoBackend):
        engine = engine.current(hands * PYTHON_SECONDS_PER_HAND)
    return engine if isinstance(engine, NumbaBackend) else None


def warm() -> None:
    """Load the compiled kernels now, in a process that is about to solve a
    great deal (a simulation's worker): at once when numba's cache holds them,
    else start compiling them in the background.  Without this the default
    backend first spends its pure-Python allowance
    (:data:`quiddler.thresholds.PAYOFF_SECONDS`) before it looks."""
    auto = get_backend("auto")
    if isinstance(auto, AutoBackend):
        auto.current(upcoming=AutoBackend.PAYOFF_SECONDS)


#: The names :func:`get_backend` knows.
BACKEND_NAMES = ("auto", "python", "numba")
_backends: dict[str, Backend] = {}
_lock = threading.Lock()


def _renew_lock() -> None:
    """In a forked child: a fresh lock.  Another thread of the parent may
    have held it at the fork (making a backend), and that thread does not
    exist in the child, so the old lock would never be released."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_renew_lock)


def get_backend(name: str) -> Backend:
    """``"python"``, ``"numba"``, or ``"auto"`` (Python until numba pays off:
    see :class:`AutoBackend`)."""
    backend = _backends.get(name)
    if backend is not None:
        return backend
    with _lock:
        backend = _backends.get(name)
        if backend is None:
            if name == "python":
                backend = PythonBackend()
            elif name == "numba":
                backend = NumbaBackend()
            elif name == "auto":
                backend = AutoBackend()
            else:
                raise InvalidArgumentError(f"unknown backend: {shown(name)} (expected 'auto', 'python' or 'numba')")
            _backends[name] = backend
        return backend
