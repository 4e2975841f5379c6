"""Words typed as plain text, matched to the cards of a hand.

A person types ``go clingers by an do``; the engine wants each word as the
cards that spell it (``cl,in,g,er,s``).  :func:`match_words` finds every
way the hand can spell all the words at once, and when none fits it says
exactly why: a word not in the list, a card the hand lacks, or cards left
over.  When the ways differ in points (``th`` or ``t,h``) the caller asks
which one is meant; :func:`distinct_choices` says whether it must.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, product
from typing import Literal

from ..cards import Card
from ..cardtrie import MIN_WORD_CARDS
from ..errors import shown
from ..solver.types import Word
from ..wordlist import WordList

__all__ = ["Match", "Mode", "WordProblem", "distinct_choices", "match_words"]

Mode = Literal["go-out", "lay-down"]

#: Spelling combinations looked at to explain what words lack together (the first this-many).
_MAX_COMBINATIONS = 4096


class WordProblem(ValueError):
    """The words cannot be laid down from the hand; the message says why,
    in words a player can act on.  ``reason`` names the problem and
    ``params`` the values the message names (the browser game's protocol
    lists them), so a page in another language can say the same."""

    def __init__(self, message: str, reason: str = "no_match", **params: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


@dataclass(frozen=True, slots=True)
class Match:
    """One way to lay the words down: each word's cards, and the cards left in hand."""

    words: tuple[Word, ...]
    left: tuple[Card, ...]  #: cards not in a word (and not the named discard), sorted
    discard: Card | None  #: the card to discard, when the input or the leftovers fix it

    @property
    def points(self) -> int:
        return sum(w.points for w in self.words)


def _an(card: Card | str) -> str:
    face = str(card)
    return f"an {face}" if face[0] in "aefhilmnorsx" else f"a {face}"


def _list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _number(n: int) -> str:
    return ("no", "one", "two", "three", "four", "five", "six")[n] if n < 7 else str(n)


def _missing_text(missing: Counter[Card], pool: Counter[Card]) -> str:
    """'two e's (you have one) and an n' for cards needed beyond what the pool holds."""
    parts = []
    for card in sorted(missing):
        need, have = missing[card], pool[card]
        if have == 0 and need == 1:
            parts.append(_an(card))
        elif have == 0:
            parts.append(f"{_number(need)} {card}'s")
        else:
            parts.append(f"{_number(need + have)} {card}'s (you have {_number(have)})")
    return _list(parts)


def _spellings(text: str, wordlist: WordList) -> tuple[tuple[Card, ...], ...]:
    if not text.isalpha() or not text.isascii():
        raise WordProblem(f"{shown(text)} is not a word: use the letters a to z only", "not_letters", word=text)
    if text not in wordlist:
        raise WordProblem(f"{shown(text)} is not in the word list ({wordlist.name})", "not_a_word", word=text,
                          wordlist=wordlist.name)  # fmt: skip
    spellings = wordlist.spellings(text)
    if not spellings:
        raise WordProblem(f"{text!r} is a single card: a word needs at least two cards", "single_card", word=text)
    return spellings


def _shortfall(cards: Sequence[Card], pool: Counter[Card]) -> Counter[Card]:
    """The cards needed beyond what the pool holds."""
    need: Counter[Card] = Counter(cards)
    return need - pool


def _fits(spelling: Sequence[Card], pool: Counter[Card]) -> bool:
    return all(pool[c] >= n for c, n in Counter(spelling).items())


def _assignments(options: Sequence[tuple[tuple[Card, ...], ...]], pool: Counter[Card]
                 ) -> Iterator[tuple[tuple[Card, ...], ...]]:  # fmt: skip
    """Every choice of one spelling per word that the pool holds at once."""
    if not options:
        yield ()
        return
    for spelling in options[0]:
        if _fits(spelling, pool):
            rest = pool - Counter(spelling)
            for tail in _assignments(options[1:], rest):
                yield (spelling, *tail)


def _explain_unspellable(texts: Sequence[str], options: Sequence[tuple[tuple[Card, ...], ...]],
                         pool: Counter[Card], discard: Card | None) -> WordProblem:  # fmt: skip
    """Why no assignment fits: name the word (or the words together) and the cards missing."""
    alone = [(t, sp) for t, sp in zip(texts, options) if not any(_fits(s, pool) for s in sp)]
    named: dict[str, object]
    if alone:
        text, spellings = alone[0]
        missing = min((_shortfall(s, pool) for s in spellings), key=Counter.total)
        message = f"you cannot spell {text!r} with your cards: it needs {_missing_text(missing, pool)}"
        reason, named = "cannot_spell", {"word": text}
    else:  # each word fits alone, but not all together: the smallest shortfall
        combos = islice(product(*options), _MAX_COMBINATIONS)  # bounded: many two-letter cards multiply them
        missing = min((_shortfall([c for s in combo for c in s], pool) for combo in combos),
                      key=Counter.total)  # fmt: skip
        message = (f"your cards cannot spell {_list([repr(t) for t in texts])} at once: "
                   f"together they need {_missing_text(missing, pool)}")  # fmt: skip
        reason, named = "cannot_spell_together", {"words": list(texts)}
    clash = discard is not None and missing[discard] > 0
    if clash:
        message += f" (the {discard} you discard cannot be in a word too)"
    needed = [{"card": c.face, "needed": missing[c] + pool[c], "have": pool[c]} for c in sorted(missing)]
    return WordProblem(message, reason, **named, missing=needed,
                       discard_in_word=discard.face if clash and discard is not None else None)  # fmt: skip


def match_words(texts: Sequence[str], hand: Sequence[Card], wordlist: WordList, *,
                discard: Card | None = None, mode: Mode = "go-out") -> list[Match]:  # fmt: skip
    """Every distinct way the hand lays down ``texts`` (best points first).

    ``discard`` is the card the player named to discard (None: not named).
    Going out (``mode="go-out"``) must leave exactly the discard: one card
    when none is named.  A final turn (``"lay-down"``) may leave any cards;
    the discard is fixed only when named or when one card is left.  Raises
    :class:`WordProblem` with the reason when no way works.
    """
    words = [t.strip().lower() for t in texts]
    options = [_spellings(w, wordlist) for w in words]
    pool = Counter(hand)
    if discard is not None:
        if not pool[discard]:
            raise WordProblem(f"you hold no {discard} to discard", "discard_not_in_hand", card=discard.face)
        pool[discard] -= 1
    # More words than the cards could hold, whatever the words: that is the reason, said before
    # any search (which it also keeps small: at most one word per two cards held).  Fewer words
    # are explained by the cards they lack.
    if len(words) > 1 and len(words) * MIN_WORD_CARDS > pool.total():
        fewest = sum(min(len(s) for s in spellings) for spellings in options)
        raise WordProblem(f"{len(words):,} words need at least {fewest:,} cards, and you have "
                          f"{pool.total()}{' besides the discard' if discard is not None else ''}", "too_many_words",
                          words=len(words), fewest=fewest, held=pool.total(),
                          besides_discard=discard is not None)  # fmt: skip
    found = list(dict.fromkeys(_assignments(options, pool)))
    if not found:
        raise _explain_unspellable(words, options, pool, discard)
    matches = []
    for combo in found:
        left = tuple(sorted((pool - Counter(c for s in combo for c in s)).elements()))
        chosen = discard if discard is not None else (left[0] if len(left) == 1 else None)
        if chosen is not None and discard is None:
            left = ()
        matches.append(Match(tuple(Word(t, s) for t, s in zip(words, combo)), left, chosen))
    if mode == "go-out":
        matches = _going_out(matches, discard, len(hand))
    elif all(m.discard is None and not m.left for m in matches):
        raise WordProblem("those words use every card you hold: keep one card to discard", "no_discard_left")
    matches.sort(key=lambda m: -m.points)
    return matches


def _going_out(matches: list[Match], discard: Card | None, held: int) -> list[Match]:
    out = [m for m in matches if m.discard is not None and not m.left]
    if out:
        return out
    fewest = min(matches, key=lambda m: len(m.left))
    if not fewest.left and fewest.discard is None:
        raise WordProblem(f"those words use all {held} of your cards: going out keeps one card to discard",
                          "go_out_no_discard", held=held)  # fmt: skip
    over = _list([str(c) for c in fewest.left])
    cards = [c.face for c in fewest.left]
    if discard is not None:
        raise WordProblem(f"those words and the discard {discard} leave {over} over: "
                          "going out lays down every other card in words", "cards_over", cards=cards,
                          discard=discard.face)  # fmt: skip
    raise WordProblem(f"those words leave {over} over: going out lays down every card but one, "
                      "which you discard", "cards_over", cards=cards, discard=None)  # fmt: skip


def distinct_choices(matches: Sequence[Match]) -> bool:
    """Whether the person must choose: the ways differ in points or in the
    discard.  (The points of the cards kept then differ too: a hand's points
    are the words' plus the kept cards' plus the discard's.)"""
    return len({(m.points, m.discard) for m in matches}) > 1
