"""The card-multiset DAWG: the flat-array word index that the solver walks.

Every card spelling of every word (``queen`` is ``qu,e,e,n`` and
``q,u,e,e,n``) is reduced to its sorted card multiset.  The multisets are
stored in a trie whose edges are faces in :data:`KERNEL_ORDER` (rarest face
first), minimised to a DAWG.  Walking it with a hand's face counts reaches
each sub-multiset of the hand at most once, nothing is permuted, and rare
faces prune the walk early.  Each multiset gets a rank (its position in
sorted order) computed on the walk from per-edge offsets, which indexes the
spellings stored for display.

The structure is a handful of flat int32 arrays (no numpy needed), serialised
to one file with a checksum so that it can be cached on disk and loaded in a
few milliseconds.
"""

from __future__ import annotations

import re
import struct
import zlib
from array import array
from dataclasses import dataclass
from typing import Iterable, Iterator

from .cards import _DECK_TABLE, FACES

__all__ = [
    "CardTrie",
    "KERNEL_ORDER",
    "MIN_WORD_CARDS",
    "build_card_trie",
    "card_spellings",
]

#: Faces in the order the trie sorts multisets: rarest in the deck first,
#: higher points first among equals.  Kernel face ``k`` is ``KERNEL_ORDER[k]``.
KERNEL_ORDER: tuple[str, ...] = tuple(
    sorted(FACES, key=lambda face: (_DECK_TABLE[face][0], -_DECK_TABLE[face][1], FACES.index(face)))
)
#: A word must use at least this many cards.
MIN_WORD_CARDS = 2

_KERNEL_INDEX = {face: k for k, face in enumerate(KERNEL_ORDER)}
_DOUBLES = frozenset(face for face in FACES if len(face) == 2)
_LETTER_TO_KERNEL = bytes(_KERNEL_INDEX.get(chr(c), 255) for c in range(256))
_has_double = re.compile("|".join(sorted(_DOUBLES))).search
_MAGIC = b"QDLTRIE\x01"
_HEADER = struct.Struct("<8s6I")  # magic, nodes, edges, multisets, spellings, spelled cards, crc


def card_spellings(word: str) -> list[tuple[str, ...]]:
    """Every way to spell ``word`` with card faces, in a fixed order.

    >>> card_spellings("queen")
    [('q', 'u', 'e', 'e', 'n'), ('qu', 'e', 'e', 'n')]
    """
    n = len(word)
    found: list[tuple[str, ...]] = []

    def extend(i: int, prefix: tuple[str, ...]) -> None:
        if i == n:
            found.append(prefix)
            return
        extend(i + 1, prefix + (word[i],))
        if word[i : i + 2] in _DOUBLES:
            extend(i + 2, prefix + (word[i : i + 2],))

    extend(0, ())
    return found


@dataclass(frozen=True, slots=True, eq=False)
class CardTrie:
    """The DAWG of card multisets plus the spellings of each multiset.

    Arrays are int32 memoryviews (``spell_cards`` is bytes-like); node 0 is the
    root.  Edges of node ``n`` are ``node_first[n]:node_first[n+1]``, sorted by
    kernel face; ``edge_rank`` is what taking the edge adds to the rank.
    Multiset ``r`` has spellings ``ms_spell[r]:ms_spell[r+1]``; spelling ``s``
    is the kernel faces ``spell_cards[spell_off[s]:spell_off[s+1]]`` in word
    order.  Spellings of one multiset are sorted by word.
    """

    node_first: memoryview
    node_term: memoryview
    edge_face: memoryview
    edge_child: memoryview
    edge_rank: memoryview
    ms_spell: memoryview
    spell_off: memoryview
    spell_cards: memoryview

    @property
    def node_count(self) -> int:
        return len(self.node_term)

    @property
    def multiset_count(self) -> int:
        return len(self.ms_spell) - 1

    @property
    def spelling_count(self) -> int:
        return len(self.spell_off) - 1

    def spellings_of(self, rank: int) -> Iterator[tuple[str, ...]]:
        """The card spellings (faces in word order) of multiset ``rank``."""
        for s in range(self.ms_spell[rank], self.ms_spell[rank + 1]):
            yield tuple(KERNEL_ORDER[k] for k in self.spell_cards[self.spell_off[s] : self.spell_off[s + 1]])

    def to_bytes(self) -> bytes:
        """Serialise to the cache file format (little-endian, with a CRC32)."""
        parts = [
            self.node_first, self.node_term, self.edge_face, self.edge_child,
            self.edge_rank, self.ms_spell, self.spell_off,
        ]  # fmt: skip
        payload = b"".join(_le_bytes(part) for part in parts) + bytes(self.spell_cards)
        header = _HEADER.pack(
            _MAGIC, self.node_count, len(self.edge_face), self.multiset_count,
            self.spelling_count, len(self.spell_cards), zlib.crc32(payload),
        )  # fmt: skip
        return header + payload

    @classmethod
    def from_bytes(cls, data: bytes) -> "CardTrie":
        """Load a serialised trie; raises ``ValueError`` if it is damaged."""
        if len(data) < _HEADER.size:
            raise ValueError("truncated card trie")
        magic, nodes, edges, multisets, spellings, cards, crc = _HEADER.unpack_from(data)
        if magic != _MAGIC:
            raise ValueError("not a card trie of this version")
        sizes = [nodes + 1, nodes, edges, edges, edges, multisets + 1, spellings + 1]
        expected = _HEADER.size + 4 * sum(sizes) + cards
        if len(data) != expected:
            raise ValueError(f"card trie has {len(data)} bytes, expected {expected}")
        view = memoryview(data)[_HEADER.size :]
        if zlib.crc32(view) != crc:
            raise ValueError("card trie checksum mismatch")
        arrays = []
        offset = 0
        for size in sizes:
            chunk = view[offset : offset + 4 * size]
            arrays.append(chunk.cast("i") if _LITTLE else memoryview(_swapped(chunk)))
            offset += 4 * size
        trie = cls(*arrays, spell_cards=view[offset:])
        trie._check_shape()
        return trie

    def _check_shape(self) -> None:
        """Cheap structural checks so a bad file can never send a walk out of bounds."""
        n, e = self.node_count, len(self.edge_face)
        if self.node_first[0] != 0 or self.node_first[n] != e:
            raise ValueError("card trie node table is inconsistent")
        if e and (min(self.edge_child) < 0 or max(self.edge_child) >= n):
            raise ValueError("card trie edge points outside the trie")
        if e and (min(self.edge_face) < 0 or max(self.edge_face) >= len(KERNEL_ORDER)):
            raise ValueError("card trie edge has an unknown face")
        if self.ms_spell[self.multiset_count] != self.spelling_count:
            raise ValueError("card trie spelling table is inconsistent")


_LITTLE = struct.pack("=i", 1) == struct.pack("<i", 1)


def _le_bytes(values: memoryview) -> bytes:
    raw = bytes(values)
    return raw if _LITTLE else _swapped(raw).tobytes()


def _swapped(raw: bytes | memoryview) -> array:
    swapped = array("i")
    swapped.frombytes(bytes(raw))
    swapped.byteswap()
    return swapped


def build_card_trie(words: Iterable[str]) -> CardTrie:
    """Index every card spelling (of two or more cards) of ``words``.

    ``words`` must be lowercase a-z strings; duplicates are harmless.
    """
    by_multiset: dict[bytes, list[tuple[str, bytes]]] = {}
    for word in sorted(set(words)):
        if _has_double(word):
            spellings = [bytes(_KERNEL_INDEX[face] for face in sp) for sp in card_spellings(word)]
        else:  # the common case: one spelling, one card per letter
            spellings = [word.encode("ascii").translate(_LETTER_TO_KERNEL)]
        for faces in spellings:
            if len(faces) >= MIN_WORD_CARDS:
                by_multiset.setdefault(bytes(sorted(faces)), []).append((word, faces))
    keys = sorted(by_multiset)

    builder = _DawgBuilder()
    for key in keys:
        builder.add(key)
    node_first, node_term, edge_face, edge_child, edge_rank = builder.finish()

    ms_spell = array("i", [0])
    spell_off = array("i", [0])
    spell_cards = bytearray()
    for key in keys:
        for _, faces in by_multiset[key]:
            spell_cards.extend(faces)
            spell_off.append(len(spell_cards))
        ms_spell.append(len(spell_off) - 1)
    return CardTrie(
        *(memoryview(a) for a in (node_first, node_term, edge_face, edge_child, edge_rank, ms_spell, spell_off)),
        spell_cards=memoryview(bytes(spell_cards)),
    )


class _DawgBuilder:
    """Incremental construction of a minimal acyclic automaton from sorted keys
    (Daciuk, Mihov, Watson and Watson, 2000): only the path of the last key is
    ever unminimised, so memory stays proportional to the result."""

    def __init__(self) -> None:
        self.term: list[bool] = [False]
        self.edges: list[dict[int, int]] = [{}]
        self.register: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = {}
        self.unchecked: list[tuple[int, int, int]] = []  # (parent, face, child)
        self.previous = b""

    def add(self, key: bytes) -> None:
        previous = self.previous
        if key <= previous and previous:
            raise ValueError("keys must be added in increasing order")
        common = 0
        limit = min(len(key), len(previous))
        while common < limit and key[common] == previous[common]:
            common += 1
        if len(self.unchecked) > common:
            self._minimise(common)
        node = self.unchecked[-1][2] if self.unchecked else 0
        for face in key[common:]:
            child = len(self.term)
            self.term.append(False)
            self.edges.append({})
            self.edges[node][face] = child
            self.unchecked.append((node, face, child))
            node = child
        self.term[node] = True
        self.previous = key

    def _minimise(self, down_to: int) -> None:
        while len(self.unchecked) > down_to:
            parent, face, child = self.unchecked.pop()
            # Keys arrive sorted, so each edge dict is already in face order.
            signature = (self.term[child], tuple(self.edges[child].items()))
            existing = self.register.get(signature)
            if existing is None:
                self.register[signature] = child
            else:
                self.edges[parent][face] = existing
                self.edges[child] = {}

    def finish(self) -> tuple[array, array, array, array, array]:
        self._minimise(0)
        # Number the live nodes in depth-first order from the root, then lay
        # the edges out in CSR form with rank offsets.
        order: list[int] = []
        number: dict[int, int] = {}
        stack = [0]
        while stack:
            node = stack.pop()
            if node in number:
                continue
            number[node] = len(order)
            order.append(node)
            stack.extend(child for _, child in sorted(self.edges[node].items(), reverse=True))
        count: dict[int, int] = {}
        for node in order:
            self._count(node, count)
        node_first, node_term = array("i", [0]), array("i")
        edge_face, edge_child, edge_rank = array("i"), array("i"), array("i")
        for node in order:
            node_term.append(int(self.term[node]))
            offset = int(self.term[node])
            for face, child in sorted(self.edges[node].items()):
                edge_face.append(face)
                edge_child.append(number[child])
                edge_rank.append(offset)
                offset += count[child]
            node_first.append(len(edge_face))
        return node_first, node_term, edge_face, edge_child, edge_rank

    def _count(self, root: int, count: dict[int, int]) -> None:
        stack = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if node in count:
                continue
            if expanded:
                count[node] = int(self.term[node]) + sum(count[c] for c in self.edges[node].values())
            else:
                stack.append((node, True))
                stack.extend((c, False) for c in self.edges[node].values() if c not in count)
