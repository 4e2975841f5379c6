"""Saved games: the engine's JSON game record, written and resumed.

A save is exactly :func:`~quiddler.game.record.game_record` with the seats
labelled ``"human"`` (the person) and the computer players' names,
so it replays with :func:`~quiddler.game.record.replay` like any record and
resuming rebuilds the very same game: same seed, hence the same deck order
in every round, and the same opponents.  Writes go through a temporary file
and a rename, so a save is never half written; a file that is not a save is
never overwritten.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import QuiddlerError
from ..game.engine import Game
from ..game.errors import GameRecordError
from ..game.players import player_names
from ..game.record import FORMAT, game_record, replay
from ..wordlist import WordList, default_wordlist, load_wordlist

__all__ = ["HUMAN", "SaveError", "check_save_target", "load_game", "save_game"]

_FORMAT_FAMILY = FORMAT.partition("/")[0] + "/"  # "quiddler-game/": which versions replay() takes is its call

#: The seat label of the person in a saved game.
HUMAN = "human"


class SaveError(QuiddlerError, ValueError):
    """A save file cannot be read, resumed or written; the message names the file."""


def save_game(path: Path, game: Game, labels: Sequence[str]) -> None:
    """Write ``game`` to ``path`` as its JSON record, atomically."""
    text = json.dumps(game_record(game, labels), separators=(",", ":")) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, _file_mode(path))  # mkstemp makes it private; a save is an ordinary file
        os.replace(tmp, path)
    except OSError as exc:
        raise SaveError(f"cannot save the game to '{path}': {exc.strerror or exc}") from None


def _file_mode(path: Path) -> int:
    """The file's own permissions when it exists, else what the umask gives a new file."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _read_record(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"no saved game at '{path}'") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"cannot read '{path}': {getattr(exc, 'strerror', None) or exc}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"'{path}' is not a saved game: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(record, dict) or not str(record.get("format")).startswith(_FORMAT_FAMILY):
        raise SaveError(f"'{path}' is not a saved game: not a quiddler game record")
    return record


def check_save_target(path: Path) -> None:
    """Refuse to save over a file that is not a finished game of ours:
    another program's file, or an unfinished game someone may resume."""
    if path.is_dir():
        raise SaveError(f"cannot save the game to '{path}': it is a directory")
    if not path.exists():
        if not (path.parent if str(path.parent) else Path(".")).is_dir():
            raise SaveError(f"cannot save the game to '{path}': no folder '{path.parent}'")
        return
    try:
        record = _read_record(path)
    except SaveError:
        raise SaveError(f"'{path}' exists and is not a saved game: choose another file") from None
    if not record.get("finished"):
        raise SaveError(f"'{path}' holds an unfinished game: continue it with --resume '{path}', "
                        "or save to another file")  # fmt: skip


def _labels(record: dict[str, Any], path: Path) -> tuple[str, ...]:
    labels = record.get("players")
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        raise SaveError(f"'{path}' is not a saved game: bad 'players' field")
    if labels.count(HUMAN) != 1:
        raise SaveError(f"'{path}' is a game record, but not of a game played with quiddler play "
                        f"(no seat labelled {HUMAN!r})")  # fmt: skip
    known = player_names()
    for label in labels:
        if label != HUMAN and label not in known:
            raise SaveError(f"'{path}': unknown computer player {label!r} (known: {', '.join(known)})")
    return tuple(labels)


def _named_wordlist(record: dict[str, Any]) -> WordList | None:
    """The word list file the record names, if it is still there and loads."""
    rules = record.get("rules")
    name = rules.get("wordlist") if isinstance(rules, dict) else None
    if not isinstance(name, str) or name == default_wordlist().name:
        return None
    try:
        return load_wordlist(name)
    except QuiddlerError:
        return None


#: What a record that does not replay raises (replay() checks what it reads; a
#: record damaged in ways it does not foresee still fails with one of these).
_REPLAY_ERRORS = (GameRecordError, ValueError, TypeError, KeyError, AttributeError, IndexError)


def load_game(path: Path, wordlist: WordList | None = None) -> tuple[Game, tuple[str, ...]]:
    """The saved game at ``path``, replayed and checked, and its seat labels.

    Without ``wordlist`` the game replays with ENABLE or, failing that, with
    the list file the record names (when it is still there)."""
    record = _read_record(path)
    labels = _labels(record, path)
    try:
        return replay(record, wordlist), labels
    except _REPLAY_ERRORS as exc:
        problem = exc
    named = _named_wordlist(record) if wordlist is None else None
    if named is not None:
        try:
            return replay(record, named), labels
        except _REPLAY_ERRORS:
            pass
    raise SaveError(f"cannot resume '{path}': {problem}")
