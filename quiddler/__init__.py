"""quiddler: an exact, fast solver, command line and game engine for the
Quiddler card word game."""

from .cards import DECK_SIZE, FACES, Card, Deck, format_hand, full_deck, parse_hand
from .errors import (
    ArgumentTypeError,
    HandTooLargeError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidWordError,
    QuiddlerError,
    WordListError,
)
from .solver import (
    FACE_SLOTS,
    MAX_CARDS,
    Play,
    Solution,
    Word,
    find_words,
    hide_notices,
    score_many,
    show_notices,
    solve,
    solve_many,
    usable_cores,
    warm,
)
from .wordlist import UnplayableWordsWarning, WordList, cache_dir, default_wordlist, load_wordlist


def __getattr__(name: str) -> str:
    # The version is looked up on first use: importlib.metadata costs ~20 ms
    # of start-up, which a one-off CLI solve should not pay.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("quiddler")
        except PackageNotFoundError:  # a source tree that is not installed
            return "0.0.0+unknown"
    raise AttributeError(f"module 'quiddler' has no attribute {name!r}")

__all__ = [
    "DECK_SIZE",
    "FACES",
    "FACE_SLOTS",
    "MAX_CARDS",
    "ArgumentTypeError",
    "Card",
    "Deck",
    "HandTooLargeError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidWordError",
    "Play",
    "QuiddlerError",
    "Solution",
    "UnplayableWordsWarning",
    "Word",
    "WordList",
    "WordListError",
    "__version__",
    "cache_dir",
    "default_wordlist",
    "find_words",
    "format_hand",
    "full_deck",
    "hide_notices",
    "load_wordlist",
    "parse_hand",
    "score_many",
    "show_notices",
    "solve",
    "solve_many",
    "usable_cores",
    "warm",
]
