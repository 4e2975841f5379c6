"""Whether groups of cards spell words: what a hand arranged into word
groups shows before the player goes out with them."""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..wordlist import WordList

__all__ = ["check_words"]


def check_words(words: WordList, groups: tuple[tuple[Card, ...], ...]) -> dict[str, Any]:
    """The ``check`` answer: each group's word, whether it is one (two
    cards or more, in the word list) and its cards' points."""
    return {"type": "check", "words": [
        {"cards": [c.face for c in group], "word": "".join(c.face for c in group),
         "valid": len(group) >= 2 and "".join(c.face for c in group) in words,
         "points": sum(c.points for c in group)}
        for group in groups]}  # fmt: skip
