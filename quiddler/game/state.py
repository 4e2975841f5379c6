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
    """Where the player to move is in their turn.

    :cvar DRAW: Must draw from the pile or take the discard top.
    :cvar DISCARD: Holds one card too many: discard, go out, or (on a final
        turn) lay down.
    :cvar GAME_OVER: The last round is scored; no action is legal.
    """

    DRAW = "draw"  #: must draw from the pile or take the discard top
    DISCARD = "discard"  #: holds one card too many: discard, go out, or (final turn) lay down
    GAME_OVER = "game_over"


def word_of(faces: Any) -> Word:
    """A :class:`Word` from a list of card faces (or cards): ``word_of(["qu", "e", "e", "n"])``.

    :param faces: The faces (or cards) that spell the word, in order.
    :returns: The word, its text the faces joined.
    :raises InvalidCardError: A face cannot be read.
    """
    cards = tuple(f if isinstance(f, Card) else Card.parse(f) for f in faces)
    return Word("".join(c.face for c in cards), cards)


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the draw pile (``source="pile"``) or of the discard pile.

    :ivar player: The seat that draws.
    :ivar source: ``"pile"`` (the draw pile, blind) or ``"discard"`` (the face-up top card).
    """

    player: int
    source: DrawSource = "pile"

    def to_dict(self) -> dict[str, Any]:
        """The action as a game record holds it.

        :returns: ``{"type": "draw", "player", "source"}``.
        """
        return {"type": "draw", "player": self.player, "source": self.source}


@dataclass(frozen=True, slots=True)
class Discard:
    """End an ordinary turn by discarding ``card``.

    :ivar player: The seat that discards.
    :ivar card: The card discarded, face up on the discard pile.
    """

    player: int
    card: Card

    def to_dict(self) -> dict[str, Any]:
        """The action as a game record holds it.

        :returns: ``{"type": "discard", "player", "card"}``.
        """
        return {"type": "discard", "player": self.player, "card": self.card.face}


@dataclass(frozen=True, slots=True)
class _LayingAction:
    """Words laid down plus a discard: what going out and a final turn share.

    :ivar player: The seat that plays.
    :ivar words: The words laid down, each with the cards that spell it.
    :ivar discard: The card discarded at the end of the turn.
    :ivar kind: The action's ``"type"`` in a game record.
    """

    player: int
    words: tuple[Word, ...]
    discard: Card
    kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", tuple(self.words))

    def to_dict(self) -> dict[str, Any]:
        """The action as a game record holds it.

        :returns: ``{"type", "player", "words", "discard"}``, words as lists of faces.
        """
        words = [[c.face for c in w.cards] for w in self.words]
        return {"type": self.kind, "player": self.player, "words": words, "discard": self.discard.face}


@dataclass(frozen=True, slots=True)
class GoOut(_LayingAction):
    """Lay down every card but ``discard`` as ``words`` and discard the last card.

    :cvar kind: ``"go_out"``, the action's ``"type"`` in a game record.
    """

    kind: ClassVar[str] = "go_out"


@dataclass(frozen=True, slots=True)
class LayDown(_LayingAction):
    """A final turn after someone went out: lay down ``words`` (maybe none),
    keep the rest in hand (they count against the player), discard ``discard``.

    :cvar kind: ``"lay_down"``, the action's ``"type"`` in a game record.
    """

    kind: ClassVar[str] = "lay_down"


#: Any of the four actions: the type :meth:`Game.apply` takes.
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
    round ended at the rules' turn limit.

    :ivar round: The round's number, from 1 (unlike :attr:`Game.round`, which counts from 0).
    :ivar cards: The cards dealt to each player.
    :ivar dealer: The seat that dealt.
    :ivar went_out: The seat that went out, or None if nobody did.
    :ivar scores: Each seat's :class:`RoundScore`.
    :ivar totals: Each seat's total after the round.
    :ivar turn_limit: Whether the round ended at the turn limit, nobody out.
    """

    round: int  #: 1-based
    cards: int  #: cards dealt to each player
    dealer: int
    went_out: int | None
    scores: tuple[RoundScore, ...]
    totals: tuple[int, ...]
    turn_limit: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The round's result as a game record holds it (see
        [Game records](../reference/records.md)).

        :returns: The fields, scores as :meth:`RoundScore.to_dict` gives them.
        """
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
    when the action ended a round.

    :ivar action: The action applied.
    :ivar drawn: The card a draw gave, else None.
    :ivar reshuffled: Whether the discard pile was shuffled into a new draw
        pile before a blind draw.
    :ivar round_result: The round's result if the action ended the round, else None.
    """

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
    its top card) was shuffled into a new draw pile before a blind draw.

    :ivar action: The action, as played.
    :ivar taken: The face-up card taken by a draw from the discard pile, else None.
    :ivar reshuffled: Whether the discard pile was shuffled into a new draw pile first.
    :ivar player: The seat that played the action.
    """

    action: Action
    taken: Card | None = None
    reshuffled: bool = False

    @property
    def player(self) -> int:
        return self.action.player


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one player may see: their own hand, the face-up cards, every
    laid-down word and the scores; never another hand or the deck order.
    A player's methods receive one; :meth:`Game.view` makes one.

    :ivar seat: The seat this view is for.
    :ivar players: The number of seats.
    :ivar rules: The game's rules.
    :ivar round: The round in play, from 0.
    :ivar round_size: The cards dealt to each player this round.
    :ivar dealer: The seat that dealt this round.
    :ivar turn: The seat to move.
    :ivar phase: What the player to move does next.
    :ivar hand: This player's cards.
    :ivar discard_top: The face-up card of the discard pile, or None if it is empty.
    :ivar draw_pile_size: The cards left in the draw pile.
    :ivar discard_pile_size: The cards in the discard pile.
    :ivar totals: Each seat's total over the rounds finished.
    :ivar went_out: The seat that went out this round, or None.
    :ivar history: A :class:`RoundResult` for each round finished.
    :ivar my_turn: Whether it is this player's move (never once the game is over).
    """

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
        must beat for a bonus.

        :returns: ``(letters of the longest word, most words)``.
        """
        longest = words = 0
        for seat, laid in enumerate(self.laid_down):
            eligible = not self.rules.bonus_requires_going_out or self.hand_sizes[seat] == 0
            if seat != self.seat and laid and eligible:
                longest = max(longest, max(w.letters for w in laid))
                words = max(words, len(laid))
        return longest, words
