"""The parameters several commands share, each defined once.

A hand is parsed by the :class:`Hand` type; ``--wordlist``, ``--json``,
``--seed`` and ``--progress`` mean the same thing, with the same metavar
and help, in every command that takes them; ``simulate`` and ``play`` take
the same rule options (:func:`rule_options`), turned into
:class:`~quiddler.game.rules.Rules` by :func:`rules_from_options`.

Conventions of the whole command line: a file is ``PATH``, a count or
another integer ``N``, a number range is checked by click's ``IntRange``
(one wording for every out-of-range error), and a list of player names in
a help text is read from the registry when the help is shown.

This module imports neither the game nor the solver at import time:
``quiddler solve`` uses it too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..errors import QuiddlerError

if TYPE_CHECKING:
    from ..cards import Card
    from ..game.rules import Rules
    from ..wordlist import WordList

__all__ = [
    "HAND",
    "RULE_OPTION_NAMES",
    "Hand",
    "OutputFile",
    "PlayerNamesOption",
    "cards_argument",
    "json_option",
    "missing",
    "progress_option",
    "rule_options",
    "rules_from_options",
    "seed_option",
    "wordlist_option",
]

F = TypeVar("F", bound=Callable[..., Any])


class Hand(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """Cards written as faces separated by commas and/or spaces (``qu,i th er``).

    With ``allow_empty``, a blank value is no cards rather than an error
    (``--seen ""``).  (The ignore above: recent click makes ``ParamType``
    generic, older click does not allow subscripting it.)
    """

    name = "cards"

    def __init__(self, allow_empty: bool = False) -> None:
        self.allow_empty = allow_empty

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[Card, ...]:
        if isinstance(value, tuple):
            return value
        from ..cards import parse_hand

        text = str(value)
        if self.allow_empty and not text.strip():
            return ()
        try:
            return parse_hand(text)
        except QuiddlerError as exc:
            self.fail(str(exc), param, ctx)


HAND = Hand()


def cards_argument(name: str = "cards", metavar: str = "CARDS", example: str | None = None) -> Callable[[F], F]:
    """A hand given as one or more arguments: ``qu,i th er`` is one hand of four cards.

    With an ``example`` (a whole command line) the hand is required, and a
    command given none says so with the example, as ``solve`` does when it
    gets neither a hand nor ``--batch``; without one it is optional."""

    def join(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[Card, ...] | None:
        if not values and example is not None and not ctx.resilient_parsing:
            raise click.UsageError(missing(metavar, example))
        if not values:
            return None
        try:
            return HAND.convert(" ".join(values), param, ctx)
        except click.BadParameter as exc:
            exc.param_hint = metavar
            raise

    shown = f"{metavar}..." if example is not None else f"[{metavar}...]"
    return click.argument(name, nargs=-1, callback=join, metavar=shown)


def missing(metavar: str, example: str) -> str:
    """What a command given no ``metavar`` says: what is missing, and an example."""
    return f"missing {metavar} (for example: {example})"


def _load_wordlist(ctx: click.Context, param: click.Parameter, path: str | None) -> WordList | None:
    """The --wordlist file, loaded and checked."""
    if path is None:
        return None
    from ..wordlist import load_wordlist

    try:
        return load_wordlist(path)
    except QuiddlerError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


wordlist_option = click.option(
    "--wordlist", type=click.Path(), callback=_load_wordlist, metavar="PATH",
    help="Word list file, one word per line (default: ENABLE, shipped with quiddler).",
)  # fmt: skip
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/json.md) instead of text.")
seed_option = click.option(
    "--seed", type=int, default=None, metavar="N",
    help="Seed of the random deals, to repeat a run exactly (default: random).",
)  # fmt: skip
progress_option = click.option(
    "--progress/--no-progress", default=None, help="Show progress on stderr (default: when stderr is a terminal)."
)


class PlayerNamesOption(click.Option):
    """An option whose help names the registered players (``{players}`` in
    the help), read from the registry each time the help is shown, so a
    player registered later is listed too."""

    @property
    def help(self) -> str | None:
        if self._help_template is None:
            return None
        from ..game.players import player_names

        return self._help_template.replace("{players}", ", ".join(player_names()))

    @help.setter
    def help(self, value: str | None) -> None:
        self._help_template = value


#: The keyword arguments :func:`rule_options` adds to a command.
RULE_OPTION_NAMES = ("rounds", "round_sizes", "no_first_turn_out", "no_bonuses", "no_floor", "turn_limit")


def rule_options(command: F) -> F:
    """Add the rule-variant options to a click command (``simulate``,
    ``play``), so those commands can never drift apart."""
    from ..game.rules import Rules

    official = Rules()
    rounds = len(official.round_sizes)
    options = (
        click.option("--rounds", type=click.IntRange(1, rounds), default=None, metavar="N",
                     help=f"Play only the first N rounds (3 to N+2 cards; default all {rounds})."),
        click.option("--round-sizes", default=None, metavar="LIST",
                     help="Cards dealt in each round, e.g. 3,5,7 (one round per entry)."),
        click.option("--no-first-turn-out", is_flag=True, help="Variant: no going out on a player's first turn."),
        click.option("--no-bonuses", is_flag=True, help="Variant: no longest-word or most-words bonus."),
        click.option("--no-floor", is_flag=True, help="Variant: totals may go below zero."),
        click.option("--turn-limit", type=click.IntRange(min=1), default=official.turn_limit, show_default=True,
                     metavar="N", help="A round nobody goes out of ends once every player has taken N turns."),
    )  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


def _parse_sizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        raise click.BadParameter(f"expected card counts such as 3,5,7, not {text!r}",
                                 param_hint="'--round-sizes'") from None  # fmt: skip


def rules_from_options(wordlist: WordList | None = None, rounds: int | None = None,
                       round_sizes: str | None = None, no_first_turn_out: bool = False,
                       no_bonuses: bool = False, no_floor: bool = False,
                       turn_limit: int | None = None) -> Rules:  # fmt: skip
    """The :class:`Rules` the options describe (a bad value raises ValueError
    or a click usage error, which the commands print as one line)."""
    from ..game.rules import Rules

    official = Rules()
    if rounds is not None and round_sizes is not None:
        raise click.UsageError("give --rounds or --round-sizes, not both")
    sizes = official.round_sizes if rounds is None else official.round_sizes[:rounds]
    if round_sizes is not None:
        sizes = _parse_sizes(round_sizes)
    return Rules(
        round_sizes=sizes,
        wordlist=wordlist,
        no_going_out_first_turn=no_first_turn_out,
        longest_word_bonus=0 if no_bonuses else 10,
        most_words_bonus=0 if no_bonuses else 10,
        floor_at_zero=not no_floor,
        turn_limit=official.turn_limit if turn_limit is None else turn_limit,
    )


class OutputFile(click.File):
    """A file to write as the command goes (``-``: stdout), checked when the
    option is read, before any work: a directory, a FIFO (which would hang
    the first write until something reads it), a device, a loop of links
    or a folder where no file can be made is one error line at once.  The
    file is opened, and emptied, at the first write (as click's lazy files
    are), so a command refused for another reason leaves it as it was."""

    def __init__(self) -> None:
        super().__init__("w", lazy=True)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, (str, os.PathLike)) and os.fspath(value) != "-":
            from ..files import check_writable

            try:
                check_writable(os.fspath(value))
            except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
                self.fail(str(exc), param, ctx)
        return super().convert(value, param, ctx)
