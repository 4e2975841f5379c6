"""How every command fails: one line on stderr and an exit code, never a traceback.

Bad input of any kind (a library :class:`~quiddler.errors.QuiddlerError`, a
``ValueError``, or one of click's usage errors) prints ``Error: ...`` and
exits with code 2; output that cannot be written (``> /dev/full``) prints
one ``Error:`` line and exits 1; Ctrl-C exits 130 without ``Aborted!``.
Every command is a :class:`OneLineErrors`, so this holds also when a
command runs on its own, outside the ``quiddler`` group.
"""

from __future__ import annotations

import errno
import os
import re
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..errors import QuiddlerError

__all__ = ["CONTEXT_SETTINGS", "InputError", "OneLineErrors", "OutputError", "input_errors", "silence_stdout"]

#: Every command answers ``-h`` as well as ``--help``.
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}


#: A run of this many characters without a blank in an error line (a file
#: name of thousands of characters) is shown cut in the middle.
MAX_RUN = 200
_LONG_RUN = re.compile(rf"\S{{{MAX_RUN + 1},}}")


def shortened(message: str) -> str:
    """``message`` with each over-long run of non-blank characters cut in
    the middle (``'/tmp/xxxx...xxxx/game.json'``): the line stays one line
    to read, and the start and end of a name both show."""
    return _LONG_RUN.sub(lambda run: f"{run[0][:60]}...{run[0][-40:]}", message)


class InputError(click.ClickException):
    """Bad input: printed as the single line ``Error: ...``, exit code 2."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(shortened(message))


class OutputError(click.ClickException):
    """Output (or reading) failed, e.g. a full disk: one ``Error: ...`` line, exit code 1."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(shortened(message))


@contextmanager
def input_errors() -> Iterator[None]:
    """Turn library errors and click's usage errors into one-line input errors.

    (click would print its usage text and a help hint above a usage error.)
    """
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # `quiddler` alone prints the help
    except (click.UsageError, click.FileError) as exc:
        raise InputError(exc.format_message()) from None
    except (QuiddlerError, ValueError) as exc:
        raise InputError(str(exc)) from None


class OneLineErrors(click.Command):
    """A command (or, mixed in first, a group) whose bad input is one
    ``Error: ...`` line and exit 2, also when it runs on its own; Ctrl-C
    exits 130 and an output error is one line, exit 1.  It answers ``-h``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["context_settings"] = {**CONTEXT_SETTINGS, **(kwargs.get("context_settings") or {})}
        super().__init__(*args, **kwargs)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:  # fmt: skip
        with input_errors(), _warnings_as_lines():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; Ctrl-C anywhere exits 130 (no ``Aborted!``), and
        an output error (``> /dev/full``) is one ``Error:`` line, exit 1."""
        try:
            try:
                with input_errors(), _warnings_as_lines():
                    return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # here, not at exit, so that a failure is reported
        except KeyboardInterrupt:
            raise click.exceptions.Exit(130) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE or isinstance(exc, QuiddlerError):
                raise  # click stops quietly on a broken pipe (`quiddler ... | head`)
            silence_stdout()
            where = f": '{exc.filename}'" if exc.filename else ""
            raise OutputError(f"input/output error: {exc.strerror or exc}{where}") from None


@contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """Library warnings (a word list with unplayable words) as one
    ``warning: ...`` line on stderr, not Python's two-line format."""

    def show(message: Warning | str, category: type[Warning], *_: Any, **__: Any) -> None:
        click.echo(f"warning: {message}", err=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (tests): nothing to silence
