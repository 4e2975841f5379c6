"""Errors the game engine raises.

Every illegal action raises a subclass of
:class:`~quiddler.errors.IllegalActionError` (itself a ``ValueError``) and
leaves the game unchanged, so a caller can catch the precise case or any
illegal action at once.
"""

from __future__ import annotations

from ..errors import (
    ArgumentTypeError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidWordError,
    QuiddlerError,
)

__all__ = [
    "CardNotInHandError",
    "GameRecordError",
    "GoingOutError",
    "IllegalActionError",
    "InvalidWordError",
    "MalformedActionError",
    "RulesError",
    "RulesTypeError",
    "UnknownPlayerError",
    "UnknownStrategyError",
    "WrongPhaseError",
    "WrongPlayerError",
]


class MalformedActionError(IllegalActionError, ArgumentTypeError):
    """The action is malformed whatever the state of the game: a seat that
    is not an integer (a bool or a float is not a seat), an unknown draw
    source, a word that is not a :class:`~quiddler.Word`, a card that is not
    a :class:`~quiddler.Card`.  Both a ``ValueError`` (as every illegal
    action) and a ``TypeError`` (as every argument of the wrong kind); its
    ``reason`` is ``"malformed"``."""

    def __init__(self, message: str = "", *, reason: str = "malformed", params: dict[str, object] | None = None) -> None:
        """:param message: What is malformed, naming the bad value.
        :param reason: The rule that refused it: ``"malformed"``.
        :param params: The values the message names, by name.
        """
        super().__init__(message, reason=reason, params=params)


class WrongPlayerError(IllegalActionError):
    """The action names a player whose turn it is not."""


class WrongPhaseError(IllegalActionError):
    """The action does not fit the turn's phase (drawing twice, discarding
    before drawing, a plain discard on a final turn, acting after the game)."""


class CardNotInHandError(IllegalActionError):
    """A card discarded or laid down is not in the player's hand (or is used twice)."""


class GoingOutError(IllegalActionError):
    """Going out is not allowed: cards left over, or the first-turn rule."""


class GameRecordError(QuiddlerError, ValueError):
    """A game record is malformed or does not replay to what it records."""


class RulesError(InvalidArgumentError):
    """A rules setting that makes no playable game (a round too large for a
    hand, a negative bonus, too many players...); the message names the
    setting and its value.  An :class:`~quiddler.InvalidArgumentError`, so a
    ``ValueError`` too."""


class RulesTypeError(RulesError, ArgumentTypeError):
    """A rules setting of the wrong kind (a float where an integer belongs...):
    both a :class:`RulesError` and an :class:`~quiddler.ArgumentTypeError`,
    so a ``TypeError`` too."""


class UnknownPlayerError(QuiddlerError, ValueError):
    """No player is registered under that name."""


#: The error's earlier name, kept so code that catches it keeps working.
UnknownStrategyError = UnknownPlayerError
