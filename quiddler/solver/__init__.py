"""The exact partition solver: best plays, going out, every word a hand makes."""

from ._backends import FACE_SLOTS, hide_notices, show_notices, warm
from .core import MAX_CARDS, find_words, score_many, solve, solve_many, usable_cores
from .types import Play, Solution, Word

__all__ = [
    "FACE_SLOTS",
    "MAX_CARDS",
    "Play",
    "Solution",
    "Word",
    "find_words",
    "hide_notices",
    "score_many",
    "show_notices",
    "solve",
    "solve_many",
    "usable_cores",
    "warm",
]
