"""The Quiddler game engine: rules, the mutable :class:`Game`, players,
records and simulation, built on the exact solver."""

from .engine import Game
from .errors import (
    CardNotInHandError,
    GameRecordError,
    GoingOutError,
    UnknownStrategyError,
    WrongPhaseError,
    WrongPlayerError,
)
from .players import GreedyPlayer, Player, RandomPlayer, make_player, player_names, register_player
from .rules import RoundScore, Rules, add_to_totals, score_round
from .runner import play_game, simulate
from .state import Action, Discard, Draw, GoOut, LayDown, Outcome, Phase, PlayerView, RoundResult, word_of

__all__ = [
    "Action",
    "CardNotInHandError",
    "Discard",
    "Draw",
    "Game",
    "GameRecordError",
    "GoOut",
    "GoingOutError",
    "GreedyPlayer",
    "LayDown",
    "Outcome",
    "Phase",
    "Player",
    "PlayerView",
    "RandomPlayer",
    "RoundResult",
    "RoundScore",
    "Rules",
    "UnknownStrategyError",
    "WrongPhaseError",
    "WrongPlayerError",
    "add_to_totals",
    "make_player",
    "play_game",
    "player_names",
    "register_player",
    "score_round",
    "simulate",
    "word_of",
]
