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

from collections import Counter

from ..cards import DECK_SIZE, Card
from ..errors import ArgumentTypeError, InvalidArgumentError, shown
from ..solver.types import Word
from .ai import TUNINGS, advise
from .errors import UnknownPlayerError, WrongPhaseError, WrongPlayerError
from .hint_types import Hint, HintAction, HintOption
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from .state import Phase, PlayerView

__all__ = ["Hint", "HintAction", "HintOption", "hint", "position_view"]


def hint(view: PlayerView, level: str = "expert") -> Hint:
    """The expert's advice for the move ``view`` is at: which pile to draw
    from, or (after drawing) which card to discard or how to go out, or (on
    a final turn) which words to lay down.

    With ``level="master"`` the advice is the ``master`` player's: the same,
    except that where the player could go out, going out and waiting are
    compared by simulated finishes of the round
    (:func:`~quiddler.game.master.master_hint`). Another computer player's
    name gives that player's valuation.

    :param view: The position, as the player to move sees it
        (:meth:`Game.view` of the seat to move, or :func:`position_view`).
    :param level: The computer player whose advice it is: ``"expert"``,
        ``"master"``, or another computer player's name.
    :returns: Every option of the move, best first, with the reason for the first.
    :raises ArgumentTypeError: ``view`` is not a :class:`~quiddler.game.PlayerView`.
    :raises WrongPhaseError: The game is over: there is no move.
    :raises WrongPlayerError: It is not ``view.seat``'s move.
    :raises UnknownPlayerError: ``level`` names no computer player.
    """
    if not isinstance(view, PlayerView):
        raise ArgumentTypeError(f"view must be a PlayerView (such as game.view(seat)), not {shown(view)}")
    if not view.my_turn:
        if view.phase is Phase.GAME_OVER:
            raise WrongPhaseError("the game is over: there is no move to advise on")
        raise WrongPlayerError(f"it is not seat {view.seat}'s move (seat {view.turn} is to move)")
    if level == "master":
        from .master import master_hint

        return master_hint(view)
    tuning = TUNINGS.get(level) if isinstance(level, str) else None
    if tuning is None:
        known = ", ".join(sorted([*TUNINGS, "master"]))
        raise UnknownPlayerError(f"unknown hint level: {shown(level)} (expected one of: {known})")
    return advise(view, tuning)


def position_view(hand: tuple[Card, ...], *, discard_top: Card | None = None, seen: tuple[Card, ...] = (),
                  opponents: int = 1, round_number: int | None = None, went_out: tuple[Word, ...] = (),
                  turn: int = 1, rules: Rules | None = None) -> PlayerView:  # fmt: skip
    """The view of seat 0 in a position described by hand: before drawing
    when ``discard_top`` is given (the hand as dealt), else just after
    drawing (one card more than dealt).  ``seen`` are other cards known to
    be out of play (face up earlier); ``went_out`` the words an opponent
    went out with, which makes this the final turn; ``turn`` counts the
    player's turns this round, this one included (so before drawing on a
    first turn, ``turn=1`` and no turn has been taken yet).

    A position that cannot exist is refused with
    :class:`~quiddler.errors.InvalidArgumentError` (a ``ValueError``)
    naming what does not fit: more copies of a face than the deck holds, or
    more cards in the hands, words and face-up cards than the deck has."""
    rules = rules or Rules()
    opponents = _count("opponents", opponents)
    turn = _count("turn", turn)
    players = opponents + 1
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidArgumentError(f"opponents must be 1 to {MAX_PLAYERS - 1}, not {opponents}")
    if not 1 <= turn <= rules.turn_limit:
        raise InvalidArgumentError(f"turn must be 1 to {rules.turn_limit} (the rules' turn limit), not {turn}")
    drawing = discard_top is not None
    n = len(hand) if drawing else len(hand) - 1
    if n < 2:
        what = "before drawing" if drawing else "after drawing (one more than dealt)"
        raise InvalidArgumentError(f"a hand of {len(hand)} cards {what} is too small: rounds deal at least 2 cards")
    if round_number is None:
        round_index = rules.round_sizes.index(n) if n in rules.round_sizes else len(rules.round_sizes) - 1
    else:
        round_number = _count("round_number", round_number)
        if not 1 <= round_number <= rules.rounds:
            raise InvalidArgumentError(f"round_number must be 1 to {rules.rounds}, not {round_number}")
        round_index = round_number - 1
        dealt = rules.round_sizes[round_index]
        if dealt != n:
            shape = f"{len(hand)} cards before drawing" if drawing else f"{len(hand)} cards after drawing"
            raise InvalidArgumentError(f"round {round_number} deals {dealt} cards, but the hand has {shape}")
    face_up = seen + ((discard_top,) if discard_top is not None else ())
    in_words = tuple(c for w in went_out for c in w.cards)
    for card, count in (Counter(hand) + Counter(face_up) + Counter(in_words)).items():
        if count > card.copies:
            raise InvalidArgumentError(f"{count} {card} cards given, but the deck holds {card.copies}")
    if went_out and drawing is False and len(in_words) != n:
        raise InvalidArgumentError(
            f"going out lays down {n} cards in this round, the words given use {len(in_words)}"
        )
    others = (0,) + (n,) * (opponents - 1) if went_out else (n,) * opponents
    _check_fits(len(hand), others, len(face_up), len(in_words))
    held = len(hand) + sum(others) + len(face_up) + len(in_words)
    laid = ((), went_out) + ((),) * (opponents - 1) if went_out else ((),) * players
    return PlayerView(
        seat=0, players=players, rules=rules, round=round_index, round_size=n, dealer=players - 1, turn=0,
        phase=Phase.DRAW if drawing else Phase.DISCARD, hand=hand, discard_top=face_up[-1] if face_up else None,
        draw_pile_size=max(1, DECK_SIZE - held), discard_pile_size=len(face_up),
        hand_sizes=(len(hand),) + others, seen=face_up, laid_down=laid, totals=(0,) * players,
        went_out=1 if went_out else None, turns_taken=turn - 1 if drawing else turn, history=(),
    )  # fmt: skip


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an integer, not {shown(value)}")
    return value


def _check_fits(hand: int, others: tuple[int, ...], face_up: int, in_words: int) -> None:
    """The cards the position puts on the table must come out of one deck."""
    total = hand + sum(others) + face_up + in_words
    if total <= DECK_SIZE:
        return
    parts = [f"a hand of {hand}"]
    holding = [size for size in others if size]
    if holding:
        parts.append(f"{len(holding)} other hand{'s' if len(holding) > 1 else ''} of {holding[0]}")
    if in_words:
        parts.append(f"{in_words} in the words gone out with")
    if face_up:
        parts.append(f"{face_up} face up")
    raise InvalidArgumentError(
        f"the position needs {total} cards ({', '.join(parts)}), but the deck holds only {DECK_SIZE}"
    )
