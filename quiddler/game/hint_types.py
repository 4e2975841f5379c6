"""The values a hint is made of: one option of a move with its value
(:class:`HintOption`) and the ranked options with the reason for the first
(:class:`Hint`), in English and as structure (:mod:`.explanations`).

The computer players (:mod:`.ai`) decide by ranking these options and
:mod:`.hints` shows the same ranking to a person, so both take the types
from here and imports run one way: hints -> ai -> hint_types.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..cards import Card
from ..solver.types import Word
from .explanations import Explanation
from .state import Action, Discard, Draw, GoOut, LayDown

__all__ = ["Hint", "HintAction", "HintOption"]

HintAction = Literal["take-discard", "draw-pile", "discard", "go-out", "lay-down"]


@dataclass(frozen=True, slots=True)
class HintOption:
    """One move and its expected value in points (comparable within one hint).

    ``card`` is the card taken (``take-discard``) or discarded (``discard``,
    ``go-out``, ``lay-down``); ``words`` the words laid down (``go-out``,
    ``lay-down``).

    :ivar action: The kind of move: ``"take-discard"``, ``"draw-pile"``,
        ``"discard"``, ``"go-out"`` or ``"lay-down"``.
    :ivar card: The card taken or discarded, or None (``draw-pile``).
    :ivar words: The words laid down, or None when the move lays none down.
    :ivar value: The move's expected value in points: higher is better,
        comparable only with the other options of the same hint.
    """

    action: HintAction
    card: Card | None
    words: tuple[Word, ...] | None
    value: float

    def to_dict(self) -> dict[str, Any]:
        """The option's JSON shape (see [JSON shapes](../json.md#hints)).

        :returns: ``{"action", "card": face or None, "words": [{"word", "cards", "points"}] or None, "value"}``.
        """
        return {
            "action": self.action,
            "card": None if self.card is None else self.card.face,
            "words": None if self.words is None else [w.to_dict() for w in self.words],
            "value": round(self.value, 2),
        }

    def to_action(self, seat: int) -> Action:
        """The engine action that plays this option for ``seat``.

        :param seat: The seat that plays it (``view.seat``).
        :returns: A :class:`Draw`, :class:`Discard`, :class:`GoOut` or :class:`LayDown`.
        :raises ValueError: The option needs a card and names none.
        """
        match self.action, self.card:
            case "take-discard", _:
                return Draw(seat, "discard")
            case "draw-pile", _:
                return Draw(seat, "pile")
            case "discard", Card() as card:
                return Discard(seat, card)
            case "go-out", Card() as card:
                return GoOut(seat, self.words or (), card)
            case "lay-down", Card() as card:
                return LayDown(seat, self.words or (), card)
        raise ValueError(f"a {self.action!r} option must name its card")


@dataclass(frozen=True, slots=True)
class Hint:
    """Every option for the move, best first, and why the first is best.

    The reason comes twice: as an English sentence, and as the structure it
    is rendered from (the kind of recommendation and the named terms of
    each value it quotes), for a page that speaks another language.

    :ivar recommended: The best option: ``options[0]``.
    :ivar options: Every option of the move, best first.
    :ivar reason: Why the recommended option is best, in a sentence for a
        person: ``explanation.english()`` ("" when there is none).
    :ivar explanation: The same reason as structure (see
        :mod:`~quiddler.game.explanations`), or None when the hint was made
        without its reason (a computer player only moving).
    """

    recommended: HintOption
    options: tuple[HintOption, ...]
    reason: str
    explanation: Explanation | None = None

    @classmethod
    def of(cls, options: Sequence[HintOption], explanation: Explanation | None) -> Hint:
        """The hint of ranked options, its reason rendered from its explanation.

        :param options: Every option of the move, best first.
        :param explanation: Why the first is best, or None (no reason).
        :returns: The hint.
        """
        return cls(options[0], tuple(options), "" if explanation is None else explanation.english(), explanation)

    def to_dict(self) -> dict[str, Any]:
        """The hint's JSON shape, as ``quiddler hint --json`` prints it (see
        [JSON shapes](../json.md#hints)).

        :returns: ``{"recommended": OPTION, "options": [OPTION, ...], "reason": "...",
            "explanation": EXPLANATION or null}``.
        """
        return {
            "recommended": self.recommended.to_dict(),
            "options": [o.to_dict() for o in self.options],
            "reason": self.reason,
            "explanation": None if self.explanation is None else self.explanation.to_dict(),
        }
