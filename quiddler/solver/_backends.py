"""The two ways to run the kernels: compiled by numba, or as plain Python.

Both expose the same small interface, so :mod:`quiddler.solver.core` never
touches numpy or numba itself.  The Python backend uses lists and the card
trie's memoryviews and imports nothing heavy; the numba backend converts the
trie to numpy arrays once per trie and reuses scratch buffers per thread.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol, Sequence

from ..cardtrie import KERNEL_ORDER, CardTrie
from ..cards import Card
from . import _kernels as K

__all__ = ["Backend", "get_backend"]

FACE_POINTS = [Card(face).points for face in KERNEL_ORDER] + [0]
FACE_LETTERS = [len(face) for face in KERNEL_ORDER] + [0]
FACE_SLOTS = len(FACE_POINTS)  # 32: one spare slot keeps arrays a round size
MAX_CARDS = 20
OUT_BLOCK = K.OUT_BLOCK


class Backend(Protocol):
    name: str

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> tuple[Sequence[int], Sequence[int]]:  # fmt: skip
        """Run ``solve_counts``; return (out, words) as sequences of ints."""

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], Sequence[int], int]:  # fmt: skip
        """Run ``top_plays``; return (out, words, number of plays)."""

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        """Ranks of every multiset in the trie that the hand contains."""


def _check(result: int) -> None:
    if result == -2:  # the caller sized the memo; this is a bug, not bad input
        raise RuntimeError("solver memo buffer too small")


def _words_capacity(ncards: int) -> int:
    # Each found word is a distinct sub-multiset of the hand with >= 2 cards.
    return min(2**ncards, 4096)


class PythonBackend:
    """Runs the kernel source as plain Python: no numba, no numpy."""

    name = "python"

    def _trie_arrays(self, trie: CardTrie) -> tuple[Any, ...]:
        return (trie.edges, trie.ranks)

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> tuple[Sequence[int], Sequence[int]]:  # fmt: skip
        ncards = sum(face_count)
        capacity = _words_capacity(ncards)
        while True:
            words = [0] * (K.WORD_STRIDE * capacity)
            out = [0] * (2 * OUT_BLOCK)
            result = K.solve_counts(
                *self._trie_arrays(trie), list(face_count), FACE_POINTS, FACE_LETTERS, list(params),
                [0] * (K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS), [0] * FACE_SLOTS, words,
                [0] * (FACE_SLOTS + 1), [0] * memo_size, [0] * (K.FRAME * (ncards + 2)),
                [0] * (K.FRAME * (ncards + 2)), out,
            )  # fmt: skip
            _check(result)
            if result >= 0:
                return out, words[: K.WORD_STRIDE * result]
            capacity *= 4

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], Sequence[int], int]:  # fmt: skip
        ncards = sum(face_count)
        capacity = _words_capacity(ncards)
        while True:
            words = [0] * (K.WORD_STRIDE * capacity)
            out = [0] * (top * OUT_BLOCK)
            result = K.top_plays(
                *self._trie_arrays(trie), list(face_count), FACE_POINTS, FACE_LETTERS, list(params),
                [0] * (K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS), [0] * FACE_SLOTS, words,
                [0] * (FACE_SLOTS + 1), [0] * memo_size, [0] * (K.FRAME * (ncards + 2)),
                [0] * (K.DFS_FRAME * (ncards + 2)), [0] * (ncards + 2), [0] * top, out,
            )  # fmt: skip
            _check(result)
            if result >= 0:
                return out, words, result
            capacity *= 4

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        ncards = sum(face_count)
        capacity = _words_capacity(ncards)
        hand = [0] * (K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS)
        digit = [0] * FACE_SLOTS
        K.layout_hand(face_count, FACE_POINTS, hand, digit)
        while True:
            words = [0] * (K.WORD_STRIDE * capacity)
            n = K.find_words(*self._trie_arrays(trie), 1, hand, list(face_count), digit, FACE_POINTS,
                             FACE_LETTERS, words, capacity, [0] * (K.FRAME * (ncards + 2)))  # fmt: skip
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
        self._tries: dict[int, tuple[CardTrie, tuple[Any, ...]]] = {}
        self._local = threading.local()

    def _trie_arrays(self, trie: CardTrie) -> tuple[Any, ...]:
        entry = self._tries.get(id(trie))
        if entry is None or entry[0] is not trie:
            np = self._np
            arrays = (np.frombuffer(trie.edges, dtype=np.int32), np.frombuffer(trie.ranks, dtype=np.int32))
            entry = self._tries[id(trie)] = (trie, arrays)
        return entry[1]

    def _scratch(self, name: str, size: int) -> Any:
        """A per-thread int64 buffer of at least ``size`` slots, reused between calls."""
        buffer = getattr(self._local, name, None)
        if buffer is None or len(buffer) < size:
            buffer = self._np.zeros(max(size, 64), dtype=self._np.int64)
            setattr(self._local, name, buffer)
        return buffer

    def solve_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                     memo_size: int) -> tuple[Sequence[int], Sequence[int]]:  # fmt: skip
        np = self._np
        ncards = sum(face_count)
        capacity = _words_capacity(ncards)
        counts = np.array(face_count, dtype=np.int64)
        while True:
            words = self._scratch("words", K.WORD_STRIDE * capacity)
            memo = self._scratch("memo", memo_size)
            out = self._scratch("out", 2 * OUT_BLOCK)[: 2 * OUT_BLOCK]
            result = self._k.solve_counts(
                *self._trie_arrays(trie), counts, self._points, self._letters,
                np.array(params, dtype=np.int64), self._scratch("hand", K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS),
                self._scratch("digit", FACE_SLOTS), words, self._scratch("group", FACE_SLOTS + 1), memo,
                self._scratch("stack", K.FRAME * (MAX_CARDS + 2)),
                self._scratch("kstack", K.FRAME * (MAX_CARDS + 2)), out,
            )  # fmt: skip
            _check(result)
            if result >= 0:
                return out.tolist(), words[: K.WORD_STRIDE * result].tolist()
            capacity = len(words) // K.WORD_STRIDE * 4

    def top_counts(self, trie: CardTrie, face_count: Sequence[int], params: Sequence[int],
                   memo_size: int, top: int) -> tuple[Sequence[int], Sequence[int], int]:  # fmt: skip
        np = self._np
        ncards = sum(face_count)
        capacity = _words_capacity(ncards)
        counts = np.array(face_count, dtype=np.int64)
        while True:
            words = self._scratch("words", K.WORD_STRIDE * capacity)
            out = np.zeros(top * OUT_BLOCK, dtype=np.int64)
            result = self._k.top_plays(
                *self._trie_arrays(trie), counts, self._points, self._letters,
                np.array(params, dtype=np.int64), self._scratch("hand", K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS),
                self._scratch("digit", FACE_SLOTS), words, self._scratch("group", FACE_SLOTS + 1),
                self._scratch("memo", memo_size), self._scratch("stack", K.FRAME * (MAX_CARDS + 2)),
                self._scratch("dfs", K.DFS_FRAME * (MAX_CARDS + 2)), self._scratch("path", MAX_CARDS + 2),
                np.zeros(top, dtype=np.int64), out,
            )  # fmt: skip
            _check(result)
            if result >= 0:
                return out.tolist(), words.tolist(), result
            capacity = len(words) // K.WORD_STRIDE * 4

    def word_ranks(self, trie: CardTrie, face_count: Sequence[int]) -> list[int]:
        np = self._np
        ncards = sum(face_count)
        capacity = _words_capacity(ncards)
        hand = self._scratch("hand", K.HAND_HEAD + K.HAND_STRIDE * FACE_SLOTS)
        digit = self._scratch("digit", FACE_SLOTS)
        counts = np.array(face_count, dtype=np.int64)
        self._k.layout_hand(counts, self._points, hand, digit)
        while True:
            words = self._scratch("words", K.WORD_STRIDE * capacity)
            n = self._k.find_words(*self._trie_arrays(trie), 1, hand, counts, digit, self._points, self._letters,
                                   words, len(words) // K.WORD_STRIDE, self._scratch("stack", K.FRAME * (MAX_CARDS + 2)))  # fmt: skip
            if n >= 0:
                return words[: K.WORD_STRIDE * n : K.WORD_STRIDE].tolist()
            capacity = len(words) // K.WORD_STRIDE * 4


_backends: dict[str, Backend] = {}
_lock = threading.Lock()


def get_backend(name: str) -> Backend:
    """``"python"``, ``"numba"``, or ``"auto"`` (numba when it is installed)."""
    if name == "auto":
        try:
            return get_backend("numba")
        except ImportError:
            return get_backend("python")
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
