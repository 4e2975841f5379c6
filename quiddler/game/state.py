"""Frozen values the engine takes and gives: actions, outcomes, round
results and the read-only view a player sees.

Actions carry the seat that plays them, so the engine can refuse a player
acting out of turn.  Every value converts to and from the JSON shapes
documented in ``docs/game.md``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ..cards import Card
from ..solver.types import Word
from .errors import GameRecordError
from .rules import RoundScore, Rules

__all__ = [
    "Action",
    "Discard",
    "Draw",
    "DrawSource",
    "GoOut",
    "LayDown",
    "Outcome",
    "Phase",
    "PlayerView",
    "PublicEvent",
    "RoundResult",
    "action_from_dict",
    "word_of",
]

DrawSource = Literal["pile", "discard"]


class Phase(enum.Enum):
    """Where the player to move is in their turn."""

    DRAW = "draw"  #: must draw from the pile or take the discard top
    DISCARD = "discard"  #: holds one card too many: discard, go out, or (final turn) lay down
    GAME_OVER = "game_over"


def word_of(faces: Any) -> Word:
    """A :class:`Word` from a list of card faces (or cards): ``word_of(["qu", "e", "e", "n"])``."""
    cards = tuple(f if isinstance(f, Card) else Card.parse(f) for f in faces)
    return Word("".join(c.face for c in cards), cards)


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the draw pile (``source="pile"``) or of the discard pile."""

    player: int
    source: DrawSource = "pile"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw", "player": self.player, "source": self.source}


@dataclass(frozen=True, slots=True)
class Discard:
    """End an ordinary turn by discarding ``card``."""

    player: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "discard", "player": self.player, "card": self.card.face}


@dataclass(frozen=True, slots=True)
class _LayingAction:
    """Words laid down plus a discard: what going out and a final turn share."""

    player: int
    words: tuple[Word, ...]
    discard: Card
    kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", tuple(self.words))

    def to_dict(self) -> dict[str, Any]:
        words = [[c.face for c in w.cards] for w in self.words]
        return {"type": self.kind, "player": self.player, "words": words, "discard": self.discard.face}


@dataclass(frozen=True, slots=True)
class GoOut(_LayingAction):
    """Lay down every card but ``discard`` as ``words`` and discard the last card."""

    kind: ClassVar[str] = "go_out"


@dataclass(frozen=True, slots=True)
class LayDown(_LayingAction):
    """A final turn after someone went out: lay down ``words`` (maybe none),
    keep the rest in hand (they count against the player), discard ``discard``."""

    kind: ClassVar[str] = "lay_down"


Action = Draw | Discard | GoOut | LayDown


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of the actions' ``to_dict``; raises :class:`GameRecordError` on bad input."""
    try:
        kind, player = data["type"], int(data["player"])
        if kind == "draw":
            source = data.get("source", "pile")
            if source not in ("pile", "discard"):
                raise ValueError(f"unknown draw source: {source!r}")
            return Draw(player, source)
        if kind == "discard":
            return Discard(player, Card.parse(data["card"]))
        words = tuple(word_of(w) for w in data["words"])
        if kind == "go_out":
            return GoOut(player, words, Card.parse(data["discard"]))
        if kind == "lay_down":
            return LayDown(player, words, Card.parse(data["discard"]))
        raise ValueError(f"unknown action type: {kind!r}")
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise GameRecordError(f"bad action {data!r}: {exc}") from None


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: who dealt, who went out, each player's score and
    the totals after it.  ``turn_limit`` is True when nobody went out and the
    round ended at the rules' turn limit."""

    round: int  #: 1-based
    cards: int  #: cards dealt to each player
    dealer: int
    went_out: int | None
    scores: tuple[RoundScore, ...]
    totals: tuple[int, ...]
    turn_limit: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "cards": self.cards,
            "dealer": self.dealer,
            "went_out": self.went_out,
            "scores": [s.to_dict() for s in self.scores],
            "totals": list(self.totals),
            "turn_limit": self.turn_limit,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """What applying an action did.  ``drawn`` is the card a draw gave
    (only the acting player should be shown it); ``round_result`` is set
    when the action ended a round."""

    action: Action
    drawn: Card | None = None
    reshuffled: bool = False
    round_result: RoundResult | None = None


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """One action of the round as every player at the table sees it: who
    drew from where (``taken`` is the face-up card when it came from the
    discard pile; a blind-drawn card is never shown), what was discarded,
    and the words laid down.  ``reshuffled`` says the discard pile (all but
    its top card) was shuffled into a new draw pile before a blind draw."""

    action: Action
    taken: Card | None = None
    reshuffled: bool = False

    @property
    def player(self) -> int:
        return self.action.player


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one player may see: their own hand, the face-up cards, every
    laid-down word and the scores; never another hand or the deck order."""

    seat: int
    players: int
    rules: Rules
    round: int  #: 0-based round index
    round_size: int  #: cards dealt this round
    dealer: int
    turn: int  #: the seat to move
    phase: Phase
    hand: tuple[Card, ...]
    discard_top: Card | None
    draw_pile_size: int
    discard_pile_size: int
    #: cards each seat holds (public: anyone can count them)
    hand_sizes: tuple[int, ...]
    #: every card turned face up on the discard pile this round, oldest first
    seen: tuple[Card, ...]
    #: words each seat has laid down this round
    laid_down: tuple[tuple[Word, ...], ...]
    totals: tuple[int, ...]
    went_out: int | None
    #: turns this player has started this round
    turns_taken: int
    history: tuple[RoundResult, ...]
    #: the round's public actions so far, oldest first (see :class:`PublicEvent`)
    log: tuple[PublicEvent, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase is not Phase.GAME_OVER

    @property
    def final_turn(self) -> bool:
        """Someone else went out: this turn is the player's last of the round."""
        return self.went_out is not None and self.went_out != self.seat

    @property
    def may_go_out(self) -> bool:
        """Whether the rules let this player go out now (ignoring the cards)."""
        if self.final_turn:
            return False
        # Before drawing, the turn about to start is not counted yet.
        this_turn = self.turns_taken + (1 if self.phase is Phase.DRAW and self.my_turn else 0)
        return not (this_turn <= 1 and self.rules.first_turn_out_forbidden(self.round))

    @property
    def may_draw_from_pile(self) -> bool:
        """False only when the draw pile is empty and cannot be refilled."""
        return self.draw_pile_size > 0 or (self.rules.reshuffle_discards and self.discard_pile_size > 1)

    def others_best(self) -> tuple[int, int]:
        """(longest word in letters, most words) laid down by the other players
        who may win a bonus this round, 0 when nobody has; what a final turn
        must beat for a bonus."""
        longest = words = 0
        for seat, laid in enumerate(self.laid_down):
            eligible = not self.rules.bonus_requires_going_out or self.hand_sizes[seat] == 0
            if seat != self.seat and laid and eligible:
                longest = max(longest, max(w.letters for w in laid))
                words = max(words, len(laid))
        return longest, words
