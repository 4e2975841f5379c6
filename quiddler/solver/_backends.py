"""The two ways to run the kernels: compiled by numba, or as plain Python.

Both expose the same small interface, so :mod:`quiddler.solver.core` never
touches numpy or numba itself.  The Python backend uses lists and the card
trie's memoryviews and imports nothing heavy; the numba backend converts the
trie to numpy arrays once per trie and reuses scratch buffers per thread.

Every method takes a hand as counts per kernel face (see
:data:`quiddler.cardtrie.KERNEL_ORDER`) and returns plays in the block
layout of :func:`quiddler.solver._kernels.best_play`, words named by their
radix deltas.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

from ..cards import Card
from ..cardtrie import KERNEL_ORDER, CardTrie
from . import _kernels as K

__all__ = ["Backend", "get_backend"]

FACE_POINTS = [Card(face).points for face in KERNEL_ORDER] + [0]
FACE_LETTERS = [len(face) for face in KERNEL_ORDER] + [0]
FACE_SLOTS = len(FACE_POINTS)  # 32: one spare slot keeps arrays a round size
MAX_CARDS = K.MAX_CARDS
OUT_BLOCK = K.OUT_BLOCK
HAND_SIZE = K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS
STACK_SIZE = K.STACK_SIZE


class Backend(Protocol):
    name: str

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> Sequence[int]:  # fmt: skip
        """The best play and the best going-out play (two blocks)."""

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
    """Runs the kernel source as plain Python: no numba, no numpy."""

    name = "python"

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> Sequence[int]:  # fmt: skip
        capacity = words_capacity(sum(face_count))
        while True:
            out = [0] * (2 * OUT_BLOCK)
            result = K.solve_counts(
                trie.edges, trie.ranks, list(face_count), FACE_POINTS, FACE_LETTERS, list(params),
                [0] * HAND_SIZE, [0] * FACE_SLOTS, [0] * (K.WORD_STRIDE * capacity), [0] * K.GROUP_SIZE,
                [0] * memo_size, [0] * STACK_SIZE, [0] * STACK_SIZE, out,
            )  # fmt: skip
            if _check(result):
                return out
            capacity *= 4

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], int]:  # fmt: skip
        capacity = words_capacity(sum(face_count))
        while True:
            out = [0] * (top * OUT_BLOCK)
            result = K.top_plays(
                trie.edges, trie.ranks, list(face_count), FACE_POINTS, FACE_LETTERS, list(params),
                [0] * HAND_SIZE, [0] * FACE_SLOTS, [0] * (K.WORD_STRIDE * capacity), [0] * K.GROUP_SIZE,
                [0] * memo_size, [0] * STACK_SIZE, [0] * STACK_SIZE, [0] * (MAX_CARDS + 2), [0] * top, out,
            )  # fmt: skip
            if _check(result):
                return out, result
            capacity *= 4

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        capacity = words_capacity(sum(face_count))
        hand, digit = [0] * HAND_SIZE, [0] * FACE_SLOTS
        K.layout_hand(face_count, FACE_POINTS, hand, digit)
        while True:
            words = [0] * (K.WORD_STRIDE * capacity)
            n = K.find_words(trie.edges, trie.ranks, 1, hand, list(face_count), digit, FACE_POINTS,
                             FACE_LETTERS, words, capacity, [0] * STACK_SIZE)  # fmt: skip
            if n >= 0:
                return words[: K.WORD_STRIDE * n : K.WORD_STRIDE]
            capacity *= 4


class NumbaBackend:
    """Runs the numba-compiled kernels on numpy arrays."""

    name = "numba"

    def __init__(self) -> None:
        import numpy as np

        from ._native import kernels

        self._np = np
        self._k = kernels
        self._points = np.array(FACE_POINTS, dtype=np.int64)
        self._letters = np.array(FACE_LETTERS, dtype=np.int64)
        self._tries: dict[int, tuple[CardTrie, Any, Any]] = {}
        self._local = threading.local()

    def trie_arrays(self, trie: CardTrie) -> tuple[Any, Any]:
        """The trie's edges (padded, see ``CardTrie.padded_edges``) and ranks as
        numpy arrays, made once per trie."""
        entry = self._tries.get(id(trie))
        if entry is None or entry[0] is not trie:
            np = self._np
            edges = np.frombuffer(trie.padded_edges(), dtype=np.int32)
            entry = (trie, edges, np.frombuffer(trie.ranks, dtype=np.int32))
            self._tries[id(trie)] = entry
        return entry[1], entry[2]

    def _scratch(self, name: str, size: int) -> Any:
        """A per-thread int64 buffer of at least ``size`` slots, reused between calls."""
        buffer = getattr(self._local, name, None)
        if buffer is None or len(buffer) < size:
            buffer = self._np.zeros(max(size, 64), dtype=self._np.int64)
            setattr(self._local, name, buffer)
        return buffer

    def _common(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int], memo_size: int,
                capacity: int) -> tuple[Any, ...]:  # fmt: skip
        np = self._np
        edges, ranks = self.trie_arrays(trie)
        return (
            edges, ranks, np.array(face_count, dtype=np.int64), self._points, self._letters,
            np.array(params, dtype=np.int64), self._scratch("hand", HAND_SIZE), self._scratch("digit", FACE_SLOTS),
            self._scratch("words", K.WORD_STRIDE * capacity), self._scratch("group", K.GROUP_SIZE),
            self._scratch("memo", memo_size), self._scratch("stack", STACK_SIZE),
        )  # fmt: skip

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> Sequence[int]:  # fmt: skip
        edges, ranks = self.trie_arrays(trie)
        work = self._work(K.PACKED_MEMO + memo_size)
        request = self._np.array([*face_count, *params], dtype=self._np.int64)
        if self._k.solve_packed(edges, ranks, request, work) >= 0:
            return work[K.FACE_TABLES : K.FACE_TABLES + 2 * OUT_BLOCK].tolist()  # type: ignore[no-any-return]
        # More words than the packed layout holds (only huge hands): pass
        # separate buffers, growing the words buffer until they fit.
        capacity = 4 * K.PACKED_WORDS
        while True:
            out = self._scratch("out", 2 * OUT_BLOCK)
            args = self._common(trie, face_count, params, memo_size, capacity)
            if _check(self._k.solve_counts(*args, self._scratch("kstack", STACK_SIZE), out)):
                return out[: 2 * OUT_BLOCK].tolist()  # type: ignore[no-any-return]
            capacity *= 4

    def _work(self, size: int) -> Any:
        """The per-thread work array of :func:`~quiddler.solver._kernels.solve_packed`
        with its face tables filled in; replaced by a bigger one (all zeros,
        so every memo slot is unknown) when a hand needs more."""
        work = getattr(self._local, "work", None)
        if work is None or len(work) < size:
            work = self._np.zeros(max(size, K.PACKED_MEMO + (1 << 16)), dtype=self._np.int64)
            work[:32] = FACE_POINTS
            work[32:64] = FACE_LETTERS
            self._local.work = work
        return work

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], int]:  # fmt: skip
        np = self._np
        capacity = words_capacity(sum(face_count))
        while True:
            out = np.zeros(top * OUT_BLOCK, dtype=np.int64)
            args = self._common(trie, face_count, params, memo_size, capacity)
            result = self._k.top_plays(
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
        hand, digit = self._scratch("hand", HAND_SIZE), self._scratch("digit", FACE_SLOTS)
        counts = np.array(face_count, dtype=np.int64)
        self._k.layout_hand(counts, self._points, hand, digit)
        while True:
            words = self._scratch("words", K.WORD_STRIDE * capacity)
            n = self._k.find_words(edges, ranks, 1, hand, counts, digit, self._points, self._letters,
                                   words, capacity, self._scratch("stack", STACK_SIZE))  # fmt: skip
            if n >= 0:
                return words[: K.WORD_STRIDE * n : K.WORD_STRIDE].tolist()  # type: ignore[no-any-return]
            capacity *= 4

    def solve_batch(self, trie: CardTrie, counts: Any, params: Sequence[int], memo_size: int,
                    chunks: int) -> tuple[Any, Any]:  # fmt: skip
        """Solve every row of the int64 matrix ``counts`` in ``chunks``
        parallel chunks.  Returns (out, status): one row of two blocks per
        hand, and per hand the kernel's result (negative: words overflowed,
        solve that hand on its own)."""
        np = self._np
        edges, ranks = self.trie_arrays(trie)
        nhands = len(counts)
        capacity = 4096

        def rows(width: int) -> Any:
            return np.zeros((chunks, width), dtype=np.int64)

        out = np.zeros((nhands, 2 * OUT_BLOCK), dtype=np.int64)
        status = np.zeros(nhands, dtype=np.int64)
        self._k.solve_batch(
            edges, ranks, counts, self._points, self._letters, np.array(params, dtype=np.int64),
            rows(HAND_SIZE), rows(FACE_SLOTS), rows(K.WORD_STRIDE * capacity), rows(K.GROUP_SIZE),
            rows(memo_size), rows(STACK_SIZE), rows(STACK_SIZE), out, status,
        )  # fmt: skip
        return out, status

    def solve_rows(self, trie: CardTrie, counts: Any, params: Sequence[int], memo_size: int) -> tuple[Any, Any]:
        """:meth:`solve_batch`'s result from the serial kernel, one hand at a
        time on this thread (for processes that must not enter a parallel
        region; see :mod:`quiddler.solver._parallel`)."""
        np = self._np
        out = np.zeros((len(counts), 2 * OUT_BLOCK), dtype=np.int64)
        for i, row in enumerate(counts.tolist()):
            out[i] = self.solve_counts(trie, row, params, memo_size)
        return out, np.zeros(len(counts), dtype=np.int64)


_backends: dict[str, Backend] = {}
_lock = threading.Lock()


def get_backend(name: str) -> Backend:
    """``"python"``, ``"numba"``, or ``"auto"`` (numba when it is installed)."""
    backend = _backends.get(name)
    if backend is not None:
        return backend
    if name == "auto":
        try:
            backend = get_backend("numba")
        except ImportError:
            backend = get_backend("python")
        _backends["auto"] = backend
        return backend
    with _lock:
        backend = _backends.get(name)
        if backend is None:
            if name == "python":
                backend = PythonBackend()
            elif name == "numba":
                backend = NumbaBackend()
            else:
                raise ValueError(f"unknown backend: {name!r} (expected 'auto', 'python' or 'numba')")
            _backends[name] = backend
        return backend
