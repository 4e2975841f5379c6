"""The exact partition solver: best plays, going out, every word a hand makes.

:class:`Solver` is prepared once for a word list and a backend; the
module-level functions (:func:`solve` and its kin) run on a default one.
"""

from ._backends import FACE_SLOTS, hide_notices, show_notices, warm
from .core import (
    MAX_BONUS,
    MAX_CARDS,
    NO_GO_OUT,
    Solver,
    find_words,
    score_counts,
    score_many,
    search_size,
    solve,
    solve_many,
    usable_cores,
)
from .types import Play, Solution, Word

__all__ = [
    "FACE_SLOTS",
    "MAX_BONUS",
    "MAX_CARDS",
    "NO_GO_OUT",
    "Play",
    "Solution",
    "Solver",
    "Word",
    "find_words",
    "hide_notices",
    "score_counts",
    "score_many",
    "search_size",
    "show_notices",
    "solve",
    "solve_many",
    "usable_cores",
    "warm",
]
