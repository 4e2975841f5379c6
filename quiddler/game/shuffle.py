"""Where each shuffle of a game gets its randomness: the shuffle schemes.

``"per-round"`` (the default since record format 2): the deal of round
``r`` (1-based) shuffles with ``random.Random(k)`` where ``k`` is the
integer (big-endian) of the SHA-256 digest of the ASCII text
``"quiddler-shuffle/{seed}/{r}/0"``, and the ``n``-th reshuffle of that
round's discard pile (``n`` = 1, 2, ...) with the text ending ``/{r}/{n}``.
Each round is therefore fixed by the game seed alone: a reshuffle in one
round does not shift the deals of later rounds, so games that share a seed
(paired deals) share every deal however differently they are played.

``"single-stream"`` (format-1 records): every shuffle, in the order the
game makes them, draws from one ``random.Random(seed)``; between two rounds
the leftover cards are shuffled once whether or not the next round uses
them.  Kept so that old records replay exactly.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Literal

__all__ = ["SHUFFLE_SCHEMES", "ShuffleScheme", "Shuffler", "shuffle_cards", "stream_seed"]

ShuffleScheme = Literal["per-round", "single-stream"]
SHUFFLE_SCHEMES: tuple[ShuffleScheme, ...] = ("per-round", "single-stream")


def stream_seed(seed: int, round_number: int, reshuffle: int = 0) -> int:
    """The seed of one shuffle under ``"per-round"`` (see the module).

    >>> stream_seed(7, 1) == int.from_bytes(hashlib.sha256(b"quiddler-shuffle/7/1/0").digest(), "big")
    True
    """
    text = f"quiddler-shuffle/{seed}/{round_number}/{reshuffle}".encode("ascii")
    return int.from_bytes(hashlib.sha256(text).digest(), "big")


#: (i, bits of i + 1) for each position a shuffle swaps into, from 0: a deck's worth and more.
#: A tuple made once, so that shuffles on several threads (the server's) share it safely.
_DRAWS = tuple((i, (i + 1).bit_length()) for i in range(256))


def shuffle_cards(rng: random.Random, cards: list[Any]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does:
    the same calls of ``rng.getrandbits`` in the same order, so the same
    permutation and the same state of ``rng`` after it.

    ``random.Random.shuffle`` asks ``_randbelow(i + 1)`` for each position
    ``i`` from the last down to 1, and ``_randbelow(n)`` draws
    ``getrandbits(n.bit_length())`` until the number is below ``n``.  Here
    that loop is written out, with each position's bit count looked up, so
    that a deal of the whole deck makes no Python call per card besides
    ``getrandbits`` (the library's shuffle makes two more).  A test compares
    the two on many seeds and lengths.
    """
    n = len(cards)
    draws = _DRAWS[1:n] if n <= len(_DRAWS) else [(i, (i + 1).bit_length()) for i in range(1, n)]
    getrandbits = rng.getrandbits
    for i, bits in reversed(draws):
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


class Shuffler:
    """Hands out the random source for each shuffle of one game."""

    def __init__(self, seed: int, scheme: ShuffleScheme) -> None:
        if scheme not in SHUFFLE_SCHEMES:
            raise ValueError(f"unknown shuffle scheme: {scheme!r} (expected one of: {', '.join(SHUFFLE_SCHEMES)})")
        self.seed = seed
        self.scheme = scheme
        self._stream = random.Random(seed) if scheme == "single-stream" else None

    def for_deal(self, round_index: int) -> random.Random:
        """The source for dealing round ``round_index`` (0-based)."""
        if self._stream is not None:
            return self._stream
        return random.Random(stream_seed(self.seed, round_index + 1))

    def for_reshuffle(self, round_index: int, number: int) -> random.Random:
        """The source for the ``number``-th (1-based) reshuffle of round ``round_index``."""
        if self._stream is not None:
            return self._stream
        return random.Random(stream_seed(self.seed, round_index + 1, number))

    def state(self) -> object:
        """What the next shuffle depends on besides the round (for snapshots)."""
        return self._stream.getstate() if self._stream is not None else None
