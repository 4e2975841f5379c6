"""Hypothesis strategies shared by the tests (built with ``.map``, never ``.filter``)."""

from __future__ import annotations

from hypothesis import strategies as st

from quiddler import FACES, MAX_CARDS, Card, WordList, full_deck

from .naive import Targets

DECK = full_deck()
#: The deck's copies of vowels, common consonants and the common two-letter
#: cards: hands dealt from it make many words, so plays are rich.
COMMON = tuple(card for card in DECK if card.face in set("aeiourstnldgy") | {"er", "in", "th"})


def _dealt(pool: tuple[Card, ...], min_size: int, max_size: int) -> st.SearchStrategy[tuple[Card, ...]]:
    """Distinct cards of ``pool`` (a sample without replacement), in a random order."""
    indices = st.lists(st.integers(0, len(pool) - 1), min_size=min_size, max_size=max_size, unique=True)
    return indices.map(lambda idx: tuple(pool[i] for i in idx))


def hands(min_size: int = 1, max_size: int = 8) -> st.SearchStrategy[tuple[Card, ...]]:
    """Hands dealt from the official deck."""
    return _dealt(DECK, min_size, max_size)


def wordy_hands(min_size: int = 1, max_size: int = 8) -> st.SearchStrategy[tuple[Card, ...]]:
    """Hands dealt from the deck's vowels and common letters."""
    return _dealt(COMMON, min_size, max_size)


def mixed_hands(min_size: int = 1, max_size: int = 8) -> st.SearchStrategy[tuple[Card, ...]]:
    """Either kind of hand."""
    return hands(min_size, max_size) | wordy_hands(min_size, max_size)


def targets() -> st.SearchStrategy[Targets]:
    """Bonus targets: none, either or both, with the default or another bonus."""
    return st.builds(
        Targets,
        beat_longest=st.none() | st.integers(0, 9),
        beat_words=st.none() | st.integers(0, 4),
        bonus=st.sampled_from([10, 10, 0, 1, 25]),
    )


#: Letters and cards for small word lists: the two-letter cards' letters
#: are included so words have several spellings.
LETTERS = "aeinrtquhcl"
SMALL_FACES = tuple(face for face in FACES if all(letter in LETTERS for letter in face))


def small_word_lists() -> st.SearchStrategy[WordList]:
    """Small random word lists over :data:`LETTERS` (one-letter words included)."""
    words = st.text(alphabet=LETTERS, min_size=1, max_size=6)
    return st.lists(words, min_size=1, max_size=40).map(lambda ws: WordList(ws, name="<hypothesis>"))


def small_hands(min_size: int = 1, max_size: int = 8) -> st.SearchStrategy[tuple[Card, ...]]:
    """Hands over :data:`SMALL_FACES`, repeats allowed (not limited by the deck)."""
    faces = st.lists(st.sampled_from(SMALL_FACES), min_size=min_size, max_size=max_size)
    return faces.map(lambda fs: tuple(Card(f) for f in fs))


#: Few faces, so that the reference can solve hands of up to 20 cards.
FEW_FACES = ("a", "e", "t", "th", "er")


def few_face_word_lists() -> st.SearchStrategy[WordList]:
    """A handful of words, each spelled with :data:`FEW_FACES` (so each can be played)."""
    word = st.lists(st.sampled_from(FEW_FACES), min_size=2, max_size=4).map("".join)
    return st.lists(word, min_size=1, max_size=5).map(lambda ws: WordList(ws, name="<few faces>"))


def few_face_hands(min_size: int = 10, max_size: int = MAX_CARDS) -> st.SearchStrategy[tuple[Card, ...]]:
    """Large hands of :data:`FEW_FACES`, many copies of each."""
    faces = st.lists(st.sampled_from(FEW_FACES), min_size=min_size, max_size=max_size)
    return faces.map(lambda fs: tuple(Card(f) for f in fs))
