"""Exceptions raised by quiddler.

Every error is a :class:`QuiddlerError`, and each subclass also derives from
the builtin exception it resembles, so callers can catch either
``QuiddlerError`` or, say, ``ValueError`` without importing anything from us.
Messages are lower case and quote the offending value.
"""

from __future__ import annotations

__all__ = [
    "ArgumentTypeError",
    "HandTooLargeError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidWordError",
    "QuiddlerError",
    "WordListError",
]


class QuiddlerError(Exception):
    """Base class of every error raised by quiddler."""


class InvalidArgumentError(QuiddlerError, ValueError):
    """An argument or setting outside what it may be: ``top=0``, ``bonus=-1``,
    ``backend="gpu"``, a ``$QUIDDLER_MAX_MEMORY_MB`` that is no whole number
    of megabytes.  The message names the argument and quotes the value."""


class ArgumentTypeError(QuiddlerError, TypeError):
    """An argument of the wrong type (``top=1.0``, a path where a
    :class:`~quiddler.WordList` belongs); the message names the argument."""


class InvalidCardError(QuiddlerError, ValueError):
    """A card or hand could not be parsed (unknown face, empty token, empty hand)."""


class HandTooLargeError(QuiddlerError, ValueError):
    """A hand has more cards than the exact solver accepts, or its search
    would need more memory than the solver is allowed (see
    [Limits and bad arguments](../solver.md#limits-and-bad-arguments))."""


class WordListError(QuiddlerError, OSError):
    """A word list is missing, unreadable, empty or holds a line that is not a word."""


class IllegalActionError(QuiddlerError, ValueError):
    """A game action is not legal in the current state; the state is unchanged.

    Besides the message, ``reason`` names the rule that refused the action
    (``"not_in_hand"``, ``"first_turn_no_go_out"``...) and ``params`` holds
    the values the message names (the card, the seat, the count), so a page
    in another language can say the same (the browser game's protocol lists
    them); ``"illegal"`` with no params when the raiser names no rule.
    """

    def __init__(self, message: str = "", *, reason: str = "illegal", params: dict[str, object] | None = None) -> None:
        """:param message: What is wrong, in English, naming the bad value.
        :param reason: The rule that refused the action.
        :param params: The values the message names, by name.
        """
        super().__init__(message)
        self.reason = reason
        """The rule that refused the action (``"illegal"``: none named)."""
        self.params = dict(params or {})
        """The values the message names, by name."""


class InvalidWordError(IllegalActionError):
    """A laid-down word is not in the word list or is not made of the player's cards."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters
    so that a huge bad input (a 100 kB token) does not flood the terminal.

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100 characters)"
    >>> shown("qu!")
    "'qu!'"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value):,} characters)" if isinstance(value, str) else ""
    return text[: limit - 10] + "..." + text[0] + size if isinstance(value, str) else text[: limit - 3] + "..."
