"""Planned games: what fixes one game of a simulation, playing it, and the
small result that is kept of it.

A simulation is planned before anything is played: game ``i`` gets a deal
seed and a seat rotation (:func:`plan_games`; :class:`GamePlans` makes the
same plans one at a time as they are played, so a run of a billion games
holds no more of its plan than a run of ten), and :func:`play_planned`
plays one planned game anywhere (this process, a worker process, a Dask
worker) to a :class:`GameResult`.  Both the runner (:mod:`.runner`) and
the worker processes (:mod:`.workers`) build on this module, and the
runner alone imports the workers.

Seats are rotated from game to game so that no player keeps the seat
advantage (seat 0 deals first, so seat 1 plays first in round 1).  With
paired deals (the default) the games come in groups of as many games as
there are seats that share one deal seed, each with the seats rotated
once more: every player plays every seat's cards, which cancels much of
the luck of the deal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from ..errors import ArgumentTypeError, shown
from .engine import Game
from .players import Player, make_player
from .record import game_record_text
from .rules import Rules
from .state import Action, Phase

__all__ = ["GamePlan", "GamePlans", "GameResult", "Plans", "game_seeds", "next_action", "plan_games", "play_game", "play_planned"]


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
    r"""Play a complete game; the finished :class:`Game` holds the totals,
    every round result and the log a record is made of.

    :param players: One player per seat, seat 0 first.
    :param seed: The game's seed; None: a random one (kept in ``game.seed``).
    :param rules: The rules; None: the default :class:`Rules`.
    :returns: The game, over.
    :raises ArgumentTypeError: ``players`` is not a sequence of :class:`Player` objects.
    :raises RulesError: The rules do not allow this many players.
    :raises IllegalActionError: A player chose an illegal action.
    """
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ArgumentTypeError(f"players must be a sequence of players, not {shown(players)}")
    for seat, player in enumerate(players):
        if not isinstance(player, Player):
            hint = f" (make_player({player!r}) makes one)" if isinstance(player, str) else ""
            raise ArgumentTypeError(f"players[{seat}] must be a Player{hint}, not {shown(player)}")
    game = Game(len(players), seed=seed, rules=rules)
    while not game.over:
        game.apply(next_action(game, players))
    return game


def game_seeds(seed: int, games: int) -> Iterator[int]:
    """The per-game (or, with paired deals, per-group) seeds a simulation with ``seed`` uses, in order."""
    rng = random.Random(seed)
    for _ in range(games):
        yield rng.getrandbits(63)


@dataclass(frozen=True, slots=True)
class GamePlan:
    """One game of a simulation: everything that fixes it besides the players and rules."""

    index: int  #: position in the simulation, from 0
    seed: int  #: the game's seed (its deals); shared by the games of a paired group
    rotation: int  #: seat ``s`` is played by player ``names[(s + rotation) % len(names)]``

    def seat_names(self, names: Sequence[str]) -> tuple[str, ...]:
        n = len(names)
        return tuple(names[(seat + self.rotation) % n] for seat in range(n))


@dataclass(frozen=True, slots=True)
class GamePlans:
    """The plan of :func:`plan_games`, made one game at a time as it is
    iterated (memory stays flat for any number of games); ``len()`` is the
    number of games, and :meth:`skip` drops the first ones (those already
    played)."""

    seed: int
    games: int
    players: int
    paired: bool = True
    start: int = 0  #: games skipped from the front

    def __len__(self) -> int:
        return max(0, self.games - self.start)

    def skip(self, count: int) -> GamePlans:
        """The same plan without its next ``count`` games."""
        return GamePlans(self.seed, self.games, self.players, self.paired, self.start + count)

    def __iter__(self) -> Iterator[GamePlan]:
        return islice(self._all(), self.start, None)

    def _all(self) -> Iterator[GamePlan]:
        n = self.players
        if not self.paired:
            for i, seed in enumerate(game_seeds(self.seed, self.games)):
                yield GamePlan(i, seed, i % n)
            return
        for group, seed in enumerate(game_seeds(self.seed, -(-self.games // n))):
            for rotation in range(min(n, self.games - group * n)):
                yield GamePlan(group * n + rotation, seed, rotation)


#: Planned games as the runner hands them on: a list, or made as they are read.
Plans = Sequence[GamePlan] | GamePlans


def plan_games(seed: int, games: int, players: int, *, paired: bool = True) -> list[GamePlan]:
    """The plan of a simulation of ``games`` games at a table of ``players``.

    Game ``i`` rotates the seats by ``i``.  Paired: games ``k*g .. k*g+k-1``
    (``k`` players) share the ``g``-th seed of :func:`game_seeds`, so each
    player gets each seat's deal once (a last group may be incomplete).
    Unpaired: game ``i`` has the ``i``-th seed.

    >>> [(p.seed % 1000, p.rotation) for p in plan_games(1, 4, 2)]
    [(517, 0), (517, 1), (607, 0), (607, 1)]
    """
    return list(GamePlans(seed, games, players, paired))


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a simulation keeps of one finished game (small, so workers can send it back).

    :ivar index: The game's number in the simulation, from 0.
    :ivar seat_names: The player name at each seat.
    :ivar totals: Each seat's final total.
    :ivar winners: The seats with the highest total (more than one on a tie).
    :ivar went_out: Per round, the seat that went out, or None.
    :ivar record: The game record as one line of JSON, when the simulation
        asked for records, else None.
    """

    index: int
    seat_names: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    went_out: tuple[int | None, ...]  #: per round, the seat that went out
    record: str | None = None  #: the game record as one line of JSON, when asked for


def play_planned(names: Sequence[str], plan: GamePlan, rules: Rules | None = None, *,
                 record: bool = False) -> GameResult:  # fmt: skip
    """Play one planned game.  Seat ``s``'s player is seeded ``plan.seed + 1 + s``."""
    seat_names = plan.seat_names(names)
    players = [make_player(name, plan.seed + 1 + seat) for seat, name in enumerate(seat_names)]
    game = play_game(players, seed=plan.seed, rules=rules)
    text = game_record_text(game, seat_names) if record else None
    return GameResult(
        index=plan.index,
        seat_names=seat_names,
        totals=game.totals,
        winners=game.winners,
        went_out=tuple(r.went_out for r in game.history),
        record=text,
    )
