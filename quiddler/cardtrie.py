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
to one file with a checksum so that it can be cached on disk and loaded
far faster than it is built.
"""

from __future__ import annotations

import marshal
import re
import struct
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .cards import _DECK_TABLE, FACES

try:  # CPython's own BLAKE2 module: importing hashlib loads OpenSSL, a few ms of every one-off command
    from _blake2 import blake2b as _blake2b
except ImportError:  # another Python
    from hashlib import blake2b as _blake2b

__all__ = [
    "BUILD_VERSION",
    "KERNEL_ORDER",
    "MAX_WORD_CARDS",
    "MIN_WORD_CARDS",
    "CardTrie",
    "build_card_trie",
    "card_spellings",
    "fewest_cards",
    "fingerprint",
]

#: Faces in the order the trie sorts multisets: rarest in the deck first,
#: higher points first among equals.  Kernel face ``k`` is ``KERNEL_ORDER[k]``.
KERNEL_ORDER: tuple[str, ...] = tuple(
    sorted(FACES, key=lambda face: (_DECK_TABLE[face][0], -_DECK_TABLE[face][1], FACES.index(face)))
)
#: A word must use at least this many cards.
MIN_WORD_CARDS = 2
#: A spelling with more cards than this can never be played (no hand holds
#: more: the solver's ``MAX_CARDS``), so the index leaves it out.
MAX_WORD_CARDS = 20

_KERNEL_INDEX = {face: k for k, face in enumerate(KERNEL_ORDER)}
_DOUBLES = frozenset(face for face in FACES if len(face) == 2)
_LETTER_TO_KERNEL = bytes(_KERNEL_INDEX.get(chr(c), 255) for c in range(256))
_DOUBLE_PATTERN = re.compile("|".join(sorted(_DOUBLES)))
_find_doubles = _DOUBLE_PATTERN.finditer
_has_double = _DOUBLE_PATTERN.search
assert not {d[-1] for d in _DOUBLES} & {d[0] for d in _DOUBLES}, "double faces could overlap"
_MAGIC = b"QDLTRIE\x04"
# magic, source tag, edges, multisets, spellings, spelled cards, crc
_HEADER = struct.Struct("<8s32s5I")


def card_spellings(word: str, max_cards: int | None = None) -> list[tuple[str, ...]]:
    """Every way to spell ``word`` with card faces, in a fixed order (each
    two-letter face split before joined, from the left); only those of at
    most ``max_cards`` cards if given.  Iterative: any length of word is fine.

    >>> card_spellings("queen")
    [('q', 'u', 'e', 'e', 'n'), ('qu', 'e', 'e', 'n')]
    >>> card_spellings("thin", max_cards=3)
    [('t', 'h', 'in'), ('th', 'i', 'n'), ('th', 'in')]
    """
    doubles = [m.start() for m in _find_doubles(word)]
    need = len(word) - max_cards if max_cards is not None else 0
    found: list[tuple[str, ...]] = []
    for joined in _join_choices(len(doubles), need):
        faces: list[str] = []
        done = 0
        for start, join in zip(doubles, joined):
            if join:
                faces.extend(word[done:start])
                faces.append(word[start : start + 2])
                done = start + 2
        faces.extend(word[done:])
        found.append(tuple(faces))
    return found


def fewest_cards(word: str) -> int:
    """The fewest cards that spell ``word``: every two-letter face joined
    (they never overlap).  A word needing more than :data:`MAX_WORD_CARDS`
    can never be played."""
    return len(word) - sum(1 for _ in _find_doubles(word))


def _join_choices(ndoubles: int, need: int) -> Iterator[tuple[bool, ...]]:
    """Every way to join or split ``ndoubles`` two-letter faces with at
    least ``need`` joined, split before joined from the left; branches that
    cannot reach ``need`` are never entered, so few choices cost little
    even when there are many doubles."""
    if need > ndoubles:
        return
    stack: list[tuple[bool, ...]] = [()]
    while stack:
        prefix = stack.pop()
        if len(prefix) == ndoubles:
            yield prefix
            continue
        stack.append(prefix + (True,))
        if sum(prefix) + ndoubles - len(prefix) - 1 >= need:
            stack.append(prefix + (False,))


#: Layout of one edge in :attr:`CardTrie.edges`: one int32.  The solver's
#: kernels, which import nothing, keep their own copy of the shifts they read
#: (``EDGE_TERMINAL_SHIFT``, ``EDGE_FIRST_SHIFT`` in
#: :mod:`quiddler.solver._kernels`); a test keeps the two equal.
FACE_MASK = 31
DEGREE_SHIFT = 5
DEGREE_MASK = 31
TERMINAL_SHIFT = 10
FIRST_SHIFT = 11
MAX_EDGES = 1 << (31 - FIRST_SHIFT)
#: Zeros after each array the kernels read (see :meth:`CardTrie.kernel_edges`).
KERNEL_PAD = 32


@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class CardTrie:
    """The DAWG of card multisets plus the spellings of each multiset.

    ``edges`` is a flat int32 array, one packed number per edge: the face in
    bits 0-4, the target node's number of edges in bits 5-9, 1 in bit 10 if
    the target ends a multiset, and the index of the target's first edge
    from bit 11.  The edges of a node are consecutive and sorted by kernel
    face; edge 0 is a virtual edge into the root (face 31).  ``masks[e]``
    has bit ``f`` set if the target of edge ``e`` has an edge of face ``f``:
    a walk ANDs it with the faces still in hand to get the edges to take at
    once, and finds each one's place among the node's edges by counting the
    bits below it (see :meth:`kernel_edges`).  Both are 4 bytes an edge.
    ``ranks[e]`` is what taking edge ``e``
    adds to the rank; it is read only to name the words a walk found.

    Multiset ``r`` (its rank: its position in sorted order) has spellings
    ``ms_spell[r]:ms_spell[r+1]``; spelling ``s`` is the kernel faces
    ``spell_cards[spell_off[s]:spell_off[s+1]]`` in word order.  Spellings of
    one multiset are sorted by word.
    """

    edges: memoryview
    masks: memoryview
    ranks: memoryview
    ms_spell: memoryview
    spell_off: memoryview
    spell_cards: memoryview

    @property
    def edge_count(self) -> int:
        return len(self.edges)

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

    def kernel_edges(self) -> array[int]:
        """The one trie array the solver kernels walk: ``edges`` then
        ``masks``, each followed by :data:`KERNEL_PAD` zeros (the masks start
        at half its length).  A walk takes an edge at most 30 places after
        a node's first (a mask has at most 31 faces), and a node's first
        edge is at most ``edge_count`` (see :meth:`_check_shape`), so even a
        well-formed file with wrong masks makes a walk read leaves (and
        find wrong words), never past the array."""
        joined = array("i", bytes(self.edges))
        joined.frombytes(bytes(4 * KERNEL_PAD))
        joined.frombytes(bytes(self.masks))
        joined.frombytes(bytes(4 * KERNEL_PAD))
        return joined

    def kernel_ranks(self) -> array[int]:
        """``ranks`` followed by :data:`KERNEL_PAD` zeros, for the same
        reason as :meth:`kernel_edges` (the kernels read the rank of every
        edge they take when naming words)."""
        padded = array("i", bytes(self.ranks))
        padded.frombytes(bytes(4 * KERNEL_PAD))
        return padded

    def rank_of(self, faces: Iterable[int]) -> int:
        """The rank of a multiset given as kernel faces in ascending order,
        or -1 if it is not in the trie."""
        edges = self.edges
        first = edges[0] >> FIRST_SHIFT
        end = first + ((edges[0] >> DEGREE_SHIFT) & DEGREE_MASK)
        rank = 0
        packed = 0
        for face in faces:
            for e in range(first, end):
                if edges[e] & FACE_MASK == face:
                    break
            else:
                return -1
            packed = edges[e]
            rank += self.ranks[e]
            first = packed >> FIRST_SHIFT
            end = first + ((packed >> DEGREE_SHIFT) & DEGREE_MASK)
        return rank if (packed >> TERMINAL_SHIFT) & 1 else -1

    def to_bytes(self, source: bytes = b"") -> bytes:
        """Serialise to the cache file format (little-endian, with a CRC32).

        ``source`` (at most 32 bytes, e.g. a hash of the word list) is stored
        in the header, and :meth:`from_bytes` refuses a file whose source
        differs: a well-formed file of another list is never trusted.
        """
        parts = (self.edges, self.masks, self.ranks, self.ms_spell, self.spell_off)
        payload = b"".join(_le_bytes(part) for part in parts)
        payload += bytes(self.spell_cards)
        header = _HEADER.pack(
            _MAGIC, source, self.edge_count, self.multiset_count, self.spelling_count,
            len(self.spell_cards), zlib.crc32(payload),
        )  # fmt: skip
        return header + payload

    @classmethod
    def from_bytes(cls, data: bytes, source: bytes = b"") -> CardTrie:
        """Load a serialised trie; raises ``ValueError`` if it is damaged or
        was made from another ``source`` (see :meth:`to_bytes`)."""
        if len(data) < _HEADER.size:
            raise ValueError("truncated card trie")
        magic, stored_source, edges, multisets, spellings, cards, crc = _HEADER.unpack_from(data)
        if magic != _MAGIC:
            raise ValueError("not a card trie of this version")
        if stored_source != source.ljust(32, b"\0"):
            raise ValueError("card trie was built from another word list")
        sizes = [edges, edges, edges, multisets + 1, spellings + 1]
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
        trie = cls(arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], view[offset:])
        trie._check_shape()
        return trie

    def _check_shape(self) -> None:
        """Cheap consistency checks on a loaded trie.

        The checksum catches accidental damage; these catch a file that is
        well formed but not a trie.  Every edge's first child edge must lie
        within the trie (:func:`_within`, at C speed); a node
        has at most 31 edges, so a walk never reads more than 31 slots past
        the end, which the kernels' arrays are padded for (:meth:`kernel_edges`,
        :meth:`kernel_ranks`).  The masks are not checked against the edges
        (a pass over every edge in Python: too slow for a load): a wrong mask
        gives wrong words, never a read outside the padded arrays.
        """
        edges = self.edges
        if self.edge_count == 0 or edges[0] & FACE_MASK != 31 or edges[0] >> FIRST_SHIFT != 1:
            raise ValueError("card trie has no root")
        if not _within(edges, (self.edge_count + 1) << FIRST_SHIFT):
            raise ValueError("card trie edge points outside the trie")
        ms, off = self.ms_spell, self.spell_off
        if ms[0] != 0 or ms[self.multiset_count] != self.spelling_count or off[0] != 0:
            raise ValueError("card trie spelling table is inconsistent")
        if off[self.spelling_count] != len(self.spell_cards):
            raise ValueError("card trie spelling table is inconsistent")


_LITTLE = struct.pack("=i", 1) == struct.pack("<i", 1)


def _within(values: memoryview, limit: int) -> bool:
    """Whether every int32 of ``values`` (native byte order) is in
    ``0..limit - 1``, ``limit`` below 2**31, judged by each number's top byte
    with bytes methods (``min`` and ``max`` make an int object of every
    number: about 10 ms for ENABLE's edges, a tenth of a one-shot solve).
    A top byte under ``limit``'s is below it, one above is not; only the
    numbers whose top byte equals ``limit``'s (a few hundred) are compared."""
    raw = values.tobytes()
    top = raw[3::4] if _LITTLE else raw[0::4]
    if not top.isascii():  # a top byte of 0x80 or more: a negative number
        return False
    high = limit >> 24
    rest = top.translate(None, bytes(range(high)))  # the top bytes at or above limit's
    if rest.count(high) != len(rest):
        return False
    mark, at = bytes([high]), top.find(bytes([high]))
    while at >= 0:
        if values[at] >= limit:
            return False
        at = top.find(mark, at + 1)
    return True


def _le_bytes(values: memoryview) -> bytes:
    raw = bytes(values)
    return raw if _LITTLE else _swapped(raw).tobytes()


def _swapped(raw: bytes | memoryview) -> array[int]:
    swapped = array("i")
    swapped.frombytes(bytes(raw))
    swapped.byteswap()
    return swapped


def build_card_trie(words: Iterable[str]) -> CardTrie:
    """Index every card spelling (of two or more cards) of ``words``.

    ``words`` must be lowercase a-z strings; duplicates are harmless.
    """
    by_multiset: dict[bytes, list[bytes]] = {}
    has_double = _has_double
    for word in sorted(set(words)):
        if has_double(word) is None:  # the common case, inlined: one card per letter
            spellings = [word.encode("ascii").translate(_LETTER_TO_KERNEL)]
        else:
            spellings = _kernel_spellings(word)
        for faces in spellings:
            if MIN_WORD_CARDS <= len(faces) <= MAX_WORD_CARDS:
                key = bytes(sorted(faces))
                known = by_multiset.get(key)
                if known is None:
                    by_multiset[key] = [faces]
                else:
                    known.append(faces)
    keys = sorted(by_multiset)

    edges, masks, ranks = _build_dawg(keys)

    ms_spell = array("i", [0])
    spell_off = array("i", [0])
    spell_cards = bytearray()
    for key in keys:
        for faces in by_multiset[key]:
            spell_cards.extend(faces)
            spell_off.append(len(spell_cards))
        ms_spell.append(len(spell_off) - 1)
    return CardTrie(
        memoryview(edges), memoryview(masks), memoryview(ranks), memoryview(ms_spell), memoryview(spell_off),
        memoryview(bytes(spell_cards)),
    )


def _kernel_spellings(word: str) -> list[bytes]:
    """:func:`card_spellings` as kernel-face bytes, fast: no two-letter face
    ends with a letter that starts one, so the double faces of a word never
    overlap and each one is independently joined or split.  Only spellings
    of at most :data:`MAX_WORD_CARDS` cards (a word of ``in`` x 22 has four
    million spellings, and none of them can be played)."""
    base = word.encode("ascii").translate(_LETTER_TO_KERNEL)
    doubles = [(m.start(), _KERNEL_INDEX[m.group()]) for m in _find_doubles(word)]
    if not doubles:
        return [base]
    spellings = []
    for joined in _join_choices(len(doubles), len(word) - MAX_WORD_CARDS):
        parts = []
        done = 0
        for join, (start, face) in zip(joined, doubles):
            if join:
                parts.append(base[done:start])
                parts.append(bytes((face,)))
                done = start + 2
        parts.append(base[done:])
        spellings.append(b"".join(parts))
    return spellings


def _build_dawg(keys: list[bytes]) -> tuple[array[int], array[int], array[int]]:
    """The minimal automaton of sorted, distinct ``keys``, laid out as
    :attr:`CardTrie.edges`, :attr:`CardTrie.masks` and :attr:`CardTrie.ranks`.

    Built bottom-up by hash-consing: a node is its signature (terminal?,
    ((face, child id), ...)) and equal signatures get one id, so the result
    is minimal.  Children get ids before their parents.  A run of keys with
    a common prefix is found with a binary search, and a range holding a
    single key is a chain memoised by its suffix, so the work grows with the
    automaton rather than with the plain trie.
    """
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = {}
    nodes: list[tuple[bool, tuple[tuple[int, int], ...]]] = []
    chains: dict[bytes, int] = {}

    def intern(signature: tuple[bool, tuple[tuple[int, int], ...]]) -> int:
        node = register.get(signature)
        if node is None:
            node = register[signature] = len(nodes)
            nodes.append(signature)
        return node

    def chain(suffix: bytes) -> int:
        node = chains.get(suffix)
        if node is None:
            if suffix:
                node = intern((False, ((suffix[0], chain(suffix[1:])),)))
            else:
                node = intern((True, ()))
            chains[suffix] = node
        return node

    def build(lo: int, hi: int, depth: int) -> int:
        first = keys[lo]
        if hi - lo == 1:
            return chain(first[depth:])
        terminal = len(first) == depth
        if terminal:
            lo += 1
        prefix = first[:depth]
        children = []
        while lo < hi:
            face = keys[lo][depth]
            end = bisect_left(keys, prefix + bytes((face + 1,)), lo, hi)
            children.append((face, build(lo, end, depth + 1)))
            lo = end
        return intern((terminal, tuple(children)))

    root = build(0, len(keys), 0) if keys else intern((False, ()))

    # Accepted strings below each node; children have smaller ids.
    count = [0] * len(nodes)
    for node, (terminal, children) in enumerate(nodes):
        count[node] = int(terminal) + sum(count[child] for _, child in children)

    # Lay nodes out depth-first from the root, so that a node's edges sit
    # near its parent's; each node's edges are contiguous.
    first_edge: dict[int, int] = {}
    order = []
    next_edge = 1  # edge 0 is the virtual edge into the root
    stack = [root]
    while stack:
        node = stack.pop()
        if node in first_edge:
            continue
        first_edge[node] = next_edge
        order.append(node)
        children = nodes[node][1]
        next_edge += len(children)
        stack.extend(child for _, child in reversed(children))
    if next_edge > MAX_EDGES:
        raise ValueError(f"word list too large: its card trie needs {next_edge} edges, at most {MAX_EDGES}")

    def faces_below(node: int) -> int:
        return sum(1 << face for face, _ in nodes[node][1])

    edges = array("i", [31 | (len(nodes[root][1]) << DEGREE_SHIFT) | (first_edge[root] << FIRST_SHIFT)])
    masks = array("i", [faces_below(root)])
    ranks = array("i", [0])
    for node in order:
        terminal, children = nodes[node]
        offset = int(terminal)
        for face, child in children:
            child_terminal, grandchildren = nodes[child]
            edges.append(
                face
                | (len(grandchildren) << DEGREE_SHIFT)
                | (int(child_terminal) << TERMINAL_SHIFT)
                | (first_edge[child] << FIRST_SHIFT)
            )
            masks.append(faces_below(child))
            ranks.append(offset)
            offset += count[child]
    return edges, masks, ranks


def fingerprint(data: bytes) -> str:
    """BLAKE2b of ``data``, 256 bits in hex: what names the code and the
    word list a cached card trie was built from (:func:`build_version`,
    ``WordList.digest``).  It only has to tell contents apart: a little
    slower to compute than OpenSSL's SHA-256, it needs no OpenSSL loaded."""
    return _blake2b(data, digest_size=32).hexdigest()


def build_version(source: bytes | None = None) -> str:
    """A hash of the code that builds and serialises card tries: this
    module's source (``source``; by default read from its file) and the face
    order.  Part of every cache key, so any change to the build, the layout
    or the file format gets new cache files without anyone bumping a
    version by hand.  Without a readable source file (a sourceless install)
    the bytecode of the build functions stands in for it."""
    if source is None:
        try:
            with open(__file__, "rb") as handle:
                source = handle.read()
        except OSError:
            functions = (card_spellings, build_card_trie, _kernel_spellings, _build_dawg, CardTrie.to_bytes,
                         CardTrie.from_bytes, CardTrie._check_shape)  # fmt: skip
            source = b"".join(marshal.dumps(fn.__code__) for fn in functions)
    return fingerprint(source + ",".join(KERNEL_ORDER).encode("ascii"))[:16]


#: See :func:`build_version`.
BUILD_VERSION = build_version()
