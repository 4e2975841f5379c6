"""quiddler: an exact, fast solver, command line and game engine for the
Quiddler card word game."""

from importlib.metadata import PackageNotFoundError, version

from .cards import DECK_SIZE, FACES, Card, Deck, format_hand, full_deck, parse_hand
from .errors import (
    HandTooLargeError,
    IllegalActionError,
    InvalidCardError,
    InvalidWordError,
    QuiddlerError,
    WordListError,
)
from .solver import MAX_CARDS, Play, Solution, Word, find_words, solve, solve_many
from .wordlist import WordList, cache_dir, default_wordlist, load_wordlist

try:
    __version__ = version("quiddler")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

__all__ = [
    "DECK_SIZE",
    "FACES",
    "MAX_CARDS",
    "Card",
    "Deck",
    "HandTooLargeError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidWordError",
    "Play",
    "QuiddlerError",
    "Solution",
    "Word",
    "WordList",
    "WordListError",
    "__version__",
    "cache_dir",
    "default_wordlist",
    "find_words",
    "format_hand",
    "full_deck",
    "load_wordlist",
    "parse_hand",
    "solve",
    "solve_many",
]
