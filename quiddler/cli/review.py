"""``quiddler review``: every decision of a game against the evaluator's best.

Reading the record and printing only; the review is
:func:`quiddler.game.reviews.review`.  RECORD is any game record file: a
``play --save`` file, the browser game's downloaded record (one JSON
object each), or a ``simulate --log`` file (one record per line, ``--game``
picks one).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..errors import shown
from ..files import loads_json, open_regular
from ..game.errors import GameRecordError
from ..game.judging import LEVELS
from ..game.reviews import MAX_RECORD_BYTES, GameReview, review
from ..wordlist import WordList
from .errors import InputError, OneLineErrors
from .params import json_option, progress_option, wordlist_option

__all__ = ["review_command"]

_EPILOG = """\b
Examples:
  quiddler review game.json                  # the person's seat of a play --save file
  quiddler review games.jsonl --game 3 --all # game 3 (from 0) of a simulate --log file, every seat
  quiddler review game.json --seat 1 --level master --workers 2
  quiddler review game.json --json"""


def read_records(path: str, game: int | None) -> dict[str, Any]:
    """The record in the file at ``path``: the file's one JSON object, or
    line ``game`` (from 0; the first by default) of a file of one record per
    line.  A log is read line by line (it may hold many thousands of games);
    no record may be larger than :data:`MAX_RECORD_BYTES`."""
    try:
        with os.fdopen(open_regular(path, os.O_RDONLY), "rb") as stream:
            first = stream.readline(MAX_RECORD_BYTES + 1)
            second = _next_record_line(stream)
            if second is None or not _is_object(first):  # one record, maybe spread over lines
                if game not in (None, 0):
                    raise InputError(f"--game {game}: {_named(path)} holds one game (game 0)")
                text = first + (second or b"") + stream.read(MAX_RECORD_BYTES + 1)
                return _parse(text, path, "")
            index = 0 if game is None else game
            count = 0
            for count, line in enumerate(_lines_from(first, second, stream), 1):
                if count - 1 == index:
                    return _parse(line, path, f"game {index} of ")
            raise InputError(f"--game {index}: {_named(path)} holds {count} games (0 to {count - 1})")
    except OSError as exc:
        raise InputError(f"cannot read {_named(path)}: {exc.strerror or exc}") from None


def _lines_from(first: bytes, second: bytes, stream: Any) -> Iterator[bytes]:
    """The records of a log, one line each: the two read already, then the rest."""
    yield first
    yield second
    while (line := _next_record_line(stream)) is not None:
        yield line


def _next_record_line(stream: Any) -> bytes | None:
    """The next line that is not blank, or None at the end of the file."""
    while True:
        line: bytes = stream.readline(MAX_RECORD_BYTES + 1)
        if not line:
            return None
        if line.strip():
            return line


def _is_object(line: bytes) -> bool:
    """Whether a line is a whole JSON object (a record of a log), not the start of one spread over lines."""
    try:
        return isinstance(loads_json(line.decode("utf-8")), dict)
    except (ValueError, UnicodeDecodeError):
        return False


def _named(path: str) -> str:
    """The file's name for a message: quoted, whole (its end names the file), printable."""
    return repr(click.format_filename(path))


def _parse(raw: bytes, path: str, where: str) -> dict[str, Any]:
    if len(raw) > MAX_RECORD_BYTES:
        raise InputError(f"{where}{_named(path)} is not a game record: over {MAX_RECORD_BYTES:,} bytes")
    try:
        data = loads_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"{where}{_named(path)} is not a game record: it is not text") from None
    except ValueError as exc:
        raise InputError(f"{where}{_named(path)} is not a game record: not JSON ({str(exc)[:120]})") from None
    if not isinstance(data, dict):
        raise InputError(f"{where}{_named(path)} is not a game record: its JSON is not an object")
    return data


def _default_seat(record: dict[str, Any]) -> int:
    """The person's seat of a saved game (the one seat labelled ``human``), else seat 0."""
    names = record.get("players")
    if isinstance(names, list) and names.count("human") == 1:
        return names.index("human")
    return 0


def _review_text(result: GameReview) -> str:
    marked = set(result.worst())
    rows = [("round", "turn", "kind", "move made", "best move", "loss", "label", "")]
    for i, d in enumerate(result.decisions):
        loss = f"{d.loss:.1f}" + (f"±{d.se:.1f}" if d.samples else "")
        rows.append((str(d.round + 1), str(d.turn + 1), d.kind, d.played_text,
                     "" if d.label == "best" else d.best_text, loss, d.label, "<- worst" if i in marked else ""))  # fmt: skip
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    right = {0, 1, 5}
    lines = [f"Review of seat {result.seat} ({result.player}) at level {result.level}; players: "
             + ", ".join(f"seat {s} {name}" for s, name in enumerate(result.players)), ""]  # fmt: skip
    for row in rows:
        cells = [cell.rjust(w) if k in right else cell.ljust(w) for k, (cell, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    lines += ["", "round  decisions   loss  accuracy  score"]
    for r in result.rounds:
        score = "" if r.score is None else str(r.score)
        lines.append(f"{r.round + 1:>5}  {r.decisions:>9}  {r.loss:>5.1f}  {r.accuracy:>8.1f}  {score:>5}")
    noise = f" ± {result.loss_se:.1f}" if any(d.samples for d in result.decisions) else ""
    lines += ["", (f"game: {len(result.decisions)} decisions, {result.loss_total:.1f}{noise} points lost "
                   f"({result.mean_loss:.2f} per decision), accuracy {result.accuracy:.1f}")]  # fmt: skip
    for i in result.worst():
        d = result.decisions[i]
        lines.append(f"worst: round {d.round + 1}, turn {d.turn + 1} ({d.kind}): {d.played_text} lost "
                     f"{d.loss:.1f} ({d.label}). {d.explanation}")  # fmt: skip
    return "\n".join(lines)


@contextmanager
def _progress_bar(show: bool, label: str) -> Iterator[Callable[[int, int], None] | None]:
    """tqdm on stderr counting the decisions judged, or nothing."""
    if not show:
        yield None
        return
    from tqdm import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        monitor_interval = 0  # no monitor thread: the worker processes can be forked

    with Bar(desc=label, unit="decision", file=sys.stderr, dynamic_ncols=True) as bar:

        def update(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        yield update


@click.command("review", cls=OneLineErrors, epilog=_EPILOG,
               short_help="Every decision of a game against the best move, and the points it cost.")  # fmt: skip
@click.argument("record", metavar="RECORD")
@click.option("--seat", type=click.IntRange(min=0), default=None, metavar="N",
              help="The seat to review, from 0 (default: the person's seat of a saved game, else 0).")  # fmt: skip
@click.option("--all", "all_seats", is_flag=True, help="Review every seat.")
@click.option("--level", type=click.Choice(LEVELS, case_sensitive=False), default="expert", show_default=True,
              help="The evaluator: expert (exact, fast) or master (simulated finishes where going out "
                   "or waiting is decided).")  # fmt: skip
@click.option("--game", type=click.IntRange(min=0), default=None, metavar="K",
              help="Which game of a simulate --log file, from 0 (default: the first).")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes to judge in (default: this process only).")  # fmt: skip
@wordlist_option
@json_option
@progress_option
def review_command(record: str, seat: int | None, all_seats: bool, level: str, game: int | None,
                   workers: int | None, wordlist: WordList | None, as_json: bool, progress: bool | None) -> None:  # fmt: skip
    """Review a game from its record: each decision of a seat (the draw,
    the discard or going out, a final turn's lay-down) against the best
    move the evaluator finds in the position the seat saw, with the points
    it cost, a label (best, good, inaccuracy, mistake, blunder), the loss
    per round and the accuracy (0-100).  Rounds and turns are counted from
    1 in the text, from 0 in the JSON; seats from 0 in both.
    """
    if seat is not None and all_seats:
        raise InputError("give --seat or --all, not both")
    data = read_records(record, game)
    level = level.lower()
    players = data.get("players")
    seats: list[int]
    if all_seats:
        if not isinstance(players, list) or not players:
            raise GameRecordError(f"not a game record: its players must be a list of names, not {shown(players)}")
        seats = list(range(len(players)))
    else:
        seats = [seat if seat is not None else _default_seat(data)]
    show = progress if progress is not None else sys.stderr.isatty()
    results = []
    for number in seats:
        with _progress_bar(show, f"seat {number}") as update:
            results.append(review(data, number, level=level, wordlist=wordlist, workers=workers, progress=update))
    if as_json:
        shapes = [r.to_dict() for r in results]
        click.echo(json.dumps(shapes if all_seats else shapes[0]))
    else:
        click.echo("\n\n".join(_review_text(r) for r in results))
