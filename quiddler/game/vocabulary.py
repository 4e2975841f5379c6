"""The smaller vocabularies of the human-like computer players.

A person knows far fewer words than ENABLE's 172,823: the ``easy``
vocabulary holds only everyday words, ``medium`` the words a keen reader
knows (the ``easy`` and ``medium`` players play them).  The words a player
plays are its vocabulary intersected with the game's list, so whatever it lays
down is still judged against the game's list (and always legal).

The vocabulary comes from ``quiddler/data/common-words.tsv`` (ENABLE words
with their Zipf frequency from wordfreq, CC BY-SA 4.0: see
``common-words.LICENSE`` beside it) and the hand-made
``two-letter-words.txt``: almost every two-letter string is frequent as a
token (aa, qi, xu...), so frequency cannot tell which a person knows.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..wordlist import WordList

__all__ = ["VOCABULARY_ZIPF", "vocabulary", "vocabulary_wordlist"]

_DATA = Path(__file__).resolve().parent.parent / "data"

#: Vocabulary name -> the least Zipf frequency of its words (3 = once per million words).
VOCABULARY_ZIPF = {"easy": 4.0, "medium": 3.0}


@lru_cache(maxsize=8)
def vocabulary(min_zipf: float) -> frozenset[str]:
    """The common two-letter words and every listed word at least ``min_zipf`` frequent.

    >>> words = vocabulary(4.0)
    >>> "cat" in words, "qi" in words, "at" in words
    (True, False, True)
    """
    words = set((_DATA / "two-letter-words.txt").read_text().split())
    for line in (_DATA / "common-words.tsv").read_text().splitlines():
        word, _, zipf = line.partition("\t")
        if float(zipf) >= min_zipf:
            words.add(word)
    return frozenset(words)


@lru_cache(maxsize=16)
def _vocabulary_words(name: str, game_words: WordList) -> WordList:
    mine = [w for w in vocabulary(VOCABULARY_ZIPF[name]) if w in game_words]
    if not mine:  # a game list with none of the vocabulary's words: play the game's list
        return game_words
    return WordList(mine, name=f"{game_words.name} ({name} vocabulary)")


def vocabulary_wordlist(name: str | None, game_words: WordList) -> WordList:
    """The words of vocabulary ``name`` in a game using ``game_words`` (None: all of them)."""
    if name is None:
        return game_words
    if name not in VOCABULARY_ZIPF:
        raise ValueError(f"unknown vocabulary: {name!r} (expected one of: {', '.join(VOCABULARY_ZIPF)})")
    return _vocabulary_words(name, game_words)
