"""The exact partition solver: best plays, going out, every word a hand makes."""

from .core import MAX_CARDS, find_words, score_many, solve, solve_many
from .types import Play, Solution, Word

__all__ = ["MAX_CARDS", "Play", "Solution", "Word", "find_words", "score_many", "solve", "solve_many"]
