"""``quiddler simulate``: many complete games between named strategies.

Parsing and printing only; the games are played by
:func:`quiddler.game.runner.simulate`.  The ``quiddler`` group loads this
command lazily, and it also works on its own (errors stay one line, exit 2).
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

import click

from ..errors import QuiddlerError
from ..solver._backends import show_notices
from .engine import Game
from .options import rule_options, rules_from_options
from .players import player_names
from .record import game_record
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .runner import simulate as run_simulation

__all__ = ["simulate"]

_EPILOG = """\b
Examples:
  quiddler simulate --players greedy,random --games 1000 --seed 1
  quiddler simulate --players greedy,greedy,random,random --json
  quiddler simulate --players random,random --games 10 --log games.jsonl"""


class _InputError(click.ClickException):
    """Printed as the single line ``Error: ...``; exit code 2."""

    exit_code = 2


class _OneLineErrors(click.Command):
    """click prints usage text above a usage error; we print one line."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:  # fmt: skip
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise _InputError(exc.format_message()) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.UsageError, click.FileError) as exc:  # FileError: `--log DIR` is opened lazily
            raise _InputError(exc.format_message()) from None
        except (QuiddlerError, ValueError) as exc:
            raise _InputError(str(exc)) from None


def _parse_players(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",")]
    if any(not name for name in names):
        raise _InputError(f"empty strategy name in --players {text!r}")
    known = player_names()
    for name in names:
        if name not in known:
            raise _InputError(f"unknown strategy: {name!r} (expected one of: {', '.join(known)})")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _InputError(f"quiddler needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    return names


@click.command(cls=_OneLineErrors, epilog=_EPILOG)
@click.option("--players", "players_text", default="greedy,random", show_default=True, metavar="NAMES",
              help="Comma-separated strategy per seat (2 to 8): greedy, random.")  # fmt: skip
@click.option("--games", "-n", type=int, default=100, show_default=True, help="Complete games to play.")
@click.option("--seed", type=int, default=None, help="Seed for reproducible games (default: random).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--log", "log_file", type=click.File("w"), default=None, metavar="FILE",
              help="Write one replayable JSON game record per line.")  # fmt: skip
@rule_options
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on stderr (default: when stderr is a terminal).")  # fmt: skip
def simulate(players_text: str, games: int, seed: int | None, as_json: bool, log_file: IO[str] | None,
             progress: bool | None, **rule_values: Any) -> None:  # fmt: skip
    """Play complete games between strategies and report, per strategy,
    wins (a shared win counts 1/k), win rate, mean final score and
    going-out rate.  Seats rotate between games."""
    show_notices()  # the solver's compile notice, on stderr (once per install)
    names = _parse_players(players_text)
    if games < 1:
        raise _InputError(f"--games must be at least 1, not {games}")
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(2**31)
    rules = rules_from_options(**rule_values)
    show = progress if progress is not None else sys.stderr.isatty()
    bar = click.progressbar(length=games, label="games", file=sys.stderr) if show else None

    def after_game(game: Game, seat_names: tuple[str, ...]) -> None:
        if log_file is not None:
            log_file.write(json.dumps(game_record(game, seat_names), separators=(",", ":")) + "\n")
        if bar is not None:
            bar.update(1)

    try:
        stats = run_simulation(names, games, seed=seed, rules=rules, on_game=after_game)
    finally:
        if bar is not None:
            bar.render_finish()
    if as_json:
        click.echo(json.dumps(stats.to_dict()))
        return
    click.echo(f"{games} games, seed {seed}, players {','.join(names)} (seats rotated)")
    click.echo(f"{'strategy':<10} {'wins':>9} {'win rate':>9} {'mean score':>11} {'going out':>10}")
    for name, s in stats.strategies.items():
        d = s.to_dict(games)
        click.echo(f"{name:<10} {d['wins']:>9.1f} {d['win_rate']:>9.1%} {d['mean_score']:>11.1f} "
                   f"{d['going_out_rate']:>10.1%}")  # fmt: skip
