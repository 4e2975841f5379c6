"""The Quiddler game engine: rules, the mutable :class:`Game`, players,
records and simulation, built on the exact solver."""

from .ai import AIPlayer  # importing ai registers the computer players: ev, expert, hard, medium, easy
from .engine import Game
from .errors import (
    CardNotInHandError,
    GameRecordError,
    GoingOutError,
    MalformedActionError,
    UnknownPlayerError,
    UnknownStrategyError,
    WrongPhaseError,
    WrongPlayerError,
)
from .hint_types import Hint, HintOption
from .hints import hint
from .master import MasterPlayer as _MasterPlayer  # noqa: F401  importing master registers the master player
from .players import GreedyPlayer, Player, RandomPlayer, make_player, player_names, register_player
from .reviews import Decision, GameReview, RoundReview, review
from .rules import RoundScore, Rules, add_to_totals, score_round
from .runner import play_game, simulate
from .state import (
    Action,
    Discard,
    Draw,
    GoOut,
    LayDown,
    Outcome,
    Phase,
    PlayerView,
    PublicEvent,
    RoundResult,
    word_of,
)

__all__ = [
    "AIPlayer",
    "Action",
    "CardNotInHandError",
    "Decision",
    "Discard",
    "Draw",
    "Game",
    "GameRecordError",
    "GameReview",
    "GoOut",
    "GoingOutError",
    "GreedyPlayer",
    "Hint",
    "HintOption",
    "LayDown",
    "MalformedActionError",
    "Outcome",
    "Phase",
    "Player",
    "PlayerView",
    "PublicEvent",
    "RandomPlayer",
    "RoundResult",
    "RoundReview",
    "RoundScore",
    "Rules",
    "UnknownPlayerError",
    "UnknownStrategyError",
    "WrongPhaseError",
    "WrongPlayerError",
    "add_to_totals",
    "hint",
    "make_player",
    "play_game",
    "player_names",
    "register_player",
    "review",
    "score_round",
    "simulate",
    "word_of",
]
