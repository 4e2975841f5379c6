"""A trie file that is well formed (its checksum right) but not a trie is
refused on loading: an edge whose first child lies outside the trie, or a
negative edge, would send a walk outside its arrays."""

from __future__ import annotations

from array import array
from dataclasses import replace

import pytest

from quiddler.cardtrie import FIRST_SHIFT, CardTrie, build_card_trie

WORDS = ["cat", "act", "queen", "then", "dog", "god", "in", "inn"]


def _with_edge(trie: CardTrie, index: int, value: int) -> bytes:
    edges = array("i", trie.edges)
    edges[index] = value
    return replace(trie, edges=memoryview(edges)).to_bytes(b"src")


@pytest.fixture(scope="module")
def trie() -> CardTrie:
    return build_card_trie(WORDS)


def test_a_sound_trie_loads(trie):
    again = CardTrie.from_bytes(trie.to_bytes(b"src"), b"src")
    assert list(again.edges) == list(trie.edges)


@pytest.mark.parametrize("past", [1, 2, 1 << 10, 1 << 19])
def test_an_edge_whose_children_lie_past_the_end_is_refused(trie, past):
    last = len(trie.edges) - 1
    face = trie.edges[last] & ((1 << FIRST_SHIFT) - 1)
    data = _with_edge(trie, last, (len(trie.edges) + past) << FIRST_SHIFT | face)
    with pytest.raises(ValueError, match="outside the trie"):
        CardTrie.from_bytes(data, b"src")


def test_an_edge_whose_children_start_at_the_end_loads(trie):
    # A first child at edge_count is the last place the check allows (a node with no edges there).
    last = len(trie.edges) - 1
    face = trie.edges[last] & ((1 << FIRST_SHIFT) - 1)
    CardTrie.from_bytes(_with_edge(trie, last, len(trie.edges) << FIRST_SHIFT | face), b"src")


@pytest.mark.parametrize("value", [-1, -(1 << 31), -(1 << 24)])
def test_a_negative_edge_is_refused(trie, value):
    with pytest.raises(ValueError, match="outside the trie"):
        CardTrie.from_bytes(_with_edge(trie, len(trie.edges) // 2, value), b"src")


def test_the_check_reads_every_edge_not_only_the_last(trie):
    data = _with_edge(trie, 1, (len(trie.edges) + 1) << FIRST_SHIFT)
    with pytest.raises(ValueError, match="outside the trie"):
        CardTrie.from_bytes(data, b"src")
