"""The ``quiddler`` command line: parsing and printing over the library.

Every command is a few lines over :func:`~quiddler.solve`,
:func:`~quiddler.find_words` and :class:`~quiddler.WordList`.  A single
command uses the pure-Python solver backend, so it never imports numba or
numpy; ``solve --batch`` uses the auto backend, which moves to the compiled
kernels once a batch is long enough to repay loading them (compiling them in
the background the first time, said in one line on stderr).  Bad input of
any kind prints one line, ``Error: ...``, on stderr and exits with code 2.
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, TypeVar

import click

from .cards import Card, format_hand, parse_hand
from .cardtrie import MAX_WORD_CARDS, fewest_cards
from .errors import QuiddlerError
from .solver import Play, Solution, Word, find_words, solve
from .solver._backends import show_notices
from .solver.core import MAX_BONUS, search_size
from .wordlist import WordList, default_wordlist, load_wordlist

__all__ = ["InputError", "OneLineErrors", "QuiddlerGroup", "input_errors", "main"]

F = TypeVar("F", bound=Callable[..., Any])

#: Commands that live elsewhere, imported only when run or listed in --help.
LAZY_COMMANDS = {
    "hint": "quiddler.game.hint_cli:hint_command",
    "odds": "quiddler.odds_cli:odds",
    "play": "quiddler.play.cli:play",
    "simulate": "quiddler.game.cli:simulate",
    "serve": "quiddler.cli_serve:serve",  # serve: registered here until the cli/ package lands
}

#: A single solve whose search may visit more states than this (see
#: :func:`quiddler.solver.core.search_size`) runs on the compiled backend:
#: the pure-Python one takes about a second there, what loading numba costs.
#: A ``--top`` search is far slower per state (measured: 0.2 s for 10
#: distinct cards, 3 s for 12), so it moves at a 256th of that.
COMPILED_SEARCH_STATES = 1 << 18
#: Seconds of work after which a terminal shows a progress line.
PROGRESS_AFTER_SECONDS = 1.0

_EPILOG_SOLVE = """\b
Examples:
  quiddler solve d,cl,o,g,a,b,er,in,n,y,s --discard
  quiddler solve qu i th er a --top 3 --json
  quiddler solve --batch hands.txt --discard > plays.jsonl"""
_EPILOG_WORDS = """\b
Examples:
  quiddler words qu,e,e,n
  quiddler words d,cl,o,g,a,b,er --sort length --min-letters 5"""
_EPILOG_CHECK = """\b
Examples:
  quiddler check queen quee
  quiddler check --wordlist my-words.txt thin"""


def _json(data: Any) -> str:
    """One line of JSON (json is imported only when asked for: start-up time)."""
    import json

    return json.dumps(data)


class InputError(click.ClickException):
    """Bad input: printed as the single line ``Error: ...``, exit code 2."""

    exit_code = 2


class OutputError(click.ClickException):
    """Output (or reading) failed, e.g. a full disk: one ``Error: ...`` line, exit code 1."""

    exit_code = 1


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
    exits 130 and an output error is one line, exit 1."""

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
            _silence_stdout()
            where = f": '{exc.filename}'" if exc.filename else ""
            raise OutputError(f"input/output error: {exc.strerror or exc}{where}") from None


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
            command = _import_command(self.lazy_commands[cmd_name])
        return command


@contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """Library warnings (a word list with unplayable words) as one
    ``warning: ...`` line on stderr, not Python's two-line format."""

    def show(message: Warning | str, category: type[Warning], *_: Any, **__: Any) -> None:
        click.echo(f"warning: {message}", err=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


class _InputFile(click.File):
    """click's File, with a closed standard input (``<&-``) an input error."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "-" and "r" in self.mode and sys.stdin is None:
            self.fail("standard input is closed", param, ctx)
        return super().convert(value, param, ctx)


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


def _parse_cards(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[Card, ...] | None:
    """CARDS such as ``qu,i,th,er``; several arguments make one hand: ``qu,i th er``."""
    if not values:
        return None
    try:
        return parse_hand(" ".join(values))
    except QuiddlerError as exc:
        raise click.BadParameter(str(exc), ctx, param, param_hint="CARDS") from None


def _announce_indexing(wordlist: WordList | None) -> None:
    """Say so on a terminal when the word list must first be indexed (once
    per list and machine, a few seconds), rather than seem to hang."""
    words = wordlist if wordlist is not None else default_wordlist()
    if sys.stderr.isatty() and words.needs_indexing():
        click.echo(f"indexing the word list {words.name} (once, a few seconds)...", err=True)


def _load_wordlist(ctx: click.Context, param: click.Parameter, path: str | None) -> WordList | None:
    """The --wordlist file, loaded and checked."""
    if path is None:
        return None
    try:
        return load_wordlist(path)
    except QuiddlerError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


def _cards_argument(required: bool) -> Callable[[F], F]:
    metavar = "CARDS..." if required else "[CARDS...]"
    return click.argument("cards", nargs=-1, required=required, callback=_parse_cards, metavar=metavar)


_wordlist_option = click.option(
    "--wordlist", type=click.Path(), callback=_load_wordlist,
    help="Word list file, one word per line (default: ENABLE, shipped with quiddler).",
)  # fmt: skip
_json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print JSON (see docs/json.md) instead of text."
)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``, looked up only when asked (importlib.metadata is slow to import)."""
    if value and not ctx.resilient_parsing:
        from . import __version__

        click.echo(f"quiddler {__version__}")
        ctx.exit()


@click.group(
    cls=QuiddlerGroup,
    lazy_commands=LAZY_COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="\b\nExample:\n  quiddler solve d,cl,o,g,a,b,er,in,n,y,s --discard",
)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and exit.")  # fmt: skip
def main() -> None:
    """Solve Quiddler hands: the best play, going out, every word a hand makes.

    Cards are written as their faces, separated by commas and/or spaces:
    single letters and the two-letter cards er, in, qu, th and cl.
    """
    show_notices()  # a compile starting, a cache that cannot be written: one line each on stderr


@main.command(
    "solve", epilog=_EPILOG_SOLVE, short_help="The best play for a hand, or for each hand in a file."
)
@_cards_argument(required=False)
@click.option("--discard", is_flag=True, help="One card must be discarded (a turn, after drawing).")
@click.option("--top", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
              help="Show the K best distinct plays.")  # fmt: skip
@_wordlist_option
@click.option("--beat-longest", type=click.IntRange(min=0), metavar="N",
              help="Bonus if the play's longest word has more than N letters.")  # fmt: skip
@click.option("--beat-words", type=click.IntRange(min=0), metavar="N",
              help="Bonus if the play has more than N words.")  # fmt: skip
@click.option("--bonus", type=click.IntRange(min=0, max=MAX_BONUS), default=10, show_default=True,
              metavar="POINTS", help="Points each bonus target is worth.")  # fmt: skip
@click.option("--batch", type=_InputFile("r", errors="replace"), metavar="FILE",
              help="Solve one hand per line of FILE ('-' for stdin); print one JSON line per hand.")  # fmt: skip
@_json_option
@click.pass_context
def solve_command(ctx: click.Context, /, cards: tuple[Card, ...] | None, batch: IO[str] | None, as_json: bool,
                  **options: Any) -> None:  # fmt: skip
    """Find the highest-scoring way to lay down the CARDS as words.

    Shows each word with its cards and points, the cards left over (they
    count against you), the discard, the score, whether the play goes out,
    and the best play that goes out when the best play does not.
    """
    if batch is not None:
        if cards:
            raise click.UsageError("give either CARDS or --batch FILE, not both")
        _solve_batch(ctx, batch, options)
    elif not cards:
        raise click.UsageError("missing CARDS (for example: quiddler solve qu,i,th,er)")
    else:
        _announce_indexing(options["wordlist"])
        backend = _backend_for(cards, options)
        solution = _with_progress(f"solving {len(cards)} cards", lambda: solve(cards, backend=backend, **options))
        click.echo(_json(solution.to_dict()) if as_json else _solution_text(solution))


def _backend_for(cards: Sequence[Card], options: dict[str, Any]) -> str:
    """The pure-Python backend for a hand it solves in well under a second
    (no numba import: a few ms in all), the compiled one for a big search."""
    size = search_size(cards, discard=options["discard"], beat_longest=options["beat_longest"],
                       beat_words=options["beat_words"])  # fmt: skip
    if options["top"] > 1:
        size *= 256  # the top-K search visits far more than the best play's
    if size > COMPILED_SEARCH_STATES and importlib.util.find_spec("numba") is not None:
        return "numba"  # not "auto": that starts in pure Python, and this one solve is the whole run
    return "python"


R = TypeVar("R")


def _with_progress(label: str, work: Callable[[], R]) -> R:
    """Run ``work`` in a worker thread and wait for it.  The main thread
    stays free, so Ctrl-C stops even a long compiled search at once (the
    kernels release the GIL), and on a terminal it shows ``label`` with the
    seconds so far once the work has taken more than a second."""
    result: list[R] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # noqa: BLE001 (re-raised in the main thread)
            failure.append(exc)

    worker = threading.Thread(target=run, name="quiddler-solve", daemon=True)
    started = time.monotonic()
    worker.start()
    tty = sys.stderr.isatty()
    last = ""  # the progress line on screen, if any
    try:
        while worker.is_alive():
            worker.join(0.25)
            elapsed = time.monotonic() - started
            line = f"\r{label}... {elapsed:.0f} s (Ctrl-C stops)"
            if tty and worker.is_alive() and elapsed >= PROGRESS_AFTER_SECONDS and line != last:
                sys.stderr.write(line)
                sys.stderr.flush()
                last = line
    finally:
        if last:
            sys.stderr.write("\r\033[K")  # clear the progress line
            sys.stderr.flush()
    if failure:
        raise failure[0]
    return result[0]


def _solve_batch(ctx: click.Context, lines: IO[str], options: dict[str, Any]) -> None:
    """One JSON line out per hand in; a bad hand gives ``{"line": N, "error": ...}``."""
    failed = False
    try:
        if options["wordlist"] is None:
            options["wordlist"] = default_wordlist()  # load it once, outside the per-line timing
        _announce_indexing(options["wordlist"])
        for number, raw in enumerate(lines, 1):
            if number == 1:
                raw = raw.removeprefix("\ufeff")  # a byte-order mark (Windows editors) is not a card
            text = raw.partition("#")[0].strip()
            if not text:
                continue
            try:
                # auto: pure Python until numba repays loading (see AutoBackend)
                record = {"line": number, **solve(text, backend="auto", **options).to_dict()}
            except (QuiddlerError, ValueError, MemoryError) as exc:
                message = str(exc) if not isinstance(exc, MemoryError) else "out of memory for this hand"
                record, failed = {"line": number, "error": message}, True
            sys.stdout.write(_json(record) + "\n")
            sys.stdout.flush()  # a process feeding hands on stdin sees each answer at once
    except KeyboardInterrupt:
        ctx.exit(130)
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly
        _silence_stdout()
        ctx.exit(1)
    ctx.exit(1 if failed else 0)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (tests): nothing to silence


@main.command("words", epilog=_EPILOG_WORDS, short_help="Every word a hand can make.")
@_cards_argument(required=True)
@click.option("--sort", "order", type=click.Choice(["points", "length"]), default="points", show_default=True,
              help="Most points first, or most letters first.")  # fmt: skip
@click.option("--min-letters", type=click.IntRange(min=0), default=0, metavar="N",
              help="Only words of at least N letters.")  # fmt: skip
@_wordlist_option
@_json_option
def words_command(cards: tuple[Card, ...], order: str, min_letters: int, wordlist: WordList | None,
                  as_json: bool) -> None:  # fmt: skip
    """List every word the CARDS can make, once per way to spell it with them."""
    _announce_indexing(wordlist)
    found = [w for w in find_words(cards, wordlist=wordlist, backend="python") if w.letters >= min_letters]
    if order == "length":
        found.sort(key=lambda w: -w.letters)  # stable: ties stay by points
    if as_json:
        words = [{**w.to_dict(), "letters": w.letters} for w in found]
        click.echo(_json({"cards": [c.face for c in cards], "words": words}))
        return
    distinct = len({w.text for w in found})
    lines = [f"{distinct} words, {len(found)} spellings, from {format_hand(cards)}"]
    click.echo("\n".join(lines + _word_rows(found)))


@main.command(
    "check", epilog=_EPILOG_CHECK, short_help="Whether words are in the list, and how to spell them."
)
@click.argument("words", nargs=-1, required=True, metavar="WORD...")
@_wordlist_option
@_json_option
@click.pass_context
def check_command(
    ctx: click.Context, /, words: tuple[str, ...], wordlist: WordList | None, as_json: bool
) -> None:
    """Say whether each WORD is in the word list, and every way to spell it
    with cards, with its points.  Exits with code 1 if any WORD is not in the list."""
    if any(not word.strip() for word in words):
        raise click.BadParameter("empty word", ctx, param_hint="WORD")
    wordlist = wordlist if wordlist is not None else default_wordlist()
    checked = [
        (word, word in wordlist, [Word(word, cards) for cards in wordlist.spellings(word)])
        for word in (w.strip().lower() for w in words)
    ]
    if as_json:
        entries = [
            {"word": word, "in_list": listed, "spellings": [w.to_dict() for w in spellings]}
            for word, listed, spellings in checked
        ]
        click.echo(_json({"words": entries}))
    else:
        click.echo("\n".join(line for entry in checked for line in _check_lines(*entry)))
    ctx.exit(0 if all(listed for _, listed, _ in checked) else 1)


# -- text output ---------------------------------------------------------------


def _word_rows(words: Sequence[Word]) -> list[str]:
    """Aligned rows: word, its cards, its points."""
    text_width = max((len(w.text) for w in words), default=0)
    cards_width = max((len(format_hand(w.cards)) for w in words), default=0)
    points_width = max((len(str(w.points)) for w in words), default=0)
    return [
        f"  {w.text:<{text_width}}  {format_hand(w.cards):<{cards_width}}  {w.points:>{points_width}}"
        for w in words
    ]


def _check_lines(word: str, listed: bool, spellings: Sequence[Word]) -> list[str]:
    if not listed:
        return [f"{word}: not in the list"]
    if not spellings:
        if fewest_cards(word) > MAX_WORD_CARDS:
            return [f"{word}: in the list, but needs more than {MAX_WORD_CARDS} cards: can never be played"]
        return [f"{word}: in the list, but no spelling uses two or more cards"]
    plural = "s" if len(spellings) > 1 else ""
    return [f"{word}: in the list, {len(spellings)} spelling{plural}", *_word_rows(spellings)]


def _play_lines(title: str, play: Play, discard_required: bool) -> list[str]:
    lines = [f"{title}:"] + (_word_rows(play.words) or ["  no words"])
    if play.unused:
        lines.append(f"  unused: {format_hand(play.unused)} (-{sum(c.points for c in play.unused)})")
    else:
        lines.append("  unused: none")
    if discard_required:
        lines.append(f"  discard: {play.discard}")
    bonus = f" including {play.bonus} bonus" if play.bonus else ""
    lines.append(f"  score: {play.score}{bonus}, {'goes out' if play.goes_out else 'does not go out'}")
    return lines


def _solution_text(solution: Solution) -> str:
    count = len(solution.cards)
    discard = ", discard one" if solution.discard_required else ""
    lines = [f"hand: {format_hand(solution.cards)} ({count} card{'s' if count != 1 else ''}{discard})"]
    if len(solution.plays) == 1:
        lines += ["", *_play_lines("best play", solution.best, solution.discard_required)]
    else:
        for rank, play in enumerate(solution.plays, 1):
            lines += ["", *_play_lines(f"play {rank}", play, solution.discard_required)]
    if solution.best_go_out is None:
        lines += ["", "cannot go out"]
    elif solution.best_go_out not in solution.plays:
        lines += [
            "",
            *_play_lines("best play that goes out", solution.best_go_out, solution.discard_required),
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    main(prog_name="quiddler")
