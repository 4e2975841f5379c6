"""quiddler: an exact, fast solver, command line and game engine for the
Quiddler card word game.

Every public name is imported from its module on first use (see
:data:`_EXPORTS`): ``import quiddler`` costs almost nothing, and a program or
a command (``quiddler.cli`` imports the package first) pays only for the
parts it touches.  ``from quiddler import solve``, ``quiddler.solve`` and
``from quiddler import *`` all work as usual.
"""

from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:  # the names as type checkers and editors see them; at run time, __getattr__ below
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
        MAX_BONUS,
        MAX_CARDS,
        NO_GO_OUT,
        Play,
        Solution,
        Solver,
        Word,
        find_words,
        hide_notices,
        score_counts,
        score_many,
        search_size,
        show_notices,
        solve,
        solve_many,
        usable_cores,
        warm,
    )
    from .wordlist import UnplayableWordsWarning, WordList, cache_dir, default_wordlist, load_wordlist

#: The public names of each module, imported from it on first use (the
#: same imports as the block above: a test keeps the two and ``__all__`` equal).
# fmt: off
_EXPORTS: dict[str, tuple[str, ...]] = {
    "cards": ("DECK_SIZE", "FACES", "Card", "Deck", "format_hand", "full_deck", "parse_hand"),
    "errors": ("ArgumentTypeError", "HandTooLargeError", "IllegalActionError", "InvalidArgumentError",
               "InvalidCardError", "InvalidWordError", "QuiddlerError", "WordListError"),
    "solver": ("FACE_SLOTS", "MAX_BONUS", "MAX_CARDS", "NO_GO_OUT", "Play", "Solution", "Solver", "Word",
               "find_words", "hide_notices", "score_counts", "score_many", "search_size", "show_notices", "solve",
               "solve_many", "usable_cores", "warm"),
    "wordlist": ("UnplayableWordsWarning", "WordList", "cache_dir", "default_wordlist", "load_wordlist"),
}
# fmt: on
_HOMES = {name: module for module, names in _EXPORTS.items() for name in names}
#: Submodules that ``import quiddler`` alone used to bind, so that
#: ``quiddler.solver.solve`` after a bare ``import quiddler`` keeps working.
_SUBMODULES = frozenset(["cards", "cardtrie", "errors", "solver", "thresholds", "wordlist"])


def __getattr__(name: str) -> _Any:
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(_importlib.import_module(f".{home}", __name__), name)
        globals()[name] = value  # from now on a plain attribute: __getattr__ is not called again
        return value
    if name in _SUBMODULES:
        return _importlib.import_module(f".{name}", __name__)
    if name == "__version__":  # importlib.metadata alone costs more than the rest of a solve's imports
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("quiddler")
        except PackageNotFoundError:  # a source tree that is not installed
            return "0.0.0+unknown"
    raise AttributeError(f"module 'quiddler' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names and the module's own dunders, not its helpers."""
    return sorted({name for name in globals() if name.startswith("__")} | set(__all__) | _SUBMODULES)


__all__ = [
    "DECK_SIZE",
    "FACES",
    "FACE_SLOTS",
    "MAX_BONUS",
    "MAX_CARDS",
    "NO_GO_OUT",
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
    "Solver",
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
    "score_counts",
    "score_many",
    "search_size",
    "show_notices",
    "solve",
    "solve_many",
    "usable_cores",
    "warm",
]
