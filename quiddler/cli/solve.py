"""``quiddler solve``, ``words`` and ``check``: the solver on the command line.

Every command is a few lines over :func:`~quiddler.solve`,
:func:`~quiddler.find_words` and :class:`~quiddler.WordList`.  A single
command uses the pure-Python solver backend, so it never imports numba or
numpy; ``solve --batch`` uses the auto backend, which moves to the compiled
kernels once a batch is long enough to repay loading them (compiling them in
the background the first time, said in one line on stderr).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, TypeVar

import click

from ..cards import Card, format_hand
from ..cardtrie import MAX_WORD_CARDS, fewest_cards
from ..errors import QuiddlerError
from ..solver import MAX_BONUS, Play, Solution, Word, find_words, search_size
from ..solver import solve as solve_hand
from ..thresholds import COMPILED_SEARCH_STATES, PROGRESS_AFTER_SECONDS
from ..wordlist import WordList, default_wordlist
from .errors import InputError, OneLineErrors, silence_stdout
from .params import cards_argument, json_option, missing, wordlist_option

__all__ = ["check", "solve", "words"]


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


class _InputFile(click.File):
    """click's File, with a closed standard input (``<&-``) an input error."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "-" and "r" in self.mode and sys.stdin is None:
            self.fail("standard input is closed", param, ctx)
        return super().convert(value, param, ctx)


def _announce_indexing(wordlist: WordList | None) -> None:
    """Say so on a terminal when the word list must first be indexed (once
    per list and machine, a few seconds), rather than seem to hang."""
    words = wordlist if wordlist is not None else default_wordlist()
    if sys.stderr.isatty() and words.needs_indexing():
        click.echo(f"indexing the word list {words.name} (once, a few seconds)...", err=True)


@click.command(
    "solve", cls=OneLineErrors, epilog=_EPILOG_SOLVE,
    short_help="The best play for a hand, or for each hand in a file.",
)
@cards_argument()
@click.option("--discard", is_flag=True, help="One card must be discarded (a turn, after drawing).")
@click.option("--top", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
              help="Show the K best distinct plays.")  # fmt: skip
@wordlist_option
@click.option("--beat-longest", type=click.IntRange(min=0), metavar="N",
              help="Bonus if the play's longest word has more than N letters.")  # fmt: skip
@click.option("--beat-words", type=click.IntRange(min=0), metavar="N",
              help="Bonus if the play has more than N words.")  # fmt: skip
@click.option("--bonus", type=click.IntRange(min=0, max=MAX_BONUS), default=10, show_default=True,
              metavar="POINTS", help="Points each bonus target is worth.")  # fmt: skip
@click.option("--batch", type=_InputFile("r", errors="replace"), metavar="PATH",
              help="Solve one hand per line of PATH ('-' for stdin); print one JSON line per hand.")  # fmt: skip
@json_option
@click.pass_context
def solve(ctx: click.Context, /, cards: tuple[Card, ...] | None, batch: IO[str] | None, as_json: bool,
          **options: Any) -> None:  # fmt: skip
    """Find the highest-scoring way to lay down the CARDS as words.

    Shows each word with its cards and points, the cards left over (they
    count against you), the discard, the score, whether the play goes out,
    and the best play that goes out when the best play does not.
    """
    if batch is not None:
        if cards:
            raise click.UsageError("give either CARDS or --batch PATH, not both")
        _solve_batch(ctx, batch, options)
    elif not cards:
        raise click.UsageError(missing("CARDS", "quiddler solve qu,i,th,er"))
    else:
        _announce_indexing(options["wordlist"])
        backend = _backend_for(cards, options)
        solution = _with_progress(f"solving {len(cards)} card{'' if len(cards) == 1 else 's'}",
                                  lambda: solve_hand(cards, backend=backend, **options))  # fmt: skip
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
        for number, raw in enumerate(_bounded_lines(lines), 1):
            if number == 1:
                raw = raw.removeprefix("\ufeff")  # a byte-order mark (Windows editors) is not a card
            text = raw.partition("#")[0].strip()
            if not text:
                continue
            try:
                # auto: pure Python until numba repays loading (see AutoBackend)
                record = {"line": number, **solve_hand(text, backend="auto", **options).to_dict()}
            except (QuiddlerError, ValueError, MemoryError) as exc:
                message = str(exc) if not isinstance(exc, MemoryError) else "out of memory for this hand"
                record, failed = {"line": number, "error": message}, True
            sys.stdout.write(_json(record) + "\n")
            sys.stdout.flush()  # a process feeding hands on stdin sees each answer at once
    except KeyboardInterrupt:
        ctx.exit(130)
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly
        silence_stdout()
        ctx.exit(1)
    ctx.exit(1 if failed else 0)


#: The longest --batch line read: a hand is a few dozen characters, so a
#: longer line is not one (a link to /dev/zero is one endless line).
MAX_BATCH_LINE = 1 << 20


def _bounded_lines(lines: IO[str]) -> Iterator[str]:
    """The lines of ``lines``, none read past :data:`MAX_BATCH_LINE`
    characters: a longer one is an input error, not all of memory."""
    number = 0
    while True:
        line = lines.readline(MAX_BATCH_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_BATCH_LINE:
            raise InputError(f"--batch: line {number} is longer than {MAX_BATCH_LINE:,} characters, "
                             "so it is not a hand")  # fmt: skip
        yield line


@click.command("words", cls=OneLineErrors, epilog=_EPILOG_WORDS, short_help="Every word a hand can make.")
@cards_argument(example="quiddler words qu,e,e,n")
@click.option("--sort", "order", type=click.Choice(["points", "length"]), default="points", show_default=True,
              help="Most points first, or most letters first.")  # fmt: skip
@click.option("--min-letters", type=click.IntRange(min=0), default=0, metavar="N",
              help="Only words of at least N letters.")  # fmt: skip
@wordlist_option
@json_option
def words(cards: tuple[Card, ...], order: str, min_letters: int, wordlist: WordList | None,
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
    counts = f"{distinct} word{'' if distinct == 1 else 's'}, {len(found)} spelling{'' if len(found) == 1 else 's'}"
    lines = [f"{counts}, from {format_hand(cards)}"]
    click.echo("\n".join(lines + _word_rows(found)))


@click.command(
    "check", cls=OneLineErrors, epilog=_EPILOG_CHECK, short_help="Whether words are in the list, and how to spell them."
)
@click.argument("words", nargs=-1, metavar="WORD...")
@wordlist_option
@json_option
@click.pass_context
def check(
    ctx: click.Context, /, words: tuple[str, ...], wordlist: WordList | None, as_json: bool
) -> None:
    """Say whether each WORD is in the word list, and every way to spell it
    with cards, with its points.  Exits with code 1 if any WORD is not in the list."""
    if not words:
        raise click.UsageError(missing("WORD", "quiddler check queen"))
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
    return [f"{word}: in the list, {len(spellings)} spelling{'' if len(spellings) == 1 else 's'}", *_word_rows(spellings)]


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
    lines = [f"hand: {format_hand(solution.cards)} ({count} card{'' if count == 1 else 's'}{discard})"]
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

