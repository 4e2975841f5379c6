"""``quiddler play``: a whole game against the computer in the terminal.

Parsing the options and setting up the game only; the game itself is a
:class:`~quiddler.play.session.Session`.  Bad options, and a save file that
cannot be resumed, are one ``Error: ...`` line and exit 2 (the file is left
as it was); Ctrl-C exits 130.
"""

from __future__ import annotations

import random
import signal
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import click

from ..game.engine import Game
from ..game.players import player_names
from ..game.rules import MAX_PLAYERS
from ..play.saves import HUMAN, check_resumable, hold_save, load_game, same_file
from ..play.screen import HUMAN_PACE, TABLE_PACE, Screen
from ..play.session import EXIT_INTERRUPTED, Session, StopSignal
from ..wordlist import WordList
from .errors import OneLineErrors
from .params import (
    RULE_OPTION_NAMES,
    PlayerNamesOption,
    rule_options,
    rules_from_options,
    seed_option,
    wordlist_option,
)

__all__ = ["play"]

LEVELS = ("easy", "medium", "hard")

_EPILOG = """\b
Examples:
  quiddler play                              one medium opponent, the official rules
  quiddler play --opponents 3 --level easy,medium,hard --save game.json
  quiddler play --resume game.json           continue a saved game
  quiddler play --rounds 3 --no-first-turn-out
  yes auto | quiddler play --seed 1          the computer plays your seat too (scripted)"""


def _levels(text: str, opponents: int | None) -> list[str]:
    names = [name.strip().lower() for name in text.split(",")]
    known = player_names()
    for name in names:
        if name not in known:
            raise click.BadParameter(f"unknown level: {name!r} (expected easy, medium or hard; "
                                     f"any of: {', '.join(known)})", param_hint="'--level'")  # fmt: skip
    if len(names) == 1:
        return names * (opponents if opponents is not None else 1)
    if opponents is not None and opponents != len(names):
        raise click.BadParameter(f"{len(names)} levels for {opponents} opponent{'' if opponents == 1 else 's'}",
                                 param_hint="'--level'")  # fmt: skip
    return names


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE


@click.command("play", cls=OneLineErrors, epilog=_EPILOG,
               short_help="Play a whole game against the computer.")  # fmt: skip
@click.option("--opponents", type=click.IntRange(1, MAX_PLAYERS - 1), default=None, metavar="N",
              help="How many computer players  [default: 1].")  # fmt: skip
@click.option("--level", "level_text", cls=PlayerNamesOption, default="medium", show_default=True,
              metavar="LEVEL", help="The computer player: easy, medium or hard, or any of {players}; "
                                    "a comma-separated list gives each opponent its own.")  # fmt: skip
@seed_option
@wordlist_option
@rule_options
@click.option("--save", "save_file", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="Save the game to PATH (JSON game record) after each of your turns and when you stop.")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="Continue the game saved in PATH (it keeps being saved there unless --save names another).")
@click.option("--pace", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help=f"Pause before each computer move (default: {HUMAN_PACE} on a terminal, 0 when scripted); "
                   f"the pauses between two of your prompts add up to {TABLE_PACE} at most.")
@click.option("--plain", is_flag=True, help="No colour, even on a terminal (also: the NO_COLOR variable).")
@click.pass_context
def play(ctx: click.Context, /, opponents: int | None, level_text: str, seed: int | None,
         wordlist: WordList | None, save_file: str | None, resume_file: str | None, pace: float | None,
         plain: bool, **rule_values: Any) -> None:  # fmt: skip
    """Play a whole game of Quiddler against one to seven computer players.

    Each turn shows the table; type pile or discard to draw, then discard
    CARD or go out by typing the words (go clingers by an do).  At any
    prompt: hint, auto (play the recommended move), help, score, quit.
    With input from a pipe, each line is one command.
    """
    resume_path = Path(resume_file) if resume_file is not None else None
    save_path = Path(save_file) if save_file is not None else resume_path
    try:
        with _stopping_on_signals(), ExitStack() as stack:
            # Everything about the save file is settled before the first move:
            # it can be written, and this game holds it until it ends.
            if resume_path is None:
                game, labels = _new_game(opponents, level_text, seed, wordlist, rule_values)
                if save_path is not None:
                    stack.enter_context(hold_save(save_path))
            else:
                _refuse_setup_options(ctx)
                resumed_here = save_path is not None and same_file(save_path, resume_path)
                if save_path is not None and resumed_here:
                    check_resumable(resume_path)  # a FIFO or device is refused before a lock is made beside it
                    stack.enter_context(hold_save(save_path, resumed=True))
                game, labels = _resumed(resume_path, wordlist)
                if save_path is not None and not resumed_here:
                    stack.enter_context(hold_save(save_path))
            screen = Screen.for_terminal(plain=plain, pace=pace)
            words = game.rules.words
            if not screen.plain and words.needs_indexing():
                screen.say(f"Indexing the word list {words.name} (once, a few seconds)...")
            status = Session(game, labels, screen, save_path).run()
    except KeyboardInterrupt:  # while setting up, before the session can save anything
        status = EXIT_INTERRUPTED
    except StopSignal as stop:
        status = stop.status
    ctx.exit(status)


#: The signals that stop a game as Ctrl-C does: ``kill``, and a terminal closed under it.
_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def _stopping_on_signals() -> Iterator[None]:
    """While open, SIGTERM and SIGHUP raise :class:`StopSignal` wherever the
    game is (a computer player's move, a prompt), so the game is saved and
    the save file's lock released, as after Ctrl-C, instead of the process
    ending at once.  A signal ignored when this begins (``nohup``) stays
    ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set in the main thread (a test runner's thread)
        return

    def stop(signum: int, _frame: object) -> None:
        raise StopSignal(signum)

    previous = {signum: signal.getsignal(signum) for signum in _STOP_SIGNALS}
    for signum, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(signum, stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def _new_game(opponents: int | None, level_text: str, seed: int | None, wordlist: WordList | None,
              rule_values: dict[str, Any]) -> tuple[Game, list[str]]:  # fmt: skip
    levels = _levels(level_text, opponents)
    rules = rules_from_options(wordlist, **rule_values)
    rules.check_players(len(levels) + 1)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return Game(len(levels) + 1, seed=seed, rules=rules), [HUMAN, *levels]


def _refuse_setup_options(ctx: click.Context) -> None:
    """With --resume, the options that set up a new game are refused (the save fixes them)."""
    fixed = ["opponents", "level_text", "seed", *RULE_OPTION_NAMES]
    for name in fixed:
        if _given(ctx, name):
            option = next(p for p in ctx.command.params if p.name == name)
            raise click.UsageError(f"--resume continues the saved game as it was set up: "
                                   f"drop {option.opts[0]}")  # fmt: skip


def _resumed(path: Path, wordlist: WordList | None) -> tuple[Game, list[str]]:
    game, labels = load_game(path, wordlist)
    return game, list(labels)
