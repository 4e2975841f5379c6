"""Playing whole games with :class:`~quiddler.game.players.Player` objects,
and the many-game statistics behind ``quiddler simulate``.

Seats are rotated from game to game so that no strategy keeps the seat
advantage (seat 0 deals first, so seat 1 plays first in round 1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import Game
from .players import Player, make_player
from .rules import Rules
from .state import Action, Phase

__all__ = ["SimulationStats", "StrategyStats", "game_seeds", "next_action", "play_game", "simulate"]


def next_action(game: Game, players: Sequence[Player]) -> Action:
    """Ask the player to move for its action (it sees only its own view)."""
    seat = game.turn
    view = game.view(seat)
    player = players[seat]
    if game.phase is Phase.DRAW:
        return player.choose_draw(view)
    if game.final_turn:
        return player.choose_lay_down(view)
    return player.choose_end(view)


def play_game(players: Sequence[Player], *, seed: int | None = None, rules: Rules | None = None) -> Game:
    """Play a complete game; the finished :class:`Game` holds the totals,
    every round result and the log a record is made of."""
    game = Game(len(players), seed=seed, rules=rules)
    while not game.over:
        game.apply(next_action(game, players))
    return game


def game_seeds(seed: int, games: int) -> Iterator[int]:
    """The per-game seeds a simulation with ``seed`` uses, in order."""
    rng = random.Random(seed)
    for _ in range(games):
        yield rng.getrandbits(63)


@dataclass(slots=True)
class StrategyStats:
    """Totals for one strategy over a simulation (summed over its seats)."""

    seats: int = 0  #: seat-games played (games x seats with this strategy)
    wins: float = 0.0  #: a win shared by k players counts 1/k
    score_sum: int = 0
    rounds: int = 0
    went_out: int = 0

    def to_dict(self, games: int) -> dict[str, Any]:
        return {
            "wins": round(self.wins, 6),
            "win_rate": round(self.wins / games, 6) if games else 0.0,
            "mean_score": round(self.score_sum / self.seats, 3) if self.seats else 0.0,
            "going_out_rate": round(self.went_out / self.rounds, 6) if self.rounds else 0.0,
            "seats": self.seats,
        }


@dataclass(slots=True)
class SimulationStats:
    """The outcome of :func:`simulate`."""

    games: int
    seed: int
    players: tuple[str, ...]
    strategies: dict[str, StrategyStats] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "players": list(self.players),
            "strategies": {name: s.to_dict(self.games) for name, s in self.strategies.items()},
        }


def simulate(
    names: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    on_game: Callable[[Game, tuple[str, ...]], None] | None = None,
) -> SimulationStats:
    """Play ``games`` games between the named strategies, rotating seats:
    game ``i`` seats ``names`` rotated by ``i``.  ``on_game(game, seat_names)``
    is called after each game (for logs and progress)."""
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    (rules or Rules()).check_players(len(names))
    for name in names:
        make_player(name)  # unknown names fail before any game is played
    stats = SimulationStats(games=games, seed=seed, players=tuple(names))
    for name in names:
        stats.strategies.setdefault(name, StrategyStats())
    n = len(names)
    for i, game_seed in enumerate(game_seeds(seed, games)):
        seat_names = tuple(names[(seat + i) % n] for seat in range(n))
        players = [make_player(name, game_seed + 1 + seat) for seat, name in enumerate(seat_names)]
        game = play_game(players, seed=game_seed, rules=rules)
        winners = game.winners
        for seat, name in enumerate(seat_names):
            s = stats.strategies[name]
            s.seats += 1
            s.score_sum += game.totals[seat]
            s.rounds += len(game.history)
            s.went_out += sum(r.went_out == seat for r in game.history)
            if seat in winners:
                s.wins += 1 / len(winners)
        if on_game is not None:
            on_game(game, seat_names)
    return stats
