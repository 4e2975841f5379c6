"""Saved games: the engine's JSON game record, written and resumed.

A save is exactly :func:`~quiddler.game.record.game_record` with the seats
labelled ``"human"`` (the person) and the computer players' names,
so it replays with :func:`~quiddler.game.record.replay` like any record and
resuming rebuilds the very same game: same seed, hence the same deck order
in every round, and the same opponents.

A save file is named by the person and may be anything (see
:mod:`quiddler.files`): only a regular file of sane size is read; a write
goes to a temporary file renamed over the save, so a save is never half
written (a full disk leaves the previous one) and a symbolic link is
followed, never replaced.  A file that is not a save is never overwritten,
nor is an unfinished game: a game holds its save file's lock
(:func:`hold_save`) from before its first move to its end, so a second game
naming the same file is refused at its start.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import QuiddlerError, shown
from ..files import (
    FileInUseError,
    FileLock,
    FileRefusedError,
    check_writable,
    loads_json,
    read_text,
    write_atomic,
)
from ..game.engine import Game
from ..game.errors import GameRecordError
from ..game.players import player_names
from ..game.record import FORMAT, game_record, replay
from ..wordlist import WordList, default_wordlist, load_wordlist

__all__ = ["HUMAN", "MAX_SAVE_BYTES", "SaveError", "check_resumable", "check_save_target", "hold_save", "load_game", "same_file",
           "save_game"]  # fmt: skip

_FORMAT_FAMILY = FORMAT.partition("/")[0] + "/"  # "quiddler-game/": which versions replay() takes is its call

#: The seat label of the person in a saved game.
HUMAN = "human"

#: The largest save file read: a game's record is tens of kilobytes, so
#: anything near this is not a save (or is a link to /dev/zero).
MAX_SAVE_BYTES = 32 << 20


class SaveError(QuiddlerError, ValueError):
    """A save file cannot be read, resumed or written; the message names the file."""


#: The save files whose lock this process holds, by lock file: writing one
#: needs no lock of its own (a second flock from this process would fail).
_held: dict[Path, FileLock] = {}


def _lock_key(path: Path) -> Path:
    return FileLock(path).lock_path


@contextmanager
def hold_save(path: Path, *, resumed: bool = False) -> Iterator[None]:
    """Hold the lock of the save file ``path`` while the context is open,
    once it is checked that the game can be saved there: another game
    saving to the same file, now or while this one goes on, is refused
    with :class:`SaveError`.  Unless the game is ``resumed`` from ``path``
    (its unfinished game is this one), the file must also be one
    :func:`check_save_target` lets a game write over, checked under the
    lock."""
    _check_place(path)
    lock = FileLock(path)
    try:
        lock.acquire()
    except FileInUseError:
        raise SaveError(_in_use(path)) from None
    except FileRefusedError as exc:
        raise SaveError(f"cannot save the game to {_named(path)}: {_reason(exc, path)}") from None
    _held[lock.lock_path] = lock
    try:
        if not resumed:
            check_save_target(path)
        yield
    finally:
        del _held[lock.lock_path]
        lock.release()


def _in_use(path: Path) -> str:
    return f"cannot save the game to {_named(path)}: another game is saving to it (finish that one, or choose another file)"


def save_game(path: Path, game: Game, labels: Sequence[str]) -> None:
    """Write ``game`` to ``path`` as its JSON record, atomically: a write
    that fails part-way leaves the previous save as it was.  Unless this
    process holds the file (:func:`hold_save`), its lock is taken for the
    write, so a game that holds it elsewhere is never written over."""
    text = json.dumps(game_record(game, labels), separators=(",", ":")) + "\n"
    try:
        if _lock_key(path) in _held:
            write_atomic(path, text)
        else:
            with FileLock(path):
                write_atomic(path, text)
    except FileInUseError:
        raise SaveError(_in_use(path)) from None
    except FileRefusedError as exc:
        raise SaveError(f"cannot save the game to {_named(path)}: {_reason(exc, path)}") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise SaveError(f"cannot save the game to {_named(path)}: {getattr(exc, 'strerror', None) or exc}") from None


def _named(path: Path) -> str:
    """The path quoted for a message: as typed, or escaped and cut when it
    holds control characters or is absurdly long (a name typed at a prompt)."""
    text = str(path)
    return f"'{text}'" if len(text) <= 200 and text.isprintable() else shown(text, 120)


def _reason(exc: OSError, path: Path) -> str:
    """``exc``'s message without a repeat of the path."""
    message = str(exc)
    for prefix in (f"cannot write '{path}': ", f"cannot lock '{path}': "):
        message = message.removeprefix(prefix)
    if message.startswith(f"'{path}' is "):
        message = "it " + message.removeprefix(f"'{path}' ")
    return message.replace(f"'{path}'", _named(path))


def _read_record(path: Path) -> dict[str, Any]:
    try:
        text = read_text(path, limit=MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise SaveError(f"no saved game at {_named(path)}") from None
    except FileRefusedError as exc:
        raise SaveError(f"cannot read {_named(path)}: {_reason(exc, path)}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{_named(path)} is not a saved game: not UTF-8 text") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        raise SaveError(f"cannot read {_named(path)}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        record = loads_json(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{_named(path)} is not a saved game: not JSON ({exc.msg}, line {exc.lineno})") from None
    except ValueError as exc:  # nested too deeply, a number too long
        raise SaveError(f"{_named(path)} is not a saved game: {exc}") from None
    if not isinstance(record, dict) or not str(record.get("format")).startswith(_FORMAT_FAMILY):
        raise SaveError(f"{_named(path)} is not a saved game: not a quiddler game record")
    return record


def _check_place(path: Path) -> None:
    """Refuse a save file that can never be written: not a regular file (a
    directory, a FIFO, a device, a loop of links), or in a folder that is
    missing or in which no file can be made."""
    try:
        check_writable(path)
    except FileRefusedError as exc:
        raise SaveError(f"cannot save the game to {_named(path)}: {_reason(exc, path)}") from None
    except (OSError, ValueError) as exc:  # too long a name, a NUL byte in it
        raise SaveError(f"cannot save the game to {_named(path)}: {getattr(exc, 'strerror', None) or exc}") from None


def check_save_target(path: Path) -> None:
    """Refuse, before a game starts, a save that cannot happen (see
    :func:`hold_save`) or would overwrite what it should not: another
    program's file, an unfinished game someone may resume, or the file
    another game is saving to."""
    _check_place(path)
    if _lock_key(path) not in _held:
        try:
            with FileLock(path):
                pass
        except FileInUseError:
            raise SaveError(_in_use(path)) from None
        except FileRefusedError as exc:
            raise SaveError(f"cannot save the game to {_named(path)}: {_reason(exc, path)}") from None
    if not os.path.exists(path):
        return  # a new file (or a link to one not made yet)
    try:
        record = _read_record(path)
    except SaveError:
        raise SaveError(f"{_named(path)} exists and is not a saved game: choose another file") from None
    if not record.get("finished"):
        raise SaveError(f"{_named(path)} holds an unfinished game: continue it with --resume {_named(path)}, "
                        "or save to another file")  # fmt: skip


def check_resumable(path: Path) -> None:
    """Refuse at once what cannot be a save to resume (a FIFO, a device, a
    huge file, not a game record), before anything is made beside it."""
    _read_record(path)


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file once links are followed (also
    for a file not made yet, and for a loop of links, which names none)."""
    return os.path.realpath(a) == os.path.realpath(b)


def _labels(record: dict[str, Any], path: Path) -> tuple[str, ...]:
    labels = record.get("players")
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        raise SaveError(f"{_named(path)} is not a saved game: bad 'players' field")
    if labels.count(HUMAN) != 1:
        raise SaveError(f"{_named(path)} is a game record, but not of a game played with quiddler play "
                        f"(no seat labelled {HUMAN!r})")  # fmt: skip
    known = player_names()
    for label in labels:
        if label != HUMAN and label not in known:
            raise SaveError(f"{_named(path)}: unknown computer player {shown(label)} (known: {', '.join(known)})")
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


#: What a record that does not replay raises: replay() promises nothing else.
_REPLAY_ERRORS = (GameRecordError,)


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
    raise SaveError(f"cannot resume {_named(path)}: {problem}")
