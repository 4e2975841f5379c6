"""The rule-variant command-line options every game command shares.

``quiddler simulate`` and ``quiddler play`` take the same word list and
house-rule switches; they are declared once here so the two commands can
never drift apart.  :func:`rule_options` adds the options to a click
command, :func:`rules_from_options` turns their values into :class:`Rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..wordlist import WordList, load_wordlist
from .rules import Rules

__all__ = ["RULE_OPTION_NAMES", "rule_options", "rules_from_options"]

F = TypeVar("F", bound=Callable[..., Any])

_OFFICIAL_SIZES = Rules().round_sizes

_OPTIONS = (
    click.option("--wordlist", "wordlist_path", type=click.Path(dir_okay=False), default=None,
                 help="Word list file (default: ENABLE)."),
    click.option("--rounds", type=click.IntRange(1, len(_OFFICIAL_SIZES)), default=None, metavar="N",
                 help=f"Play only the first N rounds (3 to N+2 cards; default all {len(_OFFICIAL_SIZES)})."),
    click.option("--round-sizes", default=None, metavar="LIST",
                 help="Cards dealt in each round, e.g. 3,5,7 (one round per entry)."),
    click.option("--no-first-turn-out", is_flag=True, help="Variant: no going out on a player's first turn."),
    click.option("--no-bonuses", is_flag=True, help="Variant: no longest-word or most-words bonus."),
    click.option("--no-floor", is_flag=True, help="Variant: totals may go below zero."),
    click.option("--turn-limit", type=click.IntRange(min=1), default=Rules().turn_limit, show_default=True,
                 metavar="N", help="A round nobody goes out of ends once every player has taken N turns."),
)  # fmt: skip

#: The keyword arguments :func:`rule_options` adds to a command.
RULE_OPTION_NAMES = ("wordlist_path", "rounds", "round_sizes", "no_first_turn_out", "no_bonuses", "no_floor",
                     "turn_limit")


def rule_options(command: F) -> F:
    """Add the word list and rule-variant options to a click command."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def _parse_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        raise click.BadParameter(f"expected card counts such as 3,5,7, not {text!r}",
                                 param_hint="'--round-sizes'") from None  # fmt: skip
    return sizes


def rules_from_options(wordlist_path: str | None = None, rounds: int | None = None,
                       round_sizes: str | None = None, no_first_turn_out: bool = False,
                       no_bonuses: bool = False, no_floor: bool = False,
                       turn_limit: int = Rules().turn_limit) -> Rules:  # fmt: skip
    """The :class:`Rules` the options describe (a bad value raises ValueError
    or a click usage error, which the commands print as one line)."""
    if rounds is not None and round_sizes is not None:
        raise click.UsageError("give --rounds or --round-sizes, not both")
    sizes = _OFFICIAL_SIZES if rounds is None else _OFFICIAL_SIZES[:rounds]
    if round_sizes is not None:
        sizes = _parse_sizes(round_sizes)
    wordlist: WordList | None = load_wordlist(wordlist_path) if wordlist_path else None
    return Rules(
        round_sizes=sizes,
        wordlist=wordlist,
        no_going_out_first_turn=no_first_turn_out,
        longest_word_bonus=0 if no_bonuses else 10,
        most_words_bonus=0 if no_bonuses else 10,
        floor_at_zero=not no_floor,
        turn_limit=turn_limit,
    )
