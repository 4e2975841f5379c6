"""``quiddler simulate``: many complete games between named strategies.

Parsing and printing only; the games are played by
:func:`quiddler.game.runner.simulate`.  ``--workers`` are processes (or
Dask workers); ``odds``, which runs in threads, calls its own ``--threads``.
"""

from __future__ import annotations

import json
import math
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import IO, Any, Literal

import click

from ..game.players import player_names
from ..game.rules import MAX_PLAYERS, MIN_PLAYERS
from ..game.runner import GameResult, SimulationInterrupted, SimulationStats
from ..game.runner import simulate as run_simulation
from ..solver import show_notices
from ..solver import usable_cores as available_cores
from ..wordlist import WordList
from .errors import InputError, OneLineErrors
from .params import (
    OutputFile,
    PlayerNamesOption,
    json_option,
    progress_option,
    rule_options,
    rules_from_options,
    seed_option,
    wordlist_option,
)

__all__ = ["simulate"]

_EPILOG = """\b
Examples:
  quiddler simulate --players greedy,random --games 1000 --seed 1
  quiddler simulate --players greedy,greedy,random,random --json
  quiddler simulate --players random,random --games 10 --log games.jsonl
  quiddler simulate --games 100000 --workers 2 --progress
  quiddler simulate --games 1000000 --scheduler tcp://scheduler:8786"""


class _Seconds(click.FloatRange):
    """A positive, finite number of seconds: ``nan`` passes a range check
    (it compares false with everything) and ``inf`` is no timeout at all."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        return seconds


def _parse_players(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",")]
    if any(not name for name in names):
        raise InputError(f"empty strategy name in --players {text!r}")
    known = player_names()
    for name in names:
        if name not in known:
            raise InputError(f"unknown strategy: {name!r} (expected one of: {', '.join(known)})")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InputError(f"quiddler needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    return names


@click.command("simulate", cls=OneLineErrors, epilog=_EPILOG,
               short_help="Play many games between strategies; win rates and more.")  # fmt: skip
@click.option("--players", "players_text", cls=PlayerNamesOption, default="greedy,random", show_default=True,
              metavar="NAMES", help=f"Comma-separated strategy per seat ({MIN_PLAYERS} to {MAX_PLAYERS}), "
                                    "e.g. greedy,random; one of: {players}.")  # fmt: skip
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True, metavar="N",
              help="Complete games to play.")  # fmt: skip
@seed_option
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (default: every core, once the first games show the run is long "
                   "enough to repay starting them; 1 = in this process). With --dask: the LocalCluster's "
                   "workers (default: every core).")  # fmt: skip
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run the games on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786).")  # fmt: skip
@click.option("--scheduler-timeout", type=_Seconds(min=0, min_open=True), default=10.0, show_default=True,
              metavar="SECONDS", help="How long to try to reach the --scheduler.")  # fmt: skip
@click.option("--dask", "local_dask", is_flag=True,
              help="Run the games as Dask tasks on a LocalCluster on this machine.")  # fmt: skip
@click.option("--paired/--unpaired", default=True, show_default=True,
              help="Paired deals: each group of as many games as players shares one deal, seats rotated.")  # fmt: skip
@json_option
@click.option("--log", "log_file", type=OutputFile(), default=None, metavar="PATH",
              help="Write one replayable JSON game record per line, in game order.")  # fmt: skip
@wordlist_option
@rule_options
@progress_option
@click.pass_context
def simulate(ctx: click.Context, /, players_text: str, games: int, seed: int | None, workers: int | None,
             scheduler: str | None, scheduler_timeout: float, local_dask: bool, paired: bool, as_json: bool,
             log_file: IO[str] | None, wordlist: WordList | None, progress: bool | None,
             **rule_values: Any) -> None:  # fmt: skip
    """Play complete games between strategies and report, per strategy,
    wins (a shared win counts 1/k), win rate with its 95% (Wilson)
    interval, mean and standard deviation of final scores, and going-out
    rate.  Seats rotate between games; with paired deals (the default) each
    group of as many games as players shares one deal.

    Games are split into chunks played by worker processes (or Dask
    workers); the results and the log are the same whatever runs them.
    Ctrl-C stops early: the statistics of the games finished so far are
    printed, marked partial, the log holds exactly those games, and the
    exit code is 130.
    """
    starting = "interrupted while starting: no games played"
    with _said_at_ctrl_c(starting):
        show_notices()  # the solver's compile notice, on stderr (once per install)
        names = _parse_players(players_text)
        if scheduler is not None and local_dask:
            raise InputError("give either --scheduler ADDRESS or --dask, not both")
        if scheduler is not None and not scheduler.strip():
            raise InputError("--scheduler needs an address, such as tcp://host:8786")
        if seed is None:
            import random

            seed = random.SystemRandom().randrange(2**31)
        rules = rules_from_options(wordlist, **rule_values)
        rules.check_players(len(names))
    count: int | Literal["auto"] = workers if workers is not None else "auto"
    show = progress if progress is not None else sys.stderr.isatty()
    stopped_by: int = signal.SIGINT
    with ExitStack() as stack:
        client = None
        if scheduler is not None or local_dask:
            where = f"connecting to the Dask scheduler at {scheduler}" if scheduler is not None \
                else "starting a local Dask cluster"  # fmt: skip
            with _said_at_ctrl_c(f"interrupted while {where}: no games played"):
                from ..game.workers import dask_client

                cluster_size = workers if workers is not None else available_cores()
                client = stack.enter_context(dask_client(scheduler, cluster_size, timeout=scheduler_timeout))
        with _said_at_ctrl_c(starting):
            bar = stack.enter_context(_progress_bar(games, show))

        def after_game(result: GameResult) -> None:
            if log_file is not None and result.record is not None:
                log_file.write(result.record + "\n")
                log_file.flush()  # the log always holds whole games, in order (Ctrl-C, tail -f)
            bar.update(1)

        try:
            stats = run_simulation(names, games, seed=seed, rules=rules, paired=paired, workers=count,
                                   client=client, records=log_file is not None, on_game=after_game)  # fmt: skip
        except SimulationInterrupted as stop:
            stats, stopped_by = stop.stats, stop.signal
    if log_file is not None:
        log_file.flush()
    _print_stats(stats, names, as_json)
    if stats.partial:
        how = "interrupted" if stopped_by == signal.SIGINT else f"stopped by {signal.Signals(stopped_by).name}"
        click.echo(f"{how}: {stats.games} of {_games(games)} played", err=True)
        ctx.exit(128 + stopped_by)  # 130 for Ctrl-C, as a shell reports a signal


def _games(count: int) -> str:
    """``1 game``, ``2 games``."""
    return f"{count} game{'' if count == 1 else 's'}"


@contextmanager
def _said_at_ctrl_c(message: str) -> Iterator[None]:
    """Ctrl-C before the first game (the run itself reports its own) is
    ``message`` on stderr and exit code 130."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(message, err=True)
        raise click.exceptions.Exit(130) from None


class _NoBar:
    def update(self, n: int) -> None:
        pass


#: What the bar shows until its rate means something: no rate, no time left.
_SETTLING_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}, estimating the time left]"
#: Games played, and seconds passed, after the solver settles (the compiled
#: kernels in use, or none coming) before a rate is shown: the auto backend
#: decides within its first second of solving whether to compile.
_SETTLING_GAMES = 3
_SETTLING_SECONDS = 2.0


class _AboveBar:
    """Stands in for ``sys.stderr`` while the bar is drawn: whole lines
    written to it (the solver's notices) are printed above the bar with
    ``tqdm.write`` instead of into it.  It also watches those notices:
    while the kernels compile, games are solved in pure Python and the rate
    says nothing about the rest of the run, so the bar shows no time left
    until the compiled kernels have played a few games."""

    def __init__(self, bar: Any, real: Any) -> None:
        self.bar = bar
        self.real = real
        self.pending = ""
        self.compiling = False
        self.settled_at: tuple[int, float] | None = None

    def write(self, text: str) -> int:
        self.pending += text
        while "\n" in self.pending:
            line, self.pending = self.pending.split("\n", 1)
            if "compiling the solver kernels" in line:
                self.compiling, self.settled_at = True, None
                self.bar.bar_format = _SETTLING_FORMAT
            elif self.compiling and ("compiled" in line or "failed" in line or "cannot" in line):
                self.compiling, self.settled_at = False, None
            self.bar.write(line, file=self.real)
        return len(text)

    def flush(self) -> None:
        self.real.flush()

    def isatty(self) -> bool:
        return bool(self.real.isatty())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def after_game(self) -> None:
        if self.compiling:
            return
        now = time.monotonic()
        if self.settled_at is None:
            self.settled_at = (self.bar.n, now)
        games, since = self.settled_at
        if self.bar.bar_format is not None and self.bar.n - games >= _SETTLING_GAMES \
                and now - since >= _SETTLING_SECONDS:  # fmt: skip
            self.bar.bar_format = None  # tqdm's own: rate and time left


@contextmanager
def _progress_bar(games: int, show: bool) -> Iterator[Any]:
    """tqdm on stderr (games done, rate, time left once the rate settles),
    with notices printed above it, or nothing."""
    if not show:
        yield _NoBar()
        return
    from tqdm import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        # No monitor thread: a process running no other thread can fork its
        # worker processes (see quiddler.game.workers.start_method).
        monitor_interval = 0

        def update(self, n: int = 1) -> Any:
            shown = super().update(n)
            watcher.after_game()
            return shown

    real = sys.stderr
    with Bar(total=games, desc="games", unit="game", file=real, dynamic_ncols=True,
             bar_format=_SETTLING_FORMAT) as bar:  # fmt: skip
        watcher = _AboveBar(bar, real)
        sys.stderr = watcher
        try:
            yield bar
        finally:
            sys.stderr = real


def _print_stats(stats: SimulationStats, names: list[str], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(stats.to_dict()))
        return
    pairing = "paired deals" if stats.paired else "unpaired deals"
    head = f"{_games(stats.games)}, seed {stats.seed}, players {','.join(names)} (seats rotated, {pairing})"
    if stats.partial:
        head = f"PARTIAL (interrupted): {stats.games} of {_games(stats.requested)}, seed {stats.seed}, " \
               f"players {','.join(names)} ({pairing})"  # fmt: skip
    click.echo(head)
    click.echo(f"{'strategy':<12} {'wins':>8} {'win rate':>9} {'95% interval':>15} {'mean score':>11} "
               f"{'sd':>7} {'going out':>10}")  # fmt: skip
    for name, s in stats.strategies.items():
        d = s.to_dict(stats.games)
        low, high = d["ci95"]
        interval = f"{low:.1%}-{high:.1%}"
        click.echo(f"{name:<12} {d['wins']:>8.1f} {d['win_rate']:>9.1%} {interval:>15} {d['mean_score']:>11.1f} "
                   f"{d['sd_score']:>7.1f} {d['going_out_rate']:>10.1%}")  # fmt: skip
