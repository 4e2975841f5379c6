"""Many games between computer players, and the statistics behind
``quiddler simulate``.

:func:`simulate` plans its games (:mod:`.plans`, one at a time as they
are played), plays them here or
in worker processes (:mod:`.workers`, imported only when they are used),
and sums the results in game order, so the statistics are the same however
the games were spread.  The planned-game names are re-exported here for
callers that know them from this module.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Self

from ..errors import ArgumentTypeError, InvalidArgumentError, QuiddlerError, shown
from ..solver import usable_cores as available_cores
from ..thresholds import FORKED_WORKER_START_SECONDS, GAMES_PER_WORKER, WORKER_START_SECONDS
from .plans import (
    GamePlan,
    GamePlans,
    GameResult,
    game_seeds,
    next_action,
    plan_games,
    play_game,
    play_planned,
)
from .players import make_player
from .rules import Rules

__all__ = [
    "GamePlan",
    "GamePlans",
    "GameResult",
    "PlayerStats",
    "SimulationInterrupted",
    "SimulationStats",
    "game_seeds",
    "next_action",
    "plan_games",
    "play_game",
    "play_planned",
    "simulate",
    "wilson_interval",
]


# -- statistics -------------------------------------------------------------------

_Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); shared
    wins make ``successes`` fractional, which the formula takes as it is.

    >>> [round(x, 4) for x in wilson_interval(60, 100)]
    [0.502, 0.6906]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / trials + z2 / (4 * trials * trials))) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class PlayerStats:
    """Totals for one player over a simulation (summed over its seats), and
    the figures made of them: :attr:`win_rate` with its :attr:`ci95`,
    :attr:`mean_score`, :attr:`sd_score` and :attr:`going_out_rate`, named
    as in :meth:`to_dict` (the ``--json`` output).

    :ivar seats: Seat-games played: games times the seats it held in each.
    :ivar wins: Games won; a win shared by k players counts 1/k.
    :ivar score_sum: The sum of its seats' final scores.
    :ivar score_squares: The sum of their squares (for the standard deviation).
    :ivar rounds: The rounds its seats played.
    :ivar went_out: The rounds in which it went out.
    """

    seats: int = 0  #: seat-games played (games x seats with this player)
    wins: float = 0.0  #: a win shared by k players counts 1/k
    score_sum: int = 0
    score_squares: int = 0  #: sum of squared final scores (for the standard deviation)
    rounds: int = 0
    went_out: int = 0
    #: Games this player took part in (once per game, however many seats it had).
    games: int = 0

    @property
    def score_sd(self) -> float:
        """Sample standard deviation of the final scores of its seats."""
        if self.seats < 2:
            return 0.0
        variance = (self.score_squares - self.score_sum * self.score_sum / self.seats) / (self.seats - 1)
        return math.sqrt(max(0.0, variance))

    @property
    def sd_score(self) -> float:
        """:attr:`score_sd` under its name in :meth:`to_dict`."""
        return self.score_sd

    @property
    def win_rate(self) -> float:
        """Wins per game played (shared wins counted 1/k)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`win_rate`."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean final score of its seats."""
        return self.score_sum / self.seats if self.seats else 0.0

    @property
    def going_out_rate(self) -> float:
        """Share of its seats' rounds that it went out of."""
        return self.went_out / self.rounds if self.rounds else 0.0

    def to_dict(self, games: int | None = None) -> dict[str, Any]:
        """The player's row of ``quiddler simulate --json`` (see
        [JSON shapes](../json.md#command-line)).

        :param games: The games the win rate is per (default: the games
            counted here).
        :returns: Wins, win rate with its 95% interval, mean and standard
            deviation of the score, going-out rate and seats.
        """
        games = self.games if games is None else games
        low, high = wilson_interval(self.wins, games)
        return {
            "wins": round(self.wins, 6),
            "win_rate": round(self.wins / games, 6) if games else 0.0,
            "ci95": [round(low, 6), round(high, 6)],
            "mean_score": round(self.mean_score, 3),
            "sd_score": round(self.score_sd, 3),
            "going_out_rate": round(self.going_out_rate, 6),
            "seats": self.seats,
        }


@dataclass(slots=True)
class SimulationStats:
    """The outcome of :func:`simulate`: totals over the games played so far.

    ``games`` counts the games added; when a simulation is interrupted,
    ``partial`` is true and ``requested`` says how many were asked for.

    :ivar games: The games counted so far.
    :ivar seed: The simulation's seed: the same seed plays the same games.
    :ivar players: The player names, one per seat, as given.
    :ivar paired: Whether the deals were paired (each player gets each seat's
        deal once in every group of games).
    :ivar requested: The games asked for.
    :ivar partial: Whether the simulation was interrupted before all of them.
    """

    games: int
    seed: int
    players: tuple[str, ...]
    #: per player name (named like the JSON's ``strategies`` key, a contract)
    strategies: dict[str, PlayerStats] = field(default_factory=dict)
    paired: bool = True
    requested: int = 0
    partial: bool = False

    def add(self, result: GameResult) -> None:
        """Count one finished game (results must come in game order for
        sums of fractional wins to be exactly reproducible).

        :param result: The game's result.
        """
        winners = result.winners
        for name in dict.fromkeys(result.seat_names):  # once per game, in seat order
            self.strategies.setdefault(name, PlayerStats()).games += 1
        for seat, name in enumerate(result.seat_names):
            s = self.strategies.setdefault(name, PlayerStats())
            s.seats += 1
            s.score_sum += result.totals[seat]
            s.score_squares += result.totals[seat] ** 2
            s.rounds += len(result.went_out)
            s.went_out += sum(out == seat for out in result.went_out)
            if seat in winners:
                s.wins += 1 / len(winners)
        self.games += 1

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``quiddler simulate --json`` prints (see
        [JSON shapes](../json.md#command-line)).

        :returns: The totals, with one row per player under ``strategies``.
        """
        data = {
            "games": self.games,
            "seed": self.seed,
            "players": list(self.players),
            "paired": self.paired,
            "partial": self.partial,
            "strategies": {name: s.to_dict(self.games) for name, s in self.strategies.items()},
        }
        if self.partial:
            data["requested"] = self.requested
        return data


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, SIGHUP) during :func:`simulate`: ``stats`` holds
    the games finished (in game order, each also passed to ``on_game``),
    marked partial; ``signal`` is the signal that stopped it.

    :param stats: The statistics of the games finished.
    :param signum: The signal that stopped it (SIGINT for Ctrl-C).
    :ivar stats: The statistics of the games finished, ``partial`` true.
    :ivar signal: The signal that stopped it.
    """

    def __init__(self, stats: SimulationStats, signum: int = signal.SIGINT) -> None:
        super().__init__(f"interrupted after {stats.games} of {stats.requested} games")
        self.stats = stats
        self.signal = signum


# -- running a simulation -----------------------------------------------------------


def simulate(
    names: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    rules: Rules | None = None,
    paired: bool = True,
    workers: int | Literal["auto"] = 1,
    client: Any = None,
    records: bool = False,
    on_game: Callable[[GameResult], None] | None = None,
) -> SimulationStats:
    """Play ``games`` games between the named players and total them per player.

    The plan (:func:`plan_games`) fixes every game, so the statistics and
    records are the same whatever runs them: this process
    (``workers=1``), ``workers`` worker processes (forked on Linux when
    this process runs no other Python thread, else spawned; at most one per 8
    games), every core when the games are long enough to repay starting
    workers (``workers="auto"``: the first games are played here and
    timed), or the workers of a ``dask.distributed`` ``client``.
    ``on_game(result)`` is called for each game in game order
    (``result.record`` holds its JSON record when ``records`` is true).

    Ctrl-C (and, run from the main thread, SIGTERM or SIGHUP: ``kill``, a
    closed terminal) stops at the next finished game, ends the worker
    processes, and raises :class:`SimulationInterrupted` (a
    KeyboardInterrupt) carrying the statistics of the games passed to
    ``on_game`` so far.  The games are planned as they are played, so
    memory does not grow with ``games``.

    :param names: The players, one per seat, by registered name
        (:func:`~quiddler.game.player_names`); a name may repeat.
    :param games: How many games, at least 1.
    :param seed: Fixes every game: the same seed gives the same statistics.
    :param rules: The rules; None: the default :class:`~quiddler.game.Rules`.
    :param paired: Deal each group of ``len(names)`` games the same cards,
        the seats rotated, so each player gets each seat's deal once.
    :param workers: Worker processes, or ``"auto"``.
    :param client: A ``dask.distributed`` client to play the games on, or None.
    :param records: Give each result its game's JSON record.
    :param on_game: Called with each :class:`GameResult`, in game order.
    :returns: The totals per player.
    :raises ArgumentTypeError: An argument has the wrong type.
    :raises InvalidArgumentError: ``games`` or ``workers`` is below 1.
    :raises RulesError: The rules do not allow this many players.
    :raises UnknownPlayerError: A name is not registered.
    :raises SimulationInterrupted: Ctrl-C, SIGTERM or SIGHUP stopped the simulation.
    """
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise ArgumentTypeError(f"names must be a sequence of player names, not {shown(names)}")
    if isinstance(games, bool) or not isinstance(games, int):
        raise ArgumentTypeError(f"games must be an integer, not {shown(games)}")
    if games < 1:
        raise InvalidArgumentError(f"the number of games must be at least 1, not {games}")
    if workers != "auto" and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InvalidArgumentError(f"workers must be 'auto' or at least 1, not {shown(workers)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentTypeError(f"seed must be an integer, not {shown(seed)}")
    rules = rules if rules is not None else Rules()
    if not isinstance(rules, Rules):
        raise ArgumentTypeError(f"rules must be a Rules, not {shown(rules)}")
    try:
        rules.check_players(len(names))
    except QuiddlerError:
        raise
    except ValueError as exc:
        raise InvalidArgumentError(str(exc)) from None
    for name in names:
        make_player(name)  # unknown names fail before any game is played
    stats = SimulationStats(games=0, seed=seed, players=tuple(names), paired=paired, requested=games)
    for name in names:
        stats.strategies.setdefault(name, PlayerStats())
    plans = GamePlans(seed, games, len(names), paired)
    with _StopOnInterrupt() as stop:
        try:
            for result in _results(names, plans, rules, workers, client, records, stop):
                stats.add(result)
                if on_game is not None:
                    on_game(result)
                if stop.requested:
                    break
        except KeyboardInterrupt:
            stop.requested = True
    if stop.requested and stats.games < games:
        stats.partial = True
        raise SimulationInterrupted(stats, stop.signal)
    return stats


def _results(names: Sequence[str], plans: GamePlans, rules: Rules, workers: int | Literal["auto"],
             client: Any, records: bool, stop: _StopOnInterrupt) -> Iterator[GameResult]:  # fmt: skip
    """Every planned game's result, in game order, from wherever it is played."""
    if client is not None:
        from .workers import dask_results

        yield from dask_results(client, names, plans, rules, records, stop)
        return
    done = 0
    if workers == "auto":
        workers = available_cores()
        if workers > 1:
            done = yield from _play_while_cheap(names, plans, rules, records, stop, workers)
    rest = plans.skip(done)
    processes = min(workers, -(-len(rest) // GAMES_PER_WORKER))
    if processes <= 1:
        for plan in rest:
            if stop.requested:
                return
            yield play_planned(names, plan, rules, record=records)
    elif not stop.requested:
        from .workers import process_results

        yield from process_results(processes, names, rest, rules, records, stop)


def _play_while_cheap(names: Sequence[str], plans: GamePlans, rules: Rules, records: bool,
                      stop: _StopOnInterrupt, workers: int) -> Generator[GameResult, None, int]:  # fmt: skip
    """``workers="auto"``: play games here while they show whether the rest
    repays starting worker processes (what a start costs is in
    :mod:`quiddler.thresholds`); return how many were played.  The first
    game is not timed (it loads the solver)."""
    spent = 0.0
    for done, plan in enumerate(plans):
        if stop.requested:
            return done
        started = time.perf_counter()
        yield play_planned(names, plan, rules, record=records)
        if done == 0:
            continue
        spent += time.perf_counter() - started
        if done >= 3 or spent >= 0.25:
            rest = (len(plans) - done - 1) * spent / done
            if rest * (1 - 1 / workers) > _worker_start_seconds():
                return done + 1  # worth it: the workers take the rest
    return len(plans)


def _worker_start_seconds() -> float:
    from .workers import start_method

    return FORKED_WORKER_START_SECONDS if start_method() == "fork" else WORKER_START_SECONDS


#: The signals that stop a simulation cleanly: Ctrl-C, ``kill PID``, a closed terminal.
_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class _StopOnInterrupt:
    """While active (main thread only), the first Ctrl-C, SIGTERM or SIGHUP
    asks the simulation to stop after the game in hand instead of raising
    mid-game (the worker processes are then ended and whatever was logged
    stays whole games); a second one raises KeyboardInterrupt at once.
    ``signal`` is the first signal received."""

    def __init__(self) -> None:
        self.requested = False
        self.signal: int = signal.SIGINT
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        self.signal = signum

    def __enter__(self) -> Self:
        if threading.current_thread() is threading.main_thread():
            for signum in _STOP_SIGNALS:
                previous = signal.getsignal(signum)
                if signum != signal.SIGINT and previous == signal.SIG_IGN:
                    continue  # nohup: a closed terminal is meant not to stop the run
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
