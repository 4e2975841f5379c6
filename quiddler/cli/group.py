"""The ``quiddler`` group and its table of commands.

Each command lives in a module of its own and is imported only when it runs
or when ``--help`` lists it, so that ``quiddler solve`` loads the solver
and nothing of the game, the terminal screen or numba.  Adding a command is
one module and one line in :data:`COMMANDS`.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from .errors import CONTEXT_SETTINGS, OneLineErrors

__all__ = ["COMMANDS", "QuiddlerGroup", "main"]

#: Command name -> ``"module:attribute"`` of its click command.
COMMANDS = {
    "check": "quiddler.cli.solve:check",
    "hint": "quiddler.cli.hint:hint",
    "odds": "quiddler.cli.odds:odds",
    "play": "quiddler.cli.play:play",
    "review": "quiddler.cli.review:review_command",
    "serve": "quiddler.cli.serve:serve",
    "simulate": "quiddler.cli.simulate:simulate",
    "site": "quiddler.cli.site:site",
    "solve": "quiddler.cli.solve:solve",
    "words": "quiddler.cli.solve:words",
}


class QuiddlerGroup(OneLineErrors, click.Group):
    """The ``quiddler`` group: one-line errors, and commands imported lazily.

    ``lazy_commands`` maps a command name to ``"module:attribute"``; a command
    whose module does not exist is simply not offered.
    """

    def __init__(self, *args: Any, lazy_commands: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.lazy_commands:
            try:
                command = _import_command(self.lazy_commands[cmd_name])
            except KeyboardInterrupt:  # Ctrl-C while the command loads: say so (exit 130, as elsewhere)
                click.echo("interrupted while starting: nothing done", err=True)
                raise click.exceptions.Exit(130) from None
        return command


def _import_command(target: str) -> click.Command | None:
    """The command at ``"module:attribute"``, or None if the module is missing."""
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            return None
        raise  # the module exists but one of its own imports fails: show it
    command = getattr(module, attribute, None)
    return command if isinstance(command, click.Command) else None


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``, looked up only when asked (importlib.metadata is slow to import)."""
    if value and not ctx.resilient_parsing:
        from .. import __version__

        click.echo(f"quiddler {__version__}")
        ctx.exit()


@click.group(
    cls=QuiddlerGroup,
    lazy_commands=COMMANDS,
    context_settings=CONTEXT_SETTINGS,
    epilog="\b\nExample:\n  quiddler solve d,cl,o,g,a,b,er,in,n,y,s --discard",
)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and exit.")  # fmt: skip
def main() -> None:
    """Quiddler on the command line: solve hands, get hints, play, simulate, serve.

    Cards are written as their faces, separated by commas and/or spaces:
    single letters and the two-letter cards er, in, qu, th and cl.
    """
    # A compile starting, a cache that cannot be written: one line each on
    # stderr.  A solve's notices all come from the solver and the word list,
    # which import logging only to give one: a one-shot solve need not
    # import it (a few ms of its start).  Other commands log through logging.
    if click.get_current_context().invoked_subcommand in _SOLVER_NOTICES_ONLY:
        from ..notices import show_notices_later

        show_notices_later()
    else:
        from ..solver import show_notices

        show_notices()


#: The commands whose only notices are the solver's and the word list's.
_SOLVER_NOTICES_ONLY = frozenset({"solve", "check"})
