"""Hints: the expert's ranked options for the move in front of a player,
with the reason in one sentence.

:func:`hint` is the expert itself explaining its move: the expert player
decides by computing exactly these options and playing the first, so a
hint and the expert's move always agree.

>>> from quiddler.game import Game
>>> game = Game(2, seed=5)
>>> h = hint(game.view(game.turn))
>>> h.recommended == h.options[0], h.recommended.action in ("take-discard", "draw-pile")
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..cards import Card
from ..solver.types import Word
from .state import Action, Discard, Draw, GoOut, LayDown, PlayerView

__all__ = ["Hint", "HintAction", "HintOption", "hint"]

HintAction = Literal["take-discard", "draw-pile", "discard", "go-out", "lay-down"]


@dataclass(frozen=True, slots=True)
class HintOption:
    """One move and its expected value in points (comparable within one hint).

    ``card`` is the card taken (``take-discard``) or discarded (``discard``,
    ``go-out``, ``lay-down``); ``words`` the words laid down (``go-out``,
    ``lay-down``)."""

    action: HintAction
    card: Card | None
    words: tuple[Word, ...] | None
    value: float

    def to_dict(self) -> dict[str, Any]:
        """``{"action", "card": face or None, "words": [{"word", "cards", "points"}] or None, "value"}``."""
        return {
            "action": self.action,
            "card": None if self.card is None else self.card.face,
            "words": None if self.words is None else [w.to_dict() for w in self.words],
            "value": round(self.value, 2),
        }

    def to_action(self, seat: int) -> Action:
        """The engine action that plays this option for ``seat``."""
        if self.action == "take-discard":
            return Draw(seat, "discard")
        if self.action == "draw-pile":
            return Draw(seat, "pile")
        assert self.card is not None, "a discard, going out or laying down names its discard"
        if self.action == "discard":
            return Discard(seat, self.card)
        if self.action == "go-out":
            return GoOut(seat, self.words or (), self.card)
        return LayDown(seat, self.words or (), self.card)


@dataclass(frozen=True, slots=True)
class Hint:
    """Every option for the move, best first, and why the first is best."""

    recommended: HintOption
    options: tuple[HintOption, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """``{"recommended": OPTION, "options": [OPTION, ...], "reason": "..."}``."""
        return {
            "recommended": self.recommended.to_dict(),
            "options": [o.to_dict() for o in self.options],
            "reason": self.reason,
        }


def hint(view: PlayerView) -> Hint:
    """The expert's advice for the move ``view`` is at: which pile to draw
    from, or (after drawing) which card to discard or how to go out, or (on
    a final turn) which words to lay down.  ``view.my_turn`` must be true."""
    if not view.my_turn:
        raise ValueError(f"it is not seat {view.seat}'s move (seat {view.turn} is to move)")
    from .ai import EXPERT, advise  # the AI imports this module's types

    return advise(view, EXPERT)
